"""Chart data for the pages: one description per chart, drawn as a Plotly figure or written as CSV.

A :class:`Chart` holds plain series; :func:`plotly_json` draws it (greyscale-safe: every series
has its own dash style and marker symbol, not only its own colour) and :func:`csv_text` writes
the same numbers, so the CSV link under a chart always carries what the chart shows.
"""

import csv
import io
from dataclasses import dataclass, field

import plotly.graph_objects as go

from portal.analysis.sizing import OrionPoint
from portal.selectors import METRICS, SWEEP_PARAMETERS, cache_setting, run_curve, run_metric, run_threshold

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
        line={"color": COLOURS[series.style % len(COLOURS)], "dash": series.dash or DASHES[series.style % len(DASHES)]},
        marker={"symbol": SYMBOLS[series.style % len(SYMBOLS)], "size": 9},
    )


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
    writer = csv.writer(out)
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
            parts.append(f"{name}: {value:,.4g}")
    parts += [f"{key}: {value}" for key, value in (point.load or {}).items()]
    return "<br>".join(parts)


def run_curve_chart(run, *, threshold_ms):
    """Throughput on x against average response time on y, with the threshold and the value read there."""
    metric = run_metric(run)
    points = [p for p in run.points.all() if getattr(p, metric) is not None]
    curve = run_curve(run, metric=metric)
    measured = [(c, p) for c, p in zip(curve, points, strict=True) if c.response_ms is not None]
    series = [
        Series(
            "measured points",
            [c.throughput for c, _ in measured],
            [c.response_ms for c, _ in measured],
            hover=[_hover(c, p) for c, p in measured],
        )
    ]
    _, answer = run_threshold(run, threshold_ms=threshold_ms, metric=metric)
    right = max([c.throughput for c in curve] + [answer.value or 0]) or 1
    series.append(
        Series(f"threshold {threshold_ms:g} ms", [0, right], [threshold_ms, threshold_ms], mode="lines", style=2)
    )
    if answer.value is not None:
        series.append(
            Series(
                f"at threshold: {answer.value:,.1f} {METRICS[metric]} ({answer.status})",
                [answer.value],
                [threshold_ms],
                hover=[f"{answer.value:,.1f} {METRICS[metric]} at {threshold_ms:g} ms ({answer.status})"],
                mode="markers",
                style=3,
            )
        )
    return Chart(f"{run.name}: response-time curve", METRICS[metric], "Average response time (ms)", series)


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


def compare_chart(workload_comparison, *, a, b, threshold_ms):
    """Both systems' curves for one workload on one chart: A solid, B dashed; one symbol per configuration."""
    series = []
    for index, row in enumerate(workload_comparison.rows):
        for side, figures, dash in (("A", row.a, "solid"), ("B", row.b, "dash")):
            system = a if side == "A" else b
            for figure in figures:
                curve = run_curve(figure.run, metric=workload_comparison.metric)
                measured = [c for c in curve if c.response_ms is not None]
                series.append(
                    Series(
                        f"{side}: {system.name}, {_config_label(figure.run.config)}",
                        [c.throughput for c in measured],
                        [c.response_ms for c in measured],
                        hover=[f"load {c.load:g}" if c.load is not None else "load unknown" for c in measured],
                        style=index,
                        group=side,
                        dash=dash,
                    )
                )
    right = max((x for s in series for x in s.x), default=1)
    series.append(
        Series(f"threshold {threshold_ms:g} ms", [0, right], [threshold_ms, threshold_ms], mode="lines", dash="dot")
    )
    metric = METRICS[workload_comparison.metric]
    title = f"{workload_comparison.workload}: {a.name} (A) vs {b.name} (B)"
    if not any(s.x for s in series[:-1]):
        title += " (no response time was published with these figures: they are in the table)"
    return Chart(title, metric, "Average response time (ms)", series)


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
