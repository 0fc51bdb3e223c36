"""A lab in the browser: creates its team, uploads a file nobody outside can find, publishes it."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.samples import sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")


@pytest.fixture
def lab_admin(transactional_db):
    """Made before the browser starts (ORM calls inside Playwright's sync API run in another context).

    A superuser: the one whose uploads once defaulted to "no team", published at once."""
    return get_user_model().objects.create_superuser("lab-admin", "admin@lab.example", password="disk-arrays-42")


@pytest.mark.browser
@pytest.mark.worker
def test_a_lab_creates_its_team_uploads_privately_and_publishes(data_dir, celery_worker_process, live_server,
                                                                lab_admin, browser_page):  # fmt: skip
    page = browser_page.page
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("User name").fill("lab-admin")
    page.get_by_label("Password").fill("disk-arrays-42")
    page.get_by_role("button", name="Sign in").click()

    page.goto(f"{live_server.url}/teams/")
    page.get_by_label("Name").fill("Zenith array lab")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Zenith array lab")

    page.goto(f"{live_server.url}/uploads/")
    expect(page.get_by_label("Results belong to")).to_have_value(re.compile(r"\d+"))
    page.get_by_label("or a new one: vendor").fill("Zenith")
    page.get_by_label("Model", exact=True).fill("Z9")
    page.get_by_label("Choose result files").set_input_files([str(FIO)])
    page.get_by_role("button", name="Upload", exact=True).click()
    row = page.locator("#upload-table tbody tr", has_text=FIO.name)
    expect(row.locator("td.status")).to_contain_text("done Zenith Z9, 1 run, 1 point", timeout=60_000)
    row.get_by_role("link", name="Zenith Z9").click()
    system_url = page.url
    expect(page.locator("p.private[role=note]")).to_contain_text("Private: only the members of Zenith array lab")

    # Another visitor (a fresh browser context, not signed in) finds nothing of it.
    visitor = page.context.browser.new_context().new_page()
    assert visitor.goto(system_url).status == 404
    visitor.goto(f"{live_server.url}/?q=Zenith")
    expect(visitor.locator("main")).not_to_contain_text("Zenith Z9")

    visitor.goto(f"{live_server.url}/uploads/")
    expect(visitor.locator("main")).not_to_contain_text("lab-admin")

    page.get_by_role("link", name="Publish it…").click()
    expect(page.locator("#publish-preview")).to_contain_text(FIO.name)
    expect(page.locator("#publish-preview")).to_contain_text("1 run:")
    assert visitor.goto(system_url).status == 404, "nothing is public before the confirmation"
    page.get_by_role("button", name="Publish Zenith Z9 to everyone").click()
    expect(page.get_by_role("status")).to_contain_text("Zenith Z9 is published: everyone can read it.")
    assert visitor.goto(system_url).status == 200
    expect(visitor.get_by_role("heading", level=1)).to_have_text("Zenith Z9")
    visitor.goto(f"{live_server.url}/uploads/")
    expect(visitor.locator("#upload-table")).to_contain_text(FIO.name)
    expect(visitor.locator("main")).not_to_contain_text("lab-admin")

    page.goto(f"{live_server.url}/teams/zenith-array-lab/")
    log = page.locator("h2:has-text('Audit log') + table")
    expect(log).to_contain_text("lab-adminPublishsystem Zenith Z9")
    expect(log).to_contain_text("lab-adminUploadupload #")
    expect(log).to_contain_text("member addeduser lab-admin as admin")
    assert browser_page.problems == []
