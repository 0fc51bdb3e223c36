"""A lab's first day from the shell: ``manage.py createsuperuser`` in another shell works on the data of
``make run`` (``manage.py serve``) and starts no servers of its own; a command stops what it started;
``make run`` starts its embedded PostgreSQL again when its postmaster is killed."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from portal import embedded
from tests.conftest import wait_until
from tests.samples import REPO
from tests.test_serve import _free_port, _healthz

pytestmark = pytest.mark.worker

SUPERUSER = {"DJANGO_SUPERUSER_USERNAME": "ada", "DJANGO_SUPERUSER_EMAIL": "ada@lab.example",
             "DJANGO_SUPERUSER_PASSWORD": "a long lab passphrase 7"}  # fmt: skip


def _fresh_shell(**env):
    """The environment of a new shell: no server URLs, no data dir unless given."""
    names = ("DATABASE_URL", "REDIS_URL", "ARRAYBENCH_DATA_DIR")
    return {**{k: v for k, v in os.environ.items() if k not in names}, **env}


def _manage(*args, env):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )


def _servers_running(data_dir):
    return {"postgresql": embedded.postgres_running(data_dir), "redis": embedded.redis_running(data_dir)}


def _postmaster_pid(data_dir):
    return int((Path(data_dir) / "pg" / "postmaster.pid").read_text().split("\n", 1)[0])


def test_createsuperuser_before_the_portal_ran_says_what_to_do_and_stops_the_servers_it_started(tmp_path):
    result = _manage("createsuperuser", "--noinput", env=_fresh_shell(ARRAYBENCH_DATA_DIR=str(tmp_path), **SUPERUSER))

    assert result.returncode == 1
    assert "The database has no ArrayBench tables yet" in result.stderr
    assert "make run" in result.stderr and str(tmp_path) in result.stderr
    assert "Traceback" not in result.stderr
    assert _servers_running(tmp_path) == {"postgresql": False, "redis": False}


def test_createsuperuser_from_another_shell_uses_the_data_of_make_run(tmp_path):
    port = _free_port()
    serve_env = _fresh_shell(ARRAYBENCH_DATA_DIR=str(tmp_path), PORT=str(port), WEB_CONCURRENCY="1")
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve"], cwd=REPO, env=serve_env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert wait_until(lambda: _healthz(port).get("worker") == "ok", seconds=180, interval=0.5)

        default_servers = _servers_running(REPO / "var")
        created = _manage("createsuperuser", "--noinput", env=_fresh_shell(**SUPERUSER))
        assert created.returncode == 0, created.stderr
        assert "Superuser created successfully." in created.stdout
        assert _servers_running(tmp_path) == {"postgresql": True, "redis": True}, "the portal's servers stay up"
        assert _servers_running(REPO / "var") == default_servers, "no second set of servers under ./var"
        count = _manage(
            "shell", "-c", "from django.contrib.auth.models import User; "
            "print(User.objects.filter(username='ada', is_superuser=True).count())",
            env=_fresh_shell(ARRAYBENCH_DATA_DIR=str(tmp_path)),
        )  # fmt: skip
        assert count.stdout.splitlines()[-1] == "1"

        killed = _postmaster_pid(tmp_path)
        os.kill(killed, signal.SIGKILL)
        assert wait_until(lambda: _postmaster_pid(tmp_path) != killed and _healthz(port).get("database") == "ok")
    finally:
        serve.send_signal(signal.SIGINT)
        output, _ = serve.communicate(timeout=60)
    assert "The embedded PostgreSQL stopped; starting it again." in output
    assert "Stopped: web server, worker, webhook worker, embedded redis, embedded postgresql" in output
    assert _servers_running(tmp_path) == {"postgresql": False, "redis": False}
    assert not (REPO / embedded.SERVING_FILE_NAME).exists()


def test_a_test_run_stops_the_embedded_servers_it_started(tmp_path):
    """`make test` in a fresh clone: the embedded PostgreSQL and Redis it starts do not outlive it."""
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_settings.py", "-q", "-p", "no:cacheprovider"],
        cwd=REPO, env=_fresh_shell(ARRAYBENCH_DATA_DIR=str(tmp_path)), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "pg" / "PG_VERSION").exists(), "the run used embedded servers of its own"
    # Stopped when the run ended (PostgreSQL's fast shutdown may still be finishing its last steps).
    stopped = {"postgresql": False, "redis": False}
    assert wait_until(lambda: _servers_running(tmp_path) == stopped, seconds=15), _servers_running(tmp_path)


def test_a_process_that_started_the_servers_of_two_data_dirs_stops_both(tmp_path):
    """A test run that also starts a Redis of its own (the Redis-down test) still stops its main one."""
    main, own = tmp_path / "main", tmp_path / "own"
    script = (
        "import sys; from pathlib import Path; from portal import embedded; "
        f"embedded.redis_url(Path({str(main)!r})); embedded.redis_url(Path({str(own)!r})); "
        "print(sorted(embedded.stop_started()))"
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "['redis', 'redis']"
    assert wait_until(lambda: not embedded.redis_running(main) and not embedded.redis_running(own), seconds=10)
