"""A real Chromium opens the compare page, sees both systems' curves and the table, and changes the threshold."""

import io
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from portal.models import System
from tests.factories import ConfigFactory, PointFactory, RunFactory
from tests.samples import data


def add_sweep(system, scale):
    """A measured queue-depth sweep crossing 20 ms between 12 ms and 28 ms, so the threshold matters."""
    config = ConfigFactory(system=system, raid_level="RAID-5", drive_count=140)
    run = RunFactory(config=config, workload_name="OLTP 8K sweep")
    for seq, (load, iops, response_ms) in enumerate(((4, 5000.0, 4.0), (16, 9000.0, 12.0), (64, 11000.0, 28.0))):
        PointFactory(run=run, seq=seq, outstanding_io=load, iops=iops * scale, avg_response_ms=response_ms)


@pytest.mark.browser
def test_compare_page_in_a_browser(committed_demo, live_server, browser_page):
    page, problems = browser_page.page, browser_page.problems
    add_sweep(System.objects.get(name="IBM DS4500"), 1.0)
    add_sweep(System.objects.get(name="IBM DS4400"), 0.8)
    query = urlencode({"a": "IBM DS4500", "b": "IBM DS4400", "threshold_ms": "20"})
    page.goto(f"{live_server.url}/compare/?{query}")
    section = page.locator("section.workload", has=page.get_by_role("heading", name="OLTP 8K sweep"))
    chart = section.locator("[data-chart]")
    expect(chart).to_have_attribute("data-drawn", "true", timeout=20_000)
    names = chart.evaluate("element => element.data.map(trace => trace.name)")
    assert "A: IBM DS4500, RAID-5, 140 drives" in names and "B: IBM DS4400, RAID-5, 140 drives" in names
    row = section.locator("table.comparison tbody tr")
    # 20 ms is halfway between 12 and 28 ms: A 9,000 + 1,000 = 10,000; B is 0.8 of A.
    expect(row.locator("td").nth(0)).to_have_text("10,000")
    expect(row.locator("td").nth(1)).to_have_text("8,000")
    expect(row.locator("td.pct")).to_have_text("25.0 %")
    # The seed comparison is on the same page: DS4500 vs DS4400 RAID-5 Random Reads 8K, 12.7 %.
    random_reads = page.locator("section.workload", has=page.get_by_role("heading", name="Random Reads 8K"))
    expect(random_reads.get_by_role("row", name="RAID-5, 140 drives, All Caches Disabled")).to_contain_text("12.7 %")

    page.get_by_label("Threshold (ms)").fill("16")
    page.get_by_label("Threshold (ms)").press("Enter")
    page.wait_for_url("**threshold_ms=16**")
    # 16 ms is a quarter of the way: A 9,500, B 7,600.
    expect(row.locator("td").nth(0)).to_have_text("9,500")
    expect(row.locator("td").nth(1)).to_have_text("7,600")
    expect(chart).to_have_attribute("data-drawn", "true", timeout=20_000)
    assert "threshold 16 ms" in chart.evaluate("element => element.data.map(trace => trace.name)")
    assert problems == []


@pytest.mark.browser
def test_from_a_system_page_to_three_systems_bars_and_p99_in_a_browser(
    committed_demo, data_dir, live_server, browser_page
):
    page, problems = browser_page.page, browser_page.problems
    ds4500 = System.objects.get(name="IBM DS4500")
    call_command("ingest", str(data("fio", "sweep")), "--system", "Lab NVMe array", stdout=io.StringIO())
    page.goto(f"{live_server.url}/systems/{ds4500.id}/")
    page.get_by_role("link", name="Compare IBM DS4500 with another system").click()
    expect(page.get_by_role("status")).to_have_text("Choose the system to compare with.")
    expect(page.get_by_label("System A")).to_have_value("IBM DS4500")
    page.get_by_label("and system").fill("HP EVA4400")
    page.get_by_label("against B").fill("IBM DS4400")
    page.get_by_role("button", name="Compare").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("IBM DS4500, HP EVA4400 against IBM DS4400")

    # Two systems: published figures are grouped bars, A and B in their own colours.
    query = urlencode({"a": "IBM DS4500", "b": "IBM DS4400", "workload": "Random Reads 8K", "raid_level": "RAID-5"})
    page.goto(f"{live_server.url}/compare/?{query}")
    chart = page.locator("section.workload [data-chart]").first
    expect(chart).to_have_attribute("data-drawn", "true", timeout=20_000)
    traces = chart.evaluate("element => element.data.map(t => [t.type, t.name, t.marker.color])")
    assert [t[:2] for t in traces] == [["bar", "A: IBM DS4500"], ["bar", "B: IBM DS4400"]]
    assert traces[0][2] != traces[1][2]

    # A fio sweep read at p99 <= 1 ms: 21,397.3 IOPS, written whole (test_percentile_latency.py works it out).
    run_id = System.objects.get(name="Lab NVMe array").configs.get().runs.get().id
    page.goto(f"{live_server.url}/runs/{run_id}/?threshold_ms=1")
    expect(page.locator("#at-threshold strong")).to_contain_text("32,000 IOPS at 1 ms")
    page.get_by_label("applies to").select_option("p99")
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("#at-threshold strong")).to_contain_text("21,397 IOPS at 1 ms (99th percentile response time)")
    assert problems == []
