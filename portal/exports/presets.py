"""The seed papers' table layouts, filled from the database: every exporter prints these tables.

Each preset reads runs through the selectors and returns :class:`portal.analysis.tables.Table`
objects:

- ``whitepaper``: seed 000 Table 1. Rows are drive count x cache setting, columns workload x
  (I/Os, MBps) at the response-time threshold. MBps here is the paper's unit, **MBps = 2^20
  bytes/s** (Iometer's binary MBps), converted back from the portal's decimal MB/s, so a table
  typed in from the paper prints as the paper printed it.
- ``pivot``: the same columns with any two configuration attributes as rows.
- ``stroke``: seed 000 Tables 2 and 6, from a paper's published multipliers or from runs that
  differ only in stroke percentage.
- ``comparison`` + ``summary``: system A against B per workload and matched configuration, and
  the summary sentences ("5 % to 30 % ...") of the paper's Summary section. MB/s is decimal here.
- ``side_by_side``: seed 002 Table 1 (workload, RAID level, array A, array B).
- ``jetstress`` and ``orion``: seed 001's application summaries.

The comparison's tables are laid out in ``comparison_tables.py``, the tools' summaries in
``tool_tables.py``; the runs they show are read here.
"""

import re
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from statistics import fmean
from typing import Any, TypeVar

from django.db.models import QuerySet

from ingest.formats import jetstress as jetstress_format
from ingest.formats import orion as orion_format
from ingest.result import MB, MIB
from portal import formatting
from portal.analysis.sizing import IOPS_PER_MAILBOX
from portal.analysis.stroke import BASELINE_STROKE_PCT, StrokeMultipliers, StrokeRun, stroke_multipliers
from portal.analysis.tables import (
    IOPS,
    MBPS,
    Column,
    ColumnGroup,
    NumberFormat,
    ResultRecord,
    Row,
    Table,
    stroke_table,
    whitepaper_table,
)
from portal.analysis.vocabulary import raid_level_canonical
from portal.comparisons.selectors import Comparison, comparison
from portal.errors import ApplicationError
from portal.models import Config, PublishedStrokeMultipliers, Run, System
from portal.results.selectors import (
    cache_setting,
    run_citation_tables,
    run_metric,
    run_raid_levels,
    run_threshold,
    runs_filtered,
    runs_with_points,
)
from portal.systems.selectors import published_stroke_multipliers

from .comparison_tables import comparison_table, side_by_side_table, summary_table
from .tool_tables import jetstress_table, orion_table

METRIC_FIELDS = {IOPS: "iops", MBPS: "mbps"}
PAPER_METRIC_LABELS = {IOPS: "I/Os", MBPS: "MBps"}
BINARY_MBPS_NOTE = "MBps = 2^20 bytes/s"

# Configuration attributes a pivot table can use as rows: label and how a value prints.
ROW_ATTRIBUTES: dict[str, tuple[str, Callable[[Any], str]]] = {
    "drive_count": ("Drives", lambda v: formatting.count(v, "drive")),
    "cache_setting": ("Cache", str),
    "raid_level": ("RAID level", str),
    "stroke_pct": ("Disk stroke", lambda v: f"{v:g}%"),
    "drive_type": ("Drive type", str),
    "drive_rpm": ("Drive rpm", lambda v: f"{v:,} rpm"),
    "drive_capacity_gb": ("Drive capacity", lambda v: f"{v:g} GB"),
    "drives_per_array": ("Drives per array", lambda v: f"{v} per array"),
    "segment_kb": ("Segment size", lambda v: f"{v:g} KB"),
    "host_server": ("Host", str),
    "host_os": ("Host OS", str),
}


# A cell of a results table: the configuration, workload and metric it holds a figure of.
CellKey = TypeVar("CellKey", bound=tuple)


class PresetError(ApplicationError):
    """A table that cannot be built from what was asked; the message says what to change."""


@dataclass(frozen=True)
class Selection:
    """Which runs of a system a results table shows; ``source_table`` is a paper's table ("Table 1")."""

    raid_level: str | None = None
    workloads: tuple[str, ...] | None = None
    source_table: str | None = None


