"""The report of IBM DS4500 vs IBM DS4400 (demo data, 20 ms) states every workload both systems measured:
those it compares with their figures in each system's results tables, and why it does not compare the rest.

Figures from seed 000 (000_f52f16ce4c762121.txt): line 295 (RAID-5 Random Reads 8K with 140 HDDs: DS4500
30,020 IOPS, DS4400 26,640), line 244 (File Server with 140 HDDs: 133 and 114 MBps, the DS4400's cache setting
not stated)."""

import pytest

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import System
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import Box, TableBlock

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(demo, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    a, b = System.objects.get(name="IBM DS4500"), System.objects.get(name="IBM DS4400")
    return report_content([comparison(a=a, b=b, query=ComparisonQuery(threshold_ms=20.0))], options=ReportOptions())


def _figures_tables(report):
    return {
        block.key: block
        for block in report.blocks
        if isinstance(block, TableBlock) and block.key.endswith("figures table")
    }


def _cell(table, drives, cache, column):
    """The text of ``column`` in the row of ``drives`` and ``cache`` (a drive count is written on its first row)."""
    index = table.header.index(column)
    current = ""
    for row in table.rows:
        current = row[0].text or current
        if current == drives and row[1].text.startswith(cache):
            return row[index].text
    raise AssertionError(f"no row {drives}, {cache} in {table.caption}")


def test_the_file_server_workload_is_said_not_compared_and_why(report):
    (box,) = [block for block in report.blocks if isinstance(block, Box) and block.title.startswith("File Server")]
    assert box.title == "File Server: not compared"
    # Seed 000 line 244: the DS4400's File Server figure at 140 HDDs states no cache setting; the DS4500's two do.
    # The report says why it is not compared; it points at no control of the compare page.
    assert (
        "B's RAID-5, 140 drives could match A's 'All Caches Disabled' or 'Write Cache Enabled': B states no cache "
        "setting for it, so it is compared with neither." in box.lines
    )


def test_each_systems_tables_hold_the_figures_compared(report):
    tables = _figures_tables(report)
    assert sorted(tables) == [
        "IBM DS4400 RAID-10 figures table",
        "IBM DS4400 RAID-5 figures table",
        "IBM DS4500 RAID-10 figures table",
        "IBM DS4500 RAID-5 figures table",
    ]
    # Seed 000 line 295: RAID-5, 140 HDDs, Random Reads 8K.
    assert (
        _cell(tables["IBM DS4500 RAID-5 figures table"], "140 HDDs", "All Caches Disabled", "Random Reads 8K IOPS")
        == "30,020"
    )
    assert _cell(tables["IBM DS4400 RAID-5 figures table"], "140 HDDs", "", "Random Reads 8K IOPS") == "26,640"


def test_each_systems_tables_have_no_row_without_a_figure(report):
    """The paper's grid of drive counts x cache settings prints a row for every pair; a report's table of the
    runs compared leaves out the pairs with no run compared (seed 000: the DS4400's RAID-5 Write Cache Enabled
    runs are compared for Streaming Writes 64K at 58 drives only, so no such row at 108 or 140 drives)."""
    tables = _figures_tables(report)
    for table in tables.values():
        numeric = [j for j in range(len(table.header)) if table.is_numeric(j)]
        assert all(any(row[j].number is not None for j in numeric) for row in table.rows), table.caption
    ds4400 = tables["IBM DS4400 RAID-5 figures table"]
    drives = ""
    rows = []
    for row in ds4400.rows:
        drives = row[0].text or drives
        rows.append((drives, row[1].text))
    assert ("58 HDDs", "Write Cache Enabled") in rows
    assert ("108 HDDs", "Write Cache Enabled") not in rows and ("140 HDDs", "Write Cache Enabled") not in rows
