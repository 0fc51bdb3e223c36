"""Storing parsed results: the `ingest` command, duplicates, all-or-nothing, the demo data."""

import io

import pytest
from django.core.management import call_command

from portal.models import Config, Point, Run, System, Upload
from portal.systems import services
from portal.uploads.services import upload_reingest
from tests.ingesting import ingest_command, run_job_of, store_file
from tests.samples import SAMPLES_DIR, data, sample

pytestmark = pytest.mark.django_db


def test_ingest_a_folder_then_again_stores_nothing_new():
    folder = SAMPLES_DIR / "iometer"
    status, out = ingest_command(folder, "--system", "Intel NVMe rig", "--config", "raid_level=JBOD")
    # The two .icf files are configurations, refused with their message; the two CSVs are stored.
    assert status == 1
    assert "failed     tpqemu_iometer_multi_4disks_2006.07.27.icf: this is an Iometer configuration file" in out
    assert "stored     quarchpy_an016_testfile_1.1.0_multitest.csv: iometer, 59 runs, 59 points" in out
    assert out.strip().endswith("4 files: 2 stored or already stored, 2 failed")
    runs, points = Run.objects.count(), Point.objects.count()
    assert Config.objects.get().raid_level == "JBOD"

    status, out = ingest_command(folder, "--system", "Intel NVMe rig", "--config", "raid_level=JBOD")
    assert "duplicate  quarchpy_an016_testfile_1.1.0_multitest.csv: already stored as upload #" in out
    assert (Run.objects.count(), Point.objects.count()) == (runs, points)
    assert Upload.objects.filter(status=Upload.Status.DONE).count() == 2


def test_orion_files_of_one_test_are_stored_as_one_run():
    status, out = ingest_command(SAMPLES_DIR / "orion", "--system", "Test LUN")
    assert status == 0
    run = Run.objects.get()
    # cnblogs-hftian_mytest_20190329_1057_iops.csv: seven cells with data in the three matrices.
    assert run.tool == "Oracle ORION"
    assert run.points.count() == 7
    assert Upload.objects.filter(status=Upload.Status.DONE).count() == 3
    assert "3 files: 3 stored or already stored, 0 failed" in out


def test_an_array_profile_creates_its_system_with_the_profile():
    status, out = ingest_command(sample("profile", "supportbundle_storageArrayProfile9.txt"))
    assert status == 0, out
    system = System.objects.get()
    assert system.controllers == 2
    assert system.profile["volumes"], "the logical drives are kept for labelling uploads"
    assert system.profile_upload.original_name == "supportbundle_storageArrayProfile9.txt"
    assert not Run.objects.exists()


def test_a_file_that_fails_to_parse_stores_nothing(settings):
    bad = data("iometer", "bad_row_2006.07.27.csv")
    status, out = ingest_command(bad, "--system", "IBM DS4500")
    assert status == 1
    upload = Upload.objects.get()
    assert upload.status == Upload.Status.FAILED
    assert upload.error.startswith("bad_row_2006.07.27.csv:")
    assert upload.error in out
    assert not Run.objects.exists() and not Point.objects.exists()
    # The original is kept as uploaded, byte for byte.
    assert (settings.UPLOADS_DIR / upload.stored_path).read_bytes() == bad.read_bytes()


def test_results_without_a_system_name_are_refused_with_a_clear_message():
    upload = store_file(sample("fio", "fioplot_fio-3.34_randread-1-1.json"), name="randread-1-1.json")
    assert upload.status == Upload.Status.FAILED
    assert "does not say which system it measured" in upload.error
    assert not Run.objects.exists()


def test_labels_are_parsed_and_unknown_ones_refused():
    assert services.label_parse(name="write_cache", text="on") is True
    assert services.label_parse(name="stroke_pct", text="45%") == 45.0
    assert services.label_parse(name="tags", text="baseline, fw 7.8") == ["baseline", "fw 7.8"]
    with pytest.raises(services.LabelError, match="unknown label 'raid'"):
        services.label_parse(name="raid", text="5")
    with pytest.raises(services.LabelError, match="drive_count='many' is not a valid value"):
        services.label_parse(name="drive_count", text="many")


def test_loaddemo_is_idempotent_and_keeps_the_papers_figures():
    call_command("loaddemo", stdout=io.StringIO())
    counts = (System.objects.count(), Run.objects.count(), Point.objects.count())
    call_command("loaddemo", stdout=io.StringIO())
    assert (System.objects.count(), Run.objects.count(), Point.objects.count()) == counts
    point = Point.objects.get(
        run__config__system__name="IBM DS4500",
        run__config__raid_level="RAID-5",
        run__config__drive_count=140,
        run__config__write_cache=False,
        run__workload_name="OLTP 8K",
    )
    # 000_f52f16ce4c762121.txt Table 1, 140 HDDs, All Caches Disabled, OLTP 8K: 15,025 I/Os, 117 MBps.
    assert point.iops == 15025
    assert point.metrics["published_mbps_binary"] == 117
    assert point.mbps == pytest.approx(117 * 1.048576)
    assert point.run.citation_table == "Table 1"
    assert point.run.origin == Run.Origin.PUBLISHED


def test_a_fio_queue_depth_sweep_is_stored_as_one_curve():
    status, out = ingest_command(data("fio", "sweep"), "--system", "Lab NVMe array")
    assert status == 0, out
    run = Run.objects.get()
    loads = list(run.points.values_list("outstanding_io", flat=True))
    # randread-1-1.json, randread-4-1.json, randread-16-1.json: iodepth 1, 4 and 16 with one job.
    assert loads == [1, 4, 16]
    assert "stored     randread-1-1.json, randread-16-1.json, randread-4-1.json: fio, 1 run, 3 points" in out


def test_files_read_together_point_at_the_upload_holding_their_runs_and_are_reread_together():
    ingest_command(data("fio", "sweep"), "--system", "Lab NVMe array")
    first, *others = Upload.objects.order_by("id")
    assert [u.read_with_id for u in others] == [first.id, first.id]
    assert Run.objects.get().upload_id == first.id
    # Re-reading the group from any of its files replaces the one run with one run of three points.
    assert upload_reingest(upload=others[0])
    upload = run_job_of(others[0])
    assert upload.id == first.id and upload.status == Upload.Status.DONE
    run = Run.objects.get()
    assert run.points.count() == 3
