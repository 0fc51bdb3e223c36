"""``manage.py ingest PATH [PATH ...] --system NAME [--config key=value ...]``."""

import sys
from pathlib import Path

from django.core.management import BaseCommand, CommandError

from ingest import ParseError, Source, detect, group_sources
from ingest.archive import is_zip
from portal import services
from portal.models import Point, System, Upload


class Command(BaseCommand):
    help = (
        "Store result files (folders are walked; the files of one ORION test are read together). "
        "Prints one line per file and a summary; exit status 1 if any file failed."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+")
        parser.add_argument("--system", help='the system measured, e.g. "IBM DS4500" (created if new)')
        parser.add_argument(
            "--config", action="append", default=[], metavar="KEY=VALUE", help="a configuration or run label"
        )

    def handle(self, *args, paths, system, config, **options):
        labels = self._labels(config)
        target = self._system(system)
        sources = self._sources(paths)
        plain, failed = [], 0
        for source in sources:
            if is_zip(source):
                failed += self._store([source], target, labels)
            else:
                plain.append(source)
        readable = []
        for source in plain:
            try:
                detect(source)
                readable.append(source)
            except ParseError as error:
                self.stdout.write(f"failed     {error}")
                failed += 1
        groups = [members for _module, members in group_sources(readable)]
        total = len(groups)
        for done, members in enumerate(groups, start=1):
            if total > 10 and sys.stderr.isatty():
                sys.stderr.write(f"\r[{'#' * (30 * done // total):<30}] {done}/{total}")
            failed += self._store(members, target, labels)
        if total > 10 and sys.stderr.isatty():
            sys.stderr.write("\n")
        stored = len(sources) - failed
        self.stdout.write(f"{len(sources)} files: {stored} stored or already stored, {failed} failed")
        if failed:
            sys.exit(1)

    def _labels(self, pairs):
        labels = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep:
                raise CommandError(f"--config {pair!r}: expected KEY=VALUE")
            try:
                labels[name.strip()] = services.label_parse(name.strip(), value)
            except services.LabelError as error:
                raise CommandError(str(error)) from None
        return labels

    def _system(self, name):
        if not name:
            return None
        found = System.objects.filter(name__iexact=name.strip()).first()
        if found:
            return found
        vendor, _, model = name.strip().partition(" ")
        return System.objects.create(name=name.strip(), vendor=vendor, model=model or vendor)

    def _sources(self, paths):
        sources = []
        for path in map(Path, paths):
            if not path.exists():
                raise CommandError(f"{path}: no such file or folder")
            files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
            sources.extend(Source(file) for file in files if not file.name.startswith("."))
        return sources

    def _store(self, members, system, labels):
        """Store files read together; print a line per file; return the number that failed."""
        uploads = []
        for source in members:
            with source.open_binary() as stream:
                uploads.append(
                    services.upload_create(stream=stream, original_name=source.name, system=system, labels=labels)
                )
        fresh = [u for u in uploads if u.status != Upload.Status.DUPLICATE]
        for upload in uploads:
            if upload.status == Upload.Status.DUPLICATE:
                self.stdout.write(
                    f"duplicate  {upload.original_name}: already stored as upload #{upload.duplicate_of_id}"
                )
        if not fresh:
            return 0
        result = services.upload_ingest(upload_ids=[u.id for u in fresh])
        names = ", ".join(u.original_name for u in fresh)
        if result.status == Upload.Status.FAILED:
            self.stdout.write(f"failed     {result.error}")
            return len(fresh)
        runs = result.runs.count()
        points = Point.objects.filter(run__upload=result).count()
        stored = f"{_count(runs, 'run')}, {_count(points, 'point')}"
        self.stdout.write(f"stored     {names}: {result.format}, {stored} (upload #{result.id})")
        for warning in result.warnings:
            self.stdout.write(f"  warning: {warning}")
        return 0


def _count(number, noun):
    return f"{number} {noun}{'' if number == 1 else 's'}"
