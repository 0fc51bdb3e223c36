"""The improvement as the compare page states it, in every other way out: ``/api/v1/compare/``,
``manage.py compare``, the table of several systems against one baseline and the report's best and worst
cases. Three arrays measured here, each one OLTP 8K curve of RAID-5 with 140 drives:

- "Crossing array" crosses 20 ms halfway from 10 ms (1,000 IOPS) to 30 ms (2,000 IOPS): 1,500 IOPS;
- "Bound array" tops out at 15 ms with 1,200 IOPS: at 20 ms a lower bound (its best point);
- "Slow array" tops out at 12 ms with 900 IOPS: a lower bound too.

Crossing against Bound: (1,500 - 1,200) / 1,200 = +25.0 %, at most (B's figure is a lower bound).
Bound against Crossing: (1,200 - 1,500) / 1,500 = -20.0 %, at least (A's figure is).
Slow against Bound: both lower bounds, no difference stated (900 / 1,200 would be -25.0 %).
"""

import io
import json

import pytest
from django.core.management import call_command

from portal.comparisons.selectors import comparison, multi_comparison
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import Box
from portal.publishing.multi_tables import multi_comparison_table
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory


def _curve(name, points, *, workload="OLTP 8K", rpm=None, firmware=""):
    system = SystemFactory(name=name)
    config = ConfigFactory(system=system, drive_rpm=rpm)
    run = RunFactory(config=config, workload_name=workload, firmware=firmware)
    for seq, (load, iops, response_ms) in enumerate(points):
        PointFactory(run=run, seq=seq, outstanding_io=load, iops=iops, avg_response_ms=response_ms)
    return system


@pytest.fixture
def arrays(db):
    return {
        "crossing": _curve("Crossing array", ((4, 1000.0, 10.0), (16, 2000.0, 30.0))),
        "bound": _curve("Bound array", ((4, 800.0, 5.0), (16, 1200.0, 15.0))),
        "slow": _curve("Slow array", ((4, 600.0, 4.0), (16, 900.0, 12.0))),
    }


def _api_row(api, a, b, threshold_ms="20"):
    body = api.get("/api/v1/compare/", {"a": a, "b": b, "threshold_ms": threshold_ms}).json()
    ((row,),) = [workload["rows"] for workload in body["comparisons"][0]["workloads"]]
    return row


def test_the_api_gives_the_improvement_as_the_page_states_it(arrays, api):
    at_most = _api_row(api, "Crossing array", "Bound array")
    assert (at_most["a"]["value"], at_most["b"]["value"]) == (1500.0, 1200.0)
    assert at_most["b"]["status"] == "not_reached"
    assert (at_most["improvement_pct"], at_most["improvement_bound"]) == (pytest.approx(25.0), "at_most")
    assert at_most["improvement_not_stated"] == ""
    at_least = _api_row(api, "Bound array", "Crossing array")
    assert (at_least["improvement_pct"], at_least["improvement_bound"]) == (pytest.approx(-20.0), "at_least")
    neither = _api_row(api, "Slow array", "Bound array")
    assert (neither["a"]["value"], neither["b"]["value"]) == (900.0, 1200.0)
    assert (neither["improvement_pct"], neither["improvement_bound"]) == (None, None)
    assert neither["improvement_not_stated"] == "neither reaches 20 ms: both figures are lower bounds"
    # At 40 ms the crossing array's best point (2,000 IOPS at 30 ms) is a lower bound as well.
    both = _api_row(api, "Crossing array", "Bound array", threshold_ms="40")
    assert (both["improvement_pct"], both["improvement_not_stated"]) == (
        None,
        "neither reaches 40 ms: both figures are lower bounds",
    )


def test_the_command_marks_bounds_and_states_no_difference_of_two_lower_bounds(arrays):
    out = io.StringIO()
    call_command("compare", "Crossing array", "Bound array", stdout=out)
    (line,) = [line for line in out.getvalue().splitlines() if line.startswith("  RAID-5, 140 drives")]
    assert "A    1,500.0  B  ≥ 1,200.0  ≤ +25.0 %" in line
    out = io.StringIO()
    call_command("compare", "Slow array", "Bound array", stdout=out)
    (line,) = [line for line in out.getvalue().splitlines() if line.startswith("  RAID-5, 140 drives")]
    assert "A    ≥ 900.0  B  ≥ 1,200.0          –" in line
    assert "-25.0" not in out.getvalue()
    out = io.StringIO()
    call_command("compare", "Bound array", "Crossing array", "--format", "json", stdout=out)
    (row,) = json.loads(out.getvalue())["rows"]
    assert (row["improvement_pct"], row["improvement_bound"], row["improvement_not_stated"]) == (-20.0, "at_least", "")
    out = io.StringIO()
    call_command("compare", "Slow array", "Bound array", "--format", "markdown", stdout=out)
    assert "| OLTP 8K | RAID-5, 140 drives | ≥ 900.0 | ≥ 1,200.0 | – |" in out.getvalue()


