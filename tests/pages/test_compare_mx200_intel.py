"""MX200 x3 (fio-plot's MX200x3_RAID0 grid, samples/fio-grids/, uploaded as RAID-0, 3 SSDs) compared with the
Intel D3-S4610 (fio-plot's randread sweep, samples/fio-sweeps/, one SSD, its RAID level not stated): every table,
legend and note gives each side its own configuration."""

import csv
import html
import io
import json
import re

import pytest
from django.core.management import call_command
from openpyxl import load_workbook

from portal.comparisons.filters import SideFilters
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import Config, System
from portal.publishing.content import ReportOptions, report_content
from tests.samples import sample

MX200 = "fioplot_HPDL380G8-H420i-Crucial-MX200x3_RAID0"
INTEL = "fioplot_intel-d3-s4610_randread"
QUERY = {"a": "MX200 x3", "b": "Intel D3-S4610"}


@pytest.fixture
def pair(db, data_dir):
    call_command(
        "ingest", str(sample("fio-grids", MX200)), "--system", "MX200 x3",
        "--config", "raid_level=RAID-0", "--config", "drive_count=3", "--config", "drive_type=SSD",
        stdout=io.StringIO(),
    )  # fmt: skip
    call_command(
        "ingest", str(sample("fio-sweeps", INTEL)), "--system", "Intel D3-S4610",
        "--config", "drive_count=1", "--config", "drive_type=SSD", stdout=io.StringIO(),
    )  # fmt: skip
    (mx200,) = Config.objects.filter(system__name="MX200 x3")
    (intel,) = Config.objects.filter(system__name="Intel D3-S4610")
    return {**QUERY, "a_config": mx200.id, "b_config": intel.id}


def _best_intel_iops():
    """The Intel sweep's best point, its lower bound at 20 ms (no file reaches it): the highest
    ``jobs[0].read.iops`` of its randread-*-1.json files (69,656 at iodepth 32)."""
    files = sample("fio-sweeps", INTEL).glob("randread-*-1.json")
    return max(json.loads(path.read_text())["jobs"][0]["read"]["iops"] for path in files)


def _mx200_iops_at_20_ms():
    """MX200 x3's 4 KiB random read at 20 ms, read off the grid's upper envelope: its best cell at or under 20 ms,
    randread-32-16.json (``jobs[0].read.iops`` 144,392 at ``lat_ns.mean`` 3.54 ms); the only cell over 20 ms,
    randread-64-64.json (140,295 at 29.17 ms), does less, so nothing is interpolated."""
    return json.loads(sample("fio-grids", MX200, "randread-32-16.json").read_text())["jobs"][0]["read"]["iops"]


def test_the_white_paper_table_gives_each_side_its_own_raid_level(pair, client):
    intel, mx200 = round(_best_intel_iops()), round(_mx200_iops_at_20_ms())
    assert (mx200, intel) == (144_392, 69_656)
    export = {**pair, "format": "csv"}
    lines = list(csv.reader(io.StringIO(client.get("/export/comparison/", export).content.decode("utf-8-sig"))))
    start = lines.index(["Performance at 20 ms average response time, end to end"])
    assert lines[start + 1 : start + 4] == [
        ["", "", "At 20 ms", ""],
        ["Workload", "RAID level", "MX200 x3 (3 drives)", "Intel D3-S4610 (1 drive)"],
        ["4 KiB random read IOPS", "RAID-0 vs not stated", str(mx200), f"≥ {intel:,}"],
    ]
    markdown = client.get("/export/comparison/", {**pair, "format": "markdown"}).content.decode()
    assert f"| 4 KiB random read IOPS | RAID-0 vs not stated | 144,392 | ≥ {intel:,} |" in markdown
    workbook = load_workbook(io.BytesIO(client.get("/export/comparison/", {**pair, "format": "xlsx"}).content))
    rows = list(workbook.worksheets[2].iter_rows(values_only=True))
    assert ("4 KiB random read IOPS", "RAID-0 vs not stated") in [tuple(row[:2]) for row in rows]
    assert not any(cell == "RAID-0" for row in rows for cell in row)


def _report(pair):
    a, b = (System.objects.get(name=pair[side]) for side in ("a", "b"))
    result = comparison(
        a=a,
        b=b,
        query=ComparisonQuery(
            a_side=SideFilters(config_id=pair["a_config"]), b_side=SideFilters(config_id=pair["b_config"])
        ),
    )
    return report_content([result], options=ReportOptions())


