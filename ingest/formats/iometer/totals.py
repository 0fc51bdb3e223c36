"""The ALL row of a section: the point's figures, its metrics and its latency histogram; in the
per-second layout each ALL row before the last becomes one second of the time series."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...result import mib_to_mbps
from .cells import _fill, _iso_timestamp, _optional, _plain_counts, _plain_figures, _text, _whole
from .sections import _Section
from .table import _COUNT_METRICS, _FIGURE_KEYS, _MB_KEYS, _TIMES_OF_COUNTS, _TOTAL_METRIC_COLUMNS, _Table


def _total_metrics(
    metrics: dict[str, Any], table: _Table, cells: Sequence[str], number: int, figures: dict[str, Any]
) -> dict[str, Any]:
    """Adds the ALL row's figures beyond the point's own to ``metrics``: errors, bytes, CPU split,
    network counters."""
    values = _plain_figures(cells, table.metric_get)
    if values is None:
        metrics.update(dict.fromkeys(_TOTAL_METRIC_COLUMNS))
        _fill(metrics, cells, table.metric_cells, number)
        for key in _COUNT_METRICS:
            metrics[key] = _whole(metrics[key])
    else:
        if not table.metrics_complete:
            metrics.update(dict.fromkeys(_TOTAL_METRIC_COLUMNS))
        metrics.update(zip(table.metric_keys, values, strict=True))
        for key in table.metric_count_keys:
            value = metrics[key]
            if value.is_integer():
                metrics[key] = int(value)
    for count, maximum in (("read_iops", "max_read_response_ms"), ("write_iops", "max_write_response_ms")):
        if not figures[count]:
            metrics[maximum] = None
    return metrics


def _plain_total(table: _Table, values: list[float], metrics: dict[str, Any]) -> dict[str, Any]:
    """An ALL row's figures (as ``_Table.figures_of`` gives them), worker count, CPU % and metrics
    (added to ``metrics``) from its plain cells read in one pass (``_Table.total_get``)."""
    figures: dict[str, Any] = dict(zip(_FIGURE_KEYS, values, strict=False))
    if table.mb_binary:
        for key in _MB_KEYS:
            figures[key] = mib_to_mbps(figures[key])
    for count, times in _TIMES_OF_COUNTS:
        if not figures[count]:
            for key in times:
                figures[key] = None
    workers, figures["cpu_pct"] = values[-2], values[-1]
    figures["workers"] = int(workers) if workers.is_integer() else workers
    metrics.update(zip(table.metric_keys, values[table.total_metric_slice], strict=True))
    counts = [int(count) if count.is_integer() else count for count in table.total_counts_of(values)]
    metrics.update(zip(table.metric_count_keys, counts, strict=True))
    for count, maximum in (("read_iops", "max_read_response_ms"), ("write_iops", "max_write_response_ms")):
        if not figures[count]:
            metrics[maximum] = None
    figures["metrics"] = metrics
    return figures


def _histogram(table: _Table, cells: Sequence[str], number: int) -> dict[str, Any] | None:
    """The ALL row's latency bins (None when the header has none); the row is full width, so every
    bin column is there. The bins' names and bounds are the header's lists, shared by its points."""
    if not table.bins:
        return None
    counts: list[float | int | None] | None = _plain_counts(cells, table.bin_get)  # type: ignore[assignment]
    if counts is None:
        read: dict[int, float | None] = {}
        _fill(read, cells, table.bin_cells, number)
        counts = [_whole(read[i]) for i, _name, _bounds in table.bins]
    return {**table.bin_lists, "counts": counts}


def _second(total: dict[str, Any]) -> dict[str, Any]:
    return {key: total.get(key) for key in ("time", "iops", "mbps", "avg_response_ms")}


def read_total(section: _Section, table: _Table, cells: Sequence[str], number: int) -> None:
    """Reads an ALL row into ``section.total``: the point's figures, worker count, CPU % and metrics."""
    if section.total is not None:
        # Per-second layout: each ALL row opens one second's rows; the last one is the result.
        section.time_series.append(_second(section.total))
        section.workers, section.targets, section.processors = [], [], []
    # The point's metrics in the order they are shown; the section's end is set when it is read.
    metrics = {"started_at": section.started_at, "ended_at": None, "all_row_line": number}
    values = None if table.total_get is None else _plain_figures(cells, table.total_get)
    if values is None:
        figures = table.figures_of(cells, number)
        figures["workers"] = _whole(_optional(cells, table.workers_index, number, "# Workers"))
        figures["cpu_pct"] = _optional(cells, table.cpu_index, number, "% CPU Utilization")
        figures["metrics"] = _total_metrics(metrics, table, cells, number, figures)
    else:
        figures = _plain_total(table, values, metrics)
    figures["spec_name"] = _text(cells, table.spec_index)
    figures["histogram"] = _histogram(table, cells, number)
    if table.time_index is not None:
        figures["time"] = _iso_timestamp(cells[table.time_index]) or cells[table.time_index].strip()
    section.total, section.total_line = figures, number
