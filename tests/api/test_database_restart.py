"""PostgreSQL restarted under a running portal (gunicorn, as ``make run`` serves it): while the database is
down every API answer is JSON (503 with Retry-After), reads work again once it is back, and an upload is
stored exactly once however the restart falls, a repeated upload of the same bytes naming the earlier
upload and its status. The database is a throw-away embedded PostgreSQL the test starts in its own
folder and restarts (never the machine's)."""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from ingest.push import _multipart
from portal import embedded
from tests.conftest import wait_until
from tests.samples import REPO, sample

# Distinct real files, one upload each (no worker reads them here: they stay queued).
FILES = [
    sample("fio", "fioplot_fio-3.34_randread-1-1.json"),
    sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv"),
    sample("diskspd", "pkb_diskspd-2.0.21a_result.xml"),
    sample("elbencho", "glennklockwood_cgpu_bw-direct.04threads.2798687.csv"),
    sample("ffsb", "caisong-hugo-blog_ffsb-6.0-RC2_stdout_log.txt"),
    sample("vdbench", "jiaoben_fsd_summary.html"),
    sample("orion", "cnblogs-hftian_mytest_20190329_1057_iops.csv"),
    sample("fio", "pkb_fio-2.17_multijob_group_reporting.json"),
]
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
MAKE_TOKEN = """
from django.contrib.auth import get_user_model
from portal.api.auth import token_create
from portal.models import Membership, Role, Team
user = get_user_model().objects.create_user("lab-script")
team = Team.objects.create(name="Lab", slug="lab")
Membership.objects.create(team=team, user=user, role=Role.UPLOADER)
print(token_create(user=user, name="push")[1])
"""


@dataclass
class Answer:
    status: int | None  # None: no HTTP answer at all (the connection failed)
    content_type: str
    body: dict
    retry_after: str | None


@dataclass
class Portal:
    url: str
    token: str
    servers: Path

    def request(self, method, path, *, files=(), fields=()):
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        data = None
        if files:
            boundary = f"b-{uuid.uuid4().hex}"
            with tempfile.TemporaryFile() as body:
                _multipart(body, boundary, list(fields), list(files))
                body.seek(0)
                data = body.read()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return Answer(response.status, response.headers["Content-Type"], json.load(response), None)
        except urllib.error.HTTPError as error:
            content_type = error.headers.get("Content-Type", "")
            body = json.loads(error.read()) if content_type == "application/json" else {}
            return Answer(error.code, content_type, body, error.headers.get("Retry-After"))
        except OSError:
            return Answer(None, "", {}, None)

    def upload(self, path):
        return self.request("POST", "/api/v1/uploads/", files=[path], fields=[("team", "lab")])

    def stop_database(self):
        """An immediate shutdown (SIGQUIT to the postmaster), as a crash or a failover cuts it: no checkpoint
        to wait for, recovery on the next start."""
        pid = int((self.servers / "pg" / "postmaster.pid").read_text().split("\n", 1)[0])
        os.kill(pid, signal.SIGQUIT)
        assert wait_until(lambda: not embedded.postgres_running(self.servers), seconds=60)

    def start_database(self):
        """Started again; its crash recovery may outlast one start's wait on a busy machine: asked again."""

        def started():
            try:
                embedded.postgres_url(self.servers)
            except subprocess.CalledProcessError:
                return False
            return True

        assert wait_until(started, seconds=180, interval=2)


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def portal(tmp_path):
    servers = tmp_path / "servers"
    env = {
        **os.environ,
        "DATABASE_URL": embedded.postgres_url(servers),
        "REDIS_URL": embedded.redis_url(servers),
        "ARRAYBENCH_DATA_DIR": str(tmp_path / "data"),
        "ARRAYBENCH_QUEUE": f"test-{uuid.uuid4().hex[:12]}",
    }
    manage = [sys.executable, "manage.py"]
    try:
        subprocess.run([*manage, "migrate", "--verbosity", "0"], cwd=REPO, env=env, check=True)
        made = subprocess.run([*manage, "shell", "-c", MAKE_TOKEN], cwd=REPO, env=env, check=True, capture_output=True)
        port = _free_port()
        web = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "portal.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2",
             "--log-level", "warning"],
            cwd=REPO, env=env, start_new_session=True,
        )  # fmt: skip
        try:
            found = Portal(url=f"http://127.0.0.1:{port}", token=made.stdout.decode().split()[-1], servers=servers)
            assert wait_until(lambda: found.request("GET", "/api/v1/systems/").status == 200, seconds=60)
            yield found
        finally:
            os.killpg(web.pid, signal.SIGTERM)
            web.wait(timeout=30)
    finally:
        embedded.stop_all(servers)


