"""Who may read and do what: the one place the visibility of private systems is decided.

A system is read by everyone once published; while private, by the members of its team (and
superusers). Everything hanging from a system (configurations, runs, points, uploads, tables)
follows it. A system a reader may not see does not exist for them: pages answer 404, never 403.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Case, CharField, F, Q, QuerySet, Value, When
from django.http import HttpRequest

from portal.models.teams import ROLE_RANK, AuditEvent, Membership, Role, Team

if TYPE_CHECKING:
    from portal.models import System

# The user a page, an export, an API answer or a command is read for: signed in or anonymous
# (``request.user``, or ``--as USERNAME`` for the commands).
Viewer: TypeAlias = User | AnonymousUser


class SignedInRequest(HttpRequest):
    """The request of a page behind ``login_required``: its user is signed in."""

    user: User


def _team_ids(user: User) -> QuerySet[Membership, Any]:
    """The ids of the teams ``user`` is a member of, as a subquery (no query of its own)."""
    return Membership.objects.filter(user_id=user.pk).values("team_id")


def sees_everything(user: Viewer) -> bool:
    return bool(getattr(user, "is_superuser", False) and user.is_active)


def systems_q(*, viewer: Viewer, prefix: str = "") -> Q:
    """The condition for the systems ``viewer`` may read, on a model ``prefix`` away from System
    (``"config__system__"`` for runs)."""
    if sees_everything(viewer):
        return Q()
    visible = Q(**{f"{prefix}published": True})
    if viewer.is_authenticated:
        visible |= Q(**{f"{prefix}team_id__in": _team_ids(viewer)})
    return visible


def visible(queryset: QuerySet, *, viewer: Viewer, prefix: str = "") -> QuerySet:
    """``queryset`` (of systems, or of rows ``prefix`` away from their system) cut to what ``viewer`` reads."""
    return queryset.filter(systems_q(viewer=viewer, prefix=prefix))


def uploads_q(*, viewer: Viewer) -> Q:
    """Uploads ``viewer`` may read: their own, their teams', and those whose results are published."""
    if sees_everything(viewer):
        return Q()
    readable = Q(system__published=True)
    if viewer.is_authenticated:
        readable |= Q(uploader_id=viewer.pk) | Q(team_id__in=_team_ids(viewer))
    return readable


def uploader_name(*, viewer: Viewer) -> Case:
    """An upload's uploader's user name as ``viewer`` may read it, as an annotation: shown to the
    members of the upload's team (and to the uploader and superusers), empty for everyone else."""
    shown = F("uploader__username")
    if sees_everything(viewer):
        return Case(default=shown, output_field=CharField())
    if not viewer.is_authenticated:
        return Case(default=Value(""), output_field=CharField())
    colleagues = Q(uploader_id=viewer.pk) | Q(team_id__in=_team_ids(viewer))
    return Case(When(colleagues, then=shown), default=Value(""), output_field=CharField())


def role_of(user: Viewer, team: Team | None) -> str | None:
    """``user``'s role in ``team``; superusers act as admins everywhere, with or without a team."""
    if sees_everything(user):
        return Role.ADMIN
    if team is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(team=team, user=user).values_list("role", flat=True).first()


def allows(user: Viewer, team: Team | None, role: str) -> bool:
    """Whether ``user`` holds ``role`` (or a higher one) in ``team``."""
    held = role_of(user, team)
    return held is not None and ROLE_RANK[Role(held)] >= ROLE_RANK[Role(role)]


def teams_of(user: Viewer, *, role: str = Role.VIEWER) -> QuerySet[Team]:
    """The teams where ``user`` holds at least ``role``, by name."""
    if not user.is_authenticated:
        return Team.objects.none()
    roles = [name for name, rank in ROLE_RANK.items() if rank >= ROLE_RANK[Role(role)]]
    return Team.objects.filter(memberships__user=user, memberships__role__in=roles).order_by("name")


def team_named(*, name: str, among: QuerySet[Team] | None = None) -> Team | None:
    """The team ``name`` names, among ``among`` (every team when None): by its name, case-insensitive with
    runs of spaces read as one ("Acme  lab" is "acme lab"), or by its slug. None when no team is named so.
    The command line, the API, the forms and the pages find a team by this one rule."""
    spoken = " ".join(name.split())
    if not spoken:
        return None
    teams = Team.objects.all() if among is None else among
    # A name before a slug, when one team is named what another's slug is.
    by_name = Case(When(name__iexact=spoken, then=Value(0)), default=Value(1))
    return teams.filter(Q(name__iexact=spoken) | Q(slug=spoken)).order_by(by_name, "name").first()


def team_members(*, team: Team) -> QuerySet[Membership]:
    return Membership.objects.filter(team=team).select_related("user").order_by("user__username")


def team_events(*, team: Team, limit: int = 100) -> QuerySet[AuditEvent]:
    """The team's audit log, newest first."""
    return AuditEvent.objects.filter(team=team).order_by("-at", "-id")[:limit]


PREVIEW_NAMES_SHOWN = 100


@dataclass(frozen=True)
class PublicationPreview:
    """What publishing a system makes readable by everyone: its runs and the originals they came from."""

    config_count: int
    run_count: int
    run_names: list[str]
    upload_count: int
    upload_names: list[str]


def publication_preview(*, system: "System") -> PublicationPreview:
    """The configurations, runs and uploaded originals of ``system``, names cut at ``PREVIEW_NAMES_SHOWN``."""
    from portal.models import Config, Run, Upload

    runs = Run.objects.filter(config__system=system)
    uploads = Upload.objects.filter(system=system)
    return PublicationPreview(
        config_count=Config.objects.filter(system=system).count(),
        run_count=runs.count(),
        run_names=list(runs.order_by("name", "id").values_list("name", flat=True)[:PREVIEW_NAMES_SHOWN]),
        upload_count=uploads.count(),
        upload_names=list(
            uploads.order_by("original_name", "id").values_list("original_name", flat=True)[:PREVIEW_NAMES_SHOWN]
        ),
    )
