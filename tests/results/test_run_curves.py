"""Each run's curve is stored with it as arrays in load order, and a comparison away from 20 ms reads each
figure from those arrays in the database: the same figures as ``portal.analysis.curves.throughput_at`` reads
from the points, by both rules, at the average, the maximum and the 99th percentile.

The sweeps are fio-plot's (samples/fio-sweeps/, randread 4k at iodepth 1 to 64, one run of 7 points per
device); the published studies are seed 000's demo data (``manage.py loaddemo``)."""

import importlib
import io
import json

import pytest
from django.core.management import call_command
from django.db import connection

from portal.comparisons.at_threshold import replicate_rows_at
from portal.models import Run, RunCurve
from portal.results.figures import CURVE_COLUMNS, RESPONSE_RANGE_COLUMNS, runs_curves_recompute
from portal.results.selectors import points_by_run, points_threshold, response_ms
from tests.samples import sample

pytestmark = pytest.mark.django_db

SWEEPS = {"Intel D3-S4610": "fioplot_intel-d3-s4610_randread", "Samsung PM883": "fioplot_samsung-pm883_randread"}
# Under, between and over the sweeps' response times (0.07 to 0.92 ms average; higher at p99 and maximum).
THRESHOLDS_MS = (0.05, 0.0716, 0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 5.0, 20.0, 30.0)


@pytest.fixture
def runs(data_dir):
    for name, folder in SWEEPS.items():
        call_command("ingest", str(sample("fio-sweeps", folder)), "--system", name, stdout=io.StringIO())
    call_command("loaddemo", stdout=io.StringIO())
    return list(Run.objects.order_by("id"))


def _sweep(folder):
    """(iodepth, IOPS, average response time in ms) of each file of a sweep, in iodepth order, read with json."""
    found = []
    for path in sample("fio-sweeps", folder).glob("randread-*-1.json"):
        read = json.loads(path.read_text())["jobs"][0]["read"]
        found.append((int(path.name.split("-")[1]), read["iops"], read["lat_ns"]["mean"] / 1e6))
    return sorted(found)


def _in_database(runs, *, threshold_ms, latency):
    """Each group of replicates as a comparison sums it up in the database: {key: (count, mean, statuses of
    unreached figures, statuses)}."""
    rows = replicate_rows_at(
        Run.objects.filter(id__in=[run.id for run in runs]), threshold_ms=threshold_ms, latency=latency
    )
    return {tuple(row[:11]): (row[11], row[12], sorted(row[16] or []), sorted(row[17])) for row in rows}


def _from_points(runs, points, *, threshold_ms, latency, rule):
    """The same groups from each run's points read by ``throughput_at``."""
    groups: dict = {}
    for run in runs:
        _, answer = points_threshold(
            points=points[run.id][0],
            threshold_ms=threshold_ms,
            rule=rule,
            metric=run.throughput_metric,
            latency=latency,
        )
        config = run.config
        key = (
            *(run.workload_id, run.workload_name, run.read_pct, run.random_pct, config.raid_level, config.drive_count),
            *(config.read_cache, config.write_cache, run.throughput_metric, config.system_id, answer.value is not None),
        )
        values, not_reached, statuses = groups.setdefault(key, ([], [], set()))
        if answer.value is not None:
            values.append(answer.value)
        if not answer.reached:
            not_reached.append(str(answer.status))
        statuses.add(str(answer.status))
    return {
        key: (len(values), sum(values) / len(values) if values else None, sorted(not_reached), sorted(statuses))
        for key, (values, not_reached, statuses) in groups.items()
    }


def test_a_stored_sweep_keeps_its_curve_in_load_order(runs):
    intel = RunCurve.objects.get(run__config__system__name="Intel D3-S4610")
    sweep = _sweep(SWEEPS["Intel D3-S4610"])
    assert intel.loads == [float(iodepth) for iodepth, _, _ in sweep]
    assert intel.iops == pytest.approx([iops for _, iops, _ in sweep])
    assert intel.avg_response_ms == pytest.approx([ms for _, _, ms in sweep])
    assert intel.peak_iops == pytest.approx(max(iops for _, iops, _ in sweep))
    # The highest average so far at each point: the running maximum of the file's averages, kept where it
    # differs from them (both sweeps' averages fall from iodepth 4 to 8); a single point's is itself.
    single = RunCurve.objects.filter(run__origin="published", loads__len=1).first()
    assert (single.loads, single.highest_avg_response_ms) == ([0.0], None)
    for name, folder in SWEEPS.items():
        averages = [ms for _, _, ms in _sweep(folder)]
        running = [max(averages[: n + 1]) for n in range(len(averages))]
        curve = RunCurve.objects.get(run__config__system__name=name)
        assert curve.highest_avg_response_ms == (None if running == averages else pytest.approx(running))
    assert all(ms is not None for ms in intel.p99_ms)


def test_curves_written_when_stored_are_those_read_again_from_the_points(runs):
    def curves():
        return {row[0]: row[1:] for row in RunCurve.objects.order_by("run_id").values_list(*CURVE_COLUMNS)}

    stored = curves()
    assert set(stored) == {run.id for run in runs}
    runs_curves_recompute(run_ids=[run.id for run in runs])
    assert curves() == stored


