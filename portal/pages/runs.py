"""A run's page and its charts."""

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from portal import formatting
from portal.analysis.curves import Status
from portal.charts import AnyChart
from portal.charts import run as run_charts
from portal.charts.answers import chart_data
from portal.curation import forms as curation_forms
from portal.curation.selectors import run_overrides
from portal.errors import NotFoundError, answers_errors, valid
from portal.results import selectors as result_selectors
from portal.results.kinds import run_figure_kind, training_figures
from portal.tools.base import ViewOptions
from portal.tools.registry import RUN_CHARTS as TOOL_CHARTS
from portal.tools.registry import tool_view

from .common import query_with, run_for
from .forms import RunForm

# The points table shows this many rows a page (``?points=N``); the charts and their CSV have them all.
POINTS_PER_PAGE = 50
# The file's warnings the run page lists (what was lost or changed reading it); the upload page has them all.
FILE_WARNINGS_SHOWN = 10
# Point fields that are load axes, shown first in the points table when a point has them.
POINT_LOADS = ("outstanding_io", "threads")
# Response-time percentiles a point may hold (``Point.latency_percentiles_ms`` keys), as the points table heads
# them: a column for each that some point of the run has.
PERCENTILES = (("50", "p50 (ms)"), ("90", "p90 (ms)"), ("95", "p95 (ms)"), ("99", "p99 (ms)"), ("99.9", "p99.9 (ms)"))


def _figure_text(name: str, value) -> str:
    """A point's figure as engineers write it: IOPS whole, MB/s, ms and % to three significant digits."""
    return formatting.iops(value) if name.endswith("iops") else formatting.significant(value)


def _measured_rate(points, metric: str) -> float | None:
    """The figure of a run's one point in ``metric`` when it states no response time (an mdtest or fs_mark
    rate): the run page says it beside "no value at the threshold"."""
    if len(points) != 1 or points[0].avg_response_ms is not None:
        return None
    return getattr(points[0], metric, None)


def _column_title(run, name: str) -> str:
    """A points-table column's heading: the operations rate by its kind ("metadata ops/s", not IOPS)."""
    if name == "iops":
        return run_figure_kind(run, "iops").unit
    return result_selectors.FIGURE_TITLES.get(name, name)


def _load_text(value) -> str:
    if value is None:
        return formatting.NO_FIGURE
    return (
        formatting.significant(value) if isinstance(value, int | float) and not isinstance(value, bool) else str(value)
    )


def _outstanding_derived(points) -> list[str] | None:
    """Where no point states its outstanding I/Os, each point's by Little's law (IOPS x average response
    time), marked as derived: "not stated; ≈64 (derived: Little's law)". None where a point states one or
    no point has both figures."""
    if any(p.outstanding_io is not None for p in points):
        return None
    derived = [p.iops * p.avg_response_ms / 1000 if p.iops and p.avg_response_ms else None for p in points]
    if not any(derived):
        return None
    return [
        "not stated" if value is None else f"not stated; ≈{formatting.significant(value, 2)} (derived: Little's law)"
        for value in derived
    ]


def _load_kind(points) -> str | None:
    """What the points' loads count ("outstanding_io" or "threads"), when every point states it."""
    return next((name for name in POINT_LOADS if points and all(getattr(p, name) is not None for p in points)), None)


