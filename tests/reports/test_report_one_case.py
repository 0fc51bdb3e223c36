"""A comparison of one row says it once: not as both its best and its worst case.

Array A: 1,000 IOPS at 10 ms and 2,000 at 30 ms, 1,500 at 20 ms; Array B: 500 and 1,500 at the same response
times, 1,000 at 20 ms; both cross 20 ms, so +50.0 % is a finding."""

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import Box
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory

ONE = "The one comparison of Array A against Array B: OLTP 8K, RAID-5, 140 drives: +50.0 %."


def _curve(name, points):
    system = SystemFactory(name=name)
    run = RunFactory(config=ConfigFactory(system=system), workload_name="OLTP 8K")
    for seq, (load, iops, response_ms) in enumerate(points):
        PointFactory(run=run, seq=seq, outstanding_io=load, iops=iops, avg_response_ms=response_ms)
    return system


def test_one_row_compared_is_said_once(db):
    a = _curve("Array A", ((4, 1000.0, 10.0), (16, 2000.0, 30.0)))
    b = _curve("Array B", ((4, 500.0, 10.0), (16, 1500.0, 30.0)))
    report = report_content(
        [comparison(a=a, b=b, query=ComparisonQuery(threshold_ms=20.0))], options=ReportOptions(), draw=False
    )
    (summary,) = [block for block in report.blocks if isinstance(block, Box) and block.title == "Lessons learned"]
    assert [line for line in summary.lines if "+50.0 %" in line] == [ONE]
    every = " ".join([report.abstract, *summary.lines])
    assert "Best case" not in every and "Worst case" not in every
    assert report.abstract.count("+50.0 %") == 1 and ONE in report.abstract
