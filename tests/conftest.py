"""Shared fixtures: rows, a real Celery worker on a private queue, database URLs."""

import os
import subprocess
import sys
import time
import uuid
from urllib.parse import quote

import pytest

from tests.samples import REPO


def database_url(settings_dict):
    """A DATABASE_URL for the connection settings pytest-django uses (the test database)."""
    user = quote(settings_dict["USER"] or "")
    password = quote(settings_dict["PASSWORD"] or "")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict["HOST"] or ""
    port = f":{settings_dict['PORT']}" if settings_dict["PORT"] else ""
    if host.startswith("/"):
        host = quote(host, safe="")
    return f"postgresql://{auth}{host}{port}/{settings_dict['NAME']}"


@pytest.fixture
def celery_worker_process(transactional_db, settings):
    """A real Celery worker process consuming a queue of its own, against the test database.

    Yields the Celery app; tasks sent from the test go to that queue.
    """
    from django.db import connection

    from portal.celery import app

    queue = f"test-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "ARRAYBENCH_QUEUE": queue,
        "ARRAYBENCH_DATA_DIR": str(settings.DATA_DIR),
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool", "solo", "--queues", queue,
         "--hostname", f"{queue}@%h", "--loglevel", "WARNING"],
        cwd=REPO, env=env,
    )  # fmt: skip
    previous_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        _wait_for_worker(app, worker, queue)
        yield app
    finally:
        app.conf.task_default_queue = previous_queue
        worker.terminate()
        worker.wait(timeout=30)


def _wait_for_worker(app, worker, queue, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise RuntimeError(f"the Celery worker exited with status {worker.returncode}")
        replies = app.control.ping(timeout=0.5)
        if any(queue in name for reply in replies for name in reply):
            return
    raise RuntimeError("the Celery worker did not answer within a minute")


def wait_until(condition, *, seconds=30, interval=0.1):
    """Poll ``condition`` until it returns something true; return that, or fail the test."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"condition not met within {seconds} s")
