"""In a real Chromium: choosing a configuration of A and one of B among those the compare page offers
compares those two, and the address keeps the choice.

Seed 000 (000_f52f16ce4c762121.txt) Table 4, line 266: the DS4500's 8,365 Random Reads 8K IOPS with 20
RAID-5 drives and all caches disabled; line 295: the DS4400's 26,640 with 140 drives."""

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from portal.models import Run


def number(text):
    return float(text.replace(",", "").replace("−", "-").strip(" %"))


@pytest.mark.browser
def test_picking_a_configuration_of_each_side_changes_the_table(committed_demo, live_server, browser_page):
    b_config = Run.objects.get(
        config__system__name="IBM DS4400", config__raid_level="RAID-5", workload_name="Random Reads 8K"
    ).config
    page, problems = browser_page.page, browser_page.problems
    page.goto(f"{live_server.url}/compare/?{urlencode({'a': 'IBM DS4500', 'b': 'IBM DS4400'})}")
    section = page.locator("section.workload", has=page.get_by_role("heading", name="Random Reads 8K"))
    before = section.locator("tbody th").all_inner_texts()
    assert "RAID-5, 20 vs 140 drives, All Caches Disabled" not in before

    page.locator("#side-a").get_by_label("or one configuration").select_option(
        label="RAID-5, 20 drives, All Caches Disabled (11 runs)"
    )
    b_choice = page.locator("#side-b").get_by_label("or one configuration")
    b_choice.select_option(value=str(b_config.id))
    page.get_by_role("button", name="Compare").click()

    section = page.locator("section.workload", has=page.get_by_role("heading", name="Random Reads 8K"))
    row = section.get_by_role("row", name="RAID-5, 20 vs 140 drives, All Caches Disabled")
    expect(row).to_be_visible()
    cells = row.locator("td").all_inner_texts()
    assert [number(cells[0]), number(cells[1]), number(cells[2])] == [8365.0, 26640.0, -68.6]
    assert f"b_config={b_config.id}" in page.url and "a_config=" in page.url
    expect(page.locator("#side-b").get_by_label("or one configuration")).to_have_value(str(b_config.id))
    left_out = "Runs of A (IBM DS4500) in other configurations left out by the configuration choice"
    expect(page.get_by_text(left_out)).to_be_visible()
    assert problems == []
