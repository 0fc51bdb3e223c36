"""The seed papers' table layouts, filled from the database: every exporter prints these tables.

Each preset reads runs through the selectors and returns :class:`portal.analysis.tables.Table`
objects:

- ``whitepaper``: seed 000 Table 1. Rows are drive count x cache setting, columns workload x
  (I/Os, MBps) at the response-time threshold of the latency asked for (the average by default).
  MBps here is the paper's unit, **MBps = 2^20 bytes/s** (Iometer's binary MBps), converted back
  from the portal's decimal MB/s, so a table typed in from the paper prints as the paper printed
  it. Inside a comparison's bundle or report the table takes the comparison's threshold, latency
  and unit (MB/s = 10^6 bytes/s unless the report says MiB/s) and writes its figures as the compare
  page does. A figure that did not reach the threshold (the best point measured) is marked "≥".
- ``pivot``: the same columns with any two configuration attributes as rows (``pivot_tables.py``).
- ``stroke``: seed 000 Tables 2 and 6, from a paper's published multipliers or from runs that
  differ only in stroke percentage (``stroke_tables.py``).
- ``comparison`` + ``summary``: system A against B per workload and matched configuration, and
  the summary sentences ("5 % to 30 % ...") of the paper's Summary section. MB/s is decimal here
  (``comparison_tables.py``).
- ``side_by_side``: seed 002 Table 1 (workload, RAID level, array A, array B) (``comparison_tables.py``).
- ``jetstress`` and ``orion``: seed 001's application summaries (``tool_tables.py``).

The white-paper table, the selection of the runs a system's tables show and the error every preset
raises are here.
"""

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from statistics import fmean
from typing import NamedTuple, TypeVar

from django.db.models import QuerySet

from ingest.result import MB, MIB
from portal import formatting
from portal.analysis.curves import Status
from portal.analysis.digits import NO_FIGURE
from portal.analysis.figure_kinds import IO_OPERATIONS
from portal.analysis.tables import (
    DEFAULT_NUMBER_FORMATS,
    IOPS,
    MBPS,
    PAGE_FORMATS,
    NumberFormat,
    ResultRecord,
    Row,
    Table,
    whitepaper_table,
)
from portal.analysis.vocabulary import raid_level_canonical
from portal.errors import ApplicationError
from portal.models import Run, System
from portal.results.configurations import config_differences
from portal.results.kinds import run_figure_kind
from portal.results.selectors import (
    LATENCIES,
    cache_setting,
    run_citation_tables,
    run_raid_levels,
    run_threshold,
    runs_filtered,
    runs_with_points,
)
from portal.results.workloads import run_group_labels

METRIC_FIELDS = {IOPS: "iops", MBPS: "mbps"}
PAPER_METRIC_LABELS = {IOPS: "I/Os", MBPS: "MBps"}
BINARY_MBPS_NOTE = "MBps = 2^20 bytes/s"


class MbpsUnit(NamedTuple):
    """How a table writes MB/s: its column label, bytes per MB, the note saying so, and its number formats
    (the paper's print for the paper's unit, the compare page's for the portal's)."""

    label: str
    bytes_per_mb: int
    note: str
    formats: dict[str, NumberFormat]


# ``MBps``: the DS4500 paper's (Iometer's binary MBps); ``MB/s`` and ``MiB/s``: a comparison's or a report's.
MBPS_UNITS = {
    "MBps": MbpsUnit("MBps", MIB, BINARY_MBPS_NOTE, DEFAULT_NUMBER_FORMATS),
    "MB/s": MbpsUnit("MB/s", MB, "MB/s = 10^6 bytes/s", {IOPS: PAGE_FORMATS["iops"], MBPS: PAGE_FORMATS["mbps"]}),
    "MiB/s": MbpsUnit("MiB/s", MIB, "MiB/s = 2^20 bytes/s", {IOPS: PAGE_FORMATS["iops"], MBPS: PAGE_FORMATS["mbps"]}),
}


def response_time_words(*, threshold_ms: float, latency: str) -> str:
    """ "an average response time of 20 ms", "a 99th percentile response time of 1 ms"."""
    which = "an average" if latency == "avg" else f"a {LATENCIES[latency]}"
    return f"{which} response time of {formatting.threshold(threshold_ms)}"


class CellFigure(NamedTuple):
    """A run's figure for a table's cell, and whether it is a lower bound (the threshold not reached)."""

    value: float | None
    lower_bound: bool


