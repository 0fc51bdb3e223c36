"""Random curves read by ``throughput_at`` (Python) and by the database's ``arraybench_figure_at`` from the curve
as it is stored (``run_curve_row``, the store's COPY, and ``runs_curves_recompute``, from stored points): the
same figure, status and whether the threshold was reached, whatever the order the points come in.

The curves are drawn to hit every awkward case: loads from 1 to 4 (so points of equal load are common),
response times that fall as the load rises, response times and throughputs repeating exactly, single points,
every point over or under the threshold, points without a response time or without a throughput, and
thresholds at a point's own response time. A run's MB/s follow its IOPS (one transfer size of 64 KiB).
``make test`` draws 300 curves (the same ones every run); ``make fuzz`` (``HYPOTHESIS_PROFILE=fuzz``)
draws ``FUZZ_EXAMPLES`` (3,000) new ones.
"""

import os

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from portal.analysis.curves import CurvePoint, throughput_at
from portal.models import Point, RunCurve
from portal.results.figures import CURVE_COLUMNS, run_curve_row, runs_curves_recompute
from tests.factories import RunFactory

FUZZ = os.environ.get("HYPOTHESIS_PROFILE", "default") == "fuzz"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "3000")) if FUZZ else 300
MB_PER_IO = 65536 / 1e6

FIGURE_AT = """
SELECT value, status, reached FROM arraybench_figure_at(
    %s::double precision[], %s::double precision[], %s, %s, %s::double precision[], %s)
"""

responses = st.one_of(st.none(), st.sampled_from([0.5, 2.0, 5.0, 15.0, 20.0, 30.0]), st.floats(0.1, 60.0))
throughputs = st.one_of(st.none(), st.sampled_from([0.0, 100.0, 150.0, 200.0]), st.floats(0.0, 5000.0))
points = st.lists(st.tuples(st.integers(1, 4), throughputs, responses), min_size=1, max_size=10)


def _contract_point(load, iops, response_ms):
    """A point as the result contract gives it to the store."""
    mbps = None if iops is None else iops * MB_PER_IO
    return {"load": {"outstanding_io": load}, "iops": iops, "mbps": mbps, "avg_response_ms": response_ms}


def _python(drawn, *, metric, threshold_ms, rule):
    """``throughput_at`` on the points with a throughput, as ``points_curve`` passes them."""
    chosen = [_contract_point(*point) for point in drawn]
    curve = [
        CurvePoint(p["load"]["outstanding_io"], p[metric], p["avg_response_ms"])
        for p in chosen
        if p[metric] is not None
    ]
    answer = throughput_at(curve, threshold_ms=threshold_ms, rule=rule)
    return answer.value, str(answer.status), answer.reached


def _database(row, *, metric, threshold_ms, rule):
    """``arraybench_figure_at`` on a stored curve row (:data:`CURVE_COLUMNS`), as a comparison calls it."""
    curve = dict(zip(CURVE_COLUMNS, row, strict=True))
    highest = curve["highest_avg_response_ms"] or curve["avg_response_ms"]
    with connection.cursor() as cursor:
        cursor.execute(
            FIGURE_AT,
            [curve[metric], curve["avg_response_ms"], threshold_ms, rule, highest, curve[f"peak_{metric}"]],
        )
        return cursor.fetchone()


def _same(found, expected):
    value, status, reached = found
    assert (status, reached) == expected[1:]
    assert value == (None if expected[0] is None else pytest.approx(expected[0], rel=1e-9, abs=1e-9))


@pytest.mark.django_db
@settings(
    max_examples=EXAMPLES,
    derandomize=not FUZZ,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    drawn=points,
    order=st.randoms(use_true_random=False),
    threshold=st.one_of(st.sampled_from([5.0, 20.0, 30.0]), st.floats(0.1, 70.0)),
    at_a_point=st.booleans(),
    rule=st.sampled_from(["interpolate", "at_or_below"]),
    metric=st.sampled_from(["iops", "mbps"]),
)
def test_the_database_reads_every_random_curve_as_throughput_at_does(drawn, order, threshold, at_a_point, rule, metric):
    known = [response for _, _, response in drawn if response is not None]
    threshold_ms = known[0] if at_a_point and known else threshold
    expected = _python(drawn, metric=metric, threshold_ms=threshold_ms, rule=rule)
    # The same points in another order give the same answer, in Python and in the stored curve.
    shuffled = list(drawn)
    order.shuffle(shuffled)
    assert _python(shuffled, metric=metric, threshold_ms=threshold_ms, rule=rule) == pytest.approx(expected)
    for given_order in (drawn, shuffled):
        row = run_curve_row(run_id=0, points=[_contract_point(*p) for p in given_order], percentiles=[])
        _same(_database(row, metric=metric, threshold_ms=threshold_ms, rule=rule), expected)


# The points of equal load of the example: (load, IOPS, average response time in ms).
EQUAL_LOADS = [(1, 100.0, 5.0), (2, 200.0, 30.0), (2, 150.0, 15.0)]


def test_points_of_equal_load_are_read_in_increasing_response_time_whatever_their_order():
    # At 20 ms: between (2, 150 IOPS, 15 ms) and (2, 200 IOPS, 30 ms), 150 + 5/15 * 50 = 166.7 IOPS.
    for given_order in (EQUAL_LOADS, [EQUAL_LOADS[0], EQUAL_LOADS[2], EQUAL_LOADS[1]]):
        answer = throughput_at([CurvePoint(*point) for point in given_order], threshold_ms=20.0)
        assert (round(answer.value, 1), answer.status, answer.below.response_ms) == (166.7, "interpolated", 15.0)


@pytest.mark.django_db
def test_a_curve_stored_from_its_points_keeps_points_of_equal_load_in_increasing_response_time():
    for given_order in (EQUAL_LOADS, [EQUAL_LOADS[0], EQUAL_LOADS[2], EQUAL_LOADS[1]]):
        run = RunFactory()
        Point.objects.bulk_create(
            Point(run=run, seq=seq, outstanding_io=load, iops=iops, avg_response_ms=ms)
            for seq, (load, iops, ms) in enumerate(given_order)
        )
        runs_curves_recompute(run_ids=[run.id])
        curve = RunCurve.objects.get(run=run)
        assert (curve.loads, curve.iops, curve.avg_response_ms) == ([1, 2, 2], [100, 150, 200], [5, 15, 30])
        row = [getattr(curve, name) for name in CURVE_COLUMNS]
        value, status, reached = _database(row, metric="iops", threshold_ms=20.0, rule="interpolate")
        assert (round(value, 1), status, reached) == (166.7, "interpolated", True)
