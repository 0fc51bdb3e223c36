"""Chart data for the pages: one description per chart, drawn as a Plotly figure or written as CSV.

A :class:`Chart` holds plain series; :func:`plotly_json` draws it (greyscale-safe: every series
has its own dash style and marker symbol, not only its own colour) and :func:`csv_text` writes
the same numbers, so the CSV link under a chart always carries what the chart shows.
"""

import io
from dataclasses import dataclass, field

import plotly.graph_objects as go

from portal.analysis.curves import CurvePoint
from portal.analysis.sizing import OrionPoint
from portal.exports.formats import SpreadsheetCsvWriter
from portal.selectors import (
    FIGURE_TITLES,
    LATENCIES,
    METRICS,
    SWEEP_PARAMETERS,
    cache_setting,
    load_title,
    response_ms,
    run_curve,
    run_metric,
    run_threshold,
)

# Okabe-Ito colours (distinguishable with colour-blindness), backed by dashes and symbols for greyscale.
COLOURS = ("#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "cross", "star", "triangle-down")
# Above this many points a series is drawn with WebGL.
SCATTERGL_POINTS = 1000


@dataclass
class Series:
    name: str
    x: list
    y: list
    hover: list = field(default_factory=list)
    mode: str = "lines+markers"
    style: int = 0
    group: str = ""
    dash: str | None = None
    # A colour of its own (index into COLOURS) when the colour says something the style does not:
    # which system a curve belongs to.
    colour: int | None = None


@dataclass
class Chart:
    title: str
    x_title: str
    y_title: str
    series: list
    x_log: bool = False
    # (value, label) pairs: ticks at the values measured, labelled in the reader's units ("8 KB").
    x_ticks: list = field(default_factory=list)


@dataclass
class Bars:
    """One bar per system for each category (a configuration), with an error bar where given."""

    name: str
    values: list
    colour: int
    errors: list = field(default_factory=list)


@dataclass
class BarChart:
    title: str
    x_title: str
    y_title: str
    categories: list
    bars: list
    # Text above each category (the improvement of A over B).
    notes: list = field(default_factory=list)


@dataclass
class Heatmap:
    title: str
    x_title: str
    y_title: str
    x: list
    y: list
    z: list
    value_title: str


def plotly_json(chart):
    """The chart as Plotly figure JSON (a string; plotly's encoder handles every number type)."""
    if isinstance(chart, Heatmap):
        return _heatmap_figure(chart).to_json()
    if isinstance(chart, BarChart):
        return _bar_figure(chart).to_json()
    figure = go.Figure()
    for series in chart.series:
        figure.add_trace(_trace(series))
    xaxis = {"title": {"text": chart.x_title}, "type": "log" if chart.x_log else "linear"}
    if chart.x_ticks:
        xaxis.update(tickvals=[value for value, _ in chart.x_ticks], ticktext=[label for _, label in chart.x_ticks])
    figure.update_layout(
        title=chart.title,
        xaxis=xaxis,
        yaxis={"title": {"text": chart.y_title}},
        template="simple_white",
        hovermode="closest",
        legend={"orientation": "h", "y": -0.2},
        margin={"t": 50, "l": 70, "r": 20},
    )
    return figure.to_json()


def _trace(series):
    trace = go.Scattergl if len(series.x) > SCATTERGL_POINTS else go.Scatter
    return trace(
        x=series.x,
        y=series.y,
        name=series.name,
        mode=series.mode,
        legendgroup=series.group or None,
        text=series.hover or None,
        hovertemplate="%{text}<extra>%{fullData.name}</extra>" if series.hover else None,
        line={
            "color": COLOURS[_colour(series) % len(COLOURS)],
            "dash": series.dash or DASHES[series.style % len(DASHES)],
        },
        marker={
            "symbol": SYMBOLS[series.style % len(SYMBOLS)],
            "size": 9,
            "color": COLOURS[_colour(series) % len(COLOURS)],
        },
    )


def _colour(series):
    return series.style if series.colour is None else series.colour


def _bar_figure(chart):
    figure = go.Figure()
    for bars in chart.bars:
        errors = {"type": "data", "array": bars.errors, "visible": True} if any(bars.errors) else None
        figure.add_trace(
            go.Bar(
                x=chart.categories,
                y=bars.values,
                name=bars.name,
                marker={"color": COLOURS[bars.colour % len(COLOURS)]},
                error_y=errors,
                hovertemplate="%{x}<br>%{y:,.1f}<extra>%{fullData.name}</extra>",
            )
        )
    tops = [
        max((b.values[i] or 0) + (b.errors[i] if b.errors else 0) for b in chart.bars)
        for i in range(len(chart.categories))
    ]
    figure.update_layout(
        title=chart.title,
        barmode="group",
        xaxis={"title": {"text": chart.x_title}, "type": "category"},
        yaxis={"title": {"text": chart.y_title}},
        template="simple_white",
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 60, "l": 70, "r": 20},
        annotations=[
            {"x": category, "y": top, "text": note, "showarrow": False, "yshift": 14}
            for category, top, note in zip(chart.categories, tops, chart.notes, strict=False)
            if note
        ],
    )
    return figure


