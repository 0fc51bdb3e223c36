"""The portal's pages: thin views that validate the query string, call selectors and render."""

import functools
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from portal import selectors
from portal.analysis.sizing import per_drive
from portal.analysis.stroke import estimate_throughput
from portal.models import Run, System

from . import charts, families, system_runs
from .forms import CompareForm, RunForm, StrokeForm, SweepForm, SystemFilterForm, SystemPageForm
from .tools import tool_view

# The systems list shows this many systems per page.
SYSTEMS_PER_PAGE = 50
# The points table shows this many rows; the CSV link has them all.
POINTS_SHOWN = 500
# A system page lists this many of an array profile's drives one by one (all are counted by model).
DRIVES_SHOWN = 500
# What makes two drives the same model in the system page's drive summary.
DRIVE_MODEL_KEYS = ("product_id", "type", "interface", "capacity_gb", "speed_rpm")


class PageError(Exception):
    """A request the page cannot answer: the message is shown to the user with ``status``."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.message, self.status = message, status


def page(view):
    """Render :class:`PageError` as a page with its message and status, never a 500."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except PageError as error:
            return render(request, "pages/error.html", {"message": error.message}, status=error.status)

    return wrapped


def data(view):
    """Chart data views: PageError as JSON (or plain text for CSV) with its status."""

    @functools.wraps(view)
    def wrapped(request, *args, fmt, **kwargs):
        try:
            chart = view(request, *args, **kwargs)
        except PageError as error:
            if fmt == "csv":
                return HttpResponse(error.message, status=error.status, content_type="text/plain; charset=utf-8")
            return JsonResponse({"error": error.message}, status=error.status)
        if fmt == "csv":
            response = HttpResponse(charts.csv_text(chart), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{view.__name__}.csv"'
            return response
        return HttpResponse(charts.plotly_json(chart), content_type="application/json")

    return wrapped


def _valid(form):
    if not form.is_valid():
        raise PageError(form.errors_text(), status=400)
    return form


def _system(system_id):
    system = System.objects.filter(pk=system_id).first()
    if system is None:
        raise PageError(f"There is no system #{system_id}.", status=404)
    return system


def _run(run_id):
    try:
        return selectors.run_detail(run_id)
    except Run.DoesNotExist:
        raise PageError(f"There is no run #{run_id}.", status=404) from None


@page
def home(request):
    form = _valid(SystemFilterForm(request.GET))
    filters = {name: form.cleaned_data[name] for name in form.fields}
    systems = Paginator(selectors.systems_overview(**filters), SYSTEMS_PER_PAGE).get_page(request.GET.get("page"))
    other_pages = request.GET.copy()
    other_pages.pop("page", None)
    return render(
        request,
        "pages/home.html",
        {
            "form": form,
            "systems": systems,
            "page_query": other_pages.urlencode(),
            "choices": selectors.filter_choices(),
            "filtered": any(value not in (None, "") for value in filters.values()),
            "uploads": selectors.recent_uploads(),
        },
    )


@page
def system_detail(request, system_id):
    system = _system(system_id)
    form = _valid(SystemPageForm(request.GET))
    threshold_ms = form.value("threshold_ms")
    counts = system_runs.workload_run_counts(system=system)
    sweep_query = request.GET.copy()
    for name in ("runs", "page", "sort"):
        sweep_query.pop(name, None)
    if not sweep_query.get("workload") and counts:
        sweep_query["workload"] = counts[0][0]
    context = {
        "system": system,
        "form": form,
        "threshold_ms": threshold_ms,
        "configs": selectors.system_configs(system),
        "profile": _profile_tables(system.profile or {}),
        "profile_drives": _profile_drives(system.profile or {}),
        "workloads": [name for name, _ in counts],
        "sweep_query": sweep_query.urlencode(),
        "sweep_workload": sweep_query["workload"] if counts else "",
        "has_stroke_tables": system.stroke_tables.exists(),
        "families": _family_charts(families.transfer_size_families(system=system)),
        **_system_runs(request, form, system=system, counts=counts),
    }
    return render(request, "pages/system.html", context)


def _system_runs(request, form, *, system, counts):
    """The runs section: a page of workloads with their first runs, or one workload's runs page by page."""
    read = {"system": system, "threshold_ms": form.value("threshold_ms"), "latency": form.value("latency")}
    read["sort"] = form.value("sort")
    if form.value("runs"):
        page, sections = _one_workload_runs(form.value("runs"), counts, number=form.value("page"), read=read)
    else:
        page = system_runs.workloads_page(counts, number=form.value("page"))
        figures = system_runs.workload_figures(workloads=[name for name, _ in page], **read)
        sections = [(name, count, figures[name]) for name, count in page]
    for _, _, shown in sections:
        _add_per_drive(shown)
    link = functools.partial(_runs_link, request.GET, runs=form.value("runs"), sort=read["sort"])
    return {
        "runs_of": form.value("runs"),
        "run_sections": [(name, count, shown, link(runs=name)) for name, count, shown in sections],
        "runs_page": page,
        "previous_url": link(page=page.previous_page_number()) if page.has_previous() else "",
        "next_url": link(page=page.next_page_number()) if page.has_next() else "",
        "every_workload_url": link(runs=""),
        "sort_links": [(label, link(sort=key) if key != read["sort"] else "") for key, (label, _) in _SORTS],
        "run_count": sum(count for _, count in counts),
        "runs_per_workload": system_runs.RUNS_PER_WORKLOAD,
        "runs_per_page": system_runs.RUNS_PER_PAGE,
        "workloads_per_page": system_runs.WORKLOADS_PER_PAGE,
    }


_SORTS = system_runs.RUN_SORTS.items()


def _runs_link(query, *, runs, sort, **changes):
    """The system page's address with the runs section changed, the rest of the query (threshold, sweep) kept."""
    kept = query.copy()
    for name in ("runs", "page", "sort"):
        kept.pop(name, None)
    chosen = {"runs": runs, "sort": sort, "page": None} | changes
    for name, value in chosen.items():
        if value and not (name == "sort" and value == system_runs.DEFAULT_SORT):
            kept[name] = value
    return f"?{kept.urlencode()}#runs"


def _one_workload_runs(workload, counts, *, number, read):
    """One workload's page ``number`` of runs as the only section; a workload the system lacks is a 404."""
    count = dict(counts).get(workload)
    if count is None:
        raise PageError(f"{read['system'].name} has no runs of workload {workload!r}.", status=404)
    page = system_runs.runs_page(count, number=number)
    first = page.start_index() - 1
    figures = system_runs.workload_figures(workloads=[workload], first=first, limit=system_runs.RUNS_PER_PAGE, **read)
    return page, [(workload, count, figures[workload])]


def _add_per_drive(figures):
    for figure in figures:
        drives = figure.config.drive_count
        figure.per_drive = per_drive(figure.value, drives).per_drive if figure.value is not None and drives else None


def _family_charts(found):
    """Each family's title and its charts: (axis title, query string of the chart's data)."""
    return [
        {
            "title": family.title,
            "charts": [
                (families.METRIC_TITLES[metric], urlencode({"family": family.title, "metric": metric}))
                for metric in family.metrics
            ],
        }
        for family in found
    ]


def _profile_tables(profile):
    """The array profile's arrays and logical drives as tables: title, columns, rows (drives: ``_profile_drives``)."""
    tables = []
    for key, title in (("arrays", "Arrays"), ("volumes", "Logical drives")):
        items = [item for item in profile.get(key) or [] if isinstance(item, dict)]
        columns = list(dict.fromkeys(column for item in items for column in item))
        if items:
            tables.append((title, columns, [[item.get(column) for column in columns] for item in items]))
    return tables


def _profile_drives(profile: dict) -> dict | None:
    """The profile's drives: one row per model (type, capacity, speed, firmware) with a count, and the
    first ``DRIVES_SHOWN`` drives one by one. Profiles stored before drives were listed have none."""
    drives = [drive for drive in profile.get("drives") or [] if isinstance(drive, dict)]
    if not drives:
        return None
    models: dict[tuple, dict] = {}
    for drive in drives:
        key = tuple(str(drive.get(name)) for name in DRIVE_MODEL_KEYS)
        model = models.setdefault(key, {**{name: drive.get(name) for name in DRIVE_MODEL_KEYS}, "firmware": set()})
        model["count"] = model.get("count", 0) + 1
        if drive.get("firmware"):
            model["firmware"].add(str(drive["firmware"]))
    rows = sorted(models.values(), key=lambda model: -model["count"])
    for model in rows:
        model["firmware"] = ", ".join(sorted(model["firmware"]))
    return {"count": len(drives), "models": rows, "drives": drives[:DRIVES_SHOWN]}


@data
def system_sweep(request, system_id):
    system = _system(system_id)
    form = _valid(SweepForm(request.GET))
    parameter, threshold_ms = form.value("parameter"), form.value("threshold_ms")
    series = selectors.sweep(
        system=system,
        parameter=parameter,
        threshold_ms=threshold_ms,
        workload=form.value("workload") or None,
        raid_level=form.value("raid_level") or None,
        cache=form.value("cache") or None,
        latency=form.value("latency"),
    )
    return charts.sweep_chart(series, system=system, parameter=parameter, threshold_ms=threshold_ms)


@data
def system_family(request, system_id):
    system = _system(system_id)
    metric = request.GET.get("metric", "mbps")
    if metric not in families.METRIC_TITLES:
        raise PageError(f"Unknown metric {metric!r}; choose one of: {', '.join(families.METRIC_TITLES)}.")
    title = request.GET.get("family", "")
    found = {family.title: family for family in families.transfer_size_families(system=system)}
    if title not in found:
        raise PageError(f"{system.name} has no thread-count x transfer-size sweep named {title!r}.", status=404)
    return families.family_chart(found[title], metric=metric)


@page
def run_detail(request, run_id):
    run = _run(run_id)
    form = _valid(RunForm(request.GET))
    threshold_ms = form.value("threshold_ms")
    points = list(run.points.all())
    metric, answer = selectors.run_threshold(run, threshold_ms=threshold_ms, latency=form.value("latency"))
    columns = [name for name in run.points.model.FIGURES if any(getattr(p, name) is not None for p in points)]
    load_keys = sorted({key for p in points for key in (p.load or {})})
    context = {
        "run": run,
        "system": run.config.system,
        "config": run.config,
        "cache_setting": selectors.cache_setting(run.config),
        "form": form,
        "threshold_ms": threshold_ms,
        "metric": metric,
        "metric_title": selectors.METRICS[metric],
        "answer": answer,
        "point_rows": [
            (p.seq, [(p.load or {}).get(key) for key in load_keys], [getattr(p, name) for name in columns])
            for p in points[:POINTS_SHOWN]
        ],
        "points_hidden": max(len(points) - POINTS_SHOWN, 0),
        "columns": [selectors.FIGURE_TITLES.get(name, name) for name in columns],
        "load_keys": [selectors.load_title(key) for key in load_keys],
        "tool": tool_view(run, points, iops_per_mailbox=form.value("iops_per_mailbox")),
        "threshold_query": urlencode({"threshold_ms": f"{threshold_ms:g}", "latency": form.value("latency")}),
        "latency_text": selectors.LATENCIES[form.value("latency")],
        "latencies": selectors.LATENCIES,
    }
    return render(request, "pages/run.html", context)


RUN_CHARTS = ("curve", "load", *charts.ORION_FIGURES)


@data
def run_chart(request, run_id, chart):
    if chart not in RUN_CHARTS:
        raise PageError(f"Unknown chart {chart!r}; runs have: {', '.join(RUN_CHARTS)}.", status=404)
    run = _run(run_id)
    form = _valid(RunForm(request.GET))
    if chart == "curve":
        return charts.run_curve_chart(run, threshold_ms=form.value("threshold_ms"), latency=form.value("latency"))
    if chart == "load":
        return charts.run_load_chart(run)
    return charts.orion_heatmap(run, chart)


@page
def stroke(request, system_id):
    system = _system(system_id)
    form = _valid(StrokeForm(request.GET))
    tables = selectors.stroke_tables(system=system, threshold_ms=form.value("threshold_ms"))
    wanted = form.value("table")
    chosen = next((table for table in tables if table.key == wanted), None) if wanted else next(iter(tables), None)
    if wanted and chosen is None:
        known = ", ".join(table.key for table in tables) or "none"
        raise PageError(f"This system has no multiplier table {wanted!r}; it has: {known}.", status=404)
    estimate = _stroke_estimate(chosen, form)
    baselines = _baseline_estimates(system, chosen, estimate.get("multiplier"), form.value("threshold_ms"))
    context = {"system": system, "form": form, "tables": tables, "chosen": chosen, **estimate}
    return render(request, "pages/stroke.html", {**context, "baselines": baselines})


def _stroke_estimate(table, form):
    """The paper's estimator for the chosen table: base x the multiplier at the chosen stroke."""
    if table is None:
        return {}
    stroke_pct = form.value("stroke_pct")
    base = form.value("base") or table.baseline_throughput
    multiplier = table.multipliers.get(stroke_pct)
    if multiplier is None:
        known = ", ".join(f"{s:g}" for s in table.multipliers)
        return {
            "stroke_pct": stroke_pct,
            "estimate_error": f"No multiplier for {stroke_pct:g} % stroke; the table has {known} %.",
        }
    estimate = None if base is None else estimate_throughput(base, multiplier)
    return {"stroke_pct": stroke_pct, "base": base, "multiplier": multiplier, "estimate": estimate}


def _baseline_estimates(system, table, multiplier, threshold_ms):
    """The system's figures at the table's baseline stroke, each with its estimate at the chosen stroke."""
    if table is None or multiplier is None:
        return []
    figures = selectors.threshold_figures(
        system=system, threshold_ms=threshold_ms, workload=table.workload, raid_level=table.raid_level
    )
    return [
        (figure, estimate_throughput(figure.value, multiplier))
        for figure in figures
        if figure.value is not None and figure.config.stroke_pct == table.baseline_pct
    ]


def _with(query, **changes):
    """This page's address with some parameters changed."""
    changed = query.copy()
    for name, value in changes.items():
        changed[name] = value
    return f"?{changed.urlencode()}"


COMPARE_PARAMETERS: tuple[str, ...] = ("a", "b", "threshold_ms", "adjust_b", "raid_level", "cache")
COMPARE_PARAMETERS += ("drive_count", "workload", "pair", "best", "latency")


def _selection_query(query):
    """The comparison's selection as the exports take it: every export shows what the page shows."""
    return {name: query[name] for name in COMPARE_PARAMETERS if query.get(name)}


# Systems compared with one baseline on one page, and names the picker offers before typing.
MAX_CANDIDATES = 5
PICKER_CHOICES = 20


def _candidates(query):
    """The systems named as A (several against one baseline), blank pickers left out."""
    return [name.strip() for name in query.getlist("a") if name.strip()]


def _first_candidate(query, candidates):
    """The query with one system A, the first named: blank extra pickers are not a selection."""
    data = query.copy()
    data.setlist("a", candidates[:1])
    return data


def _found(name):
    try:
        return selectors.system_by_name(name)
    except selectors.SystemNotFound as error:
        message = str(error)
        raise PageError(message[0].upper() + message[1:] + ("" if message.endswith("?") else "."), status=404) from None


def _multi_comparison(form, candidates):
    systems = [_found(name) for name in candidates]
    return selectors.multi_comparison(candidates=systems, baseline=_found(form.value("b")), **form.selection())


@require_GET
def system_search(request):
    """Names for the system picker: ``?q=`` matched against name, vendor and model, at most 20."""
    return JsonResponse({"systems": selectors.system_names(q=request.GET.get("q", "")[:100], limit=PICKER_CHOICES)})


# The compare page compares this many workloads a page and names at most this many only one side has.
COMPARED_PER_PAGE = 10
ONLY_ONE_SIDE_SHOWN = 50


def _comparison(form, **paging):
    return selectors.comparison(a=_found(form.value("a")), b=_found(form.value("b")), **form.selection(), **paging)


def _workload_pages(query, page):
    """Links to the previous and next pages of compared workloads (``wpage=``), None where there is none."""
    previous = _with(query, wpage=page.previous_page_number()) if page.has_previous() else None
    following = _with(query, wpage=page.next_page_number()) if page.has_next() else None
    return previous, following


def _first_names(names):
    """The first names of a list only one side has, and how many are not shown."""
    return names[:ONLY_ONE_SIDE_SHOWN], max(len(names) - ONLY_ONE_SIDE_SHOWN, 0)


@page
def compare(request):
    candidates = _candidates(request.GET)[:MAX_CANDIDATES]
    form = CompareForm(_first_candidate(request.GET, candidates))
    context = {
        "form": form,
        "candidates": candidates + [""] * (len(candidates) < MAX_CANDIDATES),
        "system_choices": selectors.system_names(limit=PICKER_CHOICES),
        "latencies": selectors.LATENCIES,
    }
    if not candidates or not request.GET.get("b"):
        # Opened from a system's page (or bare): that system is chosen, the page asks for the other.
        context["ask"] = "Choose the system to compare with." if candidates or request.GET.get("b") else ""
        return render(request, "pages/compare.html", context)
    try:
        if len(candidates) > 1:
            context["multi"] = _multi_comparison(_valid(form), candidates)
            return render(request, "pages/compare.html", context)
        paging = {"workloads_per_page": COMPARED_PER_PAGE, "workload_page": request.GET.get("wpage") or 1}
        result = _comparison(_valid(form), **paging)
    except PageError as error:
        context["error"] = error.message
        return render(request, "pages/compare.html", context, status=error.status)
    chart_url = reverse("pages:compare_chart", kwargs={"fmt": "json"})
    csv_url = reverse("pages:compare_chart", kwargs={"fmt": "csv"})
    for workload in result.workloads:
        query = form.data.copy()
        query["label"] = workload.workload
        workload.chart_url = f"{chart_url}?{query.urlencode()}"
        workload.csv_url = f"{csv_url}?{query.urlencode()}"
        workload.cache_links = [(setting, _with(form.data, cache=setting)) for setting in workload.cache_choices]
    export = _selection_query(form.data)
    for workload in result.workloads:
        workload.export_query = urlencode({**export, "label": workload.workload})
    context.update(
        result=result,
        threshold_ms=result.threshold_ms,
        adjust_b=result.adjust_b,
        export_query=urlencode(export),
        latency_text=selectors.LATENCIES[result.latency],
        workload_pages=_workload_pages(form.data, result.page) if result.page else (None, None),
        only_a=_first_names(result.only_a_workloads),
        only_b=_first_names(result.only_b_workloads),
    )
    return render(request, "pages/compare.html", context)


@data
def compare_chart(request):
    candidates = _candidates(request.GET)
    form = _valid(CompareForm(_first_candidate(request.GET, candidates)))
    if not form.value("workload") and not request.GET.get("label"):
        raise PageError("Name the workload to chart (label=... or workload=...).", status=400)
    label = request.GET.get("label")
    result = _comparison(form, label=label)
    matching = [w for w in result.workloads if label in (None, w.workload)]
    if not matching:
        named = label or form.value("workload")
        raise PageError(f"Both systems need runs of {named!r} to chart them together.", status=404)
    return charts.compare_chart(
        matching[0], a=result.a, b=result.b, threshold_ms=result.threshold_ms, latency=result.latency
    )
