"""The test database is copied from a migrated template instead of being migrated for every test run.

The template (``<name>_template_<digest>``) is made once by running every migration, and kept on the server:
its name carries a digest of the migration files of every installed app and of the SQL files the migrations
install (``portal/sql``), so any change to them makes a new template (older ones are dropped then). Each test
run, and each pytest-xdist worker, then creates its own test database from it with ``CREATE DATABASE ...
TEMPLATE``, in well under a second; Django's ``migrate`` on the copy finds nothing to apply. A file lock under
the data directory keeps two test runs (or two workers) from building the same template at once.
"""

import contextlib
import fcntl
import hashlib
from pathlib import Path

from tests.samples import REPO

SQL_DIR = REPO / "portal" / "sql"


def template_digest() -> str:
    """A digest of every installed app's migration files and of ``portal/sql``: what a migrated database is."""
    import django
    from django.apps import apps

    digest = hashlib.sha256(django.get_version().encode())
    folders = [Path(config.path) / "migrations" for config in apps.get_app_configs()]
    files = sorted(path for folder in folders if folder.is_dir() for path in folder.glob("*.py"))
    files += sorted(SQL_DIR.glob("*.sql"))
    for path in files:
        digest.update(str(path.relative_to(path.parents[1])).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@contextlib.contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _admin(statement: str, params=()) -> list[tuple]:
    """Run ``statement`` on the server's maintenance database, outside any transaction."""
    from django.db import connection

    with connection._nodb_cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def _migrate(name: str) -> None:
    """Run every migration on the database ``name`` through the default connection, then point it back."""
    from django.core.management import call_command
    from django.db import connection

    original = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        call_command("migrate", verbosity=0, interactive=False)
    finally:
        connection.close()
        connection.settings_dict["NAME"] = original


def migrated_template(data_dir: Path) -> str:
    """The name of the migrated template database, made now if the server has none of this digest."""
    from django.db import connection

    base = connection.settings_dict["NAME"]
    name = f"{base}_template_{template_digest()}"
    with _locked(Path(data_dir) / "test-template.lock"):
        if _admin("SELECT 1 FROM pg_database WHERE datname = %s", [name]):
            return name
        building = f"{name}_building"
        for (stale,) in _admin("SELECT datname FROM pg_database WHERE datname LIKE %s", [f"{base}\\_template\\_%"]):
            _admin(f'DROP DATABASE "{stale}" WITH (FORCE)')
        _admin(f'CREATE DATABASE "{building}"')
        _migrate(building)
        # Renamed only once whole: a run stopped while migrating leaves no template that looks ready.
        _admin(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    return name


def use_template(data_dir: Path) -> None:
    """Make Django create the test database (``setup_databases``) as a copy of the migrated template."""
    from django.conf import settings
    from django.db import connection

    template = migrated_template(data_dir)
    for settings_dict in (settings.DATABASES["default"], connection.settings_dict):
        settings_dict.setdefault("TEST", {})["TEMPLATE"] = template


def analyze() -> None:
    """Give the planner statistics of the rows a fixture stored in the test's transaction.

    A test's rows are never committed, so autovacuum never analyzes them, and the planner reads a table of
    thousands of points as nearly empty: a comparison's query then nests loops over whole tables (minutes,
    not milliseconds). ``ANALYZE`` in the same transaction samples those rows, as autovacuum would after
    a real upload.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