def test_the_database_reads_the_same_figures_as_throughput_at(runs):
    runs = list(Run.objects.select_related("config").order_by("id"))
    seen = set()
    for latency in ("avg", "p99", "max"):
        points = points_by_run([run.id for run in runs], latency=latency)
        # Also each point's own response time: a figure measured exactly at the threshold.
        at_points = {response_ms(point=point, latency=latency) for run in runs[:2] for point in points[run.id][0]}
        for rule in ("interpolate", "at_or_below"):
            Run.objects.update(params={"threshold_rule": rule})
            for threshold_ms in sorted({*THRESHOLDS_MS, *at_points}):
                expected = _from_points(runs, points, threshold_ms=threshold_ms, latency=latency, rule=rule)
                found = _in_database(runs, threshold_ms=threshold_ms, latency=latency)
                assert found.keys() == expected.keys()
                for key, (count, mean, not_reached, statuses) in expected.items():
                    assert found[key] == (count, pytest.approx(mean), not_reached, statuses), (latency, rule, key)
                    seen |= {(latency, rule, status) for status in statuses}
    # The thresholds reach every case each rule has on the sweeps' curves, at every latency.
    for latency in ("avg", "p99", "max"):
        assert {status for found, rule, status in seen if found == latency and rule == "interpolate"} >= {
            "interpolated",
            "measured",
            "not_reached",
            "first_point_over",
        }
        assert {status for found, rule, status in seen if found == latency and rule == "at_or_below"} >= {
            "measured",
            "not_reached",
            "first_point_over",
        }


def test_the_intel_sweep_at_0_2_ms_is_interpolated_between_its_files(runs):
    sweep = _sweep(SWEEPS["Intel D3-S4610"])
    below = max((point for point in sweep if point[2] <= 0.2), key=lambda point: point[0])
    above = next(point for point in sweep if point[2] > 0.2)
    share = (0.2 - below[2]) / (above[2] - below[2])
    run = Run.objects.get(config__system__name="Intel D3-S4610")
    ((count, mean, not_reached, statuses),) = _in_database([run], threshold_ms=0.2, latency="avg").values()
    assert (count, not_reached, statuses) == (1, [], ["interpolated"])
    assert mean == pytest.approx(below[1] + share * (above[1] - below[1]))


def _p99_ms(folder):
    """Each file's completion-latency 99th percentile (``clat_ns.percentile["99.000000"]``), in ms."""
    return [
        json.loads(path.read_text())["jobs"][0]["read"]["clat_ns"]["percentile"]["99.000000"] / 1e6
        for path in sample("fio-sweeps", folder).glob("randread-*-1.json")
    ]


def test_each_run_keeps_the_range_of_response_times_its_figures_are_read_from(runs):
    # The Intel sweep's files: averages 0.0699 to 0.920 ms, 99th percentiles 0.157 to 1.07 ms, best 69,656 IOPS.
    intel = Run.objects.get(config__system__name="Intel D3-S4610")
    sweep = _sweep(SWEEPS["Intel D3-S4610"])
    p99 = _p99_ms(SWEEPS["Intel D3-S4610"])
    assert (intel.lowest_avg_response_ms, intel.highest_avg_response_ms) == (
        pytest.approx(min(ms for _, _, ms in sweep)),
        pytest.approx(max(ms for _, _, ms in sweep)),
    )
    assert intel.peak_with_avg_response_ms == intel.peak_with_p99_ms == pytest.approx(max(iops for _, iops, _ in sweep))
    assert (intel.lowest_p99_ms, intel.highest_p99_ms) == (pytest.approx(min(p99)), pytest.approx(max(p99)))
    assert (round(intel.lowest_avg_response_ms, 4), round(intel.highest_p99_ms, 2), round(intel.peak_with_p99_ms)) == (
        0.0699,
        1.07,
        69656,
    )
    # A published figure of the studies has an average only: no percentile to read a figure from.
    published = Run.objects.filter(origin="published", points__avg_response_ms__isnull=False).first()
    assert published.lowest_avg_response_ms == published.points.get().avg_response_ms
    assert (published.lowest_p99_ms, published.highest_p99_ms, published.peak_with_p99_ms) == (None, None, None)


def test_the_ranges_filled_for_runs_stored_before_are_those_written_when_stored(runs):
    fill = importlib.import_module("portal.migrations.0026_response_ranges")

    def ranges():
        return {row[0]: row[1:] for row in Run.objects.order_by("id").values_list("id", *RESPONSE_RANGE_COLUMNS)}

    stored = ranges()
    assert any(value is not None for found in stored.values() for value in found)
    Run.objects.update(**dict.fromkeys(RESPONSE_RANGE_COLUMNS))
    with connection.cursor() as cursor:
        cursor.execute(fill.FILL)
    assert ranges() == stored


def test_a_threshold_over_or_under_every_point_is_answered_without_the_curve(runs):
    # At 30 ms every point of the Intel sweep is under the threshold: its best file, a lower bound; at 0.05 ms
    # every point is over it: no figure. The curve itself is not needed for either.
    run = Run.objects.get(config__system__name="Intel D3-S4610")
    RunCurve.objects.filter(run=run).delete()
    best_iops = max(iops for _, iops, _ in _sweep(SWEEPS["Intel D3-S4610"]))
    ((count, mean, not_reached, statuses),) = _in_database([run], threshold_ms=30, latency="avg").values()
    assert (count, mean, not_reached, statuses) == (1, pytest.approx(best_iops), ["not_reached"], ["not_reached"])
    ((count, mean, not_reached, statuses),) = _in_database([run], threshold_ms=0.05, latency="avg").values()
    assert (count, mean, not_reached, statuses) == (0, None, [], ["first_point_over"])