def _heatmap_figure(heatmap):
    figure = go.Figure(
        go.Heatmap(
            x=heatmap.x,
            y=heatmap.y,
            z=heatmap.z,
            colorscale="Greys",
            reversescale=True,
            colorbar={"title": {"text": heatmap.value_title}},
            texttemplate="%{z:.4~g}",
            hovertemplate=f"{heatmap.x_title} %{{x}}<br>{heatmap.y_title} %{{y}}<br>%{{z}}<extra></extra>",
        )
    )
    figure.update_layout(
        title=heatmap.title,
        xaxis={"title": {"text": heatmap.x_title}, "type": "category"},
        yaxis={"title": {"text": heatmap.y_title}, "type": "category"},
        template="simple_white",
    )
    return figure


def csv_text(chart):
    """The chart's numbers as CSV: one row per plotted point."""
    out = io.StringIO()
    writer = SpreadsheetCsvWriter(out)
    if isinstance(chart, BarChart):
        writer.writerow([chart.x_title, *(bars.name for bars in chart.bars), "note"])
        for index, category in enumerate(chart.categories):
            note = chart.notes[index] if index < len(chart.notes) else ""
            writer.writerow([category, *(bars.values[index] for bars in chart.bars), note])
        return out.getvalue()
    if isinstance(chart, Heatmap):
        writer.writerow([chart.y_title, chart.x_title, chart.value_title])
        for y, row in zip(chart.y, chart.z, strict=True):
            writer.writerows([y, x, value] for x, value in zip(chart.x, row, strict=True))
        return out.getvalue()
    writer.writerow(["series", chart.x_title, chart.y_title])
    for series in chart.series:
        writer.writerows([series.name, x, y] for x, y in zip(series.x, series.y, strict=True))
    return out.getvalue()


def _hover(curve_point, point):
    """Hover text of one point: the load level and every figure the point has."""
    parts = [f"load {curve_point.load:g}" if curve_point.load is not None else "load unknown"]
    for name in point.FIGURES:
        value = getattr(point, name)
        if value is not None:
            parts.append(f"{FIGURE_TITLES[name]}: {value:,.4g}")
    parts += [f"{load_title(key)}: {value}" for key, value in (point.load or {}).items()]
    return "<br>".join(parts)


def run_curve_chart(run, *, threshold_ms, latency="avg"):
    """Throughput on x against response time on y (the average, or the percentile the threshold applies
    to), with the threshold and the value read there; the percentiles the tool reported drawn beside."""
    metric = run_metric(run)
    points = [p for p in run.points.all() if getattr(p, metric) is not None]
    measured = [(p, response_ms(p, latency)) for p in points if response_ms(p, latency) is not None]
    name = "measured points" if latency == "avg" else f"measured points, {LATENCIES[latency]}"
    series = [
        Series(
            name,
            [getattr(p, metric) for p, _ in measured],
            [response for _, response in measured],
            hover=[_hover(run_curve_point(p, metric, response), p) for p, response in measured],
        )
    ]
    series += _percentile_series(points, metric, shown=latency)
    _, answer = run_threshold(run, threshold_ms=threshold_ms, metric=metric, latency=latency)
    right = max([getattr(p, metric) for p in points] + [answer.value or 0]) or 1
    series.append(
        Series(f"threshold {threshold_ms:g} ms", [0, right], [threshold_ms, threshold_ms], mode="lines", style=2)
    )
    if answer.value is not None:
        series.append(
            Series(
                f"at threshold: {answer.value:,.1f} {METRICS[metric]} ({answer.status.words})",
                [answer.value],
                [threshold_ms],
                hover=[f"{answer.value:,.1f} {METRICS[metric]} at {threshold_ms:g} ms ({answer.status.words})"],
                mode="markers",
                style=3,
            )
        )
    y_title = f"{LATENCIES[latency].capitalize()} response time (ms)"
    return Chart(f"{run.name}: response-time curve", METRICS[metric], y_title, series)