def _is_json_503(answer):
    return (
        answer.status == 503
        and answer.content_type == "application/json"
        and answer.body["error"]["status"] == 503
        and answer.retry_after is not None
    )


def test_reads_answer_a_json_503_while_the_database_is_down_and_work_again(portal):
    assert portal.request("GET", "/api/v1/systems/").body["results"] == []
    portal.stop_database()
    for path in ("/api/v1/systems/", "/api/v1/runs/", "/api/v1/uploads/"):
        answer = portal.request("GET", path)
        assert _is_json_503(answer), (path, answer)
        assert answer.body["error"]["message"] == (
            "The database does not answer (restarting?): try again in a moment. Files sent again are answered "
            "with the earlier upload of the same bytes if this one was stored."
        )
    assert _is_json_503(portal.upload(FILES[0]))
    # A browser's page (the upload page included) says what is down and that nothing is lost; text on asking.
    page = urllib.request.Request(portal.url + "/", headers={"Accept": BROWSER_ACCEPT})
    for path, accept in (("/", BROWSER_ACCEPT), ("/uploads/", BROWSER_ACCEPT), ("/uploads/", "text/plain")):
        asked = urllib.request.Request(portal.url + path, headers={"Accept": accept})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(asked, timeout=60)
        body = refused.value.read().decode()
        assert (refused.value.code, refused.value.headers["Retry-After"]) == (503, "5"), path
        if accept == "text/plain":
            assert refused.value.headers["Content-Type"] == "text/plain; charset=utf-8"
            assert body.startswith("The database does not answer (restarting?)")
            continue
        assert refused.value.headers["Content-Type"] == "text/html; charset=utf-8"
        assert "<h1>The database does not answer</h1>" in body
        assert "PostgreSQL, where the portal keeps its results, does not answer (restarting?)" in body
        assert "Nothing stored is lost: results, uploads and their files stay as they were." in body
    portal.start_database()
    for path in ("/api/v1/systems/", "/api/v1/runs/", "/api/v1/uploads/"):
        assert wait_until(lambda path=path: portal.request("GET", path).status == 200, seconds=30), path
    with urllib.request.urlopen(page, timeout=60) as served:
        assert served.status == 200 and "text/html" in served.headers["Content-Type"]
    assert portal.request("GET", "/api/v1/uploads/").body["results"] == []  # the refused upload left nothing


def test_an_upload_during_a_restart_is_stored_once_and_its_repeat_names_it(portal):
    answers: dict = {}
    stopped = threading.Event()

    def send_each():
        for index, path in enumerate(FILES):
            if index == len(FILES) // 2:  # the second half is sent while the database is down
                stopped.wait(timeout=120)
            answers[path.name] = portal.upload(path)

    sender = threading.Thread(target=send_each)
    sender.start()
    assert wait_until(lambda: len(answers) == len(FILES) // 2, seconds=120)
    portal.stop_database()
    stopped.set()
    assert wait_until(lambda: len(answers) > len(FILES) // 2, seconds=120)
    portal.start_database()
    sender.join(timeout=300)
    # Whatever the restart met, the client got JSON: stored (202) or refused with Retry-After (503).
    for name, answer in answers.items():
        assert answer.status in (202, None) or _is_json_503(answer), (name, answer)
    assert len(answers) == len(FILES)
    assert any(answer.status != 202 for answer in answers.values()), "the restart met no upload"

    for path in FILES:  # the client sends each file again, as `python -m ingest push` does
        assert wait_until(lambda path=path: portal.upload(path).status == 202, seconds=30)
        [row] = portal.upload(path).body["uploads"]
        earlier = answers[path.name].body["uploads"][0] if answers[path.name].status == 202 else None
        assert row["status"] == "duplicate" and row["duplicate_of_status"] == "queued", row
        if earlier is not None:
            assert row["duplicate_of"] == earlier["id"]

    listed = portal.request("GET", f"/api/v1/uploads/?page_size={10 * len(FILES)}").body["results"]
    stored = sorted(row["name"] for row in listed if row["status"] != "duplicate")
    assert stored == sorted(path.name for path in FILES), "each file is stored exactly once"
