"""``manage.py changes [--system NAME] [--since YYYY-MM-DD] [--as USERNAME]``: find changes across firmware
versions in every series (or a system's, or those with runs stored since a date) and list the new alerts."""

import datetime
from typing import Any

from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser

from portal import formatting
from portal.history.selectors import alert_units
from portal.history.services import changes_detect
from portal.management.viewer import add_viewer_argument, viewer_of
from portal.models import Alert, Config, System
from portal.systems.selectors import systems_named
from portal.teams.selectors import visible


class Command(BaseCommand):
    help = "Detect changes across firmware versions and list the alerts it raises."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--system", help='Only this system, e.g. "IBM DS5020" (a team\'s, or published).')
        parser.add_argument("--since", help="Only series with runs stored on or after this date, YYYY-MM-DD.")
        add_viewer_argument(parser)

    def handle(self, *args: Any, system: str | None = None, since: str | None = None, **options: Any) -> None:
        viewer = viewer_of(options)
        configs = Config.objects.order_by("id")
        if system:
            found = systems_named(name=system)
            if not found.exists():
                raise CommandError(f"--system {system!r}: there is no system of that name")
            configs = configs.filter(system__in=found)
        if since:
            try:
                day = datetime.date.fromisoformat(since)
            except ValueError:
                raise CommandError(f"--since {since!r}: expected a date as YYYY-MM-DD") from None
            configs = configs.filter(runs__created_at__date__gte=day).distinct()
        new = changes_detect(configs=list(configs))
        readable = set(
            visible(System.objects.filter(id__in={a.system_id for a in new}), viewer=viewer).values_list(
                "id", flat=True
            )
        )
        shown = list(
            Alert.objects.filter(id__in=[a.id for a in new], system_id__in=readable)
            .select_related("system", "config")
            .order_by("id")
        )
        units = alert_units(alerts=shown)
        for alert in shown:
            self.stdout.write(_line(alert, units[alert.id]))
        hidden = len(new) - len(shown)
        summary = f"{formatting.count(len(new), 'new alert')}"
        if hidden:
            summary += f" ({hidden} on systems you may not read: use --as USERNAME)"
        self.stdout.write(summary)


def _line(alert: Alert, unit: str) -> str:
    how = ", tentative" if alert.tentative else ""
    return (
        f"{alert.system.name}, {formatting.configuration(alert.config)}, {alert.workload_name}, "
        f"{alert.get_figure_display()}: {formatting.improvement(alert.change_pct)} from {alert.version} "
        f"({formatting.figure(alert.before_mean, alert.metric, unit=unit)} before, "
        f"{formatting.figure(alert.after_mean, alert.metric, unit=unit)} after; "
        f"{formatting.p_value(alert.p_value)}{how})"
    )
