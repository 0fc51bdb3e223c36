"""A report of a comparison whose baseline did no I/O at the threshold: the row is reported without an
improvement, as the compare page shows it, and the best and worst cases are those with one."""

from portal.comparisons.selectors import comparison
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import Paragraph, TableBlock
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory


def _run(system, points):
    run = RunFactory(config=ConfigFactory(system=system, drive_count=140), workload_name="OLTP 8K sweep")
    for seq, (load, iops, response_ms) in enumerate(points):
        PointFactory(run=run, seq=seq, outstanding_io=load, iops=iops, avg_response_ms=response_ms)
    return run


def test_a_baseline_of_zero_is_reported_without_an_improvement(db):
    a, b = SystemFactory(name="Array A"), SystemFactory(name="Array B")
    # A crosses 20 ms halfway from 12 ms (9,000 IOPS) to 28 ms (11,000 IOPS): 10,000 IOPS.
    _run(a, ((4, 5000.0, 4.0), (16, 9000.0, 12.0), (64, 11000.0, 28.0)))
    # B failed: 0 IOPS at 2 ms and 30 ms.
    _run(b, ((4, 0.0, 2.0), (8, 0.0, 30.0)))
    report = report_content([comparison(a=a, b=b)], options=ReportOptions())

    tables = [block for block in report.blocks if isinstance(block, TableBlock) and "Improvement" in block.header]
    assert len(tables) == 1
    row = tables[0].rows[0]
    improvement = row[tables[0].header.index("Improvement")]
    assert (improvement.text, improvement.number) == ("", None)
    assert [cell.text for cell in row[1:3]] == ["10,000", "0"]
    said = " ".join(block.text for block in report.blocks if isinstance(block, Paragraph))
    assert "Best case" not in said and "Worst case" not in said