def test_each_legend_names_its_own_sides_configuration(pair, client):
    chart = client.get("/compare/chart.json", {**pair, "label": "4 KiB random read"}).json()
    (figure,) = [block.figure for block in _report(pair).figures() if block.key == "4 KiB random read"]
    for names in ([trace["name"] for trace in chart["data"]], [trace.name for trace in figure.data]):
        assert names == [
            "A: MX200 x3, RAID-0, 3 drives",
            # The grid's best cell at or under 20 ms (randread-32-16.json: 144,392 IOPS at 3.54 ms average).
            "A: MX200 x3, RAID-0, 3 drives: 144,392 IOPS at 20 ms (the best point at or under it, measured at 3.54 ms)",
            "B: Intel D3-S4610, RAID level not stated, 1 drive",
            # The sweep's best point (randread-32-1.json: 69,656 IOPS at 0.458 ms average); no file reaches 20 ms.
            "B: Intel D3-S4610, RAID level not stated, 1 drive: at least 69,656 IOPS at 20 ms"
            " (a lower bound, measured at 0.458 ms)",
            "threshold 20 ms",
        ]


def test_a_lower_bounds_share_of_each_drive_is_marked_a_lower_bound(pair, client):
    intel, mx200 = round(_best_intel_iops()), round(_mx200_iops_at_20_ms())
    # MX200 x3's figure at 20 ms over its 3 drives (a measured cell, no bound); the Intel's best point over its 1.
    per_drive = f"per drive: MX200 x3 {round(mx200 / 3):,} IOPS, Intel D3-S4610 ≥ {intel:,} IOPS"
    assert per_drive == "per drive: MX200 x3 48,131 IOPS, Intel D3-S4610 ≥ 69,656 IOPS"
    system = System.objects.get(name="Intel D3-S4610")
    page = client.get(f"/systems/{system.id}/").content.decode()
    row = re.search(r'<a href="/runs/\d+/">#\d+</a></td>(.*?)</tr>', page, flags=re.S)[1]
    cells = [_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)]
    # At threshold, Per drive, How read.
    assert cells[-3:] == [f"≥ {intel:,} IOPS", f"≥ {intel:,} IOPS", "a lower bound (threshold not reached)"]
    assert per_drive in _text(client.get("/compare/", pair).content.decode())
    where = "4 KiB random read, RAID-0, 3 drives vs RAID level not stated, 1 drive"
    lines = list(csv.reader(io.StringIO(client.get("/export/comparison/", {**pair, "format": "csv"}).content.decode())))
    assert [f"{where}: {per_drive}."] in lines
    markdown = client.get("/export/comparison/", {**pair, "format": "markdown"}).content.decode()
    assert f"{where}: {per_drive}." in markdown.splitlines()
    report = _report(pair)
    (provenance,) = [block for block in report.blocks if getattr(block, "key", "") == "Provenance table"]
    assert [[cell.text for cell in row[1:3]] for row in provenance.rows] == [
        ["A: MX200 x3", f"{mx200:,} IOPS"],
        ["B: Intel D3-S4610", f"≥ {intel:,} IOPS"],
    ]
    # The report's results notes (its PDF and Word read them) say the same per drive.
    notes = [line for block in report.blocks for line in getattr(block, "notes", ())]
    assert any(per_drive in note for note in notes)


def _text(fragment):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_one_drive_is_one_drive_in_the_filters_and_the_reports_environment_tables(pair, client):
    page = client.get("/compare/", pair).content.decode()
    options = {
        side: [_text(option) for option in re.findall(r"<option[^>]*>(.*?)</option>", select)]
        for side, select in re.findall(r'<select id="id_(\w)_drive_count"[^>]*>(.*?)</select>', page, flags=re.S)
    }
    # The configurations as uploaded: MX200 x3 with drive_count=3, the Intel with drive_count=1.
    assert options == {"a": ["any", "3 drives"], "b": ["any", "1 drive"]}
    report = _report(pair)
    tested = {
        block.caption: [cell.text for row in block.rows for cell in row[1:] if row[0].text == "RAID levels and drive "
                        "counts tested"]
        for block in report.blocks
        if getattr(block, "caption", "").startswith("Measurement environment of ")
    }  # fmt: skip
    assert tested == {
        "Measurement environment of MX200 x3": ["RAID-0: 3 drives"],
        "Measurement environment of Intel D3-S4610": ["RAID level not stated: 1 drive"],
    }
