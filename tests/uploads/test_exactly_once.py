"""Real workers (prefork pools) racing for the same rows, recovery resending jobs, a worker killed mid-ingest."""

import io
import threading

import pytest
from django.db import connections
from django.test import Client

from portal.models import IngestJob, Point, Run, System, Upload
from tests.conftest import wait_until
from tests.samples import SAMPLES_DIR, data, sample
from tests.uploads.conftest import post_files, wait_finished

pytestmark = pytest.mark.worker

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
ORION = sorted((SAMPLES_DIR / "orion").glob("*.csv"))
SWEEP = sorted(data("fio", "sweep").glob("*.json"))
# Recovery as eager as it can be: queued jobs are sent again on every pass, stale after 5 s.
EAGER_RECOVERY = {
    "INGEST_RECOVER_SECONDS": 0.5,
    "INGEST_LOST_SECONDS": 0,
    "INGEST_STALE_SECONDS": 5,
    "INGEST_HEARTBEAT_SECONDS": 0.5,
}


def named(content, name):
    file = io.BytesIO(content)
    file.name = name
    return file


def _requests(batch):
    """About thirty files in ten requests for three new systems: single fio files, ORION tests
    (three matrices read together) and fio sweeps (three files read together), every file's bytes unique."""
    requests = []
    for index in range(10):
        pad = b"\n" * (batch * 100 + index * 5 + 1)  # trailing blank lines: the same figures, another sha256
        system = f"New array {batch}-{index % 3}"
        if index % 3 == 0:
            files = [named(path.read_bytes() + pad, f"t{batch}x{index}_{path.name.split('_', 2)[2]}") for path in ORION]
        elif index % 3 == 1:
            files = [named(path.read_bytes() + pad, path.name) for path in SWEEP]
        else:
            files = [named(FIO.read_bytes() + pad + b" " * n, f"single-{n}.json") for n in (1, 2, 3)]
        requests.append((system, files))
    return requests


def _post_all_at_once(engineer, requests):
    answers = [None] * len(requests)
    start = threading.Barrier(len(requests))

    def post(index):
        client = Client()
        client.force_login(engineer)
        system, files = requests[index]
        start.wait()
        try:
            answers[index] = post_files(client, files, new_system_name=system, raid_level="RAID 5", drive_count="8")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(index,)) for index in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in answers] == [201] * len(requests)
    return [row["id"] for answer in answers for row in answer.json()["uploads"]]


def test_concurrent_uploads_for_new_systems_are_each_stored_exactly_once(workers, engineer):
    workers.start(name="a", **EAGER_RECOVERY)
    workers.start(name="b", **EAGER_RECOVERY)
    for batch in range(2):
        ids = _post_all_at_once(engineer, _requests(batch))
        assert len(ids) == 30
        uploads = wait_finished(ids, seconds=120)
        assert {upload.status for upload in uploads.values()} == {"done"}, {
            u.original_name: u.error for u in uploads.values() if u.status != "done"
        }
    # Per batch: 4 ORION tests of one run (7 points each), 3 fio sweeps of one run (3 points), 9 single files.
    assert Run.objects.count() == 2 * (4 + 3 + 9)
    assert Point.objects.count() == 2 * (4 * 7 + 3 * 3 + 9 * 1)
    # Each group is stored by its first upload; every other member points at it and holds no runs.
    anchors = set(Upload.objects.filter(read_with__isnull=True).values_list("id", flat=True))
    assert set(Run.objects.values_list("upload_id", flat=True)) == anchors
    assert sorted(System.objects.values_list("name", flat=True)) == sorted(
        f"New array {batch}-{n}" for batch in range(2) for n in range(3)
    )
    # One configuration per system, however many uploads raced to create it.
    assert {system.configs.count() for system in System.objects.all()} == {1}
    assert not IngestJob.objects.exclude(status=IngestJob.Status.DONE).exists()


def _big_iometer(tmp_path, copies=40):
    """An Iometer results file with the shared 1.1.0 sample appended 40 times (59 runs each), as
    Iometer appends tests: big enough that reading it takes seconds."""
    chunk = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv").read_bytes()
    path = tmp_path / "appended_results.csv"
    path.write_bytes(chunk * copies)
    return path


def test_a_worker_killed_mid_ingest_costs_under_a_minute_and_nothing_twice(workers, signed_in, lab, tmp_path):
    victim = workers.start(name="victim", concurrency=1)
    big = _big_iometer(tmp_path)
    system = System.objects.create(name="Intel NVMe rig", team=lab)
    upload_id = post_files(signed_in, [big], system=system.id).json()["uploads"][0]["id"]

    def parsing():
        upload = Upload.objects.select_related("job").get(id=upload_id)
        return upload.status == Upload.Status.PARSING and upload.progress_pct > 0 and upload.job

    job = wait_until(parsing, seconds=60, interval=0.05)
    assert job.worker.startswith("victim.")
    workers.kill(victim)
    workers.start(name="rescuer", concurrency=1)  # default heartbeat and recovery settings

    # Recovered by the heartbeat going stale within seconds: a bound on the wait, not a timed assertion.
    finished = wait_finished([upload_id], seconds=90)[upload_id]
    assert (finished.status, finished.error) == ("done", "")
    job.refresh_from_db()
    assert (job.status, job.attempts) == ("done", 2)
    assert job.worker.startswith("rescuer.")
    # 40 copies x 59 runs of one point each (quarchpy_an016_testfile_1.1.0_multitest.csv holds 59 tests).
    assert Run.objects.filter(upload_id=upload_id).count() == 40 * 59
    assert Point.objects.filter(run__upload_id=upload_id).count() == 40 * 59
