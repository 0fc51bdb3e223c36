"""In a real Chromium at 1280 px: a run of 120 points with every figure fits the window, its points come
50 a page headed in words, the curve still has all 120 points and the value at the threshold is marked.

The run is made here: point n (1 to 120) has n outstanding I/Os, 100 x n IOPS and 0.05 x n ms, so
the curve is a straight line and 2.025 ms lies halfway between points 40 (4,000 IOPS, 2.0 ms) and 41
(4,100 IOPS, 2.05 ms): 4,050 IOPS at the threshold."""

import pytest
from playwright.sync_api import expect

from tests.factories import ConfigFactory, PointFactory, RunFactory


@pytest.fixture
def long_run(transactional_db):
    config = ConfigFactory(raid_level="RAID-5", drive_count=140)
    run = RunFactory(config=config, name="Random reads 8K, queue depth 1 to 120, every figure the tool reports")
    for n in range(1, 121):
        PointFactory(
            run=run, seq=n - 1, outstanding_io=n, threads=1, iops=100.0 * n, read_iops=70.0 * n,
            write_iops=30.0 * n, mbps=0.8192 * n, read_mbps=0.57344 * n, write_mbps=0.24576 * n,
            avg_response_ms=0.05 * n, avg_read_response_ms=0.04 * n, avg_write_response_ms=0.07 * n,
            max_response_ms=0.5 * n, cpu_pct=12.5, load={"iodepth": n, "numjobs": 1, "worker_count_per_manager": 8},
        )  # fmt: skip
    return run


@pytest.mark.browser
def test_a_long_run_fits_the_window_pages_its_points_and_marks_the_threshold(long_run, live_server, browser_page):
    page, problems = browser_page.page, browser_page.problems
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/runs/{long_run.id}/?threshold_ms=2.025")
    expect(page.locator("#at-threshold strong")).to_contain_text("4,050 IOPS at 2.025 ms: interpolated")
    curve = page.locator("[data-chart*='/charts/curve.json']")
    expect(curve).to_have_attribute("data-drawn", "true", timeout=20_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")

    headers = page.locator("table.points thead th").all_inner_texts()
    assert headers[:3] == ["#", "Outstanding I/Os", "Threads"]
    assert {"Average response time (ms)", "I/O depth", "Maximum response time (ms)", "IOPS"} <= set(headers)
    assert not any("_" in header for header in headers), headers
    rows = page.locator("table.points tbody tr")
    expect(rows).to_have_count(50)
    expect(page.get_by_text("Points 1 to 50 of 120, 50 a page")).to_be_visible()
    # Point 41: 41 outstanding I/Os, 4,100 IOPS, 2.05 ms.
    row_41 = rows.nth(40).locator("td")
    assert row_41.nth(1).inner_text() == "41"
    assert row_41.nth(headers.index("IOPS")).inner_text() == "4,100"
    assert row_41.nth(headers.index("Average response time (ms)")).inner_text() == "2.05"

    traces = curve.evaluate("e => e.data.map(t => ({name: t.name, x: t.x, y: t.y, size: t.marker.size}))")
    measured, marker = traces[0], traces[-1]
    assert measured["name"] == "measured points" and len(measured["x"]) == 120
    assert marker["name"] == "at threshold: 4,050 IOPS at 2.025 ms"
    assert marker["x"] == [pytest.approx(4050)] and marker["y"] == [2.025]
    assert marker["size"] >= 2 * measured["size"], "the value read at the threshold stands out from the points"
    callouts = curve.evaluate("e => e.layout.annotations.map(a => [a.x, a.y, a.text, a.showarrow])")
    assert callouts == [[pytest.approx(4050), 2.025, "4,050 IOPS at 2.025 ms", True]]

    page.get_by_role("link", name="Next 50 points").click()
    page.wait_for_url("**points=2**")
    assert "threshold_ms=2.025" in page.url, "the threshold is kept from page to page"
    expect(rows).to_have_count(50)
    expect(rows.first.locator("td").nth(1)).to_have_text("51")
    page.get_by_role("link", name="Next 50 points").click()
    expect(rows).to_have_count(20)
    expect(rows.last.locator("td").nth(1)).to_have_text("120")
    expect(page.get_by_role("link", name="Next 50 points")).to_have_count(0)
    expect(curve).to_have_attribute("data-drawn", "true", timeout=20_000)
    assert curve.evaluate("e => e.data[0].x.length") == 120, "the chart shows the whole curve on every page"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
    assert problems == []