def run_curve_point(point, metric, response):
    load = point.outstanding_io if point.outstanding_io is not None else (point.threads or point.seq)
    return CurvePoint(load=load, throughput=getattr(point, metric), response_ms=response)


def _percentile_series(points, metric, *, shown):
    """p50, p95 and p99 curves beside the one the threshold applies to, where the tool reported them."""
    series = []
    for style, latency in enumerate(("p50", "p95", "p99"), start=4):
        found = [(getattr(p, metric), response_ms(p, latency)) for p in points]
        found = [(x, y) for x, y in found if y is not None]
        if latency != shown and len(found) == len(points) and found:
            series.append(Series(LATENCIES[latency], [x for x, _ in found], [y for _, y in found], style=style))
    return series


def run_load_chart(run):
    """Throughput against load (outstanding I/Os or threads)."""
    metric = run_metric(run)
    curve = [c for c in run_curve(run, metric=metric) if c.load is not None]
    series = [Series(METRICS[metric], [c.load for c in curve], [c.throughput for c in curve])]
    return Chart(f"{run.name}: throughput against load", "Load (outstanding I/Os or threads)", METRICS[metric], series)


ORION_FIGURES = {
    "small-iops": ("iops", "Small IOPS"),
    "large-mbps": ("mbps", "Large MB/s"),
    "small-latency": ("avg_response_ms", "Small latency (ms)"),
}


def orion_points(run):
    """The run's points as cells of ORION's small x large matrix (points without both loads are left out)."""
    cells = []
    for point in run.points.all():
        load = point.load or {}
        if load.get("small_outstanding") is None or load.get("large_outstanding") is None:
            continue
        cells.append(
            OrionPoint(
                small_outstanding=int(load["small_outstanding"]),
                large_outstanding=int(load["large_outstanding"]),
                small_iops=point.iops,
                large_mbps=point.mbps,
                small_latency_ms=point.avg_response_ms,
            )
        )
    return cells


def orion_heatmap(run, figure):
    field_name, title = ORION_FIGURES[figure]
    attribute = {"iops": "small_iops", "mbps": "large_mbps", "avg_response_ms": "small_latency_ms"}[field_name]
    cells = orion_points(run)
    smalls = sorted({c.small_outstanding for c in cells})
    larges = sorted({c.large_outstanding for c in cells})
    values = {(c.small_outstanding, c.large_outstanding): getattr(c, attribute) for c in cells}
    z = [[values.get((small, large)) for small in smalls] for large in larges]
    return Heatmap(f"{run.name}: {title}", "Outstanding small I/Os", "Outstanding large I/Os", smalls, larges, z, title)


# The colours of the two systems on every compare chart (Okabe-Ito blue and vermillion).
A_COLOUR, B_COLOUR = 1, 2


def compare_chart(workload_comparison, *, a, b, threshold_ms, latency="avg"):
    """One workload of a comparison as the chart that answers it: both systems' response-time curves
    (one colour per system, one dash per configuration, the value at the threshold marked) where both
    sides have curves; a grouped bar chart with the improvement above each configuration where a side
    has single figures (published tables)."""
    figures = [f for row in workload_comparison.rows for f in row.a + row.b]
    if figures and all(_has_curve(f.run, workload_comparison.metric, latency) for f in figures):
        return _compare_curves(workload_comparison, a=a, b=b, threshold_ms=threshold_ms, latency=latency)
    return _compare_bars(workload_comparison, a=a, b=b, threshold_ms=threshold_ms)


