"""The compare page's charts: two systems' curves or bars, several systems against a baseline."""

from collections.abc import Sequence
from dataclasses import dataclass

from portal import formatting
from portal.analysis.curves import Status
from portal.charts import DASHES, BarChart, Bars, Chart, Series, threshold_line
from portal.comparisons.comparison import WorkloadComparison
from portal.comparisons.figures import ComparedFigure
from portal.comparisons.multi import MultiWorkload
from portal.models import Run, System
from portal.results.selectors import (
    LATENCIES,
    METRICS,
    run_curve,
)

# The colours of the two systems on every compare chart (Okabe-Ito blue and vermillion).
A_COLOUR, B_COLOUR = 1, 2
# A threshold is drawn on the curves' chart up to this multiple of their highest response time.
THRESHOLD_DRAWN_UP_TO = 1.5
# Curves going on past this multiple of the threshold are drawn up to it: the threshold stays readable.
AROUND_THRESHOLD = 4.0


@dataclass(frozen=True)
class ChartUnit:
    """The figure a compare chart draws throughput in: "IOPS", "MB/s" (10^6 bytes/s) or "MiB/s" (2^20
    bytes/s), and ``per_figure``, how many of it one of the workload's own figures (IOPS or MB/s) is."""

    name: str
    per_figure: float = 1.0

    def text(self, figure: float) -> str:
        """One of the workload's own figures in this unit: "30,060 IOPS", "54.5 MiB/s"."""
        value = figure * self.per_figure
        return f"{formatting.iops(value)} IOPS" if self.name == "IOPS" else f"{formatting.mbps(value)} {self.name}"


def compare_chart(
    workload_comparison: WorkloadComparison,
    *,
    a_name: str,
    b_name: str,
    threshold_ms: float,
    latency: str = "avg",
    unit: ChartUnit | None = None,
) -> Chart | BarChart:
    """One workload of a comparison as the chart that answers it: both systems' response-time curves
    (one colour per system, one dash per configuration, the value at the threshold marked) where both
    sides have curves; a grouped bar chart with the improvement above each configuration where a side
    has single figures (published tables). ``a_name`` and ``b_name`` name the sides (with their firmware
    where one was chosen); throughput is drawn in ``unit``, else in the workload's own figure."""
    drawn = unit or ChartUnit(METRICS[workload_comparison.metric])
    names = (a_name, b_name)
    figures = [f for row in workload_comparison.rows for f in row.a + row.b]
    if figures and all(_has_curve(f.run, workload_comparison.metric, latency) for f in figures):
        return _compare_curves(workload_comparison, names, threshold_ms=threshold_ms, latency=latency, unit=drawn)
    return _compare_bars(workload_comparison, names, threshold_ms=threshold_ms, unit=drawn)


def _has_curve(run: Run, metric: str, latency: str) -> bool:
    return len([c for c in run_curve(run=run, metric=metric, latency=latency) if c.response_ms is not None]) > 1


