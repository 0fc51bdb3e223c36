"""Untested queue depth x jobs cells predicted from a run's two sweeps: the page, ``manage.py predict``
and ``GET /api/v1/predict/`` give the same figures, always as predictions.

The grid is fio-plot's Samsung 860 Pro on a SATA-300 port (samples/fio-grids, MANIFEST: every
randwrite cell within 4 % of the ~50.3k IOPS plateau except those with iodepth x numjobs <= 2).
"""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from ingest import parse_paths
from tests.api.conftest import error_of
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory
from tests.samples import sample

GRID = "fioplot_HPMICROSERVERG8-SATA300-SAMSUNG860PRO"
P420I = "fioplot_HPDL380G8-RAID-P420i_RAID0_4x_SSD"
# Twelve cells of the P420i RAID-0 4x SSD randread grid that a partial upload leaves out (none on the
# iodepth 8 row or the numjobs 8 column): 37 of its 49 cells remain.
LEFT_OUT = {(1, 1), (1, 2), (2, 1), (2, 2), (4, 4), (16, 16), (32, 32), (64, 64), (64, 1), (1, 64), (16, 2), (2, 16)}
# python -m tests.sizing_eval (portal/analysis/prediction_bands.py): the error of each kind of cell on the
# shared fio grids, as median / 90th percentile / worst.
BELOW_BAND = {"median_pct": 13.9, "p90_pct": 59.8, "worst_pct": 96.9}
INTERPOLATED_BAND = {"median_pct": 1.1, "p90_pct": 12.2, "worst_pct": 221.4}
ABOVE_BAND = {"median_pct": 2.1, "p90_pct": 14.3, "worst_pct": 158.5}


def stored_grid(*, keep=None, folder=GRID, rw="randwrite", **system):
    """A grid stored as one run, a point per cell (``keep``: only the cells it accepts)."""
    [result] = parse_paths(sorted(sample("fio-grids", folder).glob(f"{rw}-*.json")))
    run = RunFactory(
        config=ConfigFactory(system=SystemFactory(name="Samsung 860 Pro", **system), drive_count=1, drive_type="SSD"),
        name=f"{rw} grid",
        workload_name="Random Writes 4K",
    )
    for seq, point in enumerate(result["runs"][0]["points"]):
        depth = point["load"]["outstanding_io"] // point["load"]["threads"]
        if keep is None or keep(depth, point["load"]["threads"]):
            PointFactory(
                run=run,
                seq=seq,
                outstanding_io=point["load"]["outstanding_io"],
                threads=point["load"]["threads"],
                iops=point["iops"],
                avg_response_ms=point["avg_response_ms"],
            )
    return run


def predict(*args):
    out = io.StringIO()
    call_command("predict", *args, stdout=out)
    return out.getvalue()


def test_a_full_grid_shows_each_prediction_against_its_measurement(db, api):
    run = stored_grid()
    body = api.get("/api/v1/predict/", {"run": run.id}).json()
    assert body["how"] == "predicted"
    # A quarter of the way up each axis of 1 to 64 (index 7 // 4 = 1).
    assert body["focal"] == {"queue_depth": 2, "jobs": 2}
    assert body["model"] == "total outstanding I/O"
    assert len(body["cells"]) == 36
    corner = next(c for c in body["cells"] if (c["queue_depth"], c["jobs"]) == (64, 64))
    assert corner["measured_iops"] == pytest.approx(50_300, rel=0.04)
    assert corner["error_pct"] < 1
    # 4,096 outstanding I/Os at about 50,000 IOPS: Little's law gives about 82 ms.
    assert corner["predicted_response_ms"] == pytest.approx(4096 / corner["predicted_iops"] * 1000)
    assert body["error"]["checked_on"] == "36 measured cells off the two sweeps"
    line = f"queue depth 64 x 64 jobs: predicted {corner['predicted_iops']:,.0f} IOPS"
    assert line in predict(str(run.id))
    page = Client().get(f"/systems/{run.config.system_id}/predict/", {"run": run.id}).content.decode()
    assert f"predicted {corner['predicted_iops']:,.0f} IOPS" in page
    assert "Predictions, not measurements." in page


