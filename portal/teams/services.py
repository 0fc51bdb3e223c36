"""Changing teams: members and their roles, the audit log."""

import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from portal.errors import ApplicationError
from portal.models.teams import AuditEvent, Membership, Role, Team

from .selectors import Viewer, team_named

logger = logging.getLogger(__name__)


class TeamError(ApplicationError):
    """A change that cannot be made, said in a sentence for the user."""


def audit(*, team: Team | None, actor: Viewer | None, action: str, subject: str) -> None:
    """Record what ``actor`` did (and log it); results without a team (the operator's) have no audit log."""
    audit_many(team=team, actor=actor, action=action, subjects=[subject])


def audit_many(*, team: Team | None, actor: Viewer | None, action: str, subjects: list[str]) -> None:
    """Record one event per subject in one statement (the files of one upload), and log them."""
    name = getattr(actor, "username", "") or ""
    for subject in subjects:
        logger.info("%s: %s %s %s", _team_text(team), name or "the operator", action, subject)
    if team is None or not subjects:
        return
    user = actor if isinstance(actor, User) and actor.pk else None
    AuditEvent.objects.bulk_create(
        AuditEvent(team=team, actor=user, actor_name=name, action=action, subject=subject[:300]) for subject in subjects
    )


def _team_text(team: Team | None) -> str:
    return f"team {team.slug}" if team is not None else "no team"


def team_get_or_create(*, name: str) -> Team:
    name = " ".join(name.split())
    if not name:
        raise TeamError("a team needs a name", field="name")
    found = team_named(name=name)
    if found is not None:
        return found
    return Team.objects.create(name=name, slug=_free_slug(name))


def _free_slug(name: str) -> str:
    slug = slugify(name)[:90] or "team"
    taken = set(Team.objects.filter(slug__startswith=slug).values_list("slug", flat=True))
    if slug not in taken:
        return slug
    return next(f"{slug}-{n}" for n in range(2, len(taken) + 3) if f"{slug}-{n}" not in taken)


SLUG_ATTEMPTS = 3


def team_create(*, name: str, creator: User) -> Team:
    """A new team with ``creator`` as its admin. A name taken (also a moment ago, by a request racing
    this one: the unique constraint decides) is refused; the creator never joins another's team."""
    name = " ".join(name.split())
    if not name:
        raise TeamError("a team needs a name")
    for _attempt in range(SLUG_ATTEMPTS):
        # Names are unique whatever their case (a slug is not a name here).
        if Team.objects.filter(name__iexact=name).exists():
            break
        try:
            with transaction.atomic():
                team = Team.objects.create(name=name, slug=_free_slug(name))
                member_set(team=team, username=creator.get_username(), role=Role.ADMIN, actor=creator)
            return team
        except IntegrityError:  # the name, or only the slug (another name), taken by a concurrent request
            continue
    raise TeamError(f"a team named {name!r} exists already; ask one of its admins to add you")


def _role(role: str) -> Role:
    try:
        return Role(role)
    except ValueError:
        raise TeamError(f"{role!r} is not a role; roles: {', '.join(Role.values)}") from None


@transaction.atomic
def member_set(*, team: Team, username: str, role: str, actor: Viewer | None = None) -> Membership:
    """Add ``username`` to ``team`` with ``role``, or change their role."""
    chosen = _role(role)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise TeamError(f"there is no user {username!r}")
    membership, created = Membership.objects.get_or_create(team=team, user=user, defaults={"role": chosen})
    if created:
        audit(team=team, actor=actor, action=AuditEvent.Action.MEMBER_ADD, subject=f"user {username} as {chosen.value}")
    elif membership.role != chosen:
        _keep_an_admin(team, leaving=membership, new_role=chosen)
        membership.role = chosen
        membership.save(update_fields=["role"])
        audit(
            team=team, actor=actor, action=AuditEvent.Action.MEMBER_ROLE, subject=f"user {username} to {chosen.value}"
        )
    return membership


@transaction.atomic
def member_remove(*, membership: Membership, actor: Viewer | None = None) -> None:
    _keep_an_admin(membership.team, leaving=membership, new_role=None)
    username = membership.user.username
    membership.delete()
    audit(team=membership.team, actor=actor, action=AuditEvent.Action.MEMBER_REMOVE, subject=f"user {username}")


def _keep_an_admin(team: Team, *, leaving: Membership, new_role: Role | None) -> None:
    """A team keeps at least one admin, or nobody could manage its members."""
    if leaving.role != Role.ADMIN or new_role == Role.ADMIN:
        return
    others = Membership.objects.select_for_update().filter(team=team, role=Role.ADMIN).exclude(pk=leaving.pk)
    if not others.exists():
        raise TeamError(f"{leaving.user.username} is the last admin of {team.name}; make another member admin first")