def natural_key(text: str | None) -> list[int | str]:
    """Order "Table 2" before "Table 10"."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text or "")]


def default_selection(
    system: System,
    *,
    raid_level: str | None = None,
    workloads: tuple[str, ...] | None = None,
    source_table: str | None = None,
) -> Selection:
    """What the white-paper table shows when the caller does not say.

    With nothing chosen and published runs present, the runs cited from the system's first paper
    table ("Table 1" of the DS4500 paper): that table again, cell for cell. Otherwise the
    system's first RAID level (alphabetical) unless one is given, and every workload.
    """
    raid_level = raid_level_canonical(raid_level)
    if raid_level or workloads or source_table:
        return Selection(raid_level or _only_raid_level(system, source_table), workloads, source_table)
    tables = sorted(run_citation_tables(system=system, prefix="Table"), key=natural_key)
    if tables:
        return Selection(_only_raid_level(system, tables[0]), None, tables[0])
    levels = sorted(run_raid_levels(system=system))
    return Selection(levels[0] if levels else None, None, None)


def _only_raid_level(system: System, source_table: str | None) -> str | None:
    if not source_table:
        return None
    levels = run_raid_levels(system=system, source_table=source_table)
    return levels.pop() if len(levels) == 1 else None


def _runs(system: System, selection: Selection) -> QuerySet[Run]:
    return runs_filtered(
        system=system,
        raid_level=selection.raid_level or None,
        workloads=selection.workloads or (),
        source_table=selection.source_table,
    )


def workload_order(run: Run) -> tuple[str, int, list[int | str]]:
    """Workloads of one family by transfer size ("OLTP 4K" before "OLTP 16K", "512B" before "1K")."""
    sizes = [size["bytes"] for size in run.transfer_sizes or []]
    family = re.sub(r"\s*\d+\s*[KMG]?B?$", "", run.workload_name)
    return (family, sizes[0] if len(sizes) == 1 else 0, natural_key(run.workload_name))


def threshold_value(run: Run, metric: str, *, threshold_ms: float, binary_mbps: bool) -> float | None:
    """A run's IOPS or MB/s at the threshold; MB/s in 2^20 bytes/s when ``binary_mbps``."""
    _, answer = run_threshold(run=run, threshold_ms=threshold_ms, metric=METRIC_FIELDS[metric])
    if answer.value is None or metric != MBPS or not binary_mbps:
        return answer.value
    return answer.value * MB / MIB


def _mean_cells(
    keyed_values: Mapping[CellKey, list[float | None]],
) -> tuple[dict[CellKey, float | None], list[tuple[CellKey, int]]]:
    """One value per cell, the mean of replicates; and the cells that are means, for a footnote."""
    cells: dict[CellKey, float | None] = {}
    averaged: list[tuple[CellKey, int]] = []
    for key, values in keyed_values.items():
        known = [v for v in values if v is not None]
        cells[key] = fmean(known) if known else None
        if len(known) > 1:
            averaged.append((key, len(known)))
    return cells, averaged


def selected_runs(system: System, selection: Selection) -> list[Run]:
    runs = list(runs_with_points(runs=_runs(system, selection)))
    if not runs:
        raise PresetError(f"{system.name} has no runs for {_describe(selection)}")
    return sorted(runs, key=workload_order)


def _describe(selection: Selection) -> str:
    parts = [selection.source_table, selection.raid_level, ", ".join(selection.workloads or ())]
    return " / ".join(p for p in parts if p) or "any workload"


def whitepaper(
    system: System,
    *,
    threshold_ms: float = 20.0,
    selection: Selection | None = None,
    metrics: tuple[str, ...] = (IOPS, MBPS),
) -> Table:
    """Seed 000 Table 1's layout for ``system`` (``selection`` from :func:`default_selection`)."""
    selection = selection or default_selection(system)
    runs = selected_runs(system, selection)
    skipped = [run for run in runs if run.config.drive_count is None]
    values: defaultdict[tuple[int, str, str, str], list[float | None]] = defaultdict(list)
    for run in runs:
        if run.config.drive_count is None:
            continue
        for metric in metrics:
            key = (
                run.config.drive_count,
                cache_setting(config=run.config) or "Cache not stated",
                run.workload_name,
                metric,
            )
            values[key].append(threshold_value(run, metric, threshold_ms=threshold_ms, binary_mbps=True))
    cells, averaged = _mean_cells(values)
    records = [ResultRecord(*key, value) for key, value in cells.items()]
    workloads = selection.workloads or tuple(dict.fromkeys(run.workload_name for run in runs))
    drive_types = {run.config.drive_type for run in runs if run.config.drive_count is not None}
    drive_type = drive_types.pop() if len(drive_types) == 1 else ""
    table = whitepaper_table(
        records,
        title=_whitepaper_title(system, selection),
        raid_label=selection.raid_level or "",
        workloads=[w for w in workloads if any(r.workload == w for r in records)],
        metrics=metrics,
        metric_labels=PAPER_METRIC_LABELS,
        drive_label=lambda count: formatting.drives(count, drive_type),
        threshold_ms=threshold_ms,
    )
    notes = [
        f"Mean of {n} runs: {formatting.drives(d, drive_type)}, {c}, {w} {PAPER_METRIC_LABELS[m]}."
        for (d, c, w, m), n in averaged
    ]
    if skipped:
        notes.append(f"{len(skipped)} runs without a drive count are not shown.")
    return _with_footnotes(table, notes)