def test_only_the_two_sweeps_measured_the_error_is_measured_on_them(db, api):
    run = stored_grid(keep=lambda depth, jobs: depth == 8 or jobs == 8)
    body = api.get("/api/v1/predict/", {"run": run.id}).json()
    assert all(cell["measured_iops"] is None and cell["error_pct"] is None for cell in body["cells"])
    assert body["error"] == {"checked_on": "no measured cell off the two sweeps", "median_pct": None, "p90_pct": None}
    assert "(not measured)" in predict(str(run.id))
    assert json.loads(predict(str(run.id), "--json")) == body


def test_a_partial_grid_marks_the_cells_beyond_the_sweeps_extrapolated_with_their_own_band(db, api):
    # (2, 2) was left out, and only the row and column through (8, 8) are complete: the focal point. They span
    # 8 to 512 outstanding I/Os: 1 x 1 is 8 times below them, 64 x 1 (64) within them, 64 x 64 (4,096) 8 times
    # above them.
    run = stored_grid(folder=P420I, rw="randread", keep=lambda depth, jobs: (depth, jobs) not in LEFT_OUT)
    assert run.points.count() == 37
    body = api.get("/api/v1/predict/", {"run": run.id}).json()
    assert body["focal"] == {"queue_depth": 8, "jobs": 8}
    assert body["outstanding_range"] == [8, 512]
    by_cell = {(c["queue_depth"], c["jobs"]): c for c in body["cells"]}
    one = by_cell[(1, 1)]
    assert (one["kind"], one["beyond_factor"], one["measured_iops"]) == ("extrapolated below", 8, None)
    assert one["band"] == BELOW_BAND
    assert (by_cell[(64, 1)]["kind"], by_cell[(64, 1)]["band"]) == ("interpolated", INTERPOLATED_BAND)
    assert (by_cell[(64, 64)]["kind"], by_cell[(64, 64)]["band"]) == ("extrapolated above", ABOVE_BAND)
    kinds = [c["kind"] for c in body["cells"]]
    assert (kinds.count("extrapolated below"), kinds.count("extrapolated above"), len(kinds)) == (6, 6, 36)
    assert body["error"]["checked_on"] == "24 measured cells off the two sweeps"
    words = (
        "extrapolated below (1 outstanding I/O, 8 times below the sweeps' lowest, 8); error of this kind on the"
        " shared grids: median 13.9 %, 90th percentile 59.8 %, worst 96.9 %"
    )
    assert one["kind_text"] == words
    assert f"queue depth 1 x 1 jobs: predicted {one['predicted_iops']:,.0f} IOPS" in predict(str(run.id))
    assert f"    {words}\n" in predict(str(run.id))
    assert json.loads(predict(str(run.id), "--json")) == body


def test_a_run_without_a_grid_or_of_a_private_system(db, api, lab):
    flat = RunFactory()
    PointFactory(run=flat, seq=0, outstanding_io=8, threads=1, iops=1000.0, avg_response_ms=8.0)
    response = api.get("/api/v1/predict/", {"run": flat.id})
    assert response.status_code == 400
    assert error_of(response)["fields"]["run"] == [
        f"run #{flat.id} has no queue depth x jobs grid: it needs two or more of each"
    ]
    private = stored_grid(published=False, team=lab)
    assert Client().get("/api/v1/predict/", {"run": private.id}).status_code == 404
    with pytest.raises(CommandError, match=f"^run #{private.id} is private to team Engineering lab: give --as USER$"):
        predict(str(private.id))
    with pytest.raises(CommandError, match=f"^there is no run #{private.id + 1}$"):
        predict(str(private.id + 1))
    assert "queue depth 64 x 64 jobs: predicted" in predict(str(private.id), "--as", "engineer")
