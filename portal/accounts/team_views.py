"""Team pages: the teams a user is in, a team's members, systems and audit log, publishing."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from portal.errors import ApplicationError
from portal.models import System
from portal.models.teams import ROLE_RANK, Membership, Role, Team
from portal.results import services as results
from portal.systems import services as systems
from portal.teams import selectors, services
from portal.teams.selectors import SignedInRequest, Viewer

from . import services as accounts
from .forms import InviteForm, MemberForm, TeamCreateForm


def _team_for(user: Viewer, slug: str, *, role: str = Role.VIEWER) -> Team:
    """The team, when ``user`` holds ``role`` in it; a team they are not in does not exist for them."""
    team = selectors.team_named(name=slug)
    if team is None or not selectors.allows(user, team, Role.VIEWER):
        raise Http404("There is no such team.")
    if not selectors.allows(user, team, role):
        raise Http404(f"This needs the {role} role in {team.name}.")
    return team


def _sentence(message: str) -> str:
    """An error's message as the page's notice says it: a sentence."""
    return message[:1].upper() + message[1:].rstrip(".") + "."


@login_required
@require_GET
def team_list(request: SignedInRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("team").order_by("team__name")
    return render(request, "teams/list.html", {"memberships": memberships, "form": TeamCreateForm()})


@login_required
@require_POST
def team_create(request: SignedInRequest) -> HttpResponse:
    form = TeamCreateForm(request.POST)
    if not form.is_valid():
        messages.error(request, "A team needs a name.")
        return redirect("teams:list")
    try:
        team = services.team_create(name=form.cleaned_data["name"], creator=request.user)
    except ApplicationError as error:
        messages.error(request, _sentence(error.message))
        return redirect("teams:list")
    messages.success(request, f"Team {team.name} created; you are its admin.")
    return redirect("teams:detail", slug=team.slug)


@login_required
@require_GET
def team_detail(request: SignedInRequest, slug: str) -> HttpResponse:
    team = _team_for(request.user, slug)
    held = selectors.role_of(request.user, team)
    if held is None:  # left the team since the page was asked for
        raise Http404("There is no such team.")
    role = Role(held)
    manages = ROLE_RANK[role] >= ROLE_RANK[Role.MAINTAINER]
    context = {
        "team": team,
        "role": role,
        "members": selectors.team_members(team=team),
        "systems": System.objects.filter(team=team).order_by("name"),
        "manages": manages,
        "administers": role == Role.ADMIN,
        "events": selectors.team_events(team=team) if manages else [],
        "member_form": MemberForm(),
        "invite_form": InviteForm(),
        "invitations": accounts.pending_invitations(team=team) if role == Role.ADMIN else [],
        "roles": Role.choices,
    }
    return render(request, "teams/detail.html", context)


@login_required
@require_POST
def member_set(request: SignedInRequest, slug: str) -> HttpResponse:
    team = _team_for(request.user, slug, role=Role.ADMIN)
    form = MemberForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give a user name and a role.")
    else:
        try:
            services.member_set(team=team, actor=request.user, **form.cleaned_data)
            messages.success(request, f"{form.cleaned_data['username']} is {form.cleaned_data['role']} of {team.name}.")
        except ApplicationError as error:
            messages.error(request, error.message)
    return redirect("teams:detail", slug=team.slug)


@login_required
@require_POST
def member_invite(request: SignedInRequest, slug: str) -> HttpResponse:
    """An admin invites an email address with a role: the link goes by email, valid for a few days."""
    team = _team_for(request.user, slug, role=Role.ADMIN)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give an email address and a role.")
    else:
        site_url = f"{request.scheme}://{request.get_host()}"
        invitation = accounts.invitation_create(team=team, actor=request.user, site_url=site_url, **form.cleaned_data)
        messages.success(
            request,
            f"Invitation sent to {invitation.email} as {invitation.role}: "
            f"the link works once, until {invitation.expires_at:%Y-%m-%d %H:%M} UTC.",
        )
    return redirect("teams:detail", slug=team.slug)


@login_required
@require_POST
def member_remove(request: SignedInRequest, slug: str, membership_id: int) -> HttpResponse:
    team = _team_for(request.user, slug, role=Role.ADMIN)
    membership = get_object_or_404(Membership.objects.select_related("user", "team"), id=membership_id, team=team)
    try:
        services.member_remove(membership=membership, actor=request.user)
        messages.success(request, f"{membership.user.username} is no longer in {team.name}.")
    except ApplicationError as error:
        messages.error(request, error.message)
    return redirect("teams:detail", slug=team.slug)


def _managed_system(request: HttpRequest, system_id: int) -> tuple[System, bool]:
    """The system, when the user may read it (404 otherwise), and whether they maintain its team."""
    system = (
        selectors.visible(System.objects.all(), viewer=request.user).filter(id=system_id).select_related("team").first()
    )
    if system is None:
        raise Http404("There is no such system.")
    return system, selectors.allows(request.user, system.team, Role.MAINTAINER)


@login_required
@require_POST
def system_rename(request: SignedInRequest, system_id: int) -> HttpResponse:
    system, maintains = _managed_system(request, system_id)
    if not maintains:
        messages.error(request, "Only a maintainer of the system's team can rename it.")
        return redirect("pages:system", system_id=system.id)
    before = system.name
    try:
        renamed = systems.system_rename(system=system, name=request.POST.get("name", ""), actor=request.user)
        if renamed.name != before:
            messages.success(request, f"{before} is now named {renamed.name}.")
    except ApplicationError as error:
        messages.error(request, _sentence(error.message))
    return redirect("pages:system", system_id=system.id)


@login_required
@require_http_methods(["GET", "POST"])
def system_publish(request: SignedInRequest, system_id: int) -> HttpResponse:
    """Publish (``publish=1`` with ``confirmed=1``, sent from the page that shows what becomes public) or
    make private again (``publish=0``): maintainers of the system's team."""
    system, maintains = _managed_system(request, system_id)
    if not maintains:
        messages.error(request, "Only a maintainer of the system's team can publish it or make it private.")
        return redirect("pages:system", system_id=system.id)
    publish = request.POST.get("publish", "1") == "1"
    if request.method == "GET" or (publish and request.POST.get("confirmed") != "1"):
        preview = selectors.publication_preview(system=system)
        return render(request, "teams/publish.html", {"system": system, "preview": preview})
    try:
        results.system_publish(system=system, actor=request.user, published=publish)
        messages.success(
            request,
            f"{system.name} is {'published: everyone can read it' if publish else 'private to its team again'}.",
        )
    except ApplicationError as error:
        messages.error(request, error.message)
    return redirect("pages:system", system_id=system.id)
