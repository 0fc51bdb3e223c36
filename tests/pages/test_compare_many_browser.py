"""In a real Chromium: the several-systems compare page draws one grouped bar chart per workload, the
baseline first, each system's improvement above its bar, in the colours the two-system page gives A
and B, and links its images.

Seed 000 line 295: with 140 RAID-5 drives the DS4400 (baseline) achieves about 26,640 8K IOPS and the
DS4500 30,020 (+12.7 %); the lab array made here has 29,304, 1.1 x 26,640 (+10.0 %)."""

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from portal.models import System
from tests.exports.test_bundle_background import seed_000_line_295
from tests.factories import ConfigFactory, PointFactory, RunFactory

# A row is a configuration of the baseline: the DS4400 states no cache setting.
CONFIG = "RAID-5, 140 drives"


def number(text):
    return float(text.replace(",", ""))


@pytest.mark.browser
def test_several_systems_get_a_bar_chart_matching_the_table(committed_demo, live_server, browser_page):
    lab = System.objects.create(name="Lab array", published=True)
    config = ConfigFactory(system=lab, raid_level="RAID-5", drive_count=140, read_cache=False, write_cache=False)
    run = RunFactory(config=config, workload_name="Random Reads 8K", read_pct=100, random_pct=100,
                     transfer_sizes=[{"bytes": 8192, "pct": 100}])  # fmt: skip
    PointFactory(run=run, seq=0, iops=29304.0, avg_response_ms=20.0)
    page, problems = browser_page.page, browser_page.problems
    query = [("a", "IBM DS4500"), ("a", "Lab array"), ("b", "IBM DS4400"), ("raid_level", "RAID-5")]
    page.goto(f"{live_server.url}/compare/?{urlencode([*query, ('workload', 'Random Reads 8K')])}")

    section = page.locator("section.workload", has=page.get_by_role("heading", name="Random Reads 8K"))
    cells = section.get_by_role("row", name=CONFIG).locator("td").all_inner_texts()
    ds4500, ds4400 = (number(value) for value in seed_000_line_295())
    assert [number(cells[0]), number(cells[1].split()[0]), number(cells[2].split()[0])] == [ds4400, ds4500, 29304.0]
    # Each system's own configuration states its cache setting, which the baseline's does not.
    own = " its configuration: RAID-5, 140 drives, All Caches Disabled"
    assert cells[1].endswith(f"(12.7 %){own}") and cells[2].endswith(f"(10.0 %){own}")

    chart = section.locator("[data-chart]")
    expect(chart).to_have_attribute("data-drawn", "true", timeout=20_000)
    traces = chart.evaluate("e => e.data.map(t => ({type: t.type, name: t.name, x: t.x, y: t.y, "
                            "text: t.text || null, colour: t.marker.color}))")  # fmt: skip
    assert [t["name"] for t in traces] == ["IBM DS4400 (baseline)", "IBM DS4500", "Lab array"]
    assert {t["type"] for t in traces} == {"bar"}
    at = traces[0]["x"].index(CONFIG)
    assert [t["y"][at] for t in traces] == [ds4400, ds4500, 29304.0]
    # The baseline's bar carries no label (an empty text, or none at all).
    assert [(t["text"][at] if t["text"] else "") or None for t in traces] == [None, "+12.7 %", "+10.0 %"]
    assert len({t["colour"] for t in traces}) == 3
    assert chart.evaluate("e => e.layout.showlegend !== false")

    exports = section.get_by_role("link", name="SVG")
    svg = page.request.get(live_server.url + exports.get_attribute("href"))
    assert svg.ok and svg.body().startswith(b"<svg") and b"Lab array" in svg.body()
    png = page.request.get(live_server.url + section.get_by_role("link", name="PNG").get_attribute("href"))
    assert png.ok and png.body().startswith(b"\x89PNG")

    # The two-system page draws the DS4500 (A) and the DS4400 (B) in the same colours.
    two_systems = {"a": "IBM DS4500", "b": "IBM DS4400", "raid_level": "RAID-5", "workload": "Random Reads 8K"}
    page.goto(f"{live_server.url}/compare/?{urlencode(two_systems)}")
    two = page.locator("section.workload [data-chart]").first
    expect(two).to_have_attribute("data-drawn", "true", timeout=20_000)
    colours = dict(two.evaluate("e => e.data.map(t => [t.name, t.marker.color])"))
    assert colours["A: IBM DS4500"] == traces[1]["colour"] and colours["B: IBM DS4400"] == traces[0]["colour"]
    assert problems == []
