"""Accounts: sign-up with a confirmed address, invitations into a team by email."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from portal.teams.models import AuditEvent, Invitation, Membership, Role, Team
from portal.teams.services import TeamError, audit

from .forms import SignUpForm


class AddressTokenGenerator(PasswordResetTokenGenerator):
    """A link that confirms an address: it names the account's state, so once the account is active
    (or its password changed) the link no longer works."""

    key_salt = "portal.accounts.AddressTokenGenerator"

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}{user.email}"


address_tokens = AddressTokenGenerator()


def _mail(*, to: str, template: str, context: dict) -> None:
    subject = render_to_string(f"accounts/{template}_subject.txt", context).strip()
    body = render_to_string(f"accounts/{template}_email.txt", context)
    send_mail(subject, body, None, [to])


def signup_create(*, form: SignUpForm, site_url: str) -> User:
    """The account of a sign-up form, inactive until its address is confirmed; the link is mailed."""
    user = form.save(commit=False)
    user.email = form.cleaned_data["email"]
    user.is_active = False
    user.save()
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    link = site_url + reverse("accounts:verify", args=[uid, address_tokens.make_token(user)])
    _mail(to=user.email, template="verify", context={"user": user, "link": link})
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


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    """``user`` joins the team with the invited role; the link is used up (once, also when two requests race)."""
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
