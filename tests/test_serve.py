"""``make run`` (``manage.py serve``): a worker that dies is started again; the portal stays up."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.conftest import database_url, wait_until
from tests.samples import REPO

pytestmark = pytest.mark.worker


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _children(pid):
    """Process ids whose parent is ``pid`` and whose command line names Celery's worker (not the webhook
    worker, consuming the notifications' queue)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if int(fields[1]) == pid and b"celery" in cmdline and b" worker" in cmdline and b"webhooks@" not in cmdline:
            found.append(int(stat.parent.name))
    return found


def _healthz(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:  # 503 while a part is down: the body still says which
        return json.load(error)
    except OSError as error:
        return {"error": str(error)}


def test_a_killed_worker_is_started_again_and_the_portal_stays_up(transactional_db, settings, tmp_path):
    from django.db import connection

    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "ARRAYBENCH_QUEUE": f"test-serve-{uuid.uuid4().hex[:8]}",
        "ARRAYBENCH_DATA_DIR": str(tmp_path),
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
    }
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve"], cwd=REPO, env=env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        healthy = wait_until(lambda: _healthz(port).get("worker") == "ok", seconds=120, interval=0.5)
        assert healthy
        (first_worker,) = wait_until(lambda: _children(serve.pid), seconds=10)
        os.kill(first_worker, signal.SIGKILL)
        (second_worker,) = wait_until(lambda: [p for p in _children(serve.pid) if p != first_worker], seconds=30)
        assert serve.poll() is None, "serve keeps running"
        assert _healthz(port)["database"] == "ok", "the web server and the database stay up"
        assert wait_until(lambda: _healthz(port).get("worker") == "ok", seconds=60, interval=0.5)
        assert second_worker != first_worker
    finally:
        serve.send_signal(signal.SIGINT)
        output, _ = serve.communicate(timeout=60)
    assert "The worker stopped (status -9); starting it again." in output
    assert "Stopped: web server, worker" in output


def _get(port, path):
    """Status, content type and body of a GET, whatever the status."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def test_a_fresh_start_with_nothing_configured_answers_an_unknown_address_with_its_own_page(
    transactional_db, settings, tmp_path
):
    """``make run`` as a new user starts it: no DEBUG, no SECRET_KEY (generated into the data dir)."""
    from django.db import connection

    port = _free_port()
    unset = ("DEBUG", "SECRET_KEY", "HTTPS", "HOST")
    env = {
        **{k: v for k, v in os.environ.items() if k not in unset},
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "ARRAYBENCH_QUEUE": f"test-serve-{uuid.uuid4().hex[:8]}",
        "ARRAYBENCH_DATA_DIR": str(tmp_path),
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
    }
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve"], cwd=REPO, env=env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert wait_until(lambda: _healthz(port).get("database") == "ok", seconds=120, interval=0.5)
        status, content_type, page = _get(port, "/no-such-page/")
        assert (status, content_type) == (404, "text/html; charset=utf-8")
        assert "<h1>Page not found</h1>" in page
        assert "There is no page at /no-such-page/, or it is not yours to read." in page
        for debug_text in ("URLconf", "Using the URLconf", "DEBUG = True", "SECRET_KEY", "urlpatterns"):
            assert debug_text not in page
        # Static files are served with DEBUG off: the page's own stylesheet.
        stylesheet = re.search(r'<link rel="stylesheet" href="([^"]+)"', page).group(1)
        status, content_type, css = _get(port, stylesheet)
        assert (status, content_type) == (200, 'text/css; charset="utf-8"'), stylesheet
        assert ":root {" in css
        assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    finally:
        serve.send_signal(signal.SIGINT)
        serve.communicate(timeout=60)
