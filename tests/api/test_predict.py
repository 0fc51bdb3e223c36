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


def stored_grid(*, keep=None, **system):
    """The randwrite grid stored as one run, a point per cell (``keep``: only the cells it accepts)."""
    [result] = parse_paths(sorted(sample("fio-grids", GRID).glob("randwrite-*.json")))
    run = RunFactory(
        config=ConfigFactory(system=SystemFactory(name="Samsung 860 Pro", **system), drive_count=1, drive_type="SSD"),
        name="randwrite grid",
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
    assert body["focal"] == {"queue_depth": 8, "jobs": 8}
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
    assert body["error"]["checked_on"] == "12 measured cells of the sweeps, each read from the other sweep"
    assert body["error"]["median_pct"] < 1
    assert "(not measured)" in predict(str(run.id))
    assert json.loads(predict(str(run.id), "--json")) == body


def test_a_run_without_a_grid_or_of_a_private_system(db, api):
    flat = RunFactory()
    PointFactory(run=flat, seq=0, outstanding_io=8, threads=1, iops=1000.0, avg_response_ms=8.0)
    response = api.get("/api/v1/predict/", {"run": flat.id})
    assert response.status_code == 400
    assert error_of(response)["fields"]["run"] == [
        f"run #{flat.id} has no queue depth x jobs grid: it needs two or more of each"
    ]
    private = stored_grid(published=False)
    assert Client().get("/api/v1/predict/", {"run": private.id}).status_code == 404
    with pytest.raises(CommandError, match=f"there is no run #{private.id}"):
        predict(str(private.id))
