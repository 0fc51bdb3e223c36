"""A newcomer's first day in the browser: signs up by address, confirms it from the emailed link (the
file email backend) and chooses a user name and password there, resets the password, joins a team by
invitation, uploads with the team preselected, publishes through the confirmation; an anonymous
visitor never sees the newcomer's user name, nor the system before it is published."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from portal.models import Membership, Role, Team
from tests.samples import sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
FIRST_PASSWORD = "tape-library-93"
NEW_PASSWORD = "spindle-cache-58"


@pytest.fixture
def lab(transactional_db):
    """A team and its admin, made before the browser starts."""
    admin = get_user_model().objects.create_user("lab-admin", "admin@lab.example", password="disk-arrays-42")
    team = Team.objects.create(name="Zenith array lab", slug="zenith")
    Membership.objects.create(team=team, user=admin, role=Role.ADMIN)
    return team


class Mailbox:
    """The emails the file backend wrote, one file each; ``link(to=..., path=...)`` finds the newest link."""

    def __init__(self, folder):
        self.folder = folder

    def link(self, *, to, path):
        for message in sorted(self.folder.glob("*.log"), key=lambda f: f.stat().st_mtime, reverse=True):
            text = message.read_text()
            if f"To: {to}" in text and (found := re.search(rf"http://\S+{re.escape(path)}\S*", text)):
                return found.group(0)
        raise AssertionError(f"no email to {to} with a {path} link")


def _sign_in(page, url, username, password):
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


@pytest.mark.browser
@pytest.mark.worker
def test_a_newcomers_first_day(settings, tmp_path, data_dir, celery_worker_process, live_server, lab, browser_page):
    settings.SIGNUP_OPEN = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    mailbox = Mailbox(tmp_path / "mail")
    url = live_server.url
    page = browser_page.page
    visitor = page.context.browser.new_context().new_page()
    seen_by_visitor = []

    def visit(path):
        response = visitor.goto(f"{url}{path}")
        seen_by_visitor.append(visitor.content())
        return response.status

    # The team's admin invites the newcomer's address as maintainer.
    admin = page.context.browser.new_context().new_page()
    _sign_in(admin, url, "lab-admin", "disk-arrays-42")
    admin.goto(f"{url}/teams/zenith/")
    admin.get_by_label("Email address").fill("grace@lab.example")
    admin.locator("#id_invite_role").select_option("maintainer")
    admin.get_by_role("button", name="Send invitation").click()
    expect(admin.get_by_role("status")).to_contain_text("Invitation sent to grace@lab.example as maintainer")

    # Sign-up, confirmed from the emailed link.
    page.goto(f"{url}/accounts/login/")
    page.get_by_role("link", name="Create an account").click()
    page.locator("#id_email").fill("grace@lab.example")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("status")).to_contain_text("A message was sent to grace@lab.example.")
    page.goto(mailbox.link(to="grace@lab.example", path="/accounts/signup/"))
    page.locator("#id_username").fill("grace")
    page.locator("#id_password1").fill(FIRST_PASSWORD)
    page.locator("#id_password2").fill(FIRST_PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    expect(page.get_by_role("status")).to_contain_text("Your address grace@lab.example is confirmed")

    # Password reset by email, then signed in with the new password.
    page.get_by_role("button", name="Sign out grace").click()
    page.goto(f"{url}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.locator("#id_email").fill("grace@lab.example")
    page.get_by_role("button", name="Send the link").click()
    page.goto(mailbox.link(to="grace@lab.example", path="/accounts/reset/"))
    page.locator("#id_new_password1").fill(NEW_PASSWORD)
    page.locator("#id_new_password2").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_role("status")).to_contain_text("Your new password is set.")
    _sign_in(page, url, "grace", NEW_PASSWORD)
    expect(page.get_by_role("button", name="Sign out grace")).to_be_visible()

    # The invitation, followed signed in.
    page.goto(mailbox.link(to="grace@lab.example", path="/accounts/invitations/"))
    page.get_by_role("button", name="Join Zenith array lab as grace").click()
    expect(page.get_by_role("status")).to_contain_text("You are maintainer of Zenith array lab.")

    # The upload goes to the team without choosing it.
    page.goto(f"{url}/uploads/")
    expect(page.get_by_label("Results belong to")).to_have_value(re.compile(r"\d+"))
    expect(page.get_by_label("Results belong to").locator("option:checked")).to_have_text("Zenith array lab")
    page.get_by_label("or a new one: vendor").fill("Zenith")
    page.get_by_label("Model", exact=True).fill("Z9")
    page.get_by_label("Choose result files").set_input_files([str(FIO)])
    page.get_by_role("button", name="Upload", exact=True).click()
    row = page.locator("#upload-table tbody tr", has_text=FIO.name)
    expect(row.locator("td.status")).to_contain_text("done Zenith Z9, 1 run, 1 point", timeout=60_000)
    row.get_by_role("link", name="Zenith Z9").click()
    system_path = page.url.removeprefix(url)

    assert visit(system_path) == 404
    visit("/")
    visit("/uploads/")
    visit("/?q=Zenith")

    page.get_by_role("link", name="Publish it…").click()
    expect(page.locator("#publish-preview")).to_contain_text(FIO.name)
    assert visit(system_path) == 404, "nothing is public before the confirmation"
    page.get_by_role("button", name="Publish Zenith Z9 to everyone").click()
    expect(page.get_by_role("status")).to_contain_text("Zenith Z9 is published: everyone can read it.")

    assert visit(system_path) == 200
    visit("/uploads/")
    assert FIO.name in seen_by_visitor[-1]
    assert all("Zenith Z9" not in html for html in seen_by_visitor[:5])
    assert all("grace" not in html for html in seen_by_visitor)
    assert browser_page.problems == []
