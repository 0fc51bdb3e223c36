"""An invitation is accepted by the address it was sent to only: a user of another team who opens the
link is refused (and the team's audit log says so); the invited address then joins with it and reads
the team's private system."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from portal.accounts.services import invitation_create
from portal.models import AuditEvent, Membership, Role, Team
from tests.factories import SystemFactory
from tests.security.test_first_day_browser import Mailbox, _sign_in

PASSWORD = "tape-library-93"


@pytest.fixture
def invited(transactional_db, settings, tmp_path):
    """Team A's private system, an invitation of someone@ext.example into A as maintainer, and a user of
    team B: made before the browser starts."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    users = get_user_model().objects
    admin = users.create_user("a-admin", "admin@a.example", password="disk-arrays-42")
    team_a = Team.objects.create(name="Alpha array lab", slug="alpha")
    Membership.objects.create(team=team_a, user=admin, role=Role.ADMIN)
    team_b = Team.objects.create(name="Beta lab", slug="beta")
    Membership.objects.create(team=team_b, user=users.create_user("b-user", "b@b.example", password=PASSWORD))
    system = SystemFactory(vendor="Alpha", model="Secret S1", team=team_a, published=False)
    invitation_create(
        team=team_a, email="someone@ext.example", role=Role.MAINTAINER, actor=admin, site_url="http://placeholder"
    )
    return system, Mailbox(tmp_path / "mail")


@pytest.mark.browser
def test_a_user_of_another_team_is_refused_and_the_invited_address_joins(live_server, invited, browser_page):
    system, mailbox = invited
    link = mailbox.link(to="someone@ext.example", path="/accounts/invitations/").replace(
        "http://placeholder", live_server.url
    )
    page = browser_page.page
    _sign_in(page, live_server.url, "b-user", PASSWORD)
    response = page.goto(link)
    assert response is not None and response.status == 403
    expect(page.get_by_role("alert")).to_have_text(
        "This invitation was sent to another address than the one of your account: only the invited address can "
        "accept it. Sign out, then open the link again to sign in with the account of that address or create one."
    )
    expect(page.get_by_role("button", name="Join Alpha array lab as b-user")).to_have_count(0)
    assert page.goto(f"{live_server.url}/systems/{system.id}/").status == 404
    assert not Membership.objects.filter(team__slug="alpha", user__username="b-user").exists()
    refusal = AuditEvent.objects.get(team__slug="alpha", action=AuditEvent.Action.INVITE_REFUSE)
    assert (refusal.actor_name, refusal.subject) == (
        "b-user",
        "someone@ext.example opened by user b-user (b@b.example): refused",
    )

    invitee = page.context.browser.new_context().new_page()
    invitee.goto(link)
    expect(invitee.get_by_role("heading", name="Join Alpha array lab")).to_be_visible()
    invitee.locator("#id_username").fill("someone")
    invitee.locator("#id_password1").fill(PASSWORD)
    invitee.locator("#id_password2").fill(PASSWORD)
    invitee.get_by_role("button", name="Create the account and join").click()
    expect(invitee.get_by_role("status")).to_contain_text("You are maintainer of Alpha array lab.")
    invitee.goto(f"{live_server.url}/systems/{system.id}/")
    expect(invitee.get_by_role("heading", level=1)).to_contain_text("Alpha Secret S1")
    assert get_user_model().objects.get(username="someone").email == "someone@ext.example"
    assert [p for p in browser_page.problems if "403" not in p and "404" not in p] == []
