"""``manage.py backup`` and ``restore``: a backup restored into an empty database and an empty data
dir holds the same systems, runs, figures and originals."""

import hashlib
import io
import os
import subprocess
import sys
import tarfile
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from portal.management.commands.backup import client_major, pg_client
from portal.models import Run, System, Upload
from tests.conftest import database_url
from tests.samples import REPO, sample

IOMETER = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")
FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
EMAIL_SERVER = "Email Server - R60 W40- RND- 4K"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def data_dir(settings, tmp_path):
    settings.DATA_DIR = tmp_path / "data"
    settings.UPLOADS_DIR = settings.DATA_DIR / "uploads"
    settings.UPLOADS_DIR.mkdir(parents=True)
    return settings.DATA_DIR


@pytest.fixture
def empty_database():
    """The URL of a second, empty database on the test database's server; dropped afterwards."""
    params = connection.settings_dict
    name = f"{params['NAME']}_restore_{uuid.uuid4().hex[:8]}"
    admin_url = database_url({**params, "NAME": "postgres"})
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield database_url({**params, "NAME": name})
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(*args, url, data_dir):
    """Run manage.py as an operator would, against another database and data dir (on the tests' Redis: an
    embedded one started for the throw-away data dir would outlive the test)."""
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": settings.REDIS_URL, "ARRAYBENCH_DATA_DIR": str(data_dir)}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )


def restored(url, query, *params):
    with psycopg.connect(url) as restored_db:
        return restored_db.execute(query, params).fetchall()


def test_a_backup_restores_into_an_empty_database_and_data_dir(data_dir, empty_database, tmp_path):
    call_command("ingest", str(IOMETER), str(FIO), "--system", "IBM DS4500", stdout=io.StringIO())
    run_names = sorted(Run.objects.values_list("name", flat=True))
    originals = dict(Upload.objects.values_list("stored_path", "sha256"))
    assert len(run_names) == 12 and len(originals) == 2

    backup = tmp_path / "arraybench.tar.gz"
    out = io.StringIO()
    call_command("backup", str(backup), stdout=out)
    assert out.getvalue() == f"Backed up 1 system, 12 runs, 12 points and 2 originals to {backup}\n"
    with tarfile.open(backup) as archive:
        assert sorted(archive.getnames()) == sorted(
            ["manifest.json", "database.dump", *(f"uploads/{path}" for path in originals)]
        )

    elsewhere = tmp_path / "restored"
    done = manage("restore", str(backup), url=empty_database, data_dir=elsewhere)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Restored 1 system, 12 runs, 12 points and 2 originals from {backup} (backed up ")

    assert restored(empty_database, "SELECT name FROM portal_system") == [("IBM DS4500",)]
    assert [name for (name,) in restored(empty_database, "SELECT name FROM portal_run ORDER BY name")] == run_names
    # Iometer results.csv line 59, the ALL row of the Email Server test: IOps.
    email_iops = "SELECT p.iops FROM portal_point p JOIN portal_run r ON r.id = p.run_id WHERE r.name = %s"
    assert restored(empty_database, email_iops, EMAIL_SERVER) == [(248636.698001,)]
    for path, sha256 in originals.items():
        assert hashlib.sha256((elsewhere / "uploads" / path).read_bytes()).hexdigest() == sha256
    expected = {hashlib.sha256(p.read_bytes()).hexdigest() for p in (IOMETER, FIO)}
    assert set(originals.values()) == expected


def test_restore_refuses_a_database_that_holds_results_unless_forced(data_dir, empty_database, tmp_path):
    call_command("ingest", str(FIO), "--system", "IBM DS4500", stdout=io.StringIO())
    backup = tmp_path / "arraybench.tar"
    call_command("backup", str(backup), stdout=io.StringIO())
    System.objects.create(name="NetApp E2700", vendor="NetApp", model="E2700")

    # Restoring into the database being backed up: it holds two systems now.
    url = database_url(connection.settings_dict)
    refused = manage("restore", str(backup), url=url, data_dir=data_dir)
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        "CommandError: the database already holds 2 systems and 1 run; restore into an empty database, "
        "or pass --force to replace them with the backup"
    )
    forced = manage("restore", str(backup), "--force", url=url, data_dir=data_dir)
    assert forced.returncode == 0, forced.stderr
    assert sorted(System.objects.values_list("name", flat=True)) == ["IBM DS4500"]
    assert Run.objects.count() == 1


def test_restore_refuses_a_file_that_is_not_a_backup(data_dir, empty_database, tmp_path):
    not_backup = tmp_path / "results.tar"
    with tarfile.open(not_backup, "w") as archive:
        archive.add(FIO, arcname="fio.json")
    refused = manage("restore", str(not_backup), url=empty_database, data_dir=tmp_path / "restored")
    assert refused.returncode == 1
    assert refused.stderr.strip() == (
        "CommandError: results.tar: not an ArrayBench backup (it needs manifest.json and database.dump)"
    )
    assert not Path(tmp_path / "restored" / "uploads").exists()


def test_the_client_programs_match_the_server_or_are_refused():
    server_major = connection.pg_version // 10000
    pg_dump = pg_client("pg_dump", at_least=server_major)
    # Here the server's own major version (the embedded server's programs, or Debian's).
    assert client_major(pg_dump) == server_major
    with pytest.raises(CommandError, match="^pg_dump of PostgreSQL 99 or newer is needed \\(found: /"):
        pg_client("pg_dump", at_least=99)
