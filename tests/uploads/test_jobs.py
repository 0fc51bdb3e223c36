"""Ingest jobs: claimed once, stored once under a lease, recovered by heartbeat, failures said plainly."""

import datetime
import io
import threading
import uuid
import zipfile

import pytest
from django.core.management import call_command
from django.db import connections, transaction
from django.utils import timezone

import ingest
from portal.models import Config, IngestJob, Point, Run, System, Upload
from portal.results.workloads import config_for
from portal.systems.services import system_get_or_create
from portal.uploads import jobs, services
from tests.factories import SystemFactory
from tests.ingesting import run_job_of, store_file
from tests.samples import SAMPLES_DIR, sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")


def _queued_job(system, path=FIO, *, name=None):
    with path.open("rb") as stream:
        upload = services.upload_create(stream=stream, original_name=name or path.name, system=system)
    (group,) = ingest.plan([services.upload_source(upload=upload)])
    return services.job_create(group=group, members=[upload], system=system, enqueue=False), upload


def _make_stale(job, *, seconds=120):
    IngestJob.objects.filter(id=job.id).update(heartbeat_at=timezone.now() - datetime.timedelta(seconds=seconds))


@pytest.mark.django_db
def test_a_running_job_is_claimed_again_only_once_its_heartbeat_is_stale(data_dir):
    job, _upload = _queued_job(SystemFactory())
    first = jobs.job_claim(job_id=job.id, worker="a")
    assert first is not None
    assert jobs.job_claim(job_id=job.id, worker="b") is None, "a live worker holds it"
    _make_stale(job)
    second = jobs.job_claim(job_id=job.id, worker="b")
    assert second not in (None, first)
    job.refresh_from_db()
    assert (job.status, job.worker, job.attempts, job.lease) == ("running", "b", 2, second)
    assert Upload.objects.get(job=job).status == Upload.Status.PARSING


@pytest.mark.django_db
def test_a_worker_that_lost_its_lease_stores_nothing_and_the_new_holder_stores_once(data_dir):
    job, upload = _queued_job(SystemFactory())
    old_lease = jobs.job_claim(job_id=job.id, worker="presumed dead")
    _make_stale(job)
    assert jobs.job_run(job_id=job.id, worker="recovering").status == IngestJob.Status.DONE
    # The first worker wakes up and tries to store what it parsed: the lease is no longer its own.
    jobs._store(job, old_lease, [])
    jobs._fail(job, old_lease, message="late failure")
    upload.refresh_from_db()
    assert (upload.status, upload.error) == (Upload.Status.DONE, "")
    assert Run.objects.filter(upload=upload).count() == 1
    # fio JSON line 37 "iops" : 10102.601156: one point, stored once.
    assert list(Point.objects.values_list("iops", flat=True)) == [10102.601156]


@pytest.mark.django_db
def test_a_finished_job_sent_again_is_skipped(data_dir):
    job, upload = _queued_job(SystemFactory())
    jobs.job_run(job_id=job.id, worker="a")
    assert jobs.job_run(job_id=job.id, worker="b") is None
    assert Run.objects.filter(upload=upload).count() == 1


@pytest.mark.django_db
def test_recovery_resends_dead_and_lost_jobs_and_fails_a_file_that_keeps_killing_workers(data_dir, settings):
    system = SystemFactory()
    dead, _ = _queued_job(system)
    lost, _ = _queued_job(system, sample("fio", "fioplot_fio-3.14_samsungpm833_randread-1-1.json"))
    killer, killer_upload = _queued_job(system, sample("fio", "fioplot_fio-3.6_ceph-hdd_randread-16-16.json"))
    fresh, _ = _queued_job(system, sample("fio", "fioplot_fio-2.18_example_data01_randread-01.json"))
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    jobs.job_claim(job_id=dead.id, worker="killed")
    _make_stale(dead)
    IngestJob.objects.filter(id__in=[dead.id, lost.id, killer.id]).update(sent_at=long_ago)
    IngestJob.objects.filter(id=killer.id).update(
        status="running", lease=uuid.uuid4(), heartbeat_at=long_ago, attempts=settings.INGEST_MAX_ATTEMPTS
    )

    assert sorted(jobs.jobs_recover()) == [dead.id, lost.id]
    assert jobs.jobs_recover() == [], "a job is sent again once per stale period, not on every pass"
    killer_upload.refresh_from_db()
    assert killer_upload.status == Upload.Status.FAILED
    assert killer_upload.error == (
        "fioplot_fio-3.6_ceph-hdd_randread-16-16.json: the worker reading this stopped 3 times "
        "(killed, or out of memory); the file is kept and can be re-ingested"
    )
    assert IngestJob.objects.get(id=fresh.id).status == IngestJob.Status.QUEUED


@pytest.mark.django_db
def test_a_failed_reingest_keeps_the_earlier_runs_and_says_so(data_dir, monkeypatch):
    upload = store_file(FIO, system=SystemFactory())
    runs_before = list(Run.objects.values_list("id", flat=True))
    # The same bytes now read by a parser that refuses them (a parser changed since the first reading).
    from ingest.formats import fio

    def refuse(sources):
        raise fio.ParseError("the new parser refuses this file", file=sources[0].name, line=3)

    monkeypatch.setattr(fio, "parse_group", refuse)
    assert services.upload_reingest(upload=upload)
    upload = run_job_of(upload)
    assert upload.status == Upload.Status.DONE
    assert upload.error == (
        "re-ingest failed: fioplot_fio-3.34_randread-1-1.json:3: the new parser refuses this file; "
        "the earlier results are kept"
    )
    assert list(Run.objects.values_list("id", flat=True)) == runs_before
    assert upload.job.status == IngestJob.Status.FAILED and upload.job.kind == IngestJob.Kind.REINGEST


