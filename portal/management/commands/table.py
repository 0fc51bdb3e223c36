"""``manage.py table SYSTEM --layout whitepaper [--format csv] [-o FILE]``: a paper's table layout from the data."""

from pathlib import Path
from typing import Any

from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser

from portal.management.viewer import add_viewer_argument, viewer_of
from portal.publishing import presets
from portal.publishing.formats import FORMATS, export
from portal.publishing.pivot_tables import ROW_ATTRIBUTES, pivot
from portal.publishing.stroke_tables import stroke
from portal.publishing.tool_tables import TOOL_PRESETS, tool_table
from portal.systems.selectors import SystemNotFound, system_by_name

LAYOUTS = ("whitepaper", "pivot", "stroke", *TOOL_PRESETS)


class Command(BaseCommand):
    help = (
        "Print a system's results in a white paper's table layout. whitepaper: seed 000 Table 1, rows drive "
        "count x cache setting, columns workload x (I/Os, MBps) at the threshold, MBps = 2^20 bytes/s as "
        "the paper prints Iometer's MBps. Without --raid-level, --workloads or --source-table it shows the "
        "first paper table the system's published runs cite ('Table 1' of the DS4500 demo data, cell for "
        "cell), or else every workload of the system's first RAID level. pivot: the same columns with "
        "--rows. stroke: disk-stroke multipliers (Tables 2 and 6). jetstress, orion: seed 001 summaries."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("system", help='as shown in the portal, e.g. "IBM DS4500"')
        parser.add_argument("--layout", choices=LAYOUTS, default="whitepaper")
        parser.add_argument("--threshold-ms", type=float, default=20.0, help="average response time (default 20)")
        parser.add_argument("--raid-level", help='e.g. "RAID-5"')
        parser.add_argument("--workloads", help='comma-separated, in column order: "OLTP 4K,OLTP 8K"')
        parser.add_argument("--source-table", help='only published runs citing this table, e.g. "Table 5"')
        parser.add_argument(
            "--rows",
            default="drive_count,cache_setting",
            help=f"pivot rows, two of: {', '.join(ROW_ATTRIBUTES)}",
        )
        parser.add_argument("--format", choices=tuple(FORMATS), default="text")
        parser.add_argument("-o", "--output", help="write to FILE instead of the terminal (needed for xlsx, docx)")
        add_viewer_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            system = system_by_name(name=options["system"], viewer=viewer_of(options), command=True)
        except SystemNotFound as error:
            raise CommandError(str(error)) from None
        if options["threshold_ms"] <= 0:
            raise CommandError(f"--threshold-ms must be greater than 0, got {options['threshold_ms']:g}")
        try:
            content = export(self._tables(system, options), options["format"])
        except presets.PresetError as error:
            raise CommandError(str(error)) from None
        if options["output"]:
            Path(options["output"]).write_bytes(content)
            self.stderr.write(f"wrote {options['output']}")
        elif FORMATS[options["format"]].binary:
            raise CommandError(f"{options['format']} is a binary format: give -o FILE")
        else:
            self.stdout.write(content.decode("utf-8-sig"), ending="")

    def _tables(self, system, options):
        layout, threshold_ms, raid_level = options["layout"], options["threshold_ms"], options["raid_level"]
        workloads = tuple(w.strip() for w in (options["workloads"] or "").split(",") if w.strip()) or None
        if layout == "stroke":
            return stroke(system, raid_level=raid_level, threshold_ms=threshold_ms)
        if layout in TOOL_PRESETS:
            return [tool_table(system, preset=layout)]
        if layout == "pivot":
            selection = presets.Selection(raid_level, workloads, options["source_table"])
            rows = tuple(options["rows"].split(","))
            return [pivot(system, rows=rows, threshold_ms=threshold_ms, selection=selection)]
        selection = presets.default_selection(
            system, raid_level=raid_level, workloads=workloads, source_table=options["source_table"]
        )
        return [presets.whitepaper(system, threshold_ms=threshold_ms, selection=selection)]