def _whitepaper_title(system: System, selection: Selection) -> str:
    prefix = f"{selection.source_table}. " if selection.source_table else ""
    return f"{prefix}{system.name} {selection.raid_level or 'all RAID levels'} results"


def _with_footnotes(table: Table, notes: list[str]) -> Table:
    if not notes:
        return table
    return Table(table.title, table.corner, table.column_groups, table.rows, table.footnotes + tuple(notes))


def pivot(
    system: System,
    *,
    rows: tuple[str, ...] = ("drive_count", "cache_setting"),
    threshold_ms: float = 20.0,
    selection: Selection | None = None,
    metrics: tuple[str, ...] = (IOPS, MBPS),
) -> Table:
    """Workload x metric columns with any two configuration attributes as rows (MBps binary, as above)."""
    unknown = [name for name in rows if name not in ROW_ATTRIBUTES]
    if len(rows) != 2 or unknown:
        raise PresetError(f"rows must be two of {', '.join(ROW_ATTRIBUTES)}; got {', '.join(rows)}")
    runs = selected_runs(system, selection or Selection())
    values: defaultdict[tuple[tuple[Any, ...], str, str], list[float | None]] = defaultdict(list)
    for run in runs:
        position = tuple(_attribute(run.config, name) for name in rows)
        for metric in metrics:
            key = (position, run.workload_name, metric)
            values[key].append(threshold_value(run, metric, threshold_ms=threshold_ms, binary_mbps=True))
    cells, averaged = _mean_cells(values)
    workloads = tuple(dict.fromkeys(run.workload_name for run in runs))
    positions = sorted({key[0] for key in cells}, key=lambda p: tuple((v is None, v) for v in p))
    formats = {IOPS: NumberFormat(decimals=0), MBPS: NumberFormat(decimals=1)}
    groups = tuple(
        ColumnGroup(w, tuple(Column(PAPER_METRIC_LABELS[m], formats[m]) for m in metrics)) for w in workloads
    )
    body = tuple(
        Row(
            headers=tuple(_attribute_text(name, value) for name, value in zip(rows, position, strict=True)),
            cells=tuple(cells.get((position, w, m)) for w in workloads for m in metrics),
        )
        for position in positions
    )
    labels = tuple(ROW_ATTRIBUTES[name][0] for name in rows)
    footnotes = (f"*Results correspond to an average response time of {threshold_ms:g} ms.", BINARY_MBPS_NOTE)
    notes = tuple(f"Mean of {n} runs: {', '.join(map(str, p))}, {w} {m}." for (p, w, m), n in averaged)
    title = f"{system.name} results by {labels[0].lower()} and {labels[1].lower()}"
    return Table(title, (("Workload", ""), labels), groups, body, footnotes + notes)


def _attribute(config: Config, name: str) -> Any:
    value = cache_setting(config=config) if name == "cache_setting" else getattr(config, name)
    return value if value not in ("", None) else None


def _attribute_text(name: str, value: Any) -> str:
    return "not stated" if value is None else ROW_ATTRIBUTES[name][1](value)


def stroke(
    system: System,
    *,
    raid_level: str | None = None,
    baseline_pct: float = BASELINE_STROKE_PCT,
    threshold_ms: float = 20.0,
) -> list[Table]:
    """Seed 000 Tables 2 and 6: one table per RAID level, multipliers to two decimals.

    Published multiplier tables are used when the system has them; otherwise runs whose
    configurations differ only in stroke percentage, at the threshold.
    """
    raid_level = raid_level_canonical(raid_level)
    published = published_stroke_multipliers(system=system, raid_level=raid_level)
    by_raid = (
        _published_stroke_rows(published)
        if published
        else _measured_stroke_rows(system, raid_level, baseline_pct, threshold_ms)
    )
    if not by_raid:
        raise PresetError(
            f"{system.name} has no stroke multipliers{' for ' + raid_level if raid_level else ''}: publish a "
            f"multiplier table or upload runs that differ only in stroke percentage, one at {baseline_pct:g} %"
        )
    return [
        stroke_table(
            rows,
            title=f"{raid} Drive Stroke Percentage Multiplier",
            group_label=(
                f"To approximate the {raid} I/Os for the following disk stroke percentages, multiply the "
                f"{rows[0][1].baseline_pct:g}% disk stroke I/Os by the corresponding multiplier"
            ),
        )
        for raid, rows in sorted(by_raid.items(), key=lambda item: natural_key(item[0]))
    ]


