"""In a real Chromium: the compare page's bundle link leads to the progress page, a real worker builds
the bundle, the page offers the download, and the zip holds seed 000's numbers (line 295: about
30,020 8K IOPS for the DS4500 and 26,640 for the DS4400 with 140 drives, 12.7 % better)."""

import csv
import io
import re
import zipfile
from urllib.parse import urlencode

import pytest
from docx import Document
from playwright.sync_api import expect

from tests.exports.test_bundle_background import seed_000_line_295

QUERY = {"a": "IBM DS4500", "b": "IBM DS4400", "raid_level": "RAID-5", "workload": "Random Reads 8K"}


@pytest.mark.browser
def test_the_bundle_link_shows_progress_and_downloads_the_zip(
    committed_demo, data_dir, celery_workers, live_server, browser_page, tmp_path
):
    celery_workers.start()
    page, problems = browser_page.page, browser_page.problems
    page.goto(f"{live_server.url}/compare/?{urlencode(QUERY)}")
    page.get_by_role("link", name="white-paper bundle (zip)").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("White-paper bundle: IBM DS4500 vs IBM DS4400")
    assert re.search(r"/export/bundles/[0-9a-f]{64}/$", page.url)
    download_link = page.get_by_role("link", name="Download ibm-ds4500-vs-ibm-ds4400-white-paper.zip")
    expect(download_link).to_be_visible(timeout=180_000)
    expect(page.locator("#bundle-percent")).to_have_text("100 %")
    with page.expect_download() as started:
        download_link.click()
    download = started.value
    assert download.suggested_filename == "ibm-ds4500-vs-ibm-ds4400-white-paper.zip"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)

    archive = zipfile.ZipFile(saved)
    ds4500, ds4400 = seed_000_line_295()
    (table,) = [name for name in archive.namelist() if re.fullmatch(r"tables/01-.*\.csv", name)]
    rows = list(csv.reader(io.StringIO(archive.read(table).decode("utf-8-sig"))))
    numbers = [ds4500.replace(",", ""), ds4400.replace(",", "")]  # CSV writes figures as numbers
    assert ["Random Reads 8K (IOPS)", "RAID-5, 140 drives, All Caches Disabled", *numbers, "12.7"] in rows
    document = Document(io.BytesIO(archive.read("tables/tables.docx")))
    cells = [cell.text for table in document.tables for row in table.rows for cell in row.cells]
    assert ds4500 in cells and ds4400 in cells
    assert archive.read("charts/random-reads-8k.svg").startswith(b"<svg")

    page.get_by_role("link", name="Back to the comparison").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("IBM DS4500 (A) vs IBM DS4400 (B)")
    assert problems == []
