"""IOR and IO500 files uploaded through the upload service: the runs and points stored, as a user reads them."""

import pytest

from portal.models import Point, Run, Upload
from tests.factories import SystemFactory
from tests.ingesting import ingest_command, store_file
from tests.samples import sample

pytestmark = pytest.mark.django_db


def test_an_ior_3_4_file_is_stored_as_one_write_run_with_its_figures_and_warnings(data_dir):
    upload = store_file(sample("ior", "ior-3.4.0dev-daos-easy-write.txt"), system=SystemFactory(name="Aurora DAOS"))
    assert upload.status == Upload.Status.DONE and upload.format == "ior"
    run = Run.objects.get(upload=upload)
    assert (run.name, run.tool, run.tool_version) == ("write", "IOR", "3.4.0+dev")
    assert run.read_pct == 0.0 and run.transfer_sizes == [{"bytes": 16777216, "pct": 100.0}]
    # line 39: write 1345458 MiB/s, IOPS 84110, Latency(s) 0.000053; line 21: tasks 2080
    point = Point.objects.get(run=run)
    assert point.threads == 2080
    assert point.iops == 84110.0
    assert point.mbps == pytest.approx(1345458 * 2**20 / 1e6)
    assert point.avg_response_ms == pytest.approx(0.053)
    # lines 35-38: IOR's WARNING lines, kept with the upload
    assert len([warning for warning in upload.warnings if "IOR warns" in warning]) == 4


def test_an_io500_summary_is_stored_as_a_run_per_phase_and_the_score(data_dir):
    path = sample("io500", "sc23-aurora-daos-result_summary.txt")
    upload = store_file(path, system=SystemFactory(name="Aurora DAOS"))
    assert upload.status == Upload.Status.DONE and upload.format == "io500"
    runs = {run.name: run for run in Run.objects.filter(upload=upload)}
    assert len(runs) == 13 and {run.tool for run in runs.values()} == {"IO500"}
    # line 2: ior-easy-write 1313.924246 GiB/s; line 3: mdtest-easy-write 8252.636649 kIOPS
    assert runs["ior-easy-write"].points.get().mbps == pytest.approx(1313.924246 * 2**30 / 1e6)
    easy_create = runs["mdtest-easy-write"]
    assert easy_create.points.get().iops == pytest.approx(8252636.649)
    assert easy_create.params["figure"] == "metadata operations per second"
    assert easy_create.workload_name == "mdtest-easy-write"
    # line 15: [SCORE ] Bandwidth 734.502697 GiB/s : IOPS 11336.265046 kiops : TOTAL 2885.570524
    score = runs["IO500 score"].points.get()
    assert score.metrics["score"] == 2885.570524
    assert score.metrics["bandwidth_gib_per_s"] == 734.502697 and score.metrics["metadata_kiops"] == 11336.265046
    # line 4: the timestamp step, no figure: not stored, warned of
    assert f"{path.name}:4: phase timestamp states no figure (0), not stored" in upload.warnings


def test_an_io500_config_ini_uploaded_alone_fails_saying_what_to_upload(data_dir):
    upload = store_file(sample("io500", "sc23-aurora-daos-config.ini"), system=SystemFactory(name="Aurora DAOS"))
    assert upload.status == Upload.Status.FAILED
    assert "upload result_summary.txt or result.txt from the same results folder" in upload.error
    assert not Run.objects.exists()


def test_an_io500_results_folder_is_stored_once_with_its_settings(data_dir, tmp_path):
    """A results folder as IO500 names its files (links to the shared samples of one sc23 run)."""
    folder = tmp_path / "2023.10.08-18.11.45"
    folder.mkdir()
    for name in ("result.txt", "result_summary.txt", "config.ini"):
        (folder / name).symlink_to(sample("io500", f"sc23-aurora-daos-{name}"))
    status, out = ingest_command(folder, "--system", "Aurora DAOS")
    assert status == 0, out
    assert "3 files: 3 stored or already stored, 0 failed" in out
    # result.txt's 12 scored phases and the score, each once (result_summary.txt only checked against them)
    assert Run.objects.count() == 13 and Run.objects.filter(name="ior-easy-write").count() == 1
    easy_write = Run.objects.get(name="ior-easy-write")
    # config.ini [ior-easy] line 20: transferSize = 16m; result.txt line 2: procs = 2080
    assert easy_write.transfer_sizes == [{"bytes": 16 * 2**20, "pct": 100.0}]
    assert easy_write.params["config"]["transferSize"] == "16m"
    assert easy_write.points.get().threads == 2080
