"""The improvement cell states what the sentences state: no difference where they state none (figures
published at another threshold), on the page, its chart and its exports."""

import html
import io
import re

from django.core.management import call_command

from tests.pages.test_compare_thresholds import DEVICES, _points
from tests.samples import sample

QUERY = {"a": "IBM DS4500", "b": "IBM DS4400", "raid_level": "RAID-5", "workload": "Random Reads 8K"}


def _text(fragment):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_figures_published_at_20_ms_shown_at_1_ms_state_no_improvement(demo, client):
    # Seed 000 line 295: 30,020 vs 26,640 8K IOPS, RAID-5, published at 20 ms: +12.7 % there, none at 1 ms.
    at_1 = {**QUERY, "threshold_ms": "1"}
    page = client.get("/compare/", at_1).content.decode()
    assert "No difference is stated at 1 ms" in _text(page)
    row = re.search(r'<th scope="row">RAID-5, 140 drives, All Caches Disabled</th>(.*?)</tr>', page, flags=re.S)[1]
    cells = [_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)]
    assert cells[:3] == ["30,020", "26,640", "–"]
    assert "improvement not stated at 1 ms: published at 20 ms" in cells[-1]
    assert "12.7" not in row
    csv_text = client.get("/export/comparison/", {**at_1, "format": "csv"}).content.decode()
    assert 'Random Reads 8K (IOPS),"RAID-5, 140 drives, All Caches Disabled",30020,26640,–' in csv_text, csv_text
    assert "improvement not stated at 1 ms: published at 20 ms" in csv_text
    markdown = client.get("/export/comparison/", {**at_1, "format": "markdown"}).content.decode()
    assert "12.7" not in markdown and "| 30,020 | 26,640 | – |" in markdown, markdown
    chart = client.get("/compare/chart.json", {**at_1, "label": "Random Reads 8K"}).json()
    assert "+12.7 %" not in str(chart)
    # At 20 ms, where they were published, the difference is stated.
    at_20 = client.get("/compare/", QUERY).content.decode()
    row = re.search(r'<th scope="row">RAID-5, 140 drives, All Caches Disabled</th>(.*?)</tr>', at_20, flags=re.S)[1]
    assert "12.7 %" in _text(row)
    chart_20 = client.get("/compare/chart.json", {**QUERY, "label": "Random Reads 8K"}).json()
    assert "+12.7 %" in str(chart_20)


def test_an_improvement_over_a_lower_bound_is_marked_at_most_as_its_sentence_says(db, data_dir, client):
    # At 20 ms the MX200 x3 RAID-0 grid (samples/fio-grids) crosses the threshold and the Intel sweep
    # (samples/fio-sweeps, highest 0.920 ms) does not: B's figure is its best file, a lower bound, so A's
    # improvement is at most what the figures give, "≤" in every cell that prints it.
    grid = sample("fio-grids", "fioplot_HPDL380G8-H420i-Crucial-MX200x3_RAID0")
    intel = sample("fio-sweeps", DEVICES["Intel D3-S4610"])
    call_command("ingest", str(grid), "--system", "MX200 x3", stdout=io.StringIO())
    call_command("ingest", str(intel), "--system", "Intel D3-S4610", stdout=io.StringIO())
    best_b = round(max(iops for _, iops, _ in _points(DEVICES["Intel D3-S4610"])))
    query = {"a": "MX200 x3", "b": "Intel D3-S4610", "threshold_ms": "20"}
    page = client.get("/compare/", query).content.decode()
    said = re.search(r"MX200 x3 performs at most ([\d.]+) % better than Intel D3-S4610", _text(page))
    assert said, _text(page)
    pct = said[1]
    row = re.search(r'<th scope="row">RAID level not stated</th>(.*?)</tr>', page, flags=re.S)[1]
    cells = [_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)]
    assert cells[1:3] == [f"≥ {best_b:,}", f"≤ {pct} %"]
    csv_text = client.get("/export/comparison/", {**query, "format": "csv"}).content.decode()
    assert f'"≥ {best_b:,}",≤ {pct}\r\n' in csv_text, csv_text
    assert "≤: an upper bound, an improvement over a lower bound." in csv_text
    markdown = client.get("/export/comparison/", {**query, "format": "markdown"}).content.decode()
    assert f"| ≥ {best_b:,} | ≤ {pct} |" in markdown, markdown
