"""The compare page offers each side's RAID levels, drive counts, cache settings and configurations, compares
a configuration of A chosen against one of B, says what its filters left out and why a cell is empty, and
answers a value a side does not have with a message, never a silent empty page.

Figures are seed 000's (000_f52f16ce4c762121.txt) as the demo data loads them: Table 4 (line 266) gives the
DS4500's 8,365 Random Reads 8K IOPS with 20 RAID-5 drives and all caches disabled; line 295 the DS4400's
26,640 with 140 drives."""

import csv
import html
import io
import re

from portal.models import Config, Run


def _text(response):
    """The page's words, tags taken out."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _options(response, name):
    """The texts of the options of the select ``name``."""
    page = response.content.decode()
    select = re.search(rf'<select id="[^"]*" name="{name}">(.*?)</select>', page, flags=re.S)[1]
    return [html.unescape(text) for text in re.findall(r"<option [^>]*>([^<]*)</option>", select)]


def _section(response, workload):
    page = response.content.decode()
    start = page.index(f">{workload}</h2>")
    return page[start : page.index("</section>", start)]


def _number(text):
    return float(text.replace(",", "").replace("−", "-").strip(" %"))


def _config(system, **properties):
    return Config.objects.get(system__name=system, **properties)


def _b_random_reads(raid_level):
    """The DS4400's configuration of its 140-drive Random Reads 8K figure at ``raid_level``."""
    return Run.objects.get(
        config__system__name="IBM DS4400", config__raid_level=raid_level, workload_name="Random Reads 8K"
    ).config


def test_each_side_offers_the_values_its_runs_have(demo, client):
    response = client.get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400"})
    assert _options(response, "a_raid_level") == ["any", "RAID-10", "RAID-5"]
    assert _options(response, "a_drive_count") == ["any", "20 drives", "60 drives", "100 drives", "140 drives",
                                                   "180 drives"]  # fmt: skip
    assert _options(response, "a_cache") == ["any", "All Caches Disabled", "Write Cache Enabled"]
    # Seed 000 states the DS4400's configurations without their cache setting, but for its streaming writes.
    assert _options(response, "b_drive_count") == ["any", "58 drives", "96 drives", "108 drives", "140 drives"]
    assert _options(response, "b_cache") == ["any", "Write Cache Enabled"]
    configs = _options(response, "b_config")
    assert "RAID-5, 108 drives (1 run)" in configs
    # Two RAID-5 configurations of 140 drives: told apart by what differs between them.
    unrated = _config("IBM DS4400", raid_level="RAID-5", drive_count=140, drive_rpm=None)
    assert sorted(c for c in configs if c.startswith("RAID-5, 140 drives")) == [
        "RAID-5, 140 drives (15,000 rpm, 18.2 GB drives, 1 run)",
        f"RAID-5, 140 drives (configuration #{unrated.id}, 1 run)",
    ]


def test_a_configuration_of_a_compared_with_one_of_b(demo, client):
    a_config = _config("IBM DS4500", raid_level="RAID-5", drive_count=20, read_cache=False, write_cache=False)
    b_config = _b_random_reads("RAID-5")
    query = {"a": "IBM DS4500", "b": "IBM DS4400", "a_config": a_config.id, "b_config": b_config.id}
    response = client.get("/compare/", query)
    assert response.status_code == 200
    section = _section(response, "Random Reads 8K")
    row = re.search(r'<th scope="row">([^<]*)</th>(.*?)</tr>', section, flags=re.S)
    assert row[1] == "RAID-5, 20 vs 140 drives, All Caches Disabled"
    cells = re.findall(r'<td class="num[^"]*">([^<]*)</td>', row[2])
    # (8,365 - 26,640) / 26,640 = -68.6 %
    assert [_number(cell) for cell in cells] == [8365.0, 26640.0, -68.6]
    # The choices stay selected, and every other workload of A says why it is not compared.
    assert f'<option value="{a_config.id}" selected>' in response.content.decode()
    text = _text(response)
    assert "Runs of A (IBM DS4500) in other configurations left out by the configuration choice" in text
    assert "Workloads only one system has With the filters above: the other system's runs of these workloads" in text
    others = Run.objects.filter(config__system__name="IBM DS4400").exclude(config=b_config)
    workloads = len(set(others.values_list("workload_name", flat=True)))
    left_out = (
        f"Runs of B (IBM DS4400) in other configurations left out by the configuration choice: {workloads} workloads."
    )
    assert left_out in text


def test_configurations_of_different_raid_levels_chosen_by_hand_are_compared(demo, client):
    a_config = _config("IBM DS4500", raid_level="RAID-10", drive_count=140, read_cache=False, write_cache=False)
    b_config = _b_random_reads("RAID-5")
    query = {"a": "IBM DS4500", "b": "IBM DS4400", "a_config": a_config.id, "b_config": b_config.id}
    section = _section(client.get("/compare/", query), "Random Reads 8K")
    assert '<th scope="row">RAID-10, 140 drives, All Caches Disabled vs RAID-5, 140 drives</th>' in section


