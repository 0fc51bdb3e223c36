"""Throw-away databases for the benchmark, on the configured server or an embedded one, dropped at the end."""

import contextlib
import os
from dataclasses import dataclass

# Named per process: two benchmarks on one server never drop each other's databases.
SMALL, LARGE = f"arraybench_bench_small_{os.getpid()}", f"arraybench_bench_large_{os.getpid()}"
# P3 on a real lab's shape: a 50 MB Iometer upload beside one-copy systems, stored as an upload is.
REAL = f"arraybench_bench_real_{os.getpid()}"
WORKERS = f"arraybench_bench_workers_{os.getpid()}"  # P4: emptied before each batch, Celery workers read it too


@dataclass
class Server:
    """The benchmark's databases; ``use`` points Django's default connection at one of them."""

    data_dir: str

    def use(self, name):
        from django.db import connection

        if connection.settings_dict["NAME"] != name:
            connection.close()
            connection.settings_dict["NAME"] = name

    def url(self, name):
        from django.db import connection

        from tests.conftest import database_url

        return database_url({**connection.settings_dict, "NAME": name})


def _admin(statement):
    """Run a statement on the server's ``postgres`` database, outside any transaction."""
    import psycopg
    from django.db import connection

    settings = connection.settings_dict
    options = {"dbname": "postgres", "user": settings["USER"] or "postgres", "autocommit": True}
    if settings["HOST"]:
        options["host"] = settings["HOST"]
    if settings["PORT"]:
        options["port"] = settings["PORT"]
    if settings["PASSWORD"]:
        options["password"] = settings["PASSWORD"]
    with psycopg.connect(**options) as admin:
        admin.execute(statement)


@contextlib.contextmanager
def throwaway(work, names=(SMALL, LARGE)):
    """Start Django against fresh, migrated databases ``names``; drop them afterwards."""
    data_dir = work / "data"
    os.environ["ARRAYBENCH_DATA_DIR"] = str(data_dir)
    os.environ["ARRAYBENCH_QUEUE"] = f"arraybench-bench-{os.getpid()}"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.ALLOWED_HOSTS.append("testserver")
    server = Server(str(data_dir))
    try:
        for name in names:
            _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            _admin(f'CREATE DATABASE "{name}"')
            server.use(name)
            call_command("migrate", verbosity=0)
        yield server
    finally:
        connection.close()
        for name in names:
            _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        # Whatever ran embedded in the throw-away data dir (PostgreSQL without DATABASE_URL, Redis
        # without REDIS_URL) stops with it.
        from portal.embedded import stop_all

        stop_all(data_dir)
