"""Untested combinations along read %: ``GET /api/v1/predict/along/`` and the predict page give the same
figures, always as predictions, with the model that answered and its error on the measured cells.

The data are fio-plot's Samsung 860 Pro on a SATA-300 port (samples/fio-grids, MANIFEST: randread and
randwrite 7x7 grids, bs 4k), stored as two runs of one system: randread (100 % reads) and randwrite
(0 % reads), each point by its total outstanding I/O (iodepth x numjobs).
"""

import io
import json
import statistics
from collections import defaultdict
from html import unescape

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from ingest import parse_paths
from tests.api.conftest import error_of
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory
from tests.samples import sample

GRID = "fioplot_HPMICROSERVERG8-SATA300-SAMSUNG860PRO"


def sample_points(rw):
    [result] = parse_paths(sorted(sample("fio-grids", GRID).glob(f"{rw}-*.json")))
    return result["runs"][0]["points"]


def mean_iops_by_outstanding(rw):
    """The sample's IOPS by total outstanding I/O, the mean where several iodepth x numjobs give the same."""
    by_total = defaultdict(list)
    for point in sample_points(rw):
        by_total[point["load"]["outstanding_io"]].append(point["iops"])
    return {total: statistics.mean(values) for total, values in by_total.items()}


@pytest.fixture
def samsung(db):
    return stored_reads_and_writes()


def stored_reads_and_writes():
    """The randread and randwrite grids as two runs of one system, a point per cell."""
    system = SystemFactory(name="Samsung 860 Pro")
    config = ConfigFactory(system=system, drive_count=1, drive_type="SSD")
    for rw, read_pct in (("randread", 100), ("randwrite", 0)):
        run = RunFactory(config=config, name=f"{rw} grid", workload_name=f"fio {rw} 4k", read_pct=read_pct)
        for seq, point in enumerate(sample_points(rw)):
            PointFactory(
                run=run,
                seq=seq,
                outstanding_io=point["load"]["outstanding_io"],
                threads=point["load"]["threads"],
                iops=point["iops"],
                avg_response_ms=point["avg_response_ms"],
            )
    return system


def test_writes_predicted_from_reads_and_the_write_figure_at_the_focal_point(samsung, api):
    body = api.get("/api/v1/predict/along/", {"system": "Samsung 860 Pro", "parameter": "read_pct"}).json()
    assert body["how"] == "predicted"
    reads, writes = mean_iops_by_outstanding("randread"), mean_iops_by_outstanding("randwrite")
    totals = sorted(reads)
    # The focal point is the middle of each axis: the middle total outstanding I/O, 100 % reads (of 0 and 100).
    assert body["focal"] == {"outstanding_io": totals[len(totals) // 2], "read_pct": 100}
    focal = totals[len(totals) // 2]
    assert body["model"] in ("product of ratios", "sum of differences")
    # Every other outstanding I/O at 0 % reads is predicted, and was measured.
    cells = {cell["outstanding_io"]: cell for cell in body["cells"]}
    assert sorted(cells) == sorted(total for total in totals if total != focal)
    assert all(cell["read_pct"] == 0 for cell in body["cells"])
    one = cells[1]
    assert one["measured_iops"] == pytest.approx(writes[1])
    if body["model"] == "product of ratios":
        expected = reads[1] * writes[focal] / reads[focal]
    else:
        expected = reads[1] + writes[focal] - reads[focal]
    assert one["predicted_iops"] == pytest.approx(expected)
    assert one["error_pct"] == pytest.approx(abs(expected - writes[1]) / writes[1] * 100)
    errors = [cell["error_pct"] for cell in body["cells"]]
    assert body["error"]["median_pct"] == pytest.approx(statistics.median(errors))
    assert body["text"][0].endswith(f"by the {body['model']} model. Predictions, not measurements.")

    page = Client().get(f"/systems/{samsung.id}/predict/", {"along": "read_pct"})
    text = unescape(page.content.decode())
    assert page.status_code == 200
    for line in body["text"]:
        assert line in text
    assert f"predicted {round(one['predicted_iops']):,} IOPS; measured {round(writes[1]):,} IOPS, error " in text


def test_a_parameter_without_runs_that_differ_in_it_alone_is_named(samsung, api):
    response = api.get("/api/v1/predict/along/", {"system": "Samsung 860 Pro", "parameter": "random_pct"})
    assert response.status_code == 400
    assert error_of(response)["fields"]["parameter"] == ["Samsung 860 Pro has no runs that differ in random % only."]
    response = api.get("/api/v1/predict/along/", {"system": "Samsung 860 Pro", "parameter": "queue"})
    assert response.status_code == 400
    assert "choose one of: read_pct, random_pct, transfer_kb" in error_of(response)["fields"]["parameter"][0]
    page = Client().get(f"/systems/{samsung.id}/predict/", {"along": "random_pct"})
    assert page.status_code == 400


def test_the_command_gives_the_apis_answer(samsung, api):
    body = api.get("/api/v1/predict/along/", {"system": "Samsung 860 Pro", "parameter": "read_pct"}).json()
    out = io.StringIO()
    call_command("predict_along", "Samsung 860 Pro", "--parameter", "read_pct", "--json", stdout=out)
    assert json.loads(out.getvalue()) == body
    out = io.StringIO()
    call_command("predict_along", "Samsung 860 Pro", "--parameter", "read_pct", stdout=out)
    one = next(cell for cell in body["cells"] if cell["outstanding_io"] == 1)
    assert (
        f"  1 outstanding I/Os, read % 0: predicted {round(one['predicted_iops']):,} IOPS; measured " in out.getvalue()
    )
    with pytest.raises(CommandError, match="no runs that differ in random % only"):
        call_command("predict_along", "Samsung 860 Pro", "--parameter", "random_pct", stdout=io.StringIO())
