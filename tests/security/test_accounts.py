"""Accounts a lab runs itself: sign-up with a confirmed address, password reset and change, invitations
into a team by email (valid a few days, used once, audited). Mail goes to Django's test outbox."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from portal.models import AuditEvent, Invitation, Membership, Role, Team
from tests.security.test_teams import _signed_in, _user

pytestmark = pytest.mark.django_db

PASSWORD = "tape-library-93"


def _link(message) -> str:
    return re.search(r"http://testserver(/\S+)", message.body).group(1)


@pytest.fixture
def acme():
    return Team.objects.create(name="Acme storage lab", slug="acme")


def test_sign_up_confirms_the_address_before_the_account_exists(settings):
    settings.SIGNUP_OPEN = True
    client = Client()
    assert 'href="/accounts/signup/"' in client.get("/accounts/login/").content.decode()
    page = client.post("/accounts/signup/", {"email": "grace@lab.example"}).content.decode()
    assert "A message was sent to grace@lab.example." in page
    assert not get_user_model().objects.exists()
    [message] = mail.outbox
    assert message.to == ["grace@lab.example"] and message.subject == "Creating an ArrayBench account"

    link = _link(message)
    assert "The address grace@lab.example is confirmed." in client.get(link).content.decode()
    form = {"username": "grace", "password1": PASSWORD, "password2": PASSWORD}
    confirmed = client.post(link, form, follow=True)
    assert "Your address grace@lab.example is confirmed; you are signed in as grace." in confirmed.content.decode()
    user = get_user_model().objects.get(username="grace")
    assert (user.email, user.is_active) == ("grace@lab.example", True)
    # Used once: the address has its account now.
    again = Client().post(link, {"username": "grace2", "password1": PASSWORD, "password2": PASSWORD})
    assert again.status_code == 409 and "An account uses grace@lab.example already" in again.content.decode()
    assert Client().get(link[:-3] + "xyz/").status_code == 400
    assert get_user_model().objects.count() == 1


def _without_tokens(page: bytes) -> bytes:
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", page)


def test_sign_up_answers_a_taken_and_a_free_address_alike_and_mails_the_owner(settings):
    settings.SIGNUP_OPEN = True
    _user("ada", email="ada@lab.example")
    taken = Client().post("/accounts/signup/", {"email": "ADA@lab.example"})
    free = Client().post("/accounts/signup/", {"email": "bob@lab.example"})
    assert (taken.status_code, free.status_code) == (200, 200)
    assert _without_tokens(taken.content).replace(b"ADA@lab.example", b"bob@lab.example") == _without_tokens(
        free.content
    )
    assert sorted(taken.headers) == sorted(free.headers)
    owner, newcomer = mail.outbox
    assert owner.to == ["ADA@lab.example"] and "this address has one\nalready:\n\n  user name ada\n" in owner.body
    assert "/accounts/signup/" not in owner.body and "No account was created." in owner.body
    assert newcomer.to == ["bob@lab.example"] and "/accounts/signup/" in _link(newcomer)
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["ada"]


def test_a_taken_user_name_is_said_only_after_the_address_is_confirmed(settings):
    settings.SIGNUP_OPEN = True
    _user("ada", email="ada@lab.example")
    Client().post("/accounts/signup/", {"email": "eve@lab.example"})
    link = _link(mail.outbox[0])
    weak = Client().post(link, {"username": "eve", "password1": "password", "password2": "password"})
    assert "This password is too common." in weak.content.decode()
    taken = Client().post(link, {"username": "ada", "password1": PASSWORD, "password2": PASSWORD})
    assert "A user with that username already exists." in taken.content.decode()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["ada"]


def test_sign_up_off_means_invitations_only(settings):
    settings.SIGNUP_OPEN = False
    response = Client().post("/accounts/signup/", {"email": "m@lab.example"})
    assert response.status_code == 404
    assert "accounts by invitation only" in response.content.decode()
    assert mail.outbox == []
    assert "Ask your team's admin for an invitation" in Client().get("/accounts/login/").content.decode()


def test_password_reset_by_email_then_sign_in_with_the_new_one():
    _user("ada", email="ada@lab.example")
    client = Client()
    client.post("/accounts/password_reset/", {"email": "ada@lab.example"})
    [message] = mail.outbox
    form_page = client.get(_link(message), follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302
    ada = get_user_model().objects.get(username="ada")
    assert ada.check_password(PASSWORD) and not ada.check_password("disk-arrays-42")
    signed_in = Client()
    signed_in.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert signed_in.session["_auth_user_id"] == str(ada.pk)


def test_an_admin_invites_by_email_and_the_link_makes_a_member_once(acme):
    admin = _signed_in(_user("lab-admin", team=acme, role=Role.ADMIN))
    page = admin.post("/teams/acme/invitations", {"email": "new@lab.example", "role": "uploader"}, follow=True)
    assert "Invitation sent to new@lab.example as uploader" in page.content.decode()
    assert "new@lab.example" in page.content.decode().split('id="invitations"')[1]
    [message] = mail.outbox
    assert message.subject == "Invitation to Acme storage lab on ArrayBench"
    assert "lab-admin invites new@lab.example into the team Acme storage lab on ArrayBench, as uploader" in message.body

    newcomer = Client()
    link = _link(message)
    assert "Join Acme storage lab" in newcomer.get(link).content.decode()
    joined = newcomer.post(link, {"username": "newcomer", "password1": PASSWORD, "password2": PASSWORD}, follow=True)
    assert "You are uploader of Acme storage lab." in joined.content.decode()
    user = get_user_model().objects.get(username="newcomer")
    assert (user.email, user.is_active) == ("new@lab.example", True)
    assert Membership.objects.get(team=acme, user=user).role == Role.UPLOADER

    again = Client().post(link, {"username": "second", "password1": PASSWORD, "password2": PASSWORD})
    assert again.status_code == 404
    assert "This invitation has been used already" in again.content.decode()
    assert not get_user_model().objects.filter(username="second").exists()
    events = list(AuditEvent.objects.filter(team=acme).order_by("id").values_list("actor_name", "action", "subject"))
    assert events[-2:] == [
        ("lab-admin", "invite", "new@lab.example as uploader"),
        ("newcomer", "invite_accept", "new@lab.example as user newcomer, uploader"),
    ]


def test_an_expired_invitation_is_refused_and_only_admins_invite(acme):
    _signed_in(_user("lab-admin", team=acme, role=Role.ADMIN)).post(
        "/teams/acme/invitations", {"email": "late@lab.example", "role": "viewer"}
    )
    Invitation.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    page = Client().get(_link(mail.outbox[0]))
    assert page.status_code == 404 and "This invitation has expired" in page.content.decode()
    maintainer = _signed_in(_user("maintainer", team=acme, role=Role.MAINTAINER))
    assert maintainer.post("/teams/acme/invitations", {"email": "x@lab.example", "role": "admin"}).status_code == 404
    assert Invitation.objects.count() == 1


def test_a_signed_in_user_joins_with_one_click(acme):
    _signed_in(_user("lab-admin", team=acme, role=Role.ADMIN)).post(
        "/teams/acme/invitations", {"email": "old@lab.example", "role": "viewer"}
    )
    existing = _signed_in(_user("old-hand", email="old@lab.example"))
    link = _link(mail.outbox[0])
    assert "Join Acme storage lab as old-hand" in existing.get(link).content.decode()
    existing.post(link)
    assert Membership.objects.get(team=acme, user__username="old-hand").role == Role.VIEWER


def test_an_invitation_is_refused_to_an_account_of_another_address_and_audited(acme):
    other_team = Team.objects.create(name="Other lab", slug="other")
    _signed_in(_user("lab-admin", team=acme, role=Role.ADMIN)).post(
        "/teams/acme/invitations", {"email": "someone@ext.example", "role": "maintainer"}
    )
    link = _link(mail.outbox[0])
    outsider = _signed_in(_user("outsider", email="outsider@other.example", team=other_team, role=Role.ADMIN))
    for answer in (outsider.get(link), outsider.post(link)):
        assert answer.status_code == 403
        assert "This invitation was sent to another address than the one of your account" in answer.content.decode()
        assert "Acme storage lab" not in answer.content.decode()
    assert not Membership.objects.filter(team=acme, user__username="outsider").exists()
    assert outsider.get("/teams/acme/").status_code == 404
    refusals = AuditEvent.objects.filter(team=acme, action="invite_refuse").values_list("actor_name", "subject")
    assert (
        list(refusals)
        == [("outsider", "someone@ext.example opened by user outsider (outsider@other.example): refused")] * 2
    )
    # An account without an address is refused too; the invitation stays usable by its address.
    assert _signed_in(_user("no-address")).post(link).status_code == 403
    invited = _signed_in(_user("someone", email="Someone@EXT.example"))
    joined = invited.post(link, follow=True)
    assert "You are maintainer of Acme storage lab." in joined.content.decode()
    assert Membership.objects.get(team=acme, user__username="someone").role == Role.MAINTAINER


def test_the_service_refuses_an_invitation_to_another_address(acme):
    from portal.accounts.services import invitation_accept
    from portal.teams.services import TeamError

    expires_at = timezone.now() + timedelta(days=1)
    invitation = Invitation.objects.create(
        team=acme, email="someone@ext.example", role=Role.ADMIN, digest="0" * 64, expires_at=expires_at
    )
    with pytest.raises(TeamError, match="only the invited address can accept it"):
        invitation_accept(invitation=invitation, user=_user("outsider", email="outsider@other.example"))
    invitation.refresh_from_db()
    assert invitation.accepted_at is None and not Membership.objects.filter(team=acme).exists()


def test_an_invited_address_with_an_account_is_asked_to_sign_in(acme):
    _signed_in(_user("lab-admin", team=acme, role=Role.ADMIN)).post(
        "/teams/acme/invitations", {"email": "old@lab.example", "role": "viewer"}
    )
    _user("old-hand", email="old@lab.example")
    link = _link(mail.outbox[0])
    page = Client().get(link).content.decode()
    assert "An account uses this address: " in page and 'name="password1"' not in page
    Client().post(link, {"username": "second", "password1": PASSWORD, "password2": PASSWORD})
    assert not get_user_model().objects.filter(username="second").exists()
