"""The charts of one run: its response-time curve, throughput against load and ORION's heat maps."""

from portal.analysis.curves import CurvePoint, Status, marker_response_ms, reading_sentence, throughput_text
from portal.analysis.sizing import OrionPoint
from portal.results.selectors import (
    FIGURE_TITLES,
    LATENCIES,
    METRICS,
    load_title,
    response_ms,
    run_curve,
    run_metric,
    run_threshold,
)

from .charts import Chart, Heatmap, Series, label_text


def _hover(curve_point, point):
    """Hover text of one point: the load level and every figure the point has."""
    parts = [f"load {curve_point.load:g}" if curve_point.load is not None else "load unknown"]
    for name in point.FIGURES:
        value = getattr(point, name)
        if value is not None:
            parts.append(f"{FIGURE_TITLES[name]}: {value:,.4g}")
    parts += [f"{load_title(key=key)}: {value}" for key, value in (point.load or {}).items()]
    return "<br>".join(label_text(part) for part in parts)


def run_curve_chart(run, *, threshold_ms, latency="avg"):
    """Throughput on x against response time on y (the average, or the percentile the threshold applies
    to), with the threshold and the value read there; the percentiles the tool reported drawn beside."""
    metric = run_metric(run=run)
    points = [p for p in run.points.all() if getattr(p, metric) is not None]
    measured = [
        (p, response_ms(point=p, latency=latency)) for p in points if response_ms(point=p, latency=latency) is not None
    ]
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
    _, answer = run_threshold(run=run, threshold_ms=threshold_ms, metric=metric, latency=latency)
    right = max([getattr(p, metric) for p in points] + [answer.value or 0]) or 1
    series.append(
        Series(f"threshold {threshold_ms:g} ms", [0, right], [threshold_ms, threshold_ms], mode="lines", style=2)
    )
    callouts = []
    if answer.value is not None:
        # Drawn last (on top of the points), twice their size and outlined, with a labelled arrow: on the
        # threshold where the curve crosses it, at its own response time where the figure is a lower bound.
        figure = throughput_text(answer.value, unit=METRICS[metric])
        lower_bound = answer.status is Status.NOT_REACHED
        read = f"at least {figure} (lower bound)" if lower_bound else f"{figure} at {threshold_ms:g} ms"
        at_ms = marker_response_ms(answer)
        series.append(
            Series(
                f"at {threshold_ms:g} ms: {read}" if lower_bound else f"at threshold: {read}",
                [answer.value],
                [at_ms],
                hover=[reading_sentence(answer, unit=METRICS[metric], latency=LATENCIES[latency])],
                mode="markers",
                style=3,
                highlight=True,
            )
        )
        callouts.append((answer.value, at_ms, read))
    y_title = f"{LATENCIES[latency].capitalize()} response time (ms)"
    return Chart(f"{run.name}: response-time curve", METRICS[metric], y_title, series, callouts=callouts)


def run_curve_point(point, metric, response):
    load = point.outstanding_io if point.outstanding_io is not None else (point.threads or point.seq)
    return CurvePoint(load=load, throughput=getattr(point, metric), response_ms=response)


def _percentile_series(points, metric, *, shown):
    """p50, p95 and p99 curves beside the one the threshold applies to, where the tool reported them."""
    series = []
    for style, latency in enumerate(("p50", "p95", "p99"), start=4):
        found = [(getattr(p, metric), response_ms(point=p, latency=latency)) for p in points]
        found = [(x, y) for x, y in found if y is not None]
        if latency != shown and len(found) == len(points) and found:
            series.append(Series(LATENCIES[latency], [x for x, _ in found], [y for _, y in found], style=style))
    return series


def run_load_chart(run):
    """Throughput against load (outstanding I/Os or threads)."""
    metric = run_metric(run=run)
    curve = [c for c in run_curve(run=run, metric=metric) if c.load is not None]
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
