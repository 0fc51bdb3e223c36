"""A grid's figure at a threshold is never below a cell measured under it.

fio-plot's MX200x3_RAID0 grid (samples/fio-grids/fioplot_HPDL380G8-H420i-Crucial-MX200x3_RAID0: randread at
iodepth 1 to 64 x numjobs 1 to 64, one run of 49 cells) ordered by outstanding I/Os crosses 20 ms first between
randread-32-64.json (14.4 ms) and randread-64-64.json (29.2 ms): that crossing stated 141,142 IOPS, while
randread-32-16.json did 144,392 at 3.54 ms. The figure is read off the grid's upper envelope, by the run's
stored figure, its page, and the database at any threshold alike."""

import io
import json

import pytest
from django.core.management import call_command

from portal.comparisons.at_threshold import replicate_rows_at
from portal.models import Run
from portal.results.selectors import points_by_run, points_threshold
from tests.samples import sample

pytestmark = pytest.mark.django_db

GRID = "fioplot_HPDL380G8-H420i-Crucial-MX200x3_RAID0"
# By hand from the files' jobs[0].read: iops and lat_ns.mean.
BEST_UNDER_20_MS = 144_392.154249  # randread-32-16.json, 3.544 ms: the best cell at or under 20 ms
BEST_UNDER_0_5_MS = 139_421.18596  # randread-8-8.json, 0.4569 ms: the best cell at or under 0.5 ms
NEXT_OVER_0_5_MS = (141_797.50675, 0.9010427974)  # randread-32-4.json: the quickest cell over 0.5 ms doing more


@pytest.fixture
def grid_run(data_dir):
    call_command("ingest", str(sample("fio-grids", GRID)), "--system", "MX200 x3", stdout=io.StringIO())
    return Run.objects.get(read_pct=100)


def _cells():
    """Every randread cell of the grid as (IOPS, average response time in ms), read with json."""
    cells = []
    for path in sample("fio-grids", GRID).glob("randread-*.json"):
        read = json.loads(path.read_text())["jobs"][0]["read"]
        cells.append((read["iops"], read["lat_ns"]["mean"] / 1e6))
    return cells


def _in_database(run, threshold_ms):
    (row,) = replicate_rows_at(Run.objects.filter(id=run.id), threshold_ms=threshold_ms, latency="avg")
    return row[12], sorted(row[17])  # the mean of the group's one figure, its statuses


def test_the_stored_figure_at_20_ms_is_the_best_cell_under_it(grid_run, client):
    assert len(_cells()) == 49
    assert grid_run.iops_at_20ms >= BEST_UNDER_20_MS
    assert (grid_run.iops_at_20ms, grid_run.iops_at_20ms_status) == (pytest.approx(BEST_UNDER_20_MS), "measured")
    page = client.get(f"/runs/{grid_run.id}/").content.decode()
    assert "144,392 IOPS at 20 ms: the best point measured at or under the threshold, 3.54 ms" in page


def test_at_0_5_ms_the_figure_is_interpolated_from_the_best_cell_under_it(grid_run):
    value, statuses = _in_database(grid_run, 0.5)
    # 139,421 + (0.5 - 0.4569) / (0.9010 - 0.4569) x (141,798 - 139,421) = 139,652.
    below_ms = 0.456887600419
    over_iops, over_ms = NEXT_OVER_0_5_MS
    expected = BEST_UNDER_0_5_MS + (0.5 - below_ms) / (over_ms - below_ms) * (over_iops - BEST_UNDER_0_5_MS)
    assert (round(value), statuses) == (139_652, ["interpolated"])
    assert value == pytest.approx(expected) and value >= BEST_UNDER_0_5_MS


def test_no_threshold_states_less_than_a_cell_measured_under_it(grid_run):
    cells = _cells()
    points, _ = points_by_run([grid_run.id], latency="avg")[grid_run.id]
    # Every cell's own response time, and round thresholds between them.
    for threshold_ms in sorted({ms for _, ms in cells} | {0.2, 0.3, 0.5, 1.0, 2.0, 5.0, 10.0, 14.2, 20.0, 30.0}):
        best = max((iops for iops, ms in cells if ms <= threshold_ms), default=None)
        value, _ = _in_database(grid_run, threshold_ms)
        _, answer = points_threshold(points=points, threshold_ms=threshold_ms, rule="interpolate", metric="iops")
        assert answer.value == pytest.approx(value), threshold_ms
        if best is not None:
            assert value >= best, threshold_ms