def _compare_curves(
    workload_comparison: WorkloadComparison, names: tuple[str, str], *, threshold_ms: float, latency: str,
    unit: ChartUnit,
) -> Chart:  # fmt: skip
    series: list[Series] = []
    a_name, b_name = names
    for index, row in enumerate(workload_comparison.rows):
        # Each side is named with its own configuration, not the pair's ("RAID-0, 3 drives vs ...").
        sides = (("A", a_name, row.a, A_COLOUR, row.a_label), ("B", b_name, row.b, B_COLOUR, row.b_label))
        for side, system, figures, colour, configuration in sides:
            for figure in figures:
                name = f"{side}: {system}, {configuration}"
                series += _side_curve(figure, name, index, colour, latency, threshold_ms, unit)
    right = max((x for s in series for x in s.x), default=1)
    top = max((y for s in series for y in s.y if y is not None), default=threshold_ms)
    title = f"{workload_comparison.workload}: {a_name} (A) vs {b_name} (B)"
    # The axis follows the curves: a threshold far above them is named, not drawn (it would flatten them).
    y_range = None
    if threshold_ms <= top * THRESHOLD_DRAWN_UP_TO:
        series.append(threshold_line(threshold_ms, right=right, dash="dot"))
        if top > threshold_ms * AROUND_THRESHOLD:
            # A threshold far under the curves' top would sit flat on the axis: the chart is drawn around it.
            y_range = (0.0, threshold_ms * AROUND_THRESHOLD)
            title += (
                f"; drawn up to {formatting.threshold(threshold_ms * AROUND_THRESHOLD)}, around the threshold "
                f"(the curves go on to {formatting.ms(top)})"
            )
    else:
        title += f"; the threshold, {formatting.threshold(threshold_ms)}, is above every measured response time"
    return Chart(
        title,
        _axis_title(workload_comparison, unit),
        f"{LATENCIES[latency].capitalize()} response time (ms)",
        series,
        y_range=y_range,
    )


def _side_curve(
    figure: ComparedFigure, name: str, index: int, colour: int, latency: str, threshold_ms: float, unit: ChartUnit
) -> list[Series]:
    curve = [c for c in run_curve(run=figure.run, metric=figure.metric, latency=latency) if c.response_ms is not None]
    hover = [f"{unit.text(c.throughput)} at {formatting.ms(c.response_ms)}" for c in curve]
    line = Series(name, [c.throughput * unit.per_figure for c in curve], [c.response_ms for c in curve], hover=hover,
                  style=index, group=name, dash=DASHES[index % len(DASHES)], colour=colour)  # fmt: skip
    if figure.value is None:
        return [line]
    figure_text = unit.text(figure.value)
    at_ms = threshold_ms
    if figure.status in (Status.NOT_REACHED, Status.SINGLE_POINT):
        # A lower bound (or a published figure) is marked where it was measured (stated), not on the threshold.
        at_ms = next(
            (c.response_ms for c in curve if c.throughput == figure.value and c.response_ms is not None), threshold_ms
        )
    elif figure.status == Status.MEASURED:
        # So is the best point under the threshold where no point over it does more.
        measured = [c.response_ms for c in curve if c.throughput == figure.value and c.response_ms is not None]
        at_ms = min((ms for ms in measured if ms <= threshold_ms), default=threshold_ms)
    at = f"{figure_text} at {formatting.threshold(threshold_ms)} ({formatting.status_words(figure.status)})"
    if figure.status == Status.NOT_REACHED:
        at = f"at least {figure_text} at {formatting.threshold(threshold_ms)} (a lower bound, measured at "
        at += f"{formatting.ms(at_ms)})"
    elif figure.status == Status.MEASURED and at_ms < threshold_ms:
        at = f"{figure_text} at {formatting.threshold(threshold_ms)} (the best point at or under it, measured at "
        at += f"{formatting.ms(at_ms)})"
    marker = Series(f"{name}: {at}", [figure.value * unit.per_figure], [at_ms], hover=[at], mode="markers",
                    style=index, group=name, colour=colour)  # fmt: skip
    return [line, marker]


def _at(workload_comparison: WorkloadComparison, threshold_ms: float) -> str:
    """Where a compared workload's figures are read: "at 20 ms", or as published where they state no response time."""
    return workload_comparison.as_published or f"at {formatting.threshold(threshold_ms)}"


def _axis_title(workload_comparison: WorkloadComparison, unit: ChartUnit) -> str:
    """The throughput axis's title: the unit of the figure's kind where it counts other operations than I/Os
    ("metadata ops/s", "object ops/s"), never IOPS for them."""
    if unit.name == "IOPS" and workload_comparison.metric == "iops":
        return workload_comparison.unit
    return unit.name


