"""Upload fixtures: a private data directory, a signed-in user, a real worker reading that directory."""

import contextlib

import pytest

from portal.models import Upload
from tests.conftest import wait_until

FINISHED = {Upload.Status.DONE, Upload.Status.FAILED, Upload.Status.DUPLICATE}


@pytest.fixture
def signed_in(client, engineer):
    client.force_login(engineer)
    return client


@pytest.fixture
def worker(data_dir, celery_worker_process):
    return celery_worker_process


@pytest.fixture
def workers(data_dir, celery_workers):
    """Workers started by the test (``workers.start(...)``), reading the test's data directory."""
    return celery_workers


def post_files(client, paths_or_files, **labels):
    """POST files as the upload page's script does (one request, JSON answer)."""
    with contextlib.ExitStack() as stack:
        files = [item if hasattr(item, "read") else stack.enter_context(open(item, "rb")) for item in paths_or_files]
        return client.post(
            "/uploads/files",
            {"files": files, "measurement": "end_to_end", **labels},
            headers={"accept": "application/json"},
        )


def wait_finished(upload_ids, seconds=60):
    """Wait until every upload is done, failed or duplicate; return them by id."""

    def finished():
        uploads = {u.id: u for u in Upload.objects.filter(id__in=upload_ids)}
        return (
            uploads if all(u.status in FINISHED for u in uploads.values()) and len(uploads) == len(upload_ids) else None
        )

    return wait_until(finished, seconds=seconds, interval=0.2)
