"""``manage.py ingest PATH [PATH ...] --system NAME [--vendor V --model M] [--host H] [--team TEAM]
[--config key=value ...]``."""

import logging
import os
import sys
from pathlib import Path
from typing import Any

from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser
from django.db import transaction

import ingest
from portal.errors import ApplicationError
from portal.models import IngestJob, Point, Upload
from portal.systems.selectors import systems_named
from portal.systems.services import label_parse
from portal.teams.selectors import team_named
from portal.uploads import jobs as upload_jobs
from portal.uploads import services as uploads_services

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Store result files (folders are walked; the files of one ORION test or fio sweep are read together). "
        "Prints one line per file and a summary; exit status 1 if any file failed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+")
        parser.add_argument("--system", help='the system measured, e.g. "IBM DS4500" (created if new)')
        parser.add_argument(
            "--vendor", default="", help='a new system\'s vendor, e.g. "Samsung" (never read from --system)'
        )
        parser.add_argument("--model", default="", help='a new system\'s model, e.g. "PM883"')
        parser.add_argument(
            "--host", default="", help='the server the storage was measured from, e.g. "HP DL380 G8, H420i" (a label)'
        )
        parser.add_argument(
            "--config", action="append", default=[], metavar="KEY=VALUE", help="a configuration or run label"
        )
        parser.add_argument(
            "--team",
            help="the team the results belong to, private to it until published (default: none, published at once)",
        )

    def handle(
        self, *args: Any, paths: list[str], system: str | None, config: list[str], team: str | None, **options: Any
    ) -> None:
        labels = self._labels(config)
        if options["host"].strip():
            labels["host_server"] = " ".join(options["host"].split())
        self.team = self._team(team)
        target, new_system = self._system(system, vendor=options["vendor"], model=options["model"])
        for path in map(Path, paths):
            if not path.exists():
                raise CommandError(f"{path}: no such file or folder")
        groups = ingest.plan(ingest.sources_under(paths))
        files = sum(len(group.sources) for group in groups)
        failed = 0
        for index, group in enumerate(groups, start=1):
            if len(groups) > 10 and sys.stderr.isatty():
                sys.stderr.write(f"\r[{'#' * (30 * index // len(groups)):<30}] {index}/{len(groups)}")
            job = self._receive(group, target, new_system, labels)
            failed += self._run(job) if job is not None else 0
        if len(groups) > 10 and sys.stderr.isatty():
            sys.stderr.write("\n")
        self.stdout.write(f"{files} files: {files - failed} stored or already stored, {failed} failed")
        if failed:
            logger.warning("%d of %d files could not be stored", failed, files)
            sys.exit(1)

    def _labels(self, pairs):
        labels = {}
        for pair in pairs:
            name, sep, value = pair.partition("=")
            if not sep:
                raise CommandError(f"--config {pair!r}: expected KEY=VALUE")
            try:
                labels[name.strip()] = label_parse(name=name.strip(), text=value)
            except ApplicationError as error:
                raise CommandError(error.message) from None
        return labels

    @staticmethod
    def _team(name):
        if not name:
            return None
        found = team_named(name=name)
        if found is None:
            raise CommandError(f"--team {name}: there is no such team (manage.py team add creates one)")
        return found

    def _system(self, name, *, vendor, model):
        """The team's named system if it exists, else its description, created when results are stored: its
        vendor and model as given, never guessed from its name ("Samsung PM883 (DL380G8 H420i)" names a
        drive behind a host). What was taken is printed."""
        vendor, model = " ".join(vendor.split()), " ".join(model.split())
        if not name or not name.strip():
            if vendor or model:
                raise CommandError("--vendor and --model describe a new system: give its name with --system")
            return None, None
        name = " ".join(name.split())
        found = systems_named(name=name).filter(team=self.team).first()
        if found:
            if vendor or model:
                self.stdout.write(f'system     "{found.name}" exists: --vendor and --model left it as it is')
            return found, None
        stated = ", ".join(
            f"{what} {value!r}" if value else f"{what} not stated (--{what})"
            for what, value in (("vendor", vendor), ("model", model))
        )
        self.stdout.write(f'new system "{name}": {stated}')
        return None, {"name": name, "vendor": vendor, "model": model}

    def _receive(self, group, system, new_system, labels):
        """Keep the group's files and record the job that reads them, in one transaction (a command
        stopped at any point leaves either nothing or a job that a worker finishes); None when every
        file was stored before and its reading finished."""
        with transaction.atomic():
            uploads = [self._keep(source, system, labels) for source in group.sources]
            fresh = [(s, u) for s, u in zip(group.sources, uploads, strict=True) if u.status == Upload.Status.QUEUED]
            if fresh:
                planned = ingest.Group([s for s, _ in fresh], group.module, group.error)
                return uploads_services.job_create(
                    group=planned,
                    members=[u for _, u in fresh],
                    system=system,
                    new_system=new_system,
                    enqueue=False,
                )
        earlier = [u.duplicate_of_id for u in uploads if u.duplicate_of_id]
        # An earlier copy whose reading never finished (this command was stopped halfway): finish it.
        return IngestJob.objects.filter(
            uploads__id__in=earlier, status__in=[IngestJob.Status.QUEUED, IngestJob.Status.RUNNING]
        ).first()

    def _keep(self, source, system, labels):
        with source.open_binary() as stream:
            upload = uploads_services.upload_create(
                stream=stream, original_name=source.name, system=system, labels=labels, team=self.team
            )
        if upload.status == Upload.Status.DUPLICATE:
            self.stdout.write(f"duplicate  {upload.original_name}: already stored as upload #{upload.duplicate_of_id}")
        return upload

    def _run(self, job):
        """Read one job's files here; print a line for it; return the number of its files that failed."""
        finished = upload_jobs.job_run(job_id=job.id, worker=f"manage.py ingest pid {os.getpid()}") or job
        finished.refresh_from_db()
        members = list(finished.uploads.order_by("id"))
        names = ", ".join(upload.original_name for upload in members)
        if finished.status == IngestJob.Status.FAILED:
            self.stdout.write(f"failed     {finished.error}")
            return len(members)
        if finished.status != IngestJob.Status.DONE:
            self.stdout.write(f"queued     {names}: being read by a worker (upload #{finished.anchor_id})")
            return 0
        anchor = finished.anchor
        runs = anchor.runs.count()
        points = Point.objects.filter(run__upload=anchor).count()
        stored = f"{_count(runs, 'run')}, {_count(points, 'point')}"
        self.stdout.write(f"stored     {names}: {anchor.format}, {stored} (upload #{anchor.id})")
        for warning in anchor.warnings:
            self.stdout.write(f"  warning: {warning}")
        return 0


def _count(number, noun):
    return f"{number} {noun}{'' if number == 1 else 's'}"