def _has_curve(run, metric, latency):
    return len([c for c in run_curve(run, metric=metric, latency=latency) if c.response_ms is not None]) > 1


def _compare_curves(workload_comparison, *, a, b, threshold_ms, latency):
    series = []
    for index, row in enumerate(workload_comparison.rows):
        for side, system, figures, colour in (("A", a, row.a, A_COLOUR), ("B", b, row.b, B_COLOUR)):
            for figure in figures:
                name = f"{side}: {system.name}, {row.label}"
                series += _side_curve(figure, name, index, colour, latency, threshold_ms)
    right = max((x for s in series for x in s.x), default=1)
    series.append(
        Series(f"threshold {threshold_ms:g} ms", [0, right], [threshold_ms, threshold_ms], mode="lines", dash="dot")
    )
    metric = METRICS[workload_comparison.metric]
    title = f"{workload_comparison.workload}: {a.name} (A) vs {b.name} (B)"
    return Chart(title, metric, f"{LATENCIES[latency].capitalize()} response time (ms)", series)


def _side_curve(figure, name, index, colour, latency, threshold_ms):
    curve = [c for c in run_curve(figure.run, metric=figure.metric, latency=latency) if c.response_ms is not None]
    hover = [f"load {c.load:g}" if c.load is not None else "load unknown" for c in curve]
    line = Series(name, [c.throughput for c in curve], [c.response_ms for c in curve], hover=hover, style=index,
                  group=name, dash=DASHES[index % len(DASHES)], colour=colour)  # fmt: skip
    if figure.value is None:
        return [line]
    at = f"{figure.value:,.1f} at the threshold ({figure.status_text})"
    marker = Series(f"{name}: {at}", [figure.value], [threshold_ms], hover=[at], mode="markers",
                    style=index, group=name, colour=colour)  # fmt: skip
    return [line, marker]


def _compare_bars(workload_comparison, *, a, b, threshold_ms):
    rows = workload_comparison.rows
    errors = {side: [_spread([f.value for f in getattr(row, side)]) for row in rows] for side in ("a", "b")}
    metric = METRICS[workload_comparison.metric]
    return BarChart(
        title=f"{workload_comparison.workload} at {threshold_ms:g} ms: {a.name} (A) vs {b.name} (B)",
        x_title="Configuration",
        y_title=metric,
        categories=[row.label for row in rows],
        bars=[
            Bars(f"A: {a.name}", [row.a_value for row in rows], A_COLOUR, errors["a"]),
            Bars(f"B: {b.name}", [row.b_value for row in rows], B_COLOUR, errors["b"]),
        ],
        notes=[f"{row.pct:+.1f} %" for row in rows],
    )


def _spread(values):
    """The error bar of replicates: one standard deviation (0 for a single figure)."""
    if len(values) < 2:
        return 0
    mean = sum(values) / len(values)
    return (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5


def _config_label(config):
    drives = f"{config.drive_count} drives" if config.drive_count else ""
    return ", ".join(part for part in (config.raid_level, drives, cache_setting(config)) if part)


def sweep_chart(sweep_series, *, system, parameter, threshold_ms):
    """Throughput at the threshold against one parameter; one line per combination of the others."""
    series = []
    metric_titles = []
    for metric, lines in sweep_series.items():
        metric_titles.append(METRICS[metric])
        for label, points in lines.items():
            series.append(
                Series(
                    f"{label} ({METRICS[metric]})",
                    [x for x, _, _ in points],
                    [value for _, value, _ in points],
                    hover=[f"run #{run_id}: {value:,.1f} {METRICS[metric]}" for _, value, run_id in points],
                    style=len(series),
                )
            )
    title = f"{system.name}: throughput at {threshold_ms:g} ms against {SWEEP_PARAMETERS[parameter].lower()}"
    y_title = " or ".join(metric_titles) or "Throughput"
    return Chart(
        title,
        SWEEP_PARAMETERS[parameter],
        f"{y_title} at {threshold_ms:g} ms",
        series,
        x_log=parameter == "transfer_bytes",
    )