# A cell of a results table: the configuration, workload and metric it holds a figure of.
CellKey = TypeVar("CellKey", bound=tuple)


class PresetError(ApplicationError):
    """A table that cannot be built from what was asked; the message says what to change."""


@dataclass(frozen=True)
class Selection:
    """Which runs of a system a results table shows; ``source_table`` is a paper's table ("Table 1");
    ``run_ids``: only these runs (a report's table of the runs its comparison uses)."""

    raid_level: str | None = None
    workloads: tuple[str, ...] | None = None
    source_table: str | None = None
    run_ids: tuple[int, ...] | None = None


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
    # Measurements no maintainer excluded, as comparisons and sizing read them: a preparation step (COSBench's
    # prepare and cleanup stages, vdbench's format) is no column of results.
    runs = runs_filtered(
        system=system,
        raid_level=selection.raid_level or None,
        workloads=selection.workloads or (),
        source_table=selection.source_table,
        comparable=True,
    )
    return runs if selection.run_ids is None else runs.filter(id__in=selection.run_ids)


def workload_order(run: Run) -> tuple[str, int, list[int | str]]:
    """Workloads of one family by transfer size ("OLTP 4K" before "OLTP 16K", "512B" before "1K")."""
    sizes = [size["bytes"] for size in run.transfer_sizes or []]
    family = re.sub(r"\s*\d+\s*[KMG]?B?$", "", run.workload_name)
    return (family, sizes[0] if len(sizes) == 1 else 0, natural_key(run.workload_name))


def workload_columns(runs: list[Run], groups: dict[int, str], *, asked: tuple[str, ...] | None) -> tuple[str, ...]:
    """A table's workload columns: one per workload its runs measured (``groups``: each run's, by id), in the
    order ``asked`` names them (a name any of a workload's names), else the runs' order."""
    order = list(asked or ())

    def position(run: Run) -> int:
        names = {run.workload_name, *(run.workload.names if run.workload else ())}
        return min((order.index(name) for name in names if name in order), default=len(order))

    return tuple(dict.fromkeys(groups[run.id] for run in sorted(runs, key=position)))


def threshold_value(
    run: Run, metric: str, *, threshold_ms: float, latency: str = "avg", mbps_unit: str = "MBps"
) -> CellFigure:
    """A run's IOPS or MB/s at ``threshold_ms`` of ``latency``, MB/s in ``mbps_unit`` (:data:`MBPS_UNITS`)."""
    _, answer = run_threshold(run=run, threshold_ms=threshold_ms, metric=METRIC_FIELDS[metric], latency=latency)
    bound = answer.value is not None and answer.status is Status.NOT_REACHED
    if answer.value is None or metric != MBPS:
        return CellFigure(answer.value, bound)
    return CellFigure(answer.value * MB / MBPS_UNITS[mbps_unit].bytes_per_mb, bound)


def rate_units(runs: Iterable[Run], groups: Mapping[int, str]) -> dict[tuple[str, str], str]:
    """The unit of each (workload column, IOPS) whose rate counts other operations than I/Os ("object ops/s",
    "metadata ops/s", "files/s": :mod:`portal.analysis.figure_kinds`), from its runs (``groups``: each run's
    workload column, by id); I/O columns keep the table's own heading."""
    units: dict[tuple[str, str], str] = {}
    for run in runs:
        kind = run_figure_kind(run, METRIC_FIELDS[IOPS])
        if kind != IO_OPERATIONS:
            units.setdefault((groups[run.id], IOPS), kind.unit)
    return units