def test_export_links_carry_the_chosen_configurations_and_export_what_the_page_shows(demo, client):
    a_config = _config("IBM DS4500", raid_level="RAID-5", drive_count=20, read_cache=False, write_cache=False)
    b_config = _b_random_reads("RAID-5")
    query = {"a": "IBM DS4500", "b": "IBM DS4400", "a_config": a_config.id, "b_config": b_config.id}
    page = client.get("/compare/", query).content.decode()
    links = [html.unescape(link) for link in re.findall(r'href="(/export/comparison/\?[^"]+format=csv)"', page)]
    assert links and all(f"a_config={a_config.id}" in link and f"b_config={b_config.id}" in link for link in links)
    bundle = html.unescape(re.search(r'href="(/export/bundle/\?[^"]+)"', page)[1])
    assert f"a_config={a_config.id}" in bundle and f"b_config={b_config.id}" in bundle
    rows = list(csv.reader(io.StringIO(client.get(links[0]).content.decode("utf-8-sig"))))
    compared = [row for row in rows if row and row[0] == "Random Reads 8K (IOPS)"]
    assert len(compared) == 1
    assert compared[0][1] == "RAID-5, 20 vs 140 drives, All Caches Disabled"
    assert [_number(cell) for cell in compared[0][2:5]] == [8365.0, 26640.0, -68.6]


def test_what_each_side_filter_left_out_is_said(demo, client):
    query = {"a": "IBM DS4500", "b": "IBM DS4400", "a_raid_level": "RAID-5", "b_raid_level": "RAID-5"}
    text = _text(client.get("/compare/", query))
    # The workloads the DS4500's RAID-10 runs hold, counted here by their names.
    raid_10 = Run.objects.filter(config__system__name="IBM DS4500", config__raid_level="RAID-10")
    names = set(raid_10.values_list("workload_name", flat=True))
    assert f"RAID-10 runs of A (IBM DS4500) left out by the RAID level filter: {len(names)} workloads." in text
    raid_10 = Run.objects.filter(config__system__name="IBM DS4400", config__raid_level="RAID-10")
    names = set(raid_10.values_list("workload_name", flat=True))
    assert f"RAID-10 runs of B (IBM DS4400) left out by the RAID level filter: {len(names)} workloads." in text


def test_a_value_a_side_does_not_have_gets_a_message(demo, client):
    written = client.get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400", "cache": "write cache"})
    assert written.status_code == 400
    assert (
        "Neither IBM DS4500 nor IBM DS4400 has runs with the cache setting write cache; "
        "their cache settings: All Caches Disabled, Write Cache Enabled."
    ) in _text(written)
    other = _config("IBM DS4400", raid_level="RAID-5", drive_count=108)
    foreign = client.get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400", "a_config": other.id})
    assert foreign.status_code == 400
    assert f"IBM DS4500 (A) has no configuration #{other.id} with runs to compare" in _text(foreign)
    raid = client.get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400", "b_raid_level": "RAID 6"})
    assert "IBM DS4400 (B) has no RAID-6 runs to compare; its RAID levels: RAID-10, RAID-5." in _text(raid)
    exported = client.get("/export/comparison/", {"a": "IBM DS4500", "b": "IBM DS4400", "b_raid_level": "RAID 6"})
    assert exported.status_code == 400 and "IBM DS4400 (B) has no RAID-6 runs" in exported.content.decode()


def test_every_workload_without_a_figure_at_a_percentile_says_why(demo, client):
    response = client.get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400", "latency": "p99", "threshold_ms": "5"})
    page = response.content.decode()
    headings = re.findall(r'<h2 id="w\d+">([^<]*)</h2>', page)
    assert len(headings) == 4
    why = "published figures are stated at an average response time; no percentiles."
    for workload in headings:
        section = _text_of(_section(response, workload))
        assert f"No figure of A (IBM DS4500) at the threshold: {why}" in section
        assert f"No figure of B (IBM DS4400) at the threshold: {why}" in section


def _text_of(fragment):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_three_systems_say_why_a_cell_is_empty_and_what_only_one_has(demo, client):
    response = client.get("/compare/?a=IBM+DS4500&a=IBM+DS5020&b=IBM+DS4400")
    section = _section(response, "Random Reads 8K")
    row = re.search(r'<th scope="row">RAID-5, 140 drives</th>(.*?)</tr>', section, flags=re.S)[1]
    cells = [_text_of(cell) for cell in re.findall(r'<td class="num">(.*?)</td>', row, flags=re.S)]
    assert cells[1] == "30,020 (12.7 %) its configuration: RAID-5, 140 drives, All Caches Disabled"
    assert cells[2] == "– no run of this workload"
    text = _text(response)
    assert (
        "IBM DS4500 performs 12.7 % better than IBM DS4400 for RAID-5 Random Reads 8K"
        " (All Caches Disabled against cache setting not stated)"
    ) in text
    assert "Only IBM DS4400 (baseline), not IBM DS5020: File Server, Random Reads 8K, Streaming Reads 64K" in text
    assert "Only IBM DS5020: ESG Web Server" in text
    export = re.search(r'href="(/export/comparison/\?[^"]+format=csv)"', response.content.decode())[1]
    rows = client.get(html.unescape(export)).content.decode("utf-8-sig")
    assert "Random Reads 8K, RAID-5, 140 drives: IBM DS5020: no run of this workload." in rows
