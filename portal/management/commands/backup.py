"""``manage.py backup FILE``: the database and the stored originals in one archive file.

The archive is a tar (gzip-compressed when FILE ends in ``.gz`` or ``.tgz``) holding
``manifest.json``, ``database.dump`` (``pg_dump --format=custom``) and ``uploads/`` (the originals,
at their paths under ``UPLOADS_DIR``). ``manage.py restore`` reads it back.
"""

import importlib.util
import io
import json
import logging
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser
from django.db import connection, transaction
from django.utils import timezone

from portal.models import Point, Run, System, Upload

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from django.db.backends.postgresql.base import DatabaseWrapper

BACKUP_FORMAT = "arraybench-backup"
BACKUP_VERSION = 1
MANIFEST = "manifest.json"
DUMP = "database.dump"
ORIGINALS = "uploads"


def client_candidates(name: str) -> list[Path]:
    """Where PostgreSQL client programs may be: the embedded server's own, the PATH, Debian's."""
    candidates = []
    embedded = importlib.util.find_spec("pgserver")  # found, not imported: importing it has side effects
    if embedded and embedded.submodule_search_locations:
        candidates.append(Path(embedded.submodule_search_locations[0]) / "pginstall" / "bin" / name)
    on_path = shutil.which(name)
    if on_path:
        candidates.append(Path(on_path))
    candidates += sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return [path for path in candidates if path.is_file()]


def client_major(binary: Path) -> int | None:
    """The major version of a PostgreSQL client program, from ``--version``."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return None
    match = re.search(r"\(PostgreSQL\) (\d+)", out)
    return int(match.group(1)) if match else None


def pg_client(name: str, *, at_least: int) -> Path:
    """The client program to use: one of the server's major version, else the oldest newer one.

    pg_dump refuses servers newer than itself, and pg_restore archives made by newer pg_dumps.
    """
    found: dict[int, Path] = {}
    for binary in client_candidates(name):
        major = client_major(binary)
        if major is not None:
            found.setdefault(major, binary)
    usable = sorted(major for major in found if major >= at_least)
    if not usable:
        have = ", ".join(f"{binary} ({major})" for major, binary in sorted(found.items())) or "none"
        raise CommandError(
            f"{name} of PostgreSQL {at_least} or newer is needed (found: {have}); "
            f"install the PostgreSQL {at_least} client programs"
        )
    return found[usable[0]]


def server_major() -> int:
    connection.ensure_connection()
    return cast("DatabaseWrapper", connection).pg_version // 10000


def pg_environment() -> dict[str, str]:
    """The environment that points libpq programs at the database Django uses (no password in argv)."""
    params = connection.settings_dict
    env = {
        "PGHOST": str(params["HOST"] or ""),
        "PGPORT": str(params["PORT"] or ""),
        "PGUSER": str(params["USER"] or ""),
        "PGPASSWORD": str(params["PASSWORD"] or ""),
        "PGDATABASE": str(params["NAME"]),
        "PGSSLMODE": str(params.get("OPTIONS", {}).get("sslmode", "")),
    }
    return {**os.environ, **{key: value for key, value in env.items() if value}}


def run_client(command: list[str | Path]) -> None:
    done = subprocess.run(command, env=pg_environment(), capture_output=True, text=True)
    if done.returncode != 0:
        logger.error("%s failed with status %s: %s", command[0], done.returncode, done.stderr.strip())
        raise CommandError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def database_counts() -> dict[str, int]:
    return {
        "systems": System.objects.count(),
        "runs": Run.objects.count(),
        "points": Point.objects.count(),
        "uploads": Upload.objects.count(),
    }


def plural(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def counts_sentence(counts: dict[str, int]) -> str:
    return (
        f"{plural(counts['systems'], 'system')}, {plural(counts['runs'], 'run')}, "
        f"{plural(counts['points'], 'point')} and {plural(counts['originals'], 'original')}"
    )


class Command(BaseCommand):
    help = (
        "Back up the database (pg_dump, custom format) and the stored originals into one archive FILE "
        "(a .tar, or .tar.gz); restore it with `manage.py restore FILE`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive to write, e.g. arraybench-2024-05-01.tar.gz")

    def handle(self, *args, file: str, **options: Any) -> None:
        target = Path(file).resolve()
        if not target.parent.is_dir():
            raise CommandError(f"{target.parent}: no such folder")
        # The dump is written beside the archive, not in /tmp: it may be as large as the database.
        with tempfile.TemporaryDirectory(dir=target.parent, prefix=".arraybench-backup-") as work:
            dump = Path(work) / DUMP
            manifest, stored = self._dump(dump)
            originals, missing = self._present(stored)
            manifest["originals"] = originals
            manifest["counts"]["originals"] = len(originals)
            partial = Path(work) / target.name
            self._write(partial, manifest, dump)
            partial.replace(target)
        for path in missing:
            self.stderr.write(f"warning: original {path} is missing from {settings.UPLOADS_DIR}; not backed up")
        self.stdout.write(f"Backed up {counts_sentence(manifest['counts'])} to {target}")

    def _dump(self, dump: Path) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """Dump the database; return the manifest and the originals the rows name (path, sha256),
        both read in the snapshot of the dump."""
        major = server_major()
        pg_dump = pg_client("pg_dump", at_least=major)
        with transaction.atomic(), connection.cursor() as cursor:
            # pg_dump reads the snapshot this transaction sees, so the counts and the originals
            # listed are exactly those of the dump, whatever is stored meanwhile.
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
            run_client([pg_dump, "--format=custom", f"--file={dump}", f"--snapshot={snapshot}"])
            stored = sorted(set(Upload.objects.values_list("stored_path", "sha256")))
            counts = database_counts()
        manifest = {
            "format": BACKUP_FORMAT,
            "version": BACKUP_VERSION,
            "created": timezone.now().isoformat(),
            "arraybench_version": settings.VERSION,
            "database": {"server_major": major, "pg_dump_major": client_major(pg_dump)},
            "counts": counts,
        }
        return manifest, stored

    def _present(self, stored: list[tuple[str, str]]) -> tuple[list[dict[str, str]], list[str]]:
        """The originals to back up (path and sha256), and those the rows name but the disk lacks."""
        originals, missing = [], []
        for path, sha256 in stored:
            if (settings.UPLOADS_DIR / path).is_file():
                originals.append({"path": path, "sha256": sha256})
            else:
                missing.append(path)
        return originals, missing

    def _write(self, archive_path: Path, manifest: dict[str, Any], dump: Path) -> None:
        compressed = archive_path.name.endswith((".gz", ".tgz"))
        with tarfile.open(archive_path, "w:gz" if compressed else "w") as archive:
            data = json.dumps(manifest, indent=2).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime = len(data), int(timezone.now().timestamp())
            archive.addfile(info, io.BytesIO(data))
            archive.add(dump, arcname=DUMP)
            for original in manifest["originals"]:
                archive.add(settings.UPLOADS_DIR / original["path"], arcname=f"{ORIGINALS}/{original['path']}")
