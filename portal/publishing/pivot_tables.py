"""A system's results with any two configuration attributes as rows: the white-paper table's columns
(workload x I/Os and MBps, MBps = 2^20 bytes/s) pivoted."""

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from portal import formatting
from portal.analysis.tables import IOPS, MBPS, Column, ColumnGroup, NumberFormat, Row, Table
from portal.models import Config, System
from portal.results.configurations import config_differences
from portal.results.selectors import cache_setting
from portal.results.workloads import run_group_labels

from .presets import (
    BINARY_MBPS_NOTE,
    PAPER_METRIC_LABELS,
    PresetError,
    Selection,
    marks_notes,
    mean_cells,
    rate_units,
    response_time_words,
    selected_runs,
    threshold_value,
    workload_columns,
)

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


def pivot(
    system: System,
    *,
    rows: tuple[str, ...] = ("drive_count", "cache_setting"),
    threshold_ms: float = 20.0,
    latency: str = "avg",
    selection: Selection | None = None,
    metrics: tuple[str, ...] = (IOPS, MBPS),
) -> Table:
    """Workload x metric columns with any two configuration attributes as rows (MBps binary, as above), at
    ``threshold_ms`` of ``latency``; a mean with a lower bound among its runs is one ("≥")."""
    unknown = [name for name in rows if name not in ROW_ATTRIBUTES]
    if len(rows) != 2 or unknown:
        raise PresetError(f"rows must be two of {', '.join(ROW_ATTRIBUTES)}; got {', '.join(rows)}")
    selection = selection or Selection()
    runs = selected_runs(system, selection)
    workload_of = run_group_labels(runs=runs)
    differences = config_differences(runs, position=lambda run: _position(run.config, rows))
    values: defaultdict[tuple[tuple[Any, ...], str, str], list[float | None]] = defaultdict(list)
    bounded: set[tuple[tuple[Any, ...], str, str]] = set()
    for run in runs:
        # Configurations that share the two attributes are rows of their own, told apart in the last header.
        position = (*_position(run.config, rows), differences[run.id])
        for metric in metrics:
            key = (position, workload_of[run.id], metric)
            figure = threshold_value(run, metric, threshold_ms=threshold_ms, latency=latency)
            values[key].append(figure.value)
            if figure.lower_bound:
                bounded.add(key)
    cells, averaged = mean_cells(values)
    workloads = workload_columns(runs, workload_of, asked=selection.workloads)
    positions = sorted({key[0] for key in cells}, key=lambda p: tuple((v is None, v) for v in p))
    formats = {IOPS: NumberFormat(decimals=0), MBPS: NumberFormat(decimals=1)}
    units = rate_units(runs, workload_of)
    groups = tuple(
        ColumnGroup(w, tuple(Column(units.get((w, m), PAPER_METRIC_LABELS[m]), formats[m]) for m in metrics))
        for w in workloads
    )
    columns = [(w, m) for w in workloads for m in metrics]
    body = tuple(
        Row(
            headers=_headers(rows, position),
            cells=tuple(cells.get((position, w, m)) for w, m in columns),
            lower_bounds=frozenset(i for i, (w, m) in enumerate(columns) if (position, w, m) in bounded),
        )
        for position in positions
    )
    labels = tuple(ROW_ATTRIBUTES[name][0] for name in rows)
    at = response_time_words(threshold_ms=threshold_ms, latency=latency)
    footnotes = (f"*Results correspond to {at}.", BINARY_MBPS_NOTE, *marks_notes(body, no_figure=formats[IOPS].na_text))
    notes = tuple(
        f"Mean of {n} runs: {', '.join(_headers(rows, p))}, {w} {units.get((w, m), m)}." for (p, w, m), n in averaged
    )
    title = f"{system.name} results by {labels[0].lower()} and {labels[1].lower()}"
    if latency != "avg":
        title += f" at {at}"
    return Table(title, (("Workload", ""), labels), groups, body, footnotes + notes)


def _position(config: Config, rows: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(_attribute(config, name) for name in rows)


def _headers(rows: tuple[str, ...], position: tuple[Any, ...]) -> tuple[str, ...]:
    """A row's headers: its two attributes, the last with what tells its configuration apart, if anything."""
    *values, differences = position
    headers = [_attribute_text(name, value) for name, value in zip(rows, values, strict=True)]
    headers[-1] = "; ".join(words for words in (headers[-1], differences) if words)
    return tuple(headers)


def _attribute(config: Config, name: str) -> Any:
    value = cache_setting(config=config) if name == "cache_setting" else getattr(config, name)
    return value if value not in ("", None) else None


def _attribute_text(name: str, value: Any) -> str:
    return "not stated" if value is None else ROW_ATTRIBUTES[name][1](value)
