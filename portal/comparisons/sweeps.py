"""Selectors of one system against one parameter: throughput at the threshold swept over drive
count, stroke %, read % or transfer size, and disk-stroke multiplier tables."""

import json
from collections import defaultdict
from dataclasses import dataclass

from django.utils.text import slugify

from portal.analysis.stroke import StrokeRun, stroke_multipliers
from portal.models import Run, System, document_title
from portal.results.configurations import config_differences
from portal.results.kinds import run_figure_kind
from portal.results.selectors import Figure, threshold_figures
from portal.results.workloads import run_group_labels
from portal.systems.selectors import published_stroke_multipliers

SWEEP_PARAMETERS = {
    "drive_count": "Drive count",
    "stroke_pct": "Stroke %",
    "read_pct": "Read %",
    "transfer_bytes": "Transfer size (bytes)",
}


def _transfer_bytes(run: Run) -> int | None:
    """The run's single transfer size in bytes, or None for a mix or an unknown size."""
    sizes = run.transfer_sizes or []
    return sizes[0].get("bytes") if len(sizes) == 1 else None


def _sweep_x(figure: Figure, parameter: str) -> object:
    if parameter == "transfer_bytes":
        return _transfer_bytes(figure.run)
    if parameter == "read_pct":
        return figure.run.read_pct
    return getattr(figure.config, parameter)


def _sweep_series_label(figure: Figure, parameter: str, workload: str) -> str:
    """What stays fixed along one sweep line: everything but the swept parameter (``workload``: the run's
    workload group, :func:`~portal.results.workloads.run_group_labels`)."""
    run, config = figure.run, figure.config
    if parameter in ("transfer_bytes", "read_pct"):
        threads = (run.params or {}).get("threads")
        mix = f"{run.read_pct:g} % read" if run.read_pct is not None and parameter != "read_pct" else ""
        random = f"{run.random_pct:g} % random" if run.random_pct is not None else ""
        parts = [mix, random, f"{threads} threads" if threads else ""]
    else:
        parts = [workload]
    parts += [config.raid_level, figure.cache_setting]
    if parameter != "drive_count" and config.drive_count:
        parts.append(f"{config.drive_count} drives")
    if parameter != "stroke_pct" and config.stroke_pct:
        parts.append(f"{config.stroke_pct:g} % stroke")
    return ", ".join(part for part in parts if part)


def sweep(
    *,
    system: System,
    parameter: str,
    threshold_ms: float,
    workload: str | None = None,
    raid_level: str | None = None,
    cache: str | None = None,
    latency: str = "avg",
) -> dict[tuple[str, str], dict[str, list[tuple[float, float, int]]]]:
    """Throughput at the threshold against one parameter, one series per combination of the others.

    Returns {(metric, unit): {series label: [(x, value, run id), ...] in x order}}, the unit that of what the
    runs' rates count ("IOPS", "MB/s", "object ops/s": :mod:`portal.analysis.figure_kinds`), so that rates of
    different kinds are never one line; runs without the parameter or without a figure are left out.
    """
    if parameter not in SWEEP_PARAMETERS:
        raise ValueError(f"unknown sweep parameter {parameter!r}; choose one of: {', '.join(SWEEP_PARAMETERS)}")
    by_size = parameter in ("transfer_bytes", "read_pct")
    figures = threshold_figures(
        system=system,
        threshold_ms=threshold_ms,
        workload=None if by_size else workload,
        raid_level=raid_level,
        cache=cache,
        latency=latency,
    )
    runs = [figure.run for figure in figures]
    groups = run_group_labels(runs=runs)
    labels = {figure.run.id: _sweep_series_label(figure, parameter, groups[figure.run.id]) for figure in figures}
    # Configurations a line would join (two hosts, two drive types) are lines of their own.
    differences = config_differences(runs, position=lambda run: labels[run.id], ignored=(parameter,))
    series: dict = defaultdict(lambda: defaultdict(list))
    for figure in figures:
        x = _sweep_x(figure, parameter)
        if x is None or figure.value is None:
            continue
        label = ", ".join(words for words in (labels[figure.run.id], differences[figure.run.id]) if words)
        unit = run_figure_kind(figure.run, figure.metric).unit
        series[(figure.metric, unit)][label].append((x, figure.value, figure.run.id))
    return {key: _lines_drawn(lines) for key, lines in sorted(series.items())}


def _lines_drawn(lines: dict[str, list]) -> dict[str, list]:
    """The lines of a sweep, in label order: those of more than one point, or every one when none has more
    (one configuration's workloads: a point each, never joined into one line)."""
    drawn = {label: sorted(points) for label, points in sorted(lines.items())}
    joined = {label: points for label, points in drawn.items() if len(points) > 1}
    return joined or drawn


@dataclass
class StrokeTable:
    """Stroke multipliers for one RAID level and workload: measured from runs, or as a paper printed them."""

    raid_level: str
    workload: str
    source: str
    baseline_pct: float
    baseline_throughput: float | None
    multipliers: dict
    citation: str = ""

    @property
    def key(self) -> str:
        """The table's address on the stroke page: stable when tables are added ("raid-5-oltp-8k-published")."""
        return slugify(f"{self.raid_level} {self.workload} {self.source}")


def stroke_tables(*, system: System, threshold_ms: float, baseline_pct: float = 8.0) -> list[StrokeTable]:
    """Measured tables (runs differing only in stroke %) followed by the published ones."""
    by_config: dict = defaultdict(lambda: defaultdict(list))
    figures = threshold_figures(system=system, threshold_ms=threshold_ms)
    groups = run_group_labels(runs=[figure.run for figure in figures])
    for figure in figures:
        config = figure.config
        if config.stroke_pct is None or figure.value is None:
            continue
        others = {k: v for k, v in config.properties().items() if k != "stroke_pct"}
        key = (config.raid_level, groups[figure.run.id], _json_key(others))
        by_config[key][config.stroke_pct].append(figure.value)
    tables = []
    for (raid_level, workload, _), by_stroke in sorted(by_config.items()):
        if len(by_stroke) < 2 or baseline_pct not in by_stroke:
            continue
        runs = [StrokeRun(stroke, sum(values) / len(values)) for stroke, values in by_stroke.items()]
        measured = stroke_multipliers(runs, baseline_pct=baseline_pct)
        tables.append(
            StrokeTable(
                raid_level,
                workload,
                "measured",
                measured.baseline_pct,
                measured.baseline_throughput,
                {measured.baseline_pct: 1.0, **dict(measured.multipliers)},
            )
        )
    for published in published_stroke_multipliers(system=system):
        multipliers = {float(stroke): value for stroke, value in published.multipliers.items()}
        tables.append(
            StrokeTable(
                published.raid_level,
                published.workload_name,
                "published",
                published.baseline_stroke_pct,
                None,
                dict(sorted(multipliers.items())),
                f"{document_title(published.citation_document)}, {published.citation_table}",
            )
        )
    return tables


def _json_key(properties: dict) -> str:
    """A hashable, order-independent key for a dict of configuration properties."""
    return json.dumps(properties, sort_keys=True, default=str)
