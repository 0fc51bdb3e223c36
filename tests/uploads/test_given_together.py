"""Files dropped together that belong together are read as one; large files report progress."""

import json
import zipfile

import pytest

from ingest import Source, parse_archive
from ingest.formats import iometer
from ingest.source import ProgressMeter
from portal.models import Run, Team, Upload
from tests.conftest import LAB
from tests.factories import SystemFactory
from tests.ingesting import run_job_of, store_file
from tests.samples import SAMPLES_DIR, data, sample
from tests.uploads.conftest import post_files

pytestmark = pytest.mark.django_db


def _post(signed_in, paths, django_capture_on_commit_callbacks):
    system = SystemFactory(name="Oracle test LUN", team=Team.objects.get(name=LAB))
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = post_files(signed_in, paths, system=system.id)
    assert response.status_code == 201
    return [row["id"] for row in response.json()["uploads"]], queued


def test_the_files_of_one_orion_test_are_queued_once_and_stored_as_one_run(
    signed_in, data_dir, django_capture_on_commit_callbacks
):
    paths = sorted((SAMPLES_DIR / "orion").glob("*.csv"))
    ids, queued = _post(signed_in, paths, django_capture_on_commit_callbacks)
    # The first file given holds the group's runs; the others point at it.
    first = Upload.objects.get(id=ids[0])
    others = Upload.objects.filter(id__in=ids[1:])
    assert (first.read_with_id, [u.read_with_id for u in others]) == (None, [first.id, first.id])
    assert len(queued) == 1, "one worker reads the three matrices together"

    run_job_of(first)
    run = Run.objects.get()
    # cnblogs-hftian_mytest_20190329_1057_iops.csv: seven cells with data.
    assert run.points.count() == 7
    assert set(Upload.objects.values_list("status", flat=True)) == {Upload.Status.DONE}


def test_a_fio_sweep_dropped_together_is_one_curve(signed_in, data_dir, django_capture_on_commit_callbacks):
    paths = sorted(data("fio", "sweep").glob("*.json"))
    ids, queued = _post(signed_in, paths, django_capture_on_commit_callbacks)
    assert len(queued) == 1
    run_job_of(Upload.objects.get(id=ids[0]))
    # randread-1-1.json, randread-4-1.json, randread-16-1.json: queue depths 1, 4 and 16.
    assert list(Run.objects.get().points.values_list("outstanding_io", flat=True)) == [1, 4, 16]


def test_the_per_client_fio_files_of_one_cbt_run_dropped_together_are_one_run(
    signed_in, data_dir, tmp_path, django_capture_on_commit_callbacks
):
    # Two clients of one run, as CBT names their outputs: the shared sample's client (output.1) and a
    # second one whose read figures are set to 1,000 IOPS over the same 90,001 ms.
    client = json.loads(sample("fio", "fio-3.42-cbt-librbdfio-output.1.json").read_text())
    (tmp_path / "output.1").write_text(json.dumps(client))
    client["jobs"][0]["jobname"] = "cbt-fio-32krandomread-soko08.front.sepia.ceph.com-file-0"
    client["jobs"][0]["read"] |= {"iops": 1000.0, "total_ios": 90001, "bw_bytes": 32768000}
    (tmp_path / "output.0").write_text(json.dumps(client))
    ids, queued = _post(signed_in, [tmp_path / "output.0", tmp_path / "output.1"], django_capture_on_commit_callbacks)
    assert len(queued) == 1
    run_job_of(Upload.objects.get(id=ids[0]))
    run = Run.objects.get()
    [point] = run.points.all()
    # "iops" : 1669.370340 (the sample's line 43) + 1,000; iodepth 1 on each client.
    assert point.iops == pytest.approx(2669.37034)
    assert (point.outstanding_io, point.threads) == (2, 2)
    assert run.name == "cbt-fio-32krandomread"


def test_unrelated_files_dropped_together_are_queued_one_by_one(
    signed_in, data_dir, django_capture_on_commit_callbacks
):
    paths = [sample("fio", "fioplot_fio-3.34_randread-1-1.json"), data("fio", "sweep", "randread-1-1.json")]
    ids, queued = _post(signed_in, paths, django_capture_on_commit_callbacks)
    assert len(queued) == 2
    assert not Upload.objects.filter(read_with__isnull=False).exists()


def test_parsing_reports_progress_in_steps_and_never_100_before_it_ends():
    reported = []
    path = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv")
    source = Source(path)
    source.meter = ProgressMeter(path.stat().st_size, reported.append, step_pct=10)
    result = iometer.parse(source)
    assert len(result.runs) == 59
    assert reported == sorted(reported) and len(reported) >= 8
    assert reported[0] >= 10 and reported[-1] <= 99


def test_an_upload_being_parsed_shows_its_progress(data_dir, monkeypatch):
    path = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv")
    seen = []
    real_parse = iometer.parse

    def parse_and_watch(source):
        result = real_parse(source)
        seen.append(Upload.objects.get(original_name=path.name).progress_pct)
        return result

    monkeypatch.setattr(iometer, "parse", parse_and_watch)
    done = store_file(path, system=SystemFactory())
    # While parsing, the row said how far it had read; once stored it says 100.
    assert 90 <= seen[0] <= 99
    assert (done.status, done.progress_pct) == (Upload.Status.DONE, 100)


def test_a_zip_archive_is_read_through_the_progress_meter(tmp_path):
    archive = tmp_path / "orion.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted((SAMPLES_DIR / "orion").glob("*.csv")):
            out.write(path, f"mytest/{path.name}")
    reported = []
    source = Source(archive)
    source.meter = ProgressMeter(archive.stat().st_size, reported.append, step_pct=1)
    (result,) = parse_archive(source)
    assert len(result["runs"][0]["points"]) == 7
    assert reported, "reading the archive moved the progress"


def test_the_status_of_many_finished_uploads_takes_a_fixed_number_of_queries(
    signed_in, data_dir, django_assert_max_num_queries
):
    system = SystemFactory()
    ids = []
    for path in sorted(data("fio", "sweep").glob("*.json")) + [sample("fio", "fioplot_fio-3.34_randread-1-1.json")]:
        ids.append(store_file(path, system=system).id)
    with django_assert_max_num_queries(6):
        rows = signed_in.get("/uploads/status.json", {"ids": ",".join(map(str, ids))}).json()["uploads"]
    assert {row["status"] for row in rows} == {"done"}
    assert sum(row["point_count"] for row in rows) == 4
