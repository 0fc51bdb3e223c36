"""``manage.py size SYSTEM [SYSTEM ...] --workload W [--raid-level R] [--cache C] [--target T] [--drives N]``.

With several systems (and a target), the systems side by side: which needs fewer drives."""

import json
from typing import Any

from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser

from portal.management.viewer import add_viewer_argument, viewer_of
from portal.models import System
from portal.sizing.output import sizing_data
from portal.sizing.selectors import sizing
from portal.sizing.side_by_side import side_by_side, side_by_side_data
from portal.systems.selectors import SystemNotFound, system_by_name


class Command(BaseCommand):
    help = (
        "Drives needed for a target throughput at a response-time threshold, from the system's measured "
        "drive-count sweeps (drive-bound and controller-bound regimes), with the error measured on the same "
        "sweep; without a sweep, an estimate from the back-end formula (reads + writes x RAID write penalty)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "system",
            nargs="+",
            help='as shown in the portal, e.g. "IBM DS4500"; several (with --target): which needs fewer drives',
        )
        parser.add_argument("--workload", required=True, help='e.g. "OLTP 8K"')
        parser.add_argument("--raid-level", help='e.g. "RAID-5"')
        parser.add_argument("--cache", help='cache setting, e.g. "All Caches Disabled"')
        parser.add_argument("--target", type=float, help="throughput wanted: IOPS, or MB/s for a sweep read in MB/s")
        parser.add_argument("--drives", type=int, help="also give the throughput with this many drives")
        parser.add_argument("--threshold-ms", type=float, default=20.0, help="average response time (default 20)")
        parser.add_argument("--json", action="store_true", help="print the API's JSON answer")
        add_viewer_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        for name in ("threshold_ms", "target", "drives"):
            if options[name] is not None and options[name] <= 0:
                raise CommandError(f"--{name.replace('_', '-')} must be greater than 0, got {options[name]:g}")
        try:
            systems = [system_by_name(name=name, viewer=viewer_of(options), command=True) for name in options["system"]]
        except SystemNotFound as error:
            raise CommandError(str(error)) from None
        if len(systems) > 1:
            self._side_by_side(systems, options)
            return
        [system] = systems
        answer = sizing(
            system=system,
            workload=options["workload"],
            threshold_ms=options["threshold_ms"],
            raid_level=options["raid_level"],
            cache=options["cache"],
            target=options["target"],
            drives=options["drives"],
        )
        if options["json"]:
            self.stdout.write(json.dumps(sizing_data(system, answer), indent=2))
            return
        if not answer.sweeps and answer.estimate is None and answer.not_sized:
            raise CommandError(" ".join(answer.not_sized))
        for line in answer.not_sized:
            self.stdout.write(line)
        if not answer.sweeps and answer.estimate is None:
            raise CommandError(
                f"{system.name} has no {options['workload']} results at two or more drive counts matching"
                " these options"
                + (
                    "; no estimate either: the back-end formula needs the workload's read % and a RAID level"
                    " (--raid-level)"
                    if options["target"]
                    else "; give --target for an estimate from the back-end formula"
                )
            )
        for sweep in answer.sweeps:
            self.stdout.write(f"{system.name}, {sweep.label}")
            for line in sweep.lines():
                self.stdout.write(f"  {line}")
        if answer.estimate is not None:
            self.stdout.write(f"{system.name}, {answer.estimate.workload}")
            for line in answer.estimate.lines():
                self.stdout.write(f"  {line}")

    def _side_by_side(self, systems: list[System], options: dict[str, Any]) -> None:
        if options["target"] is None or options["drives"] is not None:
            raise CommandError("several systems are sized side by side for a --target (and without --drives)")
        found = side_by_side(
            systems=systems,
            workload=options["workload"],
            target=options["target"],
            threshold_ms=options["threshold_ms"],
            raid_level=options["raid_level"],
            cache=options["cache"],
        )
        data = side_by_side_data(found)
        if options["json"]:
            self.stdout.write(json.dumps(data, indent=2))
            return
        self.stdout.write(data["fewer"])
        for row in data["systems"]:
            self.stdout.write(f"  {row['text']}")
