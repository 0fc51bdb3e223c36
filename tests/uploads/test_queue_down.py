"""The upload page with the job queue (Redis) down: the form answers with a sentence, not a 500 page; the
files are kept, and recovery sends their jobs once Redis is back. The broker here is a Redis of the
test's own, started and stopped by the test (never the machine's)."""

import base64
import json
import time
import uuid
from pathlib import Path

import pytest
import redis
from playwright.sync_api import expect

from portal import embedded
from portal.celery import app
from portal.models import IngestJob, Upload
from portal.uploads.jobs import jobs_recover
from tests.conftest import wait_until
from tests.samples import sample
from tests.uploads.conftest import post_files, wait_finished
from tests.uploads.test_browser import sign_in

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")


class Broker:
    """A Redis of the test's own as the workers' broker, with a queue of the test's own."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.queue = f"test-{uuid.uuid4().hex[:12]}"
        self.url = embedded.redis_url(folder)

    def stop(self):
        assert embedded.stop_all(self.folder, postgres=False) == ["redis"]
        assert wait_until(lambda: not embedded.redis_running(self.folder), seconds=10)

    def start(self):
        assert embedded.redis_url(self.folder) == self.url  # back on the same port

    def sent_job_ids(self):
        """The job ids of the ingest messages waiting on the test's queue (Celery's message protocol 2)."""
        messages = [json.loads(raw) for raw in redis.Redis.from_url(self.url).lrange(self.queue, 0, -1)]
        return [json.loads(base64.b64decode(message["body"]))[0][0] for message in messages]


def _use_broker(url, queue):
    """Point the Celery app, its connection pools included, at ``url`` and ``queue``."""
    app.conf.broker_url, app.conf.task_default_queue = url, queue
    app.amqp._producer_pool = None
    app._pool = None


@pytest.fixture
def broker(tmp_path):
    folder = tmp_path / "broker"
    folder.mkdir()
    own = Broker(folder)
    previous = (app.conf.broker_url, app.conf.task_default_queue)
    _use_broker(own.url, own.queue)
    try:
        yield own
    finally:
        _use_broker(*previous)
        embedded.stop_all(folder, postgres=False)


def _kept_sentence(upload_ids):
    names = ", ".join(f"#{upload_id}" for upload_id in upload_ids)
    return (
        f"The job queue (Redis) does not answer: the files are kept as upload(s) {names} and are read when "
        "it is back, without sending them again."
    )


def _kept_and_unsent(name):
    upload = Upload.objects.get(original_name=name)
    assert upload.status == Upload.Status.QUEUED
    job = IngestJob.objects.get(id=upload.job_id)
    assert (job.status, job.sent_at) == (IngestJob.Status.QUEUED, None)
    return upload, job


@pytest.mark.django_db
def test_the_form_without_its_script_says_the_files_are_kept_and_recovery_sends_them(
    signed_in, data_dir, broker, lab, django_capture_on_commit_callbacks
):
    broker.stop()
    with open(FIO, "rb") as file:
        response = signed_in.post(
            "/uploads/files", {"files": [file], "team": lab.id, "measurement": "end_to_end"}, follow=True
        )
    assert response.status_code == 200
    upload, job = _kept_and_unsent(FIO.name)
    assert _kept_sentence([upload.id]) in response.content.decode()

    broker.start()
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_recover() == [job.id]
    assert broker.sent_job_ids() == [job.id]


@pytest.mark.django_db
def test_a_recovery_round_that_meets_the_queue_down_leaves_the_job_unsent(
    signed_in, data_dir, broker, lab, django_capture_on_commit_callbacks
):
    """Not marked sent by a try that failed: the next round that finds Redis answering sends it at once."""
    broker.stop()
    with open(FIO, "rb") as file:
        signed_in.post("/uploads/files", {"files": [file], "team": lab.id, "measurement": "end_to_end"})
    _, job = _kept_and_unsent(FIO.name)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_recover() == [job.id]
    _kept_and_unsent(FIO.name)

    broker.start()
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_recover() == [job.id]
    assert broker.sent_job_ids() == [job.id]
    job.refresh_from_db()
    assert job.sent_at is not None


@pytest.mark.browser
def test_the_upload_page_says_the_files_are_kept_while_redis_is_down(
    transactional_db, live_server, engineer, data_dir, broker, browser_page
):
    page = browser_page.page
    sign_in(page, live_server)
    broker.stop()
    page.get_by_label("Choose result files").set_input_files([str(FIO)])
    page.get_by_role("button", name="Upload", exact=True).click()

    row = page.locator("#upload-table tbody tr", has_text=FIO.name)
    expect(row.locator("td.status")).to_contain_text("queued")
    upload_id = int(row.get_attribute("data-upload-id") or 0)
    expect(page.locator("#upload-message")).to_have_text(_kept_sentence([upload_id]))
    # The 503 itself, as the browser reports it; nothing else went wrong on the page.
    assert sorted(browser_page.problems) == [
        f"503 {live_server.url}/uploads/files",
        "Failed to load resource: the server responded with a status of 503 (Service Unavailable)",
    ]
    _, job = _kept_and_unsent(FIO.name)

    broker.start()
    assert jobs_recover() == [job.id]
    assert broker.sent_job_ids() == [job.id]


@pytest.mark.worker
def test_files_kept_while_redis_was_down_are_read_seconds_after_it_is_back(
    data_dir, broker, celery_workers, signed_in, lab
):
    """A real worker on the test's broker: the upload is kept while Redis is down, recovery rounds meet the
    queue down meanwhile, and the file is read within seconds of Redis answering again, not after the
    lost-message wait (INGEST_LOST_SECONDS, 120 s)."""
    celery_workers.start(REDIS_URL=broker.url, INGEST_RECOVER_SECONDS=1)
    broker.stop()
    response = post_files(signed_in, [FIO], team=lab.id, new_system_name="Kept K1")
    assert response.status_code == 503
    upload, _ = _kept_and_unsent(FIO.name)
    # Long enough for the worker's recovery (every INGEST_RECOVER_SECONDS, 1 s here) to meet the queue down
    # a few times.
    time.sleep(4)
    assert Upload.objects.get(id=upload.id).status == Upload.Status.QUEUED

    broker.start()
    back = time.monotonic()
    wait_finished([upload.id], seconds=60)
    delay = time.monotonic() - back
    upload.refresh_from_db()
    assert (upload.status, upload.error) == (Upload.Status.DONE, ""), upload.error
    # Measured: 5.2 s in one run on the 2-core test machine.
    assert delay < 15, f"read {delay:.1f} s after Redis answered again"