def test_the_table_of_several_systems_marks_bounds_and_says_why_none_is_stated(arrays, client):
    multi = multi_comparison(candidates=[arrays["crossing"], arrays["slow"]], baseline=arrays["bound"])
    table = multi_comparison_table(multi)
    ((headers, cells),) = [(row[:2], row[2:]) for row in table.body_rows()]
    assert headers == ["OLTP 8K (IOPS)", "RAID-5, 140 drives"]
    assert cells == ["≥ 1,200", "1,500", "≥ 900", "≤ 25.0", "–"]
    assert (
        "OLTP 8K, RAID-5, 140 drives: Slow array: improvement not stated: neither reaches 20 ms: both figures are"
        " lower bounds." in table.footnotes
    )
    query = {"a": ["Crossing array", "Slow array"], "b": "Bound array"}
    page = client.get("/compare/", query).content.decode()
    assert "(≤ 25.0 %)" in page and "(–)" in page and "-25.0" not in page


def test_the_reports_best_and_worst_case_are_findings_never_a_bound(db):
    """OLTP 8K: A 1,500 against B's 1,000 at 20 ms, both crossing it: +50.0 %. Random Reads 8K: A 1,500
    against B's best point 500 (a lower bound): at most +200.0 %, larger, and no best case; OLTP 8K the one finding."""
    a = _curve("Array A", ((4, 1000.0, 10.0), (16, 2000.0, 30.0)))
    b = _curve("Array B", ((4, 500.0, 10.0), (16, 1500.0, 30.0)))
    for system, points in ((a, ((4, 1000.0, 10.0), (16, 2000.0, 30.0))), (b, ((4, 300.0, 5.0), (16, 500.0, 9.0)))):
        run = RunFactory(config=system.configs.get(), workload_name="Random Reads 8K", read_pct=100)
        for seq, (load, iops, response_ms) in enumerate(points):
            PointFactory(run=run, seq=seq, outstanding_io=load, iops=iops, avg_response_ms=response_ms)
    report = report_content([comparison(a=a, b=b)], options=ReportOptions(), draw=False)
    (summary,) = [block for block in report.blocks if isinstance(block, Box) and block.title == "Lessons learned"]
    cases = [line for line in summary.lines if line.startswith(("Best case", "Worst case", "The one"))]
    # The one finding is said once, as the only one read at the threshold (the other row is a bound).
    assert cases == [
        "The one comparison of Array A against Array B read at the threshold: OLTP 8K, RAID-5, 140 drives: +50.0 %."
    ]
    assert "Array A performs at most 200.0 % better than Array B for RAID-5 Random Reads 8K" in " ".join(summary.lines)
    assert "200.0" not in report.abstract


def test_a_difference_of_drive_speed_or_firmware_is_named(db):
    """Both stated and different: named. Stated on one side only: not a known difference."""
    a = _curve("Fast array", ((4, 1000.0, 10.0), (16, 2000.0, 30.0)), rpm=15000, firmware="07.30")
    b = _curve("Older array", ((4, 500.0, 10.0), (16, 1500.0, 30.0)), rpm=10000, firmware="07.15")
    c = _curve("Unstated array", ((4, 500.0, 10.0), (16, 1500.0, 30.0)))
    (said,) = [s for workload in comparison(a=a, b=b).workloads for s in workload.summaries]
    # (1,500 - 1,000) / 1,000 = +50.0 %.
    assert said == (
        "Fast array performs 50.0 % better than Older array for RAID-5 OLTP 8K"
        " (15,000 against 10,000 rpm; firmware 07.30 against 07.15)"
    )
    (said,) = [s for workload in comparison(a=a, b=c).workloads for s in workload.summaries]
    assert said == "Fast array performs 50.0 % better than Unstated array for RAID-5 OLTP 8K"
