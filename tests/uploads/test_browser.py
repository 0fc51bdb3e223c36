"""A real Chromium signs in, uploads files, watches their rows reach "done" and opens a run."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.factories import SystemFactory
from tests.samples import SAMPLES_DIR, sample


@pytest.fixture
def ds4500(transactional_db, lab):
    """Rows are made before the browser starts: ORM calls inside Playwright's sync API would run in
    another context, on a database connection nothing closes. The engineer's team's own DS4500."""
    return SystemFactory(name="IBM DS4500", team=lab, published=False)


def sign_in(page, live_server):
    page.goto(f"{live_server.url}/uploads/")
    page.get_by_role("link", name="Sign in").first.click()
    page.get_by_label("User name").fill("engineer")
    page.get_by_label("Password").fill("disk-arrays-42")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/uploads/")


def upload_files(page, files, *, system):
    """Choose ``files`` on the upload page for the existing ``system`` (as the list labels it) and upload them."""
    page.get_by_label("Existing system").select_option(label=system)
    page.get_by_label("Choose result files").set_input_files([str(f) for f in files])
    page.get_by_role("button", name="Upload", exact=True).click()


@pytest.mark.browser
@pytest.mark.worker
def test_sign_in_upload_two_files_and_open_a_run(worker, live_server, engineer, ds4500, browser_page):
    page = browser_page.page
    sign_in(page, live_server)

    page.get_by_label("Existing system").select_option(label="IBM DS4500 (private)")
    page.get_by_label("RAID level").fill("RAID 5")
    files = [sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv"),
             sample("fio", "fioplot_fio-3.34_randread-1-1.json")]  # fmt: skip
    page.get_by_label("Choose result files").set_input_files([str(Path(f)) for f in files])
    page.get_by_role("button", name="Upload", exact=True).click()

    iometer_row = page.locator("#upload-table tbody tr", has_text=files[0].name)
    fio_row = page.locator("#upload-table tbody tr", has_text=files[1].name)
    expect(iometer_row.locator("td.status")).to_contain_text("done IBM DS4500, 11 runs, 11 points", timeout=60_000)
    expect(fio_row.locator("td.status")).to_contain_text("done IBM DS4500, 1 run, 1 point", timeout=60_000)

    fio_row.get_by_role("link", name="FIOJOB").click()
    expect(page).to_have_url(re.compile(r"/runs/\d+/$"))
    # The run page of the fio upload: 4K random reads, fio-3.34 at queue depth 1.
    expect(page.get_by_role("heading", level=1)).to_contain_text("FIOJOB")
    assert browser_page.problems == []


@pytest.mark.browser
@pytest.mark.worker
def test_the_files_of_one_orion_test_chosen_together_become_one_run(
    worker, live_server, engineer, ds4500, browser_page
):
    page = browser_page.page
    sign_in(page, live_server)
    files = sorted((SAMPLES_DIR / "orion").glob("*.csv"))
    upload_files(page, files, system="IBM DS4500 (private)")

    rows = [page.locator("#upload-table tbody tr", has_text=f.name) for f in files]
    # cnblogs-hftian_mytest_20190329_1057_iops.csv (first by name) holds the run: seven measured cells.
    expect(rows[0].locator("td.status")).to_contain_text("done IBM DS4500, 1 run, 7 points", timeout=60_000)
    for row in rows[1:]:
        expect(row.locator("td.status")).to_contain_text("done read together with upload #", timeout=60_000)
    assert browser_page.problems == []


@pytest.mark.browser
@pytest.mark.worker
def test_a_row_updated_live_names_the_tool_as_the_server_rendered_rows_do(
    worker, live_server, engineer, ds4500, browser_page
):
    page = browser_page.page
    sign_in(page, live_server)
    summary = sample("cosbench", "cosbench-workload-summary-w55.csv")
    upload_files(page, [summary], system="IBM DS4500 (private)")
    row = page.locator("#upload-table tbody tr", has_text=summary.name)
    # the summary's 32 lines of stages and operations: a run each
    expect(row.locator("td.status")).to_contain_text("done IBM DS4500, 32 runs", timeout=60_000)
    expect(row.locator("td.format")).to_have_text("COSBench")
    page.reload()
    expect(page.locator("#upload-table tbody tr", has_text=summary.name).locator("td.format")).to_have_text("COSBench")
    assert browser_page.problems == []
