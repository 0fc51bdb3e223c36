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


def test_sign_up_needs_the_address_confirmed_before_the_account_works(settings):
    settings.SIGNUP_OPEN = True
    client = Client()
    assert 'href="/accounts/signup/"' in client.get("/accounts/login/").content.decode()
    form = {"username": "grace", "email": "grace@lab.example", "password1": PASSWORD, "password2": PASSWORD}
    page = client.post("/accounts/signup/", form).content.decode()
    assert "A link was sent to grace@lab.example." in page
    user = get_user_model().objects.get(username="grace")
    assert (user.email, user.is_active) == ("grace@lab.example", False)
    refused = client.post("/accounts/login/", {"username": "grace", "password": PASSWORD})
    assert "did not match" in refused.content.decode() and "_auth_user_id" not in client.session
    [message] = mail.outbox
    assert message.to == ["grace@lab.example"] and message.subject == "Confirm your address for ArrayBench"

    confirmed = client.get(_link(message), follow=True)
    assert "Your address grace@lab.example is confirmed; you are signed in as grace." in confirmed.content.decode()
    user.refresh_from_db()
    assert user.is_active is True
    # Used once.
    assert Client().get(_link(message)).status_code == 400


def test_sign_up_refuses_weak_passwords_and_a_taken_address(settings):
    settings.SIGNUP_OPEN = True
    _user("ada", email="ada@lab.example")
    weak = {"username": "bob", "email": "bob@lab.example", "password1": "password", "password2": "password"}
    assert "This password is too common." in Client().post("/accounts/signup/", weak).content.decode()
    taken = {"username": "eve", "email": "ADA@lab.example", "password1": PASSWORD, "password2": PASSWORD}
    assert "An account uses this address already" in Client().post("/accounts/signup/", taken).content.decode()
    assert not get_user_model().objects.filter(username__in=["bob", "eve"]).exists()


def test_sign_up_off_means_invitations_only(settings):
    settings.SIGNUP_OPEN = False
    form = {"username": "mallory", "email": "m@lab.example", "password1": PASSWORD, "password2": PASSWORD}
    response = Client().post("/accounts/signup/", form)
    assert response.status_code == 404
    assert "accounts by invitation only" in response.content.decode()
    assert not get_user_model().objects.filter(username="mallory").exists()
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