def _compare_bars(
    workload_comparison: WorkloadComparison, names: tuple[str, str], *, threshold_ms: float, unit: ChartUnit
) -> BarChart:
    rows = workload_comparison.rows
    per = unit.per_figure
    errors = {
        side: [_spread([f.value * per for f in getattr(row, side) if f.value is not None]) for row in rows]
        for side in ("a", "b")
    }
    a_name, b_name = names
    sides = []
    for side, name, colour in (("a", a_name, A_COLOUR), ("b", b_name, B_COLOUR)):
        values = [getattr(row, f"{side}_value") * per for row in rows]
        bounds = [getattr(row, f"{side}_lower_bound") for row in rows]
        notes = [_bound_text(value, unit.name) if bound else "" for value, bound in zip(values, bounds, strict=True)]
        sides.append(Bars(f"{side.upper()}: {name}", values, colour, errors[side], notes=notes, bounds=bounds))
    return BarChart(
        title=f"{workload_comparison.workload} {_at(workload_comparison, threshold_ms)}: {a_name} (A) vs {b_name} (B)",
        x_title="Configuration",
        y_title=_axis_title(workload_comparison, unit),
        categories=[row.label for row in rows],
        bars=sides,
        notes=[formatting.marked_improvement(row.stated_pct, row.pct_mark) for row in rows],
    )


# On the several-systems page the baseline keeps B's colour and the first system A's, as on the
# two-system page; the others take the next Okabe-Ito colours.
CANDIDATE_COLOURS = (A_COLOUR, 3, 4, 5, 6)


def multi_compare_chart(
    multi_workload: MultiWorkload, *, baseline: System, candidates: Sequence[System], threshold_ms: float
) -> BarChart:
    """One workload of several systems against one baseline: a bar per system for each configuration,
    the baseline first, each system's improvement over the baseline written above its bar."""
    rows = multi_workload.rows
    unit = METRICS[multi_workload.metric]
    baseline_bounds = [row.baseline_bound for row in rows]
    baseline_notes = [
        _bound_text(row.baseline, unit) if bound else "" for row, bound in zip(rows, baseline_bounds, strict=True)
    ]
    bars = [
        Bars(
            f"{baseline.name} (baseline)",
            [row.baseline for row in rows],
            B_COLOUR,
            notes=baseline_notes,
            bounds=baseline_bounds,
        )  # fmt: skip
    ]
    for index, system in enumerate(candidates):
        cells = [row.cells[index] for row in rows]
        bounds = [bool(row.bounds[index]) if row.bounds else False for row in rows]
        notes = [_candidate_text(cell, bound, unit) if cell else "" for cell, bound in zip(cells, bounds, strict=True)]
        colour = CANDIDATE_COLOURS[index % len(CANDIDATE_COLOURS)]
        bars.append(
            Bars(system.name, [cell[0] if cell else None for cell in cells], colour, notes=notes, bounds=bounds)
        )
    return BarChart(
        title=f"{multi_workload.workload} at {formatting.threshold(threshold_ms)}: each system against {baseline.name}",
        x_title="Configuration",
        y_title=METRICS[multi_workload.metric],
        categories=[row.label for row in rows],
        bars=bars,
    )


def _bound_text(value: float | None, unit: str) -> str:
    """A lower bound as written over its bar: "≥ 69,656"."""
    return f"≥ {formatting.iops(value) if unit == 'IOPS' else formatting.mbps(value)}"


def _candidate_text(cell: tuple[float, float | None, str], bound: bool, unit: str) -> str:
    """Over a candidate's bar: its improvement over the baseline, after its figure where that is a lower bound."""
    improvement = formatting.marked_improvement(cell[1], cell[2])
    if not bound:
        return improvement
    return f"{_bound_text(cell[0], unit)} ({improvement})" if improvement else _bound_text(cell[0], unit)


def _spread(values: Sequence[float]) -> float:
    """The error bar of replicates: one standard deviation (0 for a single figure)."""
    if len(values) < 2:
        return 0
    mean = sum(values) / len(values)
    return (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
