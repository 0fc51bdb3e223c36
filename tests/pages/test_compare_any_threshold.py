"""A comparison at any threshold or latency reads each run's curve in the database: the figures are the
ones the rules give (interpolated between two measured points, a lower bound, no value), and no query reads
the points into Python."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.comparisons.selectors import comparison
from portal.models import System
from tests.pages.test_compare_thresholds import QUERY, ssds  # noqa: F401 (the fixture)


def _figure_at(throughputs, responses, threshold_ms, rule="interpolate"):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT * FROM arraybench_figure_at(%s::float8[], %s::float8[], %s, %s)",
            [throughputs, responses, threshold_ms, rule],
        )
        return cursor.fetchone()


@pytest.mark.django_db
def test_the_database_reads_a_curve_by_the_papers_rules():
    iops, ms = [1000.0, 2000.0, 3000.0], [5.0, 15.0, 45.0]
    # 30 ms lies half way from 15 ms to 45 ms: half way from 2,000 to 3,000 IOPS.
    assert _figure_at(iops, ms, 30) == (2500.0, "interpolated", True)
    assert _figure_at(iops, ms, 15) == (2000.0, "measured", True)
    assert _figure_at(iops, ms, 60) == (3000.0, "not_reached", False)
    assert _figure_at(iops, ms, 4) == (None, "first_point_over", True)
    assert _figure_at([], [], 20) == (None, "no_data", False)
    # HP's rule: the best point at or under the threshold.
    assert _figure_at(iops, ms, 30, "at_or_below") == (2000.0, "measured", True)
    assert _figure_at(iops, ms, 60, "at_or_below") == (3000.0, "not_reached", False)
    assert _figure_at(iops, ms, 4, "at_or_below") == (None, "first_point_over", True)


def _row(result):
    (workload,) = result.workloads
    (row,) = workload.rows
    return row


def test_fio_sweeps_compared_at_another_threshold_give_the_interpolated_figures(ssds):  # noqa: F811
    a, b = (System.objects.get(name=QUERY[side]) for side in ("a", "b"))
    with CaptureQueriesContext(connection) as queries:
        row = _row(comparison(a=a, b=b, threshold_ms=0.2))
    for value, points in zip((row.a_value, row.b_value), ssds.values(), strict=True):
        # fio's own JSON: between the last point at or under 0.2 ms (iodepth 8) and the first over it (16).
        (_, under_iops, under_ms), (_, over_iops, over_ms) = [p for p in points if p[0] in (8, 16)]
        assert value == pytest.approx(under_iops + (over_iops - under_iops) * (0.2 - under_ms) / (over_ms - under_ms))
    assert [figure.status for figure in row.a_figures.figures()] == ["interpolated"]
    assert not row.a_figures.not_reached and not row.b_figures.not_reached
    assert not [query for query in queries if 'FROM "portal_point"' in query["sql"]], "no point read into Python"
