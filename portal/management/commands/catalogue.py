"""``manage.py catalogue import mlperf-storage|io500 PATH [--repository NAME]``: a published results repository's
submissions, read from a local clone, as published systems citing the repository, path and commit."""

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser

from portal.catalogue import io500, mlperf_storage
from portal.catalogue.clone import Catalogue, clone_commit, clone_repository
from portal.catalogue.services import catalogue_store


class Layout(NamedTuple):
    """A catalogue's repository layout: how its clone is read, and what a clone holding none of it lacks."""

    read: Callable[..., Catalogue]
    expected: str


# The catalogues a clone can be imported from.
CATALOGUES = {
    "mlperf-storage": Layout(
        mlperf_storage.clone_submissions, "no Closed/ or Open/ folder of organisations with systems or results"
    ),
    "io500": Layout(
        io500.clone_submissions,
        "no <institution>/<system>/<file system>/<year>/submission-N/results/ folder with result_summary.txt "
        "or result.txt",
    ),
}


class Command(BaseCommand):
    help = (
        "Import the submissions of a published results repository from a local clone, as published systems "
        "whose runs cite the repository, the file and the commit (idempotent: importing again changes nothing)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        importing = actions.add_parser("import", help="import a local clone's submissions")
        importing.add_argument("catalogue", choices=sorted(CATALOGUES), help="which repository's layout to read")
        importing.add_argument("path", help="the local clone, e.g. storage_results_v1.0 or submission-data")
        importing.add_argument(
            "--repository",
            help="how to cite the repository, e.g. mlcommons/storage_results_v1.0 or IO500/submission-data "
            "(default: the clone's origin)",
        )

    def handle(
        self, *args: Any, action: str, catalogue: str, path: str, repository: str | None, **options: Any
    ) -> None:
        root = Path(path)
        if not root.is_dir():
            raise CommandError(f"{root}: no such folder (expected a clone of the results repository)")
        commit = clone_commit(path=root)
        cited = clone_repository(path=root, given=repository)
        layout = CATALOGUES[catalogue]
        found = layout.read(root=root, repository=cited, commit=commit)
        if not found.submissions:
            raise CommandError(f"{root}: {layout.expected}")
        stored = catalogue_store(submissions=found.submissions)
        at = f"commit {commit}" if commit else "no commit (not a git clone)"
        self.stdout.write(f"{cited} at {at}: {stored.sentence()}")
        for failure in found.failures:
            self.stdout.write(f"not read   {failure}")
        for submission in found.submissions:
            for warning in submission.warnings:
                self.stdout.write(f"warning    {warning}")
