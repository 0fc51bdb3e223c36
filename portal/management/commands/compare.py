"""``manage.py compare SYSTEM_A SYSTEM_B``: throughput at a threshold for both, and the improvement of A over B."""

import csv
import io
import json
from typing import Any

from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser

from portal.analysis.compare import improvement_size
from portal.analysis.pairing import config_key_label
from portal.comparisons import sentences
from portal.comparisons.filters import SideFilters
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import Comparison, ComparisonRow, comparison
from portal.management.viewer import add_viewer_argument, viewer_of
from portal.results.selectors import LATENCIES
from portal.spreadsheets import csv_cell
from portal.systems.selectors import SystemNotFound, system_by_name

COLUMNS = (
    "workload",
    "configuration",
    "metric",
    "unit",
    "a",
    "b",
    "adjust_b",
    "improvement_pct",
    "improvement_bound",
    "improvement_not_stated",
    "notes",
)


class Command(BaseCommand):
    help = "Compare two systems at a response-time threshold, per matched workload and configuration."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("system_a", help='System A as named in the portal, e.g. "IBM DS4500".')
        parser.add_argument("system_b", help="System B, the one A is compared against.")
        parser.add_argument("--threshold-ms", type=float, default=20.0, help="Average response time, ms (20).")
        parser.add_argument("--adjust-b", type=float, default=1.0, help="Multiply B's figures by this (1.0).")
        parser.add_argument("--workload", help="Only this workload.")
        parser.add_argument("--raid-level", help='Only this RAID level, e.g. "RAID-5".')
        parser.add_argument("--cache", help='Only this cache setting, e.g. "Write Cache Enabled".')
        parser.add_argument("--drive-count", type=int, help="Only configurations with this many drives.")
        parser.add_argument(
            "--pair",
            action="append",
            default=[],
            metavar="A_WORKLOAD=B_WORKLOAD",
            help='Compare these two named workloads, e.g. "rd1=Random Reads 8K" (repeatable).',
        )
        parser.add_argument(
            "--best-of-transfer-sizes",
            action="store_true",
            help="Compare each side's best figure over the transfer sizes of one read %% and random %%.",
        )
        parser.add_argument(
            "--latency",
            choices=tuple(LATENCIES),
            default="avg",
            help="What the threshold applies to: the average response time (avg), a percentile (p99) or max.",
        )
        parser.add_argument("--format", choices=("text", "csv", "json", "markdown"), default="text")
        add_viewer_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["threshold_ms"] <= 0:
            raise CommandError(f"--threshold-ms must be a positive number of ms, got {options['threshold_ms']:g}")
        if options["adjust_b"] <= 0:
            raise CommandError(f"--adjust-b must be positive, got {options['adjust_b']:g}")
        try:
            viewer = viewer_of(options)
            a = system_by_name(name=options["system_a"], viewer=viewer, command=True)
            b = system_by_name(name=options["system_b"], viewer=viewer, command=True)
        except SystemNotFound as error:
            raise CommandError(str(error)) from None
        result = comparison(a=a, b=b, query=query_of(options))
        self.stdout.write(FORMATS[options["format"]](result), ending="")


def query_of(options: dict[str, Any]) -> ComparisonQuery:
    """The comparison the command's options ask for, as the compare page's query string would."""
    return ComparisonQuery(
        a_names=(options["system_a"],),
        b_name=options["system_b"],
        threshold_ms=options["threshold_ms"],
        latency=options["latency"],
        adjust_b=options["adjust_b"],
        both_sides=SideFilters(
            raid_level=options["raid_level"], drive_count=options["drive_count"], cache=options["cache"]
        ),
        workload=options["workload"],
        pairs=tuple(_pair(text) for text in options["pair"]),
        best_of_sizes=options["best_of_transfer_sizes"],
    )


def _pair(text: str) -> tuple[str, str]:
    a_name, sep, b_name = text.partition("=")
    if not sep or not a_name.strip() or not b_name.strip():
        raise CommandError(f"--pair {text!r}: expected A_WORKLOAD=B_WORKLOAD")
    return a_name.strip(), b_name.strip()


