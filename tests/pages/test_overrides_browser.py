"""A maintainer in the browser names a fio job for the team and excludes the run from comparisons."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from portal.models import Role
from tests.conftest import team_member
from tests.factories import SystemFactory
from tests.ingesting import store_file
from tests.samples import sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")


@pytest.fixture
def fio_run(transactional_db, data_dir):
    """Made before the browser starts: a maintainer and a fio job (FIOJOB, randread 4k) of their team's system."""
    maintainer = get_user_model().objects.create_user("maria", password="disk-arrays-42")
    team = team_member(maintainer, role=Role.MAINTAINER)
    system = SystemFactory(name="Lab array", team=team, published=False)
    return store_file(FIO, system=system, uploader=maintainer).runs.get()


@pytest.mark.browser
def test_a_maintainer_names_a_job_for_the_team_and_excludes_the_run(live_server, fio_run, browser_page):
    page = browser_page.page
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("User name").fill("maria")
    page.get_by_label("Password").fill("disk-arrays-42")
    page.get_by_role("button", name="Sign in").click()

    page.goto(f"{live_server.url}/runs/{fio_run.id}/")
    page.get_by_label("Your team's name for FIOJOB").fill("Random read 4K")
    page.get_by_role("button", name="Name it").click()
    expect(page.get_by_role("status")).to_contain_text("Your team calls this workload Random read 4K.")
    expect(page.locator("dl.meta")).to_contain_text("Random read 4K (FIOJOB)")

    page.get_by_label("Exclude from comparisons, because").fill("a preconditioning pass")
    page.get_by_role("button", name="Exclude").click()
    expect(page.locator("#excluded")).to_contain_text(
        "This run is excluded from comparisons: a preconditioning pass, by maria on"
    )
    page.get_by_role("link", name="Lab array").click()
    expect(page.get_by_role("heading", name="Random read 4K (stored as “FIOJOB”, 1 run)")).to_be_visible()
    expect(page.locator("#runs ~ table").first).to_contain_text("excluded from comparisons: a preconditioning pass")

    page.goto(f"{live_server.url}/runs/{fio_run.id}/")
    page.get_by_role("button", name="Compare this run again").click()
    expect(page.locator("#excluded")).to_have_count(0)
    assert browser_page.problems == []
