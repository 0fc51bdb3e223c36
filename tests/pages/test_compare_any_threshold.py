"""A comparison at any threshold or latency reads each run's curve in the database: the figures are the
ones the rules give (interpolated between two measured points, a lower bound, no value), and no query reads
the points into Python."""

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.analysis.curves import CurvePoint, throughput_at
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import System
from tests.pages.test_compare_thresholds import QUERY, ssds  # noqa: F401 (the fixture)
from tests.samples import sample


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


@pytest.mark.django_db
def test_the_database_reads_the_curves_upper_envelope_as_python_does():
    # Response times fall as the load rises: 2,500 IOPS at 15 ms meets 20 ms, so the figure is read from it
    # towards 3,000 at 40 ms (2,500 + 5 / 25 x 500 = 2,600), not at the first crossing (1,750).
    iops, ms = [1000.0, 2000.0, 2500.0, 3000.0], [5.0, 25.0, 15.0, 40.0]
    assert _figure_at(iops, ms, 20) == (2600.0, "interpolated", True)
    # Past saturation the point over 20 ms does less: the best point under it is the figure, measured.
    assert _figure_at([1000.0, 2000.0, 1900.0], [1.0, 5.0, 25.0], 20) == (2000.0, "measured", True)
    # Over the threshold at the lowest load, under it later: a value.
    assert _figure_at([500.0, 800.0], [30.0, 12.0], 20) == (800.0, "measured", True)
    for throughputs, responses in ((iops, ms), ([1000.0, 2000.0, 1900.0], [1.0, 5.0, 25.0])):
        points = [CurvePoint(load, t, r) for load, (t, r) in enumerate(zip(throughputs, responses, strict=True))]
        for threshold_ms in (0.5, 1.0, 3.0, 5.0, 12.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0):
            answer = throughput_at(points, threshold_ms=threshold_ms)
            assert _figure_at(throughputs, responses, threshold_ms) == (
                pytest.approx(answer.value) if answer.value is not None else None,
                str(answer.status),
                answer.reached,
            ), threshold_ms


def _row(result):
    (workload,) = result.workloads
    (row,) = workload.rows
    return row


def test_fio_sweeps_compared_at_another_threshold_give_the_interpolated_figures(ssds):  # noqa: F811
    a, b = (System.objects.get(name=QUERY[side]) for side in ("a", "b"))
    with CaptureQueriesContext(connection) as queries:
        row = _row(comparison(a=a, b=b, query=ComparisonQuery(threshold_ms=0.2)))
    for value, points in zip((row.a_value, row.b_value), ssds.values(), strict=True):
        # fio's own JSON: between the last point at or under 0.2 ms (iodepth 8) and the first over it (16).
        (_, under_iops, under_ms), (_, over_iops, over_ms) = [p for p in points if p[0] in (8, 16)]
        assert value == pytest.approx(under_iops + (over_iops - under_iops) * (0.2 - under_ms) / (over_ms - under_ms))
    assert [figure.status for figure in row.a_figures.figures()] == ["interpolated"]
    assert not row.a_figures.not_reached and not row.b_figures.not_reached
    assert not [query for query in queries if 'FROM "portal_point"' in query["sql"]], "no point read into Python"


def _two_iometer_systems(tmp_path):
    """Iometer's quarchpy multitest file stored as two systems, the second from a copy (another sha256)."""
    original = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv").read_bytes()
    copy = tmp_path / "second_array.csv"
    copy.write_bytes(original.replace(b"512B Random Read", b"512B Random Read (second array)", 1))
    for name, path in (("First array", sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv")),
                       ("Second array", copy)):  # fmt: skip
        call_command("ingest", str(path), "--system", name, stdout=io.StringIO())
    return System.objects.get(name="First array"), System.objects.get(name="Second array")


def test_replicates_that_do_not_reach_the_threshold_are_one_note_with_their_count(db, data_dir, tmp_path):
    """Iometer's quarchpy multitest file holds 10 tests described '16K Random Read' (MANIFEST: appended to 59
    times); none reaches 20 ms, so each side's 10 figures are lower bounds: one note per side, not ten."""
    a, b = _two_iometer_systems(tmp_path)
    for threshold_ms in (20, 25):  # the stored default, and another threshold read in the database
        result = comparison(a=a, b=b, query=ComparisonQuery(threshold_ms=threshold_ms))
        (workload,) = [w for w in result.workloads if w.workload == "16 KiB random read"]
        (row,) = workload.rows
        lower_bound = "threshold not reached: the best point, a lower bound"
        assert row.notes == [f"First array, 10 figures: {lower_bound}", f"Second array, 10 figures: {lower_bound}"]


def test_replicates_without_a_figure_at_the_threshold_say_why_once_per_side(db, data_dir, tmp_path):
    """Iometer reports an average response time per test and no percentile: at the 99th percentile every
    figure of the multitest file has no response time, and at 0.001 ms average every test is over the
    threshold at its one point. Each side says so once, whatever the number of its replicates."""
    a, b = _two_iometer_systems(tmp_path)
    for query, why in (
        (ComparisonQuery(latency="p99", threshold_ms=5), "no response times"),
        (ComparisonQuery(threshold_ms=0.001), "over the threshold already at the lowest load"),
    ):
        result = comparison(a=a, b=b, query=query)
        (workload,) = [w for w in result.workloads if w.workload == "16 KiB random read"]
        assert workload.rows == []
        assert workload.empty == [
            f"No figure of A (First array) at the threshold: {why}.",
            f"No figure of B (Second array) at the threshold: {why}.",
        ]