def _rows(result):
    for workload in result.workloads:
        for row in workload.rows:
            yield {
                "workload": workload.workload,
                "configuration": row.label,
                "metric": workload.metric,
                # What the figures count, as the text and the page head them: "IOPS", "object ops/s", "MB/s".
                "unit": workload.unit,
                "a": round(row.a_value, 3),
                "b": round(row.b_value, 3),
                "adjust_b": result.adjust_b,
                # As the page states it: null where no difference is stated, a bound where one side's is.
                "improvement_pct": None if row.stated_pct is None else round(row.stated_pct, 2),
                "improvement_bound": sentences.IMPROVEMENT_BOUNDS.get(row.pct_mark or ""),
                "improvement_not_stated": sentences.improvement_not_stated(row, result.threshold_ms),
                "notes": "; ".join(row.notes),
            }


def _unmatched(result):
    """Lines naming what only one side has: whole workloads, then configurations."""
    lines = [f"only {result.a.name}: workload {name}" for name in result.only_a_workloads]
    lines += [f"only {result.b.name}: workload {name}" for name in result.only_b_workloads]
    for workload in result.workloads:
        for system, keys in ((result.a, workload.only_a), (result.b, workload.only_b)):
            lines += [f"only {system.name}: {workload.workload}, {config_key_label(key)}" for key in keys]
        lines += [f"not compared: {workload.workload}: {sentence}" for sentence in workload.ambiguous]
    return lines


def _heading(result):
    latency = "" if result.latency == "avg" else f" ({LATENCIES[result.latency]})"
    return (
        f"{result.a.name} (A) vs {result.b.name} (B) at {result.threshold_ms:g} ms{latency}"
        f"{f', B x {result.adjust_b:g}' if result.adjust_b != 1 else ''}"
    )


def as_text(result: Comparison) -> str:
    lines = [_heading(result), ""]
    for workload in result.workloads:
        # What its figures count: "IOPS", "MB/s", "object ops/s", "metadata ops/s" ...
        lines.append(f"{workload.workload} ({workload.unit}; matched {workload.matched_by})")
        for row in workload.rows:
            notes = f"  [{'; '.join(row.notes)}]" if row.notes else ""
            a, b = _figure(row.a_value, row.a_lower_bound), _figure(row.b_value, row.b_lower_bound)
            lines.append(f"  {row.label:<50} A {a:>10}  B {b:>10}  {improvement(row):>9}{notes}")
        lines += [f"  {sentence}" for sentence in workload.summaries]
        lines.append("")
    lines += _unmatched(result)
    return "\n".join(lines) + "\n"


def as_csv(result: Comparison) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: csv_cell(value) for key, value in row.items()} for row in _rows(result))
    return out.getvalue()


def as_json(result: Comparison) -> str:
    document = {
        "a": result.a.name,
        "b": result.b.name,
        "threshold_ms": result.threshold_ms,
        "adjust_b": result.adjust_b,
        "rows": list(_rows(result)),
        "summaries": [sentence for workload in result.workloads for sentence in workload.summaries],
        "unmatched": _unmatched(result),
    }
    return json.dumps(document, indent=2) + "\n"


def as_markdown(result: Comparison) -> str:
    lines = [
        f"## {_heading(result)}",
        "",
        "| Workload | Configuration | A | B | Improvement |",
        "|---|---|---:|---:|---:|",
    ]
    for workload in result.workloads:
        for row in workload.rows:
            cells = (
                workload.workload,
                row.label,
                _figure(row.a_value, row.a_lower_bound),
                _figure(row.b_value, row.b_lower_bound),
                improvement(row, signed=False),
            )
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    lines.append("")
    lines += [f"- {sentence}" for workload in result.workloads for sentence in workload.summaries]
    lines += [f"- {line}" for line in _unmatched(result)]
    return "\n".join(lines) + "\n"


FORMATS = {"text": as_text, "csv": as_csv, "json": as_json, "markdown": as_markdown}


def _figure(value: float, lower_bound: bool) -> str:
    """A figure with one decimal, "≥" before a lower bound (the threshold not reached: its best point)."""
    return f"{'≥ ' if lower_bound else ''}{value:,.1f}"


def improvement(row: ComparisonRow, *, signed: bool = True) -> str:
    """The improvement as the compare page states it ("+12.7 %", "≤ -3.4 %"): "–" where it states none (the
    row's notes say why), "none" where B's figure is 0."""
    if row.pct is None:
        return "none"
    if row.stated_pct is None:
        return "–"
    sign = ("+" if row.stated_pct >= 0 else "-") if signed else ("-" if row.stated_pct < 0 else "")
    return f"{f'{row.pct_mark} ' if row.pct_mark else ''}{sign}{improvement_size(row.stated_pct)} %"
