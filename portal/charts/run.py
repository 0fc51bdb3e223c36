"""The charts of one run: its response-time curve and throughput against load (a tool's own charts live with
the tool: ``portal/tools/``)."""

from portal import formatting
from portal.analysis.curves import Status, marker_response_ms
from portal.charts import Chart, Series, label_text, threshold_line
from portal.models import Run
from portal.results.kinds import run_figure_kind
from portal.results.selectors import (
    FIGURE_TITLES,
    LATENCIES,
    LOAD_TITLES,
    METRICS,
    load_title,
    response_ms,
    run_as_is,
    run_metric,
    run_threshold,
)

# How a figure with no response time, used as is at any threshold, was stated (IO500's): by its status.
_STATED_AS = {Status.SINGLE_POINT: "as published", Status.MEASURED: "as measured"}
# Point fields that state the load a point was measured at, in the order a chart prefers them.
LOAD_FIELDS = ("outstanding_io", "threads")


def _hover(point, rate_unit: str):
    """Hover text of one point: the load it was measured at (where stated) and every figure it has, its rate
    of operations headed ``rate_unit`` (what the run's operations are: "object ops/s", not IOPS)."""
    parts = [
        f"{LOAD_TITLES[name]}: {formatting.significant(getattr(point, name))}"
        for name in LOAD_FIELDS
        if getattr(point, name) is not None
    ]
    for name in point.FIGURES:
        value = getattr(point, name)
        if value is not None:
            written = formatting.iops(value) if name.endswith("iops") else formatting.significant(value)
            parts.append(f"{rate_unit if name == 'iops' else FIGURE_TITLES[name]}: {written}")
    parts += [f"{load_title(key=key)}: {value}" for key, value in (point.load or {}).items()]
    return "<br>".join(label_text(part) for part in parts)


def run_curve_chart(run: Run, *, threshold_ms: float, latency: str = "avg") -> Chart:
    """Throughput on x against response time on y (the average, or the percentile the threshold applies
    to), with the threshold and the value read there; the percentiles the tool reported drawn beside."""
    metric = run_metric(run=run)
    unit = _throughput_title(run, metric)
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
            hover=[_hover(p, _throughput_title(run, "iops")) for p, _ in measured],
        )
    ]
    series += _percentile_series(points, metric, shown=latency)
    _, answer = run_threshold(run=run, threshold_ms=threshold_ms, metric=metric, latency=latency)
    right = max([getattr(p, metric) for p in points] + [answer.value or 0]) or 1
    series.append(threshold_line(threshold_ms, right=right, style=2))
    callouts = []
    if answer.value:  # a run that did no I/O has no figure to mark
        # Drawn last (on top of the points), twice their size and outlined, with a labelled arrow: on the
        # threshold where the curve crosses it, at its own response time where the figure is a lower bound.
        figure = formatting.throughput(answer.value, metric, unit=unit)
        lower_bound = answer.status is Status.NOT_REACHED
        at = formatting.threshold(threshold_ms)
        published = formatting.published_as(
            tool=run.tool, run_name=run.name, published=run.origin == run.Origin.PUBLISHED or run_as_is(run)
        )
        read = f"at least {figure} (a lower bound)" if lower_bound else f"{figure} at {at}"
        name = f"at {at}: {read}" if lower_bound else f"at threshold: {read}"
        if published and answer.status in _STATED_AS:
            # No response time: the same figure at any threshold, named at none.
            read = f"{figure}, {published} {_STATED_AS[answer.status]} (no response time)"
            name = read
        at_ms = marker_response_ms(answer)
        series.append(
            Series(
                name,
                [answer.value],
                [at_ms],
                hover=[
                    formatting.reading(
                        answer, metric=metric, latency_text=LATENCIES[latency], published_as=published, unit=unit
                    )
                ],
                mode="markers",
                style=3,
                highlight=True,
            )
        )
        callouts.append((answer.value, at_ms, read))
    y_title = f"{LATENCIES[latency].capitalize()} response time (ms)"
    return Chart(f"{run.name}: response-time curve", _throughput_title(run, metric), y_title, series, callouts=callouts)


def _throughput_title(run: Run, metric: str) -> str:
    """The throughput axis's title: the unit of what the run's rate counts ("object ops/s", "metadata ops/s"),
    never IOPS for other operations than I/Os."""
    return run_figure_kind(run, metric).unit if metric == "iops" else METRICS[metric]


def _percentile_series(points, metric, *, shown):
    """p50, p95 and p99 curves beside the one the threshold applies to, where the tool reported them."""
    series = []
    for style, latency in enumerate(("p50", "p95", "p99"), start=4):
        found = [(getattr(p, metric), response_ms(point=p, latency=latency)) for p in points]
        found = [(x, y) for x, y in found if y is not None]
        if latency != shown and len(found) == len(points) and found:
            series.append(Series(LATENCIES[latency], [x for x, _ in found], [y for _, y in found], style=style))
    return series


def run_load_chart(run: Run) -> Chart:
    """Throughput against the load the points state (outstanding I/Os, else threads); points whose load
    the file does not state are left out rather than drawn at their position in the file."""
    metric = run_metric(run=run)
    points = [p for p in run.points.all() if getattr(p, metric) is not None]
    kind = next((name for name in LOAD_FIELDS if points and all(getattr(p, name) is not None for p in points)), None)
    loaded = [(getattr(p, kind), getattr(p, metric)) for p in points] if kind else []
    loaded.sort()
    series = [Series(_throughput_title(run, metric), [load for load, _ in loaded], [value for _, value in loaded])]
    x_title = LOAD_TITLES[kind] if kind else "Load (not stated in the file)"
    return Chart(f"{run.name}: throughput against load", x_title, _throughput_title(run, metric), series)