def mean_cells(
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
    runs = list(runs_with_points(runs=_runs(system, selection).select_related("workload")))
    if not runs:
        raise PresetError(f"{system.name} has no runs for {_describe(selection)}")
    return sorted(runs, key=workload_order)


def _describe(selection: Selection) -> str:
    parts = [selection.source_table, selection.raid_level, ", ".join(selection.workloads or ())]
    parts += ["the runs compared"] if selection.run_ids is not None else []
    return " / ".join(p for p in parts if p) or "any workload"


def whitepaper(
    system: System,
    *,
    threshold_ms: float = 20.0,
    latency: str = "avg",
    mbps_unit: str = "MBps",
    selection: Selection | None = None,
    metrics: tuple[str, ...] = (IOPS, MBPS),
    iops_label: str = PAPER_METRIC_LABELS[IOPS],
    titled: bool = False,
) -> Table:
    """Seed 000 Table 1's layout for ``system`` (``selection`` from :func:`default_selection`) at
    ``threshold_ms`` of ``latency``, MB/s in ``mbps_unit``; a mean with a lower bound among its runs is one.
    IOPS columns are headed ``iops_label`` (the paper's "I/Os"); ``titled`` heads each workload by its
    workload's name, as a comparison names it, not by the name its runs were stored under (a fio job's)."""
    selection = selection or default_selection(system)
    unit = MBPS_UNITS[mbps_unit]
    runs = selected_runs(system, selection)
    groups = run_group_labels(runs=runs, titled=titled)
    skipped = [run for run in runs if run.config.drive_count is None]
    shown = [run for run in runs if run.config.drive_count is not None]
    cache_of = {run.id: cache_setting(config=run.config) or "Cache not stated" for run in shown}
    differences = config_differences(shown, position=lambda run: (run.config.drive_count, cache_of[run.id]))
    values: defaultdict[tuple[int, str, str, str], list[float | None]] = defaultdict(list)
    bounded: set[tuple[int, str, str, str]] = set()
    for run in runs:
        if run.config.drive_count is None:
            continue
        for metric in metrics:
            key = (
                run.config.drive_count,
                "; ".join(words for words in (cache_of[run.id], differences[run.id]) if words),
                groups[run.id],
                metric,
            )
            figure = threshold_value(run, metric, threshold_ms=threshold_ms, latency=latency, mbps_unit=mbps_unit)
            values[key].append(figure.value)
            if figure.lower_bound:
                bounded.add(key)
    cells, averaged = mean_cells(values)
    records = [ResultRecord(*key, value, key in bounded) for key, value in cells.items()]
    labels = {IOPS: iops_label, MBPS: unit.label}
    units = rate_units(runs, groups)
    workloads = workload_columns(runs, groups, asked=selection.workloads)
    drive_types = {run.config.drive_type for run in runs if run.config.drive_count is not None}
    drive_type = drive_types.pop() if len(drive_types) == 1 else ""
    table = whitepaper_table(
        records,
        title=_whitepaper_title(system, selection),
        raid_label=selection.raid_level or "",
        workloads=[w for w in workloads if any(r.workload == w for r in records)],
        metrics=metrics,
        metric_labels=labels,
        number_formats=unit.formats,
        drive_label=lambda count: formatting.drives(count, drive_type),
        response_time=response_time_words(threshold_ms=threshold_ms, latency=latency),
        # A row's second header is its cache setting, followed by what else tells its configurations apart.
        row_labels=("Drives", "Cache setting; what else differs" if any(differences.values()) else "Cache setting"),
        column_labels=units,
    )
    if latency != "avg":
        title = f"{table.title} at {response_time_words(threshold_ms=threshold_ms, latency=latency)}"
        table = replace(table, title=title)
    notes = [unit.note + "." if MBPS in metrics else "", *marks_notes(table.rows, no_figure=unit.formats[IOPS].na_text)]
    notes += [
        f"Mean of {n} runs: {formatting.drives(d, drive_type)}, {c}, {w} {units.get((w, m), labels[m])}."
        for (d, c, w, m), n in averaged
    ]
    if skipped:
        notes.append(f"{len(skipped)} runs without a drive count are not shown.")
    return _with_footnotes(table, [note for note in notes if note])


def marks_notes(rows: Iterable[Row], *, no_figure: str = NO_FIGURE) -> list[str]:
    """What the marks of a table's ``rows`` mean, where they have any: "≥" before a lower bound, ``no_figure``
    for a figure missing (among a row's figures: those with a format of their own where a row has any)."""
    rows = list(rows)
    notes = []
    if any(row.lower_bounds for row in rows):
        notes.append("≥: a lower bound, the threshold was not reached (the best point measured).")
    if any(row.upper_bounds for row in rows):
        notes.append("≤: an upper bound, an improvement over a lower bound.")
    if any(cell is None for row in rows for cell in (row.cells[: len(row.formats)] if row.formats else row.cells)):
        notes.append(f"{no_figure}: no figure at the threshold, or no run of that configuration and workload.")
    return notes


def _whitepaper_title(system: System, selection: Selection) -> str:
    prefix = f"{selection.source_table}. " if selection.source_table else ""
    return f"{prefix}{system.name} {selection.raid_level or 'all RAID levels'} results"


def _with_footnotes(table: Table, notes: list[str]) -> Table:
    if not notes:
        return table
    return replace(table, footnotes=table.footnotes + tuple(notes))
