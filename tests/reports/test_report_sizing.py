"""The report's "Sizing" section: each compared system's drive-count sweeps of the reported workloads,
with the sizing page's figures; a comparison without sweeps has none.

Seed 000 is 000_f52f16ce4c762121.txt; its Table 4 RAID-5 Random Reads 8K column, All Caches Disabled,
reads 8,365 / 24,395 / 30,180 / 30,020 / 29,480 IOPS at 20 / 60 / 100 / 140 / 180 drives (20 ms)."""

import re

from django.test import Client

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import Heading, TableBlock

PAPER_IOPS = {20: 8365, 60: 24_395, 100: 30_180, 140: 30_020, 180: 29_480}
CAPTION = "IBM DS4500 RAID-5, All Caches Disabled, Random Reads 8K: drives for a target"
ROW = re.compile(
    r'<tr><th scope="row" class="num">(\d+)</th><td class="num">([^<]*)</td>'
    r'<td class="num">([^<]*)</td><td class="num">([^<]*)</td></tr>'
)


def test_the_report_sizes_the_swept_workloads_as_the_sizing_page_does(demo):
    result = comparison(a=demo["IBM DS4500"], b=demo["IBM DS4400"], query=ComparisonQuery(threshold_ms=20.0))
    report = report_content([result], options=ReportOptions())
    headings = [block.text for block in report.blocks if isinstance(block, Heading) and block.level == 1]
    assert headings.index("Sizing") == headings.index("Results") + 1
    tables = {block.caption: block for block in report.blocks if isinstance(block, TableBlock)}
    table = tables[CAPTION]
    assert table.header == (
        "Drives",
        "IOPS at 20 ms from the runs",
        "Model",
        "Predicted with it left out",
        "Error %",
    )
    rows = {int(row[0].text): row for row in table.rows}
    assert {drives: row[1].number for drives, row in rows.items()} == PAPER_IOPS

    query = {"workload": "Random Reads 8K", "raid_level": "RAID-5", "cache": "All Caches Disabled"}
    page = Client().get(f"/systems/{demo['IBM DS4500'].id}/sizing/", query).content.decode()
    page_rows = {int(d): (m, p, e) for d, m, p, e in ROW.findall(page)}
    for drives, row in rows.items():
        measured, _model, predicted, error = (cell.text for cell in row[1:])
        unit = {"–": "–"}
        assert (
            f"{measured} IOPS",
            unit.get(predicted, f"{predicted} IOPS"),
            unit.get(error, f"{error} %"),
        ) == page_rows[drives]
    # The model's sentences come with the table, as on the page.
    assert any(note.startswith("Model: drive-bound / controller-bound") for note in table.notes)
    assert all(note in page for note in table.notes if note.startswith("Error on this sweep"))
    # The DS4400 was measured with 140 drives only: no sweep, no table of its own.
    assert not any(caption.startswith("IBM DS4400") and "drives for a target" in caption for caption in tables)


def test_a_comparison_without_drive_count_sweeps_has_no_sizing_section(demo):
    result = comparison(a=demo["HP EVA4400"], b=demo["HP EVA4100"], query=ComparisonQuery(threshold_ms=30.0))
    report = report_content([result], options=ReportOptions())
    assert "Sizing" not in [block.text for block in report.blocks if isinstance(block, Heading)]