@pytest.mark.django_db
def test_an_internal_error_is_recorded_with_a_reference_and_stores_nothing(
    data_dir, monkeypatch, caplog, client, engineer
):
    from ingest.formats import fio

    def crash(sources):
        return {}["a parser bug"]

    monkeypatch.setattr(fio, "parse_group", crash)
    upload = store_file(FIO, system=SystemFactory(), uploader=engineer)
    reference = upload.job.error_ref
    assert len(reference) == 12
    assert upload.status == Upload.Status.FAILED
    assert upload.error == (
        f"ArrayBench could not read this file because of an internal error (KeyError, reference {reference}); "
        "the file is kept and can be re-ingested once the problem is fixed"
    )
    assert f"reference {reference}" in caplog.text and "KeyError" in caplog.text
    assert not Run.objects.exists()
    # The uploader quotes the reference; others are told only that the file could not be read.
    assert reference not in client.get(f"/uploads/{upload.id}/").content.decode()
    client.force_login(engineer)
    page = client.get(f"/uploads/{upload.id}/").content.decode()
    assert f"attempt 1, error reference <code>{reference}</code>" in page
    # The worker that ran the job is for staff, who read the logs; the uploader is not shown it.
    assert "by <code>test</code>" not in page


@pytest.mark.django_db
def test_a_duplicate_or_failed_upload_naming_a_new_system_leaves_no_system_behind(data_dir):
    store_file(FIO, system=SystemFactory(name="Existing array"))
    duplicate = store_file(FIO, new_system={"name": "Array that never stored anything"})
    failed = store_file(stream=io.BytesIO(b"not a result file at all"), name="notes.txt", new_system={"name": "Other"})
    assert duplicate.status == Upload.Status.DUPLICATE and failed.status == Upload.Status.FAILED
    assert failed.error.startswith("notes.txt:1: not a recognised result file (it begins 'not a result file at all')")
    assert list(System.objects.values_list("name", flat=True)) == ["Existing array"]


@pytest.mark.django_db(transaction=True)
def test_two_transactions_creating_the_same_configuration_and_system_get_the_same_rows():
    system = System.objects.create(name="Race array")
    labels = {"raid_level": "RAID-5", "drive_count": 14}
    inserted = threading.Event()
    got = {}

    def first():
        with transaction.atomic():
            got["first"] = config_for(system=system, labels=labels).id
            got["first_system"] = system_get_or_create(name="New race array").id
            inserted.set()
            threading.Event().wait(1.0)  # hold the uncommitted rows while the second transaction arrives
        connections.close_all()

    def second():
        inserted.wait()
        with transaction.atomic():
            got["second"] = config_for(system=system, labels=labels).id
            got["second_system"] = system_get_or_create(name="new RACE array").id
        connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got["first"] == got["second"] == Config.objects.get().id
    assert got["first_system"] == got["second_system"] == System.objects.get(name="New race array").id


@pytest.mark.django_db
def test_reingesting_an_archive_reads_it_as_an_archive_again(data_dir, tmp_path):
    archive = tmp_path / "orion-test.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted((SAMPLES_DIR / "orion").glob("*.csv")):
            out.write(path, f"mytest/{path.name}")
    upload = store_file(archive, system=SystemFactory())
    assert (upload.status, upload.format) == (Upload.Status.DONE, "orion")
    assert services.upload_reingest(upload=upload)
    upload = run_job_of(upload)
    assert (upload.status, upload.error) == (Upload.Status.DONE, "")
    # cnblogs-hftian_mytest_20190329_1057_iops.csv: seven cells with data, one run.
    assert [run.points.count() for run in Run.objects.all()] == [7]


@pytest.mark.django_db
def test_an_ingest_command_stopped_mid_file_leaves_a_job_the_next_run_finishes(data_dir, monkeypatch):
    from ingest.formats import fio

    real_parse_group = fio.parse_group

    def interrupted(sources):
        raise KeyboardInterrupt

    monkeypatch.setattr(fio, "parse_group", interrupted)
    with pytest.raises(KeyboardInterrupt):
        call_command("ingest", str(FIO), "--system", "Lab array", stdout=io.StringIO())
    upload = Upload.objects.get()
    assert (upload.status, upload.job.status, upload.job.attempts) == ("queued", "queued", 0)
    assert upload.job.sent_at is None, "released at once: any running worker's recovery sends it"

    monkeypatch.setattr(fio, "parse_group", real_parse_group)
    out = io.StringIO()
    call_command("ingest", str(FIO), "--system", "Lab array", stdout=out)
    assert f"duplicate  {FIO.name}: already stored as upload #{upload.id}" in out.getvalue()
    assert f"stored     {FIO.name}: fio, 1 run, 1 point (upload #{upload.id})" in out.getvalue()
    upload.refresh_from_db()
    assert upload.status == Upload.Status.DONE and Run.objects.get().upload_id == upload.id