@answers_errors()
def run_detail(request: HttpRequest, run_id: int) -> HttpResponse:
    run = run_for(request, run_id)
    form = valid(RunForm(request.GET))
    threshold_ms = form.value("threshold_ms")
    points = list(run.points.all())
    metric, answer = result_selectors.run_threshold(run=run, threshold_ms=threshold_ms, latency=form.value("latency"))
    columns = [name for name in run.points.model.FIGURES if any(getattr(p, name) is not None for p in points)]
    percentiles = [
        (key, title)
        for key, title in PERCENTILES
        if any((p.latency_percentiles_ms or {}).get(key) is not None for p in points)
    ]
    loads = [name for name in POINT_LOADS if any(getattr(p, name) is not None for p in points)]
    load_kind = _load_kind(points)
    kind = run_figure_kind(run, metric)
    # IO500's figures state no response time: the same at any threshold, published or a lab's own.
    published_as = formatting.published_as(
        tool=run.tool,
        run_name=run.name,
        published=run.origin == run.Origin.PUBLISHED or result_selectors.run_as_is(run),
    )
    load_keys = sorted({key for p in points for key in (p.load or {})} - set(loads))
    shown = Paginator(points, POINTS_PER_PAGE).get_page(request.GET.get("points"))
    derived = None if "outstanding_io" in loads else _outstanding_derived(shown.object_list)
    derived_keys = ("outstanding_io",) if derived else ()
    context = {
        "run": run,
        "system": run.config.system,
        "config": run.config,
        "cache_setting": formatting.cache_setting(run.config),
        "form": form,
        "threshold_ms": threshold_ms,
        "metric": metric,
        "metric_title": result_selectors.METRICS[metric],
        "answer": answer,
        # The sentence above says why a figure is a lower bound or missing: the list says only the rest.
        "other_warnings": [warning for warning in answer.warnings if warning != answer.reason],
        "figure_kind": kind,
        "no_response_time": bool(published_as) and answer.status in (Status.SINGLE_POINT, Status.MEASURED),
        "reading": (
            formatting.reading(
                answer,
                metric=metric,
                latency_text=result_selectors.LATENCIES[form.value("latency")],
                load_kind=load_kind,
                phase=run.phase,
                published_as=published_as,
                unit=kind.unit,
                measured=_measured_rate(points, metric),
            )
            if kind.at_threshold
            # An AI training throughput is read at the benchmark's utilisation rule, not at a response time.
            else training_figures(run, points[0] if points else None).words() + "."
        ),
        "point_rows": [
            (
                p.seq,
                ([derived[index]] if derived else [])
                + [_load_text(getattr(p, name)) for name in loads]
                + [_load_text((p.load or {}).get(key)) for key in load_keys],
                [_figure_text(name, getattr(p, name)) for name in columns]
                + [formatting.significant((p.latency_percentiles_ms or {}).get(key)) for key, _title in percentiles],
            )
            for index, p in enumerate(shown)
        ],
        "points_page": shown,
        "points_links": _page_links(request.GET, shown, parameter="points", anchor="points"),
        "columns": [_column_title(run, name) for name in columns] + [title for _key, title in percentiles],
        "load_keys": [result_selectors.load_title(key=key) for key in (*derived_keys, *loads, *load_keys)],
        "measured_workload": (run.params or {}).get("measured_workload") or [],
        "loads_stated": len({getattr(p, load_kind) for p in points}) if load_kind else 0,
        "tool": tool_view(run, points, ViewOptions(iops_per_mailbox=form.value("iops_per_mailbox"))),
        "threshold_query": urlencode({"threshold_ms": f"{threshold_ms:g}", "latency": form.value("latency")}),
        "latency_text": result_selectors.LATENCIES[form.value("latency")],
        "latencies": result_selectors.LATENCIES,
        "overrides": run_overrides(run=run, viewer=request.user),
        "file_warnings": run.upload.warnings[:FILE_WARNINGS_SHOWN] if run.upload else [],
        "file_warnings_more": max(len(run.upload.warnings) - FILE_WARNINGS_SHOWN, 0) if run.upload else 0,
        "exclude_form": curation_forms.ExcludeForm(),
        "alias_form": curation_forms.AliasForm(),
        "statement_form": curation_forms.StatementForm(),
    }
    return render(request, "pages/run.html", context)


def _page_links(query, page, *, parameter, anchor):
    """This page's address at the previous and next page of ``parameter``, None where there is none."""
    previous = query_with(query, **{parameter: page.previous_page_number()}) if page.has_previous() else None
    following = query_with(query, **{parameter: page.next_page_number()}) if page.has_next() else None
    return tuple(f"{link}#{anchor}" if link else None for link in (previous, following))


RUN_CHARTS = ("curve", "load", *TOOL_CHARTS)


@chart_data
def run_chart(request: HttpRequest, run_id: int, chart: str) -> AnyChart:
    if chart not in RUN_CHARTS:
        raise NotFoundError(f"Unknown chart {chart!r}; runs have: {', '.join(RUN_CHARTS)}.")
    run = run_for(request, run_id)
    form = valid(RunForm(request.GET))
    if chart == "curve":
        return run_charts.run_curve_chart(run, threshold_ms=form.value("threshold_ms"), latency=form.value("latency"))
    if chart == "load":
        return run_charts.run_load_chart(run)
    return TOOL_CHARTS[chart](run)
