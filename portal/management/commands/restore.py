"""``manage.py restore FILE [--force]``: put back a database and its originals from ``manage.py backup``."""

import hashlib
import json
import os
import shutil
import tarfile
import tempfile
from pathlib import Path, PurePosixPath
from typing import IO, Any

from django.conf import settings
from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser
from django.db import connection

from portal.management.commands.backup import (
    BACKUP_FORMAT,
    BACKUP_VERSION,
    DUMP,
    MANIFEST,
    ORIGINALS,
    counts_sentence,
    database_counts,
    pg_client,
    plural,
    run_client,
    server_major,
)
from portal.models import Run, System


def open_backup(path: Path) -> tarfile.TarFile:
    try:
        return tarfile.open(path, "r:*")
    except tarfile.ReadError:
        raise CommandError(f"{path.name}: not an ArrayBench backup (not a tar archive)") from None


def extract_file(archive: tarfile.TarFile, member: str) -> IO[bytes]:
    """A file in the backup; KeyError, as for a missing member, when ``member`` is not a regular file."""
    file = archive.extractfile(member)
    if file is None:
        raise KeyError(f"{member} is not a file")
    return file


def read_manifest(archive: tarfile.TarFile, name: str) -> dict[str, Any]:
    try:
        manifest = json.load(extract_file(archive, MANIFEST))
    except (KeyError, ValueError):
        raise CommandError(f"{name}: not an ArrayBench backup (no readable {MANIFEST})") from None
    if manifest.get("format") != BACKUP_FORMAT:
        raise CommandError(f"{name}: not an ArrayBench backup ({MANIFEST} says {manifest.get('format')!r})")
    if manifest.get("version") != BACKUP_VERSION:
        raise CommandError(
            f"{name}: backup format version {manifest.get('version')}; this ArrayBench reads version {BACKUP_VERSION}"
        )
    return manifest


def check_members(archive: tarfile.TarFile, name: str) -> None:
    """Refuse archives holding anything but regular files at the places a backup puts them."""
    if not {MANIFEST, DUMP} <= set(archive.getnames()):
        raise CommandError(f"{name}: not an ArrayBench backup (it needs {MANIFEST} and {DUMP})")
    for member in archive.getmembers():
        path = PurePosixPath(member.name)
        expected = member.name in (MANIFEST, DUMP) or (path.parts[0] == ORIGINALS and len(path.parts) > 1)
        if not member.isfile() or path.is_absolute() or ".." in path.parts or not expected:
            raise CommandError(f"{name}: unexpected entry {member.name!r}; not an ArrayBench backup")


def holdings() -> dict[str, int]:
    """Systems and runs the database holds already (none when it has no tables yet)."""
    tables = set(connection.introspection.table_names())
    if not {System._meta.db_table, Run._meta.db_table} <= tables:
        return {"systems": 0, "runs": 0}
    return {"systems": System.objects.count(), "runs": Run.objects.count()}


def copy_checked(source: IO[bytes], destination: Path, sha256: str, name: str) -> None:
    """Copy an original out of the archive, refusing it unless its bytes have the recorded hash."""
    digest = hashlib.sha256()
    with destination.open("wb") as out:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
            out.write(block)
    if digest.hexdigest() != sha256:
        raise CommandError(f"{name}: original {destination.name} is damaged in the backup (sha256 differs)")


class Command(BaseCommand):
    help = (
        "Restore a backup made by `manage.py backup` into an empty database and data dir: the database "
        "(pg_restore) and the originals under the uploads folder. Stop the portal and workers first."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive written by `manage.py backup`")
        parser.add_argument(
            "--force", action="store_true", help="replace what the database holds (its systems, runs, uploads)"
        )

    def handle(self, *args, file: str, force: bool, **options: Any) -> None:
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        held = holdings()
        if any(held.values()) and not force:
            raise CommandError(
                f"the database already holds {plural(held['systems'], 'system')} and {plural(held['runs'], 'run')}; "
                "restore into an empty database, or pass --force to replace them with the backup"
            )
        with open_backup(path) as archive:
            check_members(archive, path.name)
            manifest = read_manifest(archive, path.name)
            originals = self._restore(archive, manifest, path.name)
        counts = {**database_counts(), "originals": originals}
        self.stdout.write(f"Restored {counts_sentence(counts)} from {path} (backed up {manifest['created']})")

    def _restore(self, archive: tarfile.TarFile, manifest: dict[str, Any], name: str) -> int:
        """Stage the originals (checked) and the dump, restore the database, move the originals in;
        return how many originals were restored."""
        # Staged beside the uploads folder, so originals are moved into place, never half copied,
        # and nothing changes until every original has been checked.
        with tempfile.TemporaryDirectory(dir=settings.UPLOADS_DIR.parent, prefix=".arraybench-restore-") as work:
            staged = self._stage_originals(archive, manifest, Path(work), name)
            dump = Path(work) / DUMP
            with dump.open("wb") as out:
                shutil.copyfileobj(extract_file(archive, DUMP), out)
            self._restore_database(dump, manifest)
            for relative in staged:
                final = settings.UPLOADS_DIR / relative
                final.parent.mkdir(parents=True, exist_ok=True)
                os.replace(Path(work) / ORIGINALS / relative, final)
        return len(staged)

    def _stage_originals(self, archive: tarfile.TarFile, manifest: dict[str, Any], work: Path, name: str) -> list[str]:
        """Copy the originals out of the archive into ``work``, checked against their sha256."""
        staged = []
        for original in manifest["originals"]:
            relative = PurePosixPath(original["path"])
            if relative.is_absolute() or ".." in relative.parts:
                raise CommandError(f"{name}: original path {original['path']!r} leaves the uploads folder")
            try:
                source = extract_file(archive, f"{ORIGINALS}/{relative}")
            except KeyError:
                raise CommandError(f"{name}: original {relative} is listed but not in the backup") from None
            destination = work / ORIGINALS / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            copy_checked(source, destination, original["sha256"], name)
            staged.append(str(relative))
        return staged

    def _restore_database(self, dump: Path, manifest: dict[str, Any]) -> None:
        # pg_restore reads archives of its own version or older, and writes to servers up to its own.
        made_by = manifest["database"]["pg_dump_major"] or 0
        pg_restore = pg_client("pg_restore", at_least=max(server_major(), made_by))
        name = connection.settings_dict["NAME"]
        connection.close()  # nothing of Django's stands in the way of the dropped tables
        run_client(
            [pg_restore, "--clean", "--if-exists", "--no-owner", "--single-transaction", f"--dbname={name}", dump]
        )
