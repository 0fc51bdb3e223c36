"""``manage.py predict RUN_ID [--focal-queue-depth Q] [--focal-jobs J] [--json]``."""

import json
from typing import Any

from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser

from portal.management.viewer import add_viewer_argument, viewer_of
from portal.models import Run
from portal.results.selectors import run_detail
from portal.sizing.prediction import NoGrid, prediction_data, run_prediction


class Command(BaseCommand):
    help = (
        "Predict the untested queue depth x jobs cells of a run's grid from its two sweeps through a focal "
        "point by total outstanding I/O, each cell interpolated or extrapolated with that kind's error band, "
        "and the error measured on the cells that exist. Predictions are never shown as measurements."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("run_id", type=int)
        parser.add_argument("--focal-queue-depth", type=float, help="queue depth per job of the focal point")
        parser.add_argument("--focal-jobs", type=float, help="jobs of the focal point")
        parser.add_argument("--json", action="store_true", help="print the API's JSON answer")
        add_viewer_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            run = run_detail(run_id=options["run_id"], viewer=viewer_of(options))
            found = run_prediction(
                run=run, focal_queue_depth=options["focal_queue_depth"], focal_jobs=options["focal_jobs"]
            )
        except Run.DoesNotExist:
            raise CommandError(_not_readable(options["run_id"], options.get("as_user"))) from None
        except NoGrid as error:
            raise CommandError(str(error)) from None
        if options["json"]:
            self.stdout.write(json.dumps(prediction_data(found), indent=2))
            return
        self.stdout.write(f"{run.config.system.name}, run #{run.id} {run.name}")
        for line in found.lines():
            self.stdout.write(f"  {line}")
        for cell in found.cells:
            self.stdout.write(f"  queue depth {cell.queue_depth:g} x {cell.jobs:g} jobs: {cell.text}")
            self.stdout.write(f"    {cell.kind_text}")


def _not_readable(run_id: int, as_user: str | None) -> str:
    """Why the run cannot be read: it does not exist, or its system is private to a team."""
    private = Run.objects.filter(pk=run_id, config__system__published=False, config__system__team__isnull=False)
    team = private.values_list("config__system__team__name", flat=True).first()
    if team is None:
        return f"there is no run #{run_id}"
    if as_user:
        return f"run #{run_id} is private to team {team}: {as_user} is not a member of it"
    return f"run #{run_id} is private to team {team}: give --as USER"
