"""In a real Chromium: the sizing page reached from the system page and from the compare page, a target
entered and the answer read with its error; the predict page showing a prediction beside a measured cell.

Seed 000 is 000_f52f16ce4c762121.txt (IBM DS4500 white paper), in the demo data: Table 1 (RAID-5,
All Caches Disabled, OLTP 8K) reads 3,000 / 8,880 / 14,320 / 15,025 / 15,040 IOPS at 20 to 180 drives
(about 80-85 drives for 12,000 IOPS); Table 4 (RAID-5, All Caches Disabled, Random Reads 8K) 8,365 /
24,395 / 30,180 / 30,020 / 29,480 IOPS. The IBM DS4400 was measured with 140 drives only (no sweep).
The grid is fio-plot's Samsung 860 Pro (samples/fio-grids, MANIFEST: every randwrite cell within 4 %
of the ~50.3k IOPS plateau except those with iodepth x numjobs <= 2).
"""

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from portal.models import System
from tests.api.test_predict import stored_grid
from tests.api.test_predict_along import mean_iops_by_outstanding, stored_reads_and_writes


@pytest.mark.browser
def test_sizing_from_the_system_page(committed_demo, live_server, browser_page):
    system = System.objects.get(name="IBM DS4500")
    page, problems = browser_page.page, browser_page.problems
    page.goto(f"{live_server.url}/systems/{system.id}/")
    page.get_by_role("link", name="Sizing: drives for a target").click()
    page.get_by_label("Workload").fill("OLTP 8K")
    page.get_by_label("RAID level").fill("RAID-5")
    page.get_by_label("Cache setting").fill("All Caches Disabled")
    page.get_by_label("Target").fill("12000")
    page.get_by_role("button", name="Size").click()

    section = page.locator("section.sizing").first
    expect(section.get_by_role("heading", level=2)).to_have_text("RAID-5, All Caches Disabled, OLTP 8K")
    answer = section.locator("li", has_text="12,000 IOPS at 20 ms needs").inner_text()
    drives = int(re.search(r"needs (\d+) drives", answer).group(1))
    assert 80 <= drives <= 85
    error = section.locator("li", has_text=re.compile(r"^Error on this sweep")).inner_text()
    median, worst = (float(x) for x in re.search(r"median ([\d.]+) %, worst ([\d.]+) %", error).groups())
    assert median <= worst < 5
    hundred = section.locator("tbody tr", has_text="14,320 IOPS")
    expect(hundred.locator("th")).to_have_text("100")
    page.goto(f"{page.url}".replace("target=12000", "target=20000"))
    expect(page.locator("section.sizing li", has_text="20,000 IOPS at 20 ms is not reachable")).to_contain_text(
        "it levels off at about 14,"
    )
    assert problems == []


@pytest.mark.browser
def test_which_needs_fewer_drives_from_the_compare_page(committed_demo, live_server, browser_page):
    page, problems = browser_page.page, browser_page.problems
    query = {"a": "IBM DS4500", "b": "IBM DS4400", "raid_level": "RAID-5", "workload": "Random Reads 8K"}
    page.goto(f"{live_server.url}/compare/?{urlencode(query)}")
    page.locator("a.side-by-side").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Which of these systems needs fewer drives for a target?")
    expect(page.get_by_label("Workload")).to_have_value("Random Reads 8K")
    page.get_by_label("RAID level").fill("RAID-5")
    page.get_by_label("Cache setting").fill("All Caches Disabled")
    page.get_by_label("Target").fill("20000")
    page.get_by_role("button", name="Size side by side").click()

    verdict = page.locator("#fewer").inner_text()
    assert verdict.startswith("IBM DS4500 needs fewer drives for 20,000 IOPS of Random Reads 8K at 20 ms: ")
    rows = page.locator("#side-by-side tbody tr")
    ds4500 = rows.filter(has_text="IBM DS4500").first.locator("td")
    ds4400 = rows.filter(has_text="IBM DS4400").first.locator("td")
    # Table 4: 24,395 IOPS with 60 drives and 30,180 with 100, so 20,000 IOPS lie between them.
    ds4500_drives = int(ds4500.nth(1).inner_text().split()[0])
    assert 40 < ds4500_drives < 100
    assert re.fullmatch(r"median [\d.]+ %, worst [\d.]+ %", ds4500.nth(4).inner_text())
    assert ds4400.nth(2).inner_text() == "estimate from the back-end formula"
    assert ds4400.nth(4).inner_text() == "an estimate: no error measured"
    ds4400_drives = int(ds4400.nth(1).inner_text().split()[0])
    # The verdict names the sweep (or estimate) each figure comes from, as the table's second column does.
    fewer = ds4400_drives - ds4500_drives
    assert (
        f"{ds4500_drives} drives ({ds4500.nth(0).inner_text()}), {fewer} fewer than IBM DS4400"
        f" ({ds4400_drives} drives: {ds4400.nth(0).inner_text()})" in verdict
    )
    assert problems == []


@pytest.mark.browser
def test_the_predict_page_shows_a_prediction_against_the_measured_cell(transactional_db, live_server, browser_page):
    run = stored_grid()
    page, problems = browser_page.page, browser_page.problems
    page.goto(f"{live_server.url}/systems/{run.config.system_id}/")
    page.get_by_role("link", name="Predict untested queue depth x jobs combinations").click()
    page.get_by_role("link", name="randwrite grid").click()

    expect(page.locator("#prediction li").first).to_contain_text("Predictions, not measurements.")
    corner = page.locator("#prediction tbody tr").filter(
        has=page.locator("td:nth-child(1)", has_text=re.compile(r"^64$"))
    )
    cell = corner.filter(has=page.locator("td:nth-child(2)", has_text=re.compile(r"^64$"))).locator("td").nth(2)
    text = cell.inner_text()
    found = re.fullmatch(r"predicted ([\d,]+) IOPS at about [\d.]+ ms; measured ([\d,]+) IOPS, error ([\d.]+) %", text)
    assert found, text
    predicted, measured, error = (float(x.replace(",", "")) for x in found.groups())
    assert measured == pytest.approx(50_300, rel=0.04)
    assert error < 1
    assert abs(predicted - measured) / measured * 100 == pytest.approx(error, abs=0.05)
    assert problems == []


@pytest.mark.browser
def test_the_predict_page_predicts_writes_along_read_share(transactional_db, live_server, browser_page):
    system = stored_reads_and_writes()
    page, problems = browser_page.page, browser_page.problems
    page.goto(f"{live_server.url}/systems/{system.id}/predict/")
    page.get_by_role("link", name="read %").click()
    lines = page.locator("#along li").all_inner_texts()
    assert lines[0].endswith("model. Predictions, not measurements.")
    assert lines[1].startswith("Error on ")
    row = page.locator("#along tbody tr").filter(has=page.locator("td:nth-child(1)", has_text=re.compile(r"^1$")))
    expect(row.locator("td").nth(1)).to_have_text("0")
    text = row.locator("td").nth(2).inner_text()
    # The 1 outstanding I/O write cell was measured (randwrite-1-1): shown beside the prediction.
    measured = round(mean_iops_by_outstanding("randwrite")[1])
    assert re.fullmatch(rf"predicted [\d,]+ IOPS; measured {measured:,} IOPS, error [\d.]+ %", text), text
    assert problems == []
