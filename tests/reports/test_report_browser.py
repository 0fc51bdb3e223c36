"""In a real Chromium: "Report" on the compare page opens the compose form; two workloads are chosen and
a table's caption (offered with every other caption and its default) is changed, a real worker builds the
report, the progress page offers the Word document, which holds the two workloads, the caption and seed
000's figures (000_f52f16ce4c762121.txt line 295: 30,020 and 26,640 8K IOPS with 140 RAID-5 drives)."""

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from docx import Document
from playwright.sync_api import expect

from tests.exports.test_bundle_background import seed_000_line_295

QUERY = {"a": "IBM DS4500", "b": "IBM DS4400", "threshold_ms": "20"}
CAPTION = "Random 8K reads of both arrays at 20 ms, IOPS"


@pytest.mark.browser
def test_report_from_the_compare_page_with_two_workloads_and_a_caption(
    committed_demo, data_dir, celery_workers, live_server, browser_page, tmp_path
):
    celery_workers.start()
    page, problems = browser_page.page, browser_page.problems
    page.goto(f"{live_server.url}/compare/?{urlencode(QUERY)}")
    page.get_by_role("link", name="Report", exact=True).click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Report: IBM DS4500 vs IBM DS4400")
    page.get_by_role("checkbox", name="Streaming Reads 64K").uncheck()
    expect(page.get_by_role("checkbox", name="Random Reads 8K")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Streaming Writes 64K")).to_be_checked()
    captions = page.get_by_label("Captions")
    offered = captions.input_value().splitlines()
    # Every table and chart with its default caption, one a line; the author changes one table's.
    assert "Random Reads 8K: Random Reads 8K at 20 ms: IBM DS4500 (A) and IBM DS4400 (B)" in offered
    assert "Random Reads 8K table: Random Reads 8K at 20 ms (IOPS)" in offered
    assert "Provenance table: Where every figure came from" in offered
    edited = [
        f"Random Reads 8K table: {CAPTION}" if line.startswith("Random Reads 8K table:") else line for line in offered
    ]
    captions.fill("\n".join(edited))
    page.get_by_role("button", name="Build the report").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Report: IBM DS4500 compared with IBM DS4400")
    assert re.search(r"/reports/[0-9a-f]{64}/$", page.url)
    # The report's address holds the one caption changed, not the defaults.
    again = page.get_by_role("link", name="Change what goes in").get_attribute("href")
    assert parse_qs(urlsplit(again).query)["captions"] == [f"Random Reads 8K table: {CAPTION}"]
    word = page.get_by_role("link", name="Word (DOCX)")
    expect(word).to_be_visible(timeout=180_000)
    expect(page.locator("#bundle-percent")).to_have_text("100 %")
    with page.expect_download() as started:
        word.click()
    download = started.value
    assert download.suggested_filename == "ibm-ds4500-vs-ibm-ds4400-report.docx"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)

    document = Document(saved)
    workloads = [p.text for p in document.paragraphs if p.style.name == "Heading 2"]
    assert workloads[:2] == ["Random Reads 8K", "Streaming Writes 64K"] and "Streaming Reads 64K" not in workloads
    captions = [p.text for p in document.paragraphs if p.style.name == "Caption"]
    figures = [caption for caption in captions if caption.startswith("Figure")]
    assert figures[0] == "Figure 1. Random Reads 8K at 20 ms: IBM DS4500 (A) and IBM DS4400 (B)"
    assert len(figures) == len(document.inline_shapes) == 2
    # The workloads table, two environment tables, then the Random Reads 8K table with the author's caption.
    assert f"Table 4. {CAPTION}" in captions
    cells = [cell.text for table in document.tables for row in table.rows for cell in row.cells]
    ds4500, ds4400 = seed_000_line_295()
    assert ds4500 in cells and ds4400 in cells
    assert problems == []
