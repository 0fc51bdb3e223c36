"""``manage.py predict_along SYSTEM --parameter read_pct|random_pct|transfer_kb [--json]``."""

import json
from typing import Any

from django.core.management import BaseCommand, CommandError, CommandParser

from portal.management.viewer import add_viewer_argument, viewer_of
from portal.sizing.parameter_prediction import PARAMETERS, parameter_prediction, parameter_prediction_data
from portal.sizing.prediction import NoGrid
from portal.systems.selectors import SystemNotFound, system_by_name


class Command(BaseCommand):
    help = (
        "Predict untested combinations of outstanding I/O and one workload parameter (read %, random % or "
        "transfer size) from the system's runs that differ in that parameter only (product of ratios, or sum "
        "of differences: the model that misses the measured cells less), with the error on the cells that exist. "
        "Predictions are never shown as measurements."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("system", help='as shown in the portal, e.g. "Samsung 860 Pro"')
        parser.add_argument("--parameter", required=True, choices=list(PARAMETERS))
        parser.add_argument("--json", action="store_true", help="print the API's JSON answer")
        add_viewer_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            system = system_by_name(name=options["system"], viewer=viewer_of(options), command=True)
            found = parameter_prediction(system=system, parameter=options["parameter"])
        except (SystemNotFound, NoGrid) as error:
            raise CommandError(str(error)) from None
        if options["json"]:
            self.stdout.write(json.dumps(parameter_prediction_data(found), indent=2))
            return
        self.stdout.write(f"{system.name}, along {found.label}")
        for line in found.lines():
            self.stdout.write(f"  {line}")
        for cell in found.cells:
            self.stdout.write(f"  {cell.outstanding_io:g} outstanding I/Os, {found.label} {cell.value:g}: {cell.text}")
