"""Accounts: sign-up with a confirmed address, invitations into a team by email (accepted by that address only)."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.db import connection, transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from portal.models.teams import AuditEvent, Invitation, Membership, Role, Team
from portal.teams.services import TeamError, audit

from .forms import NewAccountForm


def _mail(*, to: str, template: str, context: dict) -> None:
    subject = render_to_string(f"accounts/{template}_subject.txt", context).strip()
    body = render_to_string(f"accounts/{template}_email.txt", context)
    send_mail(subject, body, None, [to])


SIGNUP_SALT = "portal.accounts.signup"


def address_has_account(*, email: str) -> bool:
    """Whether an account (active or not) uses the address, in any letter case."""
    return User.objects.filter(email__iexact=email.strip()).exists()


def signup_request(*, email: str, site_url: str) -> None:
    """Answer a sign-up by email only, so the page says nothing about who has an account: a link to
    create the account, or, when accounts use the address already, a note naming them to its owner.
    Either way one query and one message."""
    email = email.strip()
    accounts = list(User.objects.filter(email__iexact=email).order_by("id"))
    if accounts:
        sign_in, reset = site_url + reverse("login"), site_url + reverse("password_reset")
        _mail(to=email, template="signup_taken", context={"accounts": accounts, "sign_in": sign_in, "reset": reset})
        return
    token = signing.dumps(email, salt=SIGNUP_SALT)
    link = site_url + reverse("accounts:signup_complete", args=[token])
    _mail(to=email, template="signup", context={"link": link, "days": settings.PASSWORD_RESET_TIMEOUT // 86400})


def signup_address(token: str) -> str | None:
    """The address a sign-up link was mailed to, or None when the link is wrong or too old."""
    try:
        return signing.loads(token, salt=SIGNUP_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        return None


def signup_create(*, form: NewAccountForm, email: str) -> User | None:
    """The account of a confirmed sign-up, active at once; None when an account took the address first
    (two links of the same address followed at once make one account: a lock on the address)."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"signup {email.lower()}"])
        if address_has_account(email=email):
            return None
        user = form.save(commit=False)
        user.email = email
        user.save()
    return user


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_create(*, team: Team, email: str, role: str, actor: User, site_url: str) -> Invitation:
    """Invite ``email`` into ``team`` with ``role``: a link valid ``INVITATION_DAYS``, mailed, audited."""
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        team=team,
        email=email.strip(),
        role=Role(role),
        digest=_digest(token),
        invited_by=actor,
        expires_at=timezone.now() + timedelta(days=settings.INVITATION_DAYS),
    )
    link = site_url + reverse("accounts:invitation", args=[token])
    context = {"invitation": invitation, "link": link, "actor": actor, "days": settings.INVITATION_DAYS}
    _mail(to=invitation.email, template="invitation", context=context)
    audit(team=team, actor=actor, action=AuditEvent.Action.INVITE, subject=f"{invitation.email} as {role}")
    return invitation


INVITATION_REFUSED = (
    "This invitation was sent to another address than the one of your account: only the invited address can "
    "accept it. Sign out, then open the link again to sign in with the account of that address or create one."
)


def invitation_for(token: str) -> Invitation | None:
    """The invitation a link names, whether or not it can still be used."""
    return Invitation.objects.select_related("team").filter(digest=_digest(token)).first()


def invitation_problem(invitation: Invitation | None) -> str | None:
    """Why a link cannot be used, in a sentence, or None when it can."""
    if invitation is None:
        return "This invitation link is not known: ask the team's admin for a new one."
    if invitation.accepted_at is not None:
        return "This invitation has been used already: sign in, or ask the team's admin for a new one."
    if invitation.expires_at <= timezone.now():
        return "This invitation has expired: ask the team's admin for a new one."
    return None


def invitation_addressed_to(*, invitation: Invitation, user: User) -> bool:
    """Whether ``user``'s address is the invited one. An account's address is confirmed: it is set by
    the confirmation link of a sign-up or an invitation, or by the operator (admin, createsuperuser)."""
    return bool(user.email) and user.email.strip().lower() == invitation.email.strip().lower()


def invitation_refuse(*, invitation: Invitation, user: User) -> None:
    """Record, in the team's audit log, that an account of another address opened the invitation."""
    audit(
        team=invitation.team,
        actor=user,
        action=AuditEvent.Action.INVITE_REFUSE,
        subject=f"{invitation.email} opened by user {user.get_username()} ({user.email or 'no address'}): refused",
    )


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    """``user`` joins the team with the invited role; the link is used up (once, also when two requests race).
    Only the invited address's account may accept it."""
    if not invitation_addressed_to(invitation=invitation, user=user):
        raise TeamError(INVITATION_REFUSED)
    used = Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True, expires_at__gt=timezone.now())
    if not used.update(accepted_at=timezone.now(), accepted_by=user):
        raise TeamError(invitation_problem(Invitation.objects.get(pk=invitation.pk)) or "the invitation cannot be used")
    membership, created = Membership.objects.get_or_create(
        team=invitation.team, user=user, defaults={"role": invitation.role}
    )
    audit(
        team=invitation.team,
        actor=user,
        action=AuditEvent.Action.INVITE_ACCEPT,
        subject=f"{invitation.email} as user {user.get_username()}, {membership.role}",
    )
    return membership


def pending_invitations(*, team: Team) -> QuerySet[Invitation]:
    return Invitation.objects.filter(team=team, accepted_at__isnull=True, expires_at__gt=timezone.now())