def _published_stroke_rows(
    published: list[PublishedStrokeMultipliers],
) -> dict[str, list[tuple[str, StrokeMultipliers]]]:
    """Workloads with identical multipliers share a row, as the paper prints "OLTP 4K, 8K, and 16K"."""
    grouped: defaultdict[tuple[str, float, tuple[tuple[float, float], ...]], list[str]] = defaultdict(list)
    for table in sorted(published, key=lambda t: (t.raid_level, natural_key(t.workload_name))):
        multipliers = tuple(sorted((float(k), v) for k, v in table.multipliers.items()))
        grouped[(table.raid_level, table.baseline_stroke_pct, multipliers)].append(table.workload_name)
    by_raid: defaultdict[str, list[tuple[str, StrokeMultipliers]]] = defaultdict(list)
    for (raid, baseline, multipliers), workloads in grouped.items():
        kept = tuple((stroke_pct, m) for stroke_pct, m in multipliers if stroke_pct != baseline)
        by_raid[raid].append((f"{raid} {_join_workloads(workloads)}", StrokeMultipliers(baseline, 1.0, kept)))
    return by_raid


def _join_workloads(names):
    """["OLTP 4K", "OLTP 8K", "OLTP 16K"] -> "OLTP 4K, 8K, and 16K"."""
    if len(names) == 1:
        return names[0]
    family = names[0].rsplit(" ", 1)[0]
    if all(name.rsplit(" ", 1)[0] == family for name in names):
        names = [names[0]] + [name.rsplit(" ", 1)[1] for name in names[1:]]
    return ", ".join(names[:-1]) + (", and " if len(names) > 2 else " and ") + names[-1]


def _measured_stroke_rows(
    system: System, raid_level: str | None, baseline_pct: float, threshold_ms: float
) -> dict[str, list[tuple[str, StrokeMultipliers]]]:
    """Runs grouped by everything but the stroke: each group with two strokes or more is one row."""
    runs = runs_filtered(system=system, raid_level=raid_level or None, stroke_stated=True)
    groups: defaultdict[tuple[str, str, str, str], defaultdict[float, list[tuple[float, int | None]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for run in runs_with_points(runs=runs):
        properties = {k: v for k, v in run.config.properties().items() if k != "stroke_pct"}
        key = (
            run.config.raid_level,
            run.workload_name,
            repr(sorted(properties.items())),
            cache_setting(config=run.config),
        )
        _, answer = run_threshold(run=run, threshold_ms=threshold_ms, metric=run_metric(run=run))
        stroke_pct = run.config.stroke_pct  # stated: the runs are filtered by it
        if answer.value is not None and stroke_pct is not None:
            groups[key][stroke_pct].append((answer.value, run.config.drive_count))
    by_raid: defaultdict[str, list[tuple[str, StrokeMultipliers]]] = defaultdict(list)
    for (raid, workload, _, cache), by_stroke in sorted(groups.items(), key=lambda item: natural_key(item[0][1])):
        if len(by_stroke) < 2 or baseline_pct not in by_stroke:
            continue
        strokes = [StrokeRun(s, fmean(v for v, _ in figures)) for s, figures in by_stroke.items()]
        drives = next(iter(by_stroke.values()))[0][1]
        label = ", ".join(p for p in (f"{raid} {workload}", f"{drives} drives" if drives else "", cache) if p)
        by_raid[raid].append((label, stroke_multipliers(strokes, baseline_pct=baseline_pct)))
    return by_raid


def comparison_tables(
    *, a: System, b: System, threshold_ms: float = 20.0, adjust_b: float = 1.0, workload: str | None = None
) -> list[Table]:
    """The comparison, its summary sentences and seed 002's side-by-side table, for one pair of systems."""
    if adjust_b <= 0:
        raise PresetError(f"the adjustment factor for B must be positive, got {adjust_b:g}")
    return comparison_tables_from(comparison(a=a, b=b, threshold_ms=threshold_ms, adjust_b=adjust_b, workload=workload))


def comparison_tables_from(result: Comparison) -> list[Table]:
    if not result.workloads:
        raise PresetError(f"{result.a.name} and {result.b.name} have no workload in common")
    return [comparison_table(result), summary_table(result), side_by_side_table(result)]


def jetstress(system: System, *, iops_per_mailbox: float = IOPS_PER_MAILBOX) -> Table:
    """Seed 001's Exchange figures: achieved IOPS, per drive, mailboxes at ``iops_per_mailbox``, latencies."""
    runs = list(runs_with_points(runs=runs_filtered(system=system, tool=jetstress_format.TOOL)))
    if not runs:
        raise PresetError(f"{system.name} has no Jetstress runs")
    return jetstress_table(system, runs, iops_per_mailbox=iops_per_mailbox)


def orion(system: System) -> Table:
    """Seed 001's Oracle figures: ORION's maxima, per drive, and the Oracle sizing class of the small IOPS."""
    runs = list(runs_with_points(runs=runs_filtered(system=system, tool=orion_format.TOOL)))
    if not runs:
        raise PresetError(f"{system.name} has no ORION runs")
    return orion_table(system, runs)
