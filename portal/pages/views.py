"""The systems list, a system's page with its charts, and its disk-stroke tables."""

import functools
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from portal.analysis.stroke import estimate_throughput
from portal.charts import AnyChart, families
from portal.charts import system as system_charts
from portal.charts.answers import chart_data
from portal.comparisons import sweeps
from portal.curation.selectors import system_workload_aliases
from portal.errors import ApplicationError, NotFoundError, answers_errors, valid
from portal.models import Role
from portal.publishing.formats import FORMATS as EXPORT_FORMATS
from portal.publishing.formats import export
from portal.results import selectors as result_selectors
from portal.results import system_runs as run_lists
from portal.sizing.forms import PredictForm, SizingQuestionForm
from portal.sizing.output import sizing_tables
from portal.sizing.parameter_prediction import PARAMETERS, parameter_prediction
from portal.sizing.prediction import NoGrid, grid_runs, run_prediction
from portal.sizing.selectors import sizing_answer, sweep_workloads
from portal.systems import selectors as system_selectors
from portal.teams.selectors import allows, role_of

from . import system_runs
from .forms import StrokeForm, SweepForm, SystemFilterForm, SystemPageForm

# The systems list shows this many systems per page.
SYSTEMS_PER_PAGE = 50
# A system page lists this many of an array profile's drives one by one (all are counted by model).
DRIVES_SHOWN = 500
# What makes two drives the same model in the system page's drive summary.
DRIVE_MODEL_KEYS = ("product_id", "type", "interface", "capacity_gb", "speed_rpm")


@answers_errors()
def home(request: HttpRequest) -> HttpResponse:
    form = valid(SystemFilterForm(request.GET))
    filters = {name: form.cleaned_data[name] for name in form.fields}
    systems = Paginator(system_selectors.systems_overview(viewer=request.user, **filters), SYSTEMS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    other_pages = request.GET.copy()
    other_pages.pop("page", None)
    other_sorts = other_pages.copy()
    other_sorts.pop("sort", None)
    sort = form.value("sort")
    return render(
        request,
        "pages/home.html",
        {
            "form": form,
            "systems": systems,
            "page_query": other_pages.urlencode(),
            # Column headings that sort the list: (key, heading, address or "" for the current order).
            "sorts": {
                key: (heading, "" if key == sort else f"?{other_sorts.urlencode()}&sort={key}".replace("?&", "?"))
                for key, (heading, _) in system_selectors.SYSTEM_SORTS.items()
            },
            "choices": system_selectors.filter_choices(viewer=request.user),
            "filtered": any(value not in (None, "") for name, value in filters.items() if name != "sort"),
            "uploads": system_selectors.recent_uploads(viewer=request.user),
        },
    )


@answers_errors()
def system_detail(request: HttpRequest, system_id: int) -> HttpResponse:
    system = system_selectors.system_readable(system_id=system_id, viewer=request.user)
    form = valid(SystemPageForm(request.GET))
    threshold_ms = form.value("threshold_ms")
    by_name = run_lists.workload_run_counts(system=system)
    counts, swept = by_name.counts, by_name.swept
    sweep_query = request.GET.copy()
    for name in ("runs", "page", "sort"):
        sweep_query.pop(name, None)
    if not sweep_query.get("workload") and counts:
        # A workload measured in several configurations, which a sweep draws as a line, when there is one.
        sweep_query["workload"] = swept[0] if swept else counts[0][0]
    chosen = sweep_query.get("workload", "")
    context = {
        "system": system,
        "can_publish": allows(request.user, system.team, Role.MAINTAINER),
        "form": form,
        "threshold_ms": threshold_ms,
        "configs": system_selectors.system_configs(system=system),
        "profile": _profile_tables(system.profile or {}),
        "profile_drives": _profile_drives(system.profile or {}),
        "workload_count": len(counts),
        "sweep_workloads": _described(swept if not chosen or chosen in swept else [chosen, *swept], by_name=by_name),
        "sweep_query": sweep_query.urlencode(),
        "sweep_workload": chosen,
        # A drive-count or stroke sweep draws a workload across configurations: none is measured in several.
        "sweep_empty": not swept and (form.value("parameter") or "drive_count") in ("drive_count", "stroke_pct"),
        "has_stroke_tables": system.stroke_tables.exists(),
        "families": _family_charts(families.transfer_size_families(system=system)),
        **_system_runs(request, form, system=system, by_name=by_name),
    }
    return render(request, "pages/system.html", context)


def _described(names: list[str], *, by_name) -> list[tuple[str, str]]:
    """(stored name, what its runs do in words, with the name they were stored under where it differs)."""
    found = run_lists.named_workloads(
        workload_ids={name: by_name.workload_ids.get(name, set()) for name in names}, names=names
    )
    titles = system_runs.workload_titles(names=names, found=found)
    return [(name, titles[name] if titles[name] == name else f"{titles[name]} (stored as “{name}”)") for name in names]


def _system_runs(request: HttpRequest, form, *, system, by_name):
    """The runs section: a page of workloads with their first runs, or one workload's runs page by page."""
    counts = by_name.counts
    read = {"system": system, "threshold_ms": form.value("threshold_ms"), "latency": form.value("latency")}
    read["sort"] = form.value("sort")
    if form.value("runs"):
        page, sections = _one_workload_runs(form.value("runs"), counts, number=form.value("page"), read=read)
    else:
        page = system_runs.workloads_page(counts, number=form.value("page"))
        figures = run_lists.workload_figures(workloads=[name for name, _ in page], **read)
        sections = [(name, count, figures[name]) for name, count in page]
    link = functools.partial(_runs_link, request.GET, runs=form.value("runs"), sort=read["sort"])
    names = [name for name, *_ in sections]
    found = run_lists.named_workloads(workload_ids=by_name.workload_ids, names=names)
    titles = system_runs.workload_titles(names=names, found=found)
    names_shown = role_of(request.user, system.team) is not None
    # Names stored for runs of several workloads: a section each.
    several = {name: system_runs.section_workloads(name=name, found=found) for name in names}
    aliases = system_workload_aliases(
        pairs=[(named.name, named.workload_id) for named in found], workload_names=names, viewer=request.user
    )
    run_sections = [
        (name, title, of_workload, system_runs.run_rows(rows, names_shown=names_shown), link(runs=name))
        for name, count, shown in sections
        for title, of_workload, rows in _by_workload(
            shown, title=aliases.get(name, titles[name]), count=count, several=several[name], name=name, by_name=by_name
        )
    ]
    shown_figures = [figure for _name, _count, shown in sections for figure in shown]
    return {
        "runs_heading": system_runs.runs_heading(shown_figures, threshold_ms=read["threshold_ms"]),
        "figure_column": "Figure" if shown_figures and all(f.stated_as for f in shown_figures) else "At threshold",
        "runs_of": form.value("runs"),
        "run_sections": run_sections,
        "runs_page": page,
        "previous_url": link(page=page.previous_page_number()) if page.has_previous() else "",
        "next_url": link(page=page.next_page_number()) if page.has_next() else "",
        "every_workload_url": link(runs=""),
        "sort_links": [(label, link(sort=key) if key != read["sort"] else "") for key, (label, _) in _SORTS],
        "run_count": sum(count for _, count in counts),
        "runs_per_workload": run_lists.RUNS_PER_WORKLOAD,
        "runs_per_page": system_runs.RUNS_PER_PAGE,
        "workloads_per_page": system_runs.WORKLOADS_PER_PAGE,
    }


_SORTS = run_lists.RUN_SORTS.items()


def _by_workload(shown, *, title, count, several, name, by_name):
    """A section's (title, run count, shown runs): one, or where runs of several workloads were stored under
    one name (``several``: their titles by id), one per workload, titled by what it does."""
    if several is None:
        return [(title, count, shown)]
    return [
        (
            workload_title,
            by_name.workload_counts[name, workload_id],
            [f for f in shown if f.run.workload_id == workload_id],
        )
        for workload_id, workload_title in sorted(several.items(), key=lambda item: item[1])
    ]


def _runs_link(query, *, runs, sort, **changes):
    """The system page's address with the runs section changed, the rest of the query (threshold, sweep) kept."""
    kept = query.copy()
    for name in ("runs", "page", "sort"):
        kept.pop(name, None)
    chosen = {"runs": runs, "sort": sort, "page": None} | changes
    for name, value in chosen.items():
        if value and not (name == "sort" and value == run_lists.DEFAULT_SORT):
            kept[name] = value
    return f"?{kept.urlencode()}#runs"


def _one_workload_runs(workload, counts, *, number, read):
    """One workload's page ``number`` of runs as the only section; a workload the system lacks is a 404."""
    count = dict(counts).get(workload)
    if count is None:
        raise NotFoundError(f"{read['system'].name} has no runs of workload {workload!r}.")
    page = system_runs.runs_page(count, number=number)
    first = page.start_index() - 1
    figures = run_lists.workload_figures(workloads=[workload], first=first, limit=system_runs.RUNS_PER_PAGE, **read)
    return page, [(workload, count, figures[workload])]


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


@chart_data
def system_sweep(request: HttpRequest, system_id: int) -> AnyChart:
    system = system_selectors.system_readable(system_id=system_id, viewer=request.user)
    form = valid(SweepForm(request.GET))
    parameter, threshold_ms = form.value("parameter"), form.value("threshold_ms")
    series = sweeps.sweep(
        system=system,
        parameter=parameter,
        threshold_ms=threshold_ms,
        workload=form.value("workload") or None,
        raid_level=form.value("raid_level") or None,
        cache=form.value("cache") or None,
        latency=form.value("latency"),
    )
    return system_charts.sweep_chart(series, system=system, parameter=parameter, threshold_ms=threshold_ms)


@chart_data
def system_family(request: HttpRequest, system_id: int) -> AnyChart:
    system = system_selectors.system_readable(system_id=system_id, viewer=request.user)
    metric = request.GET.get("metric", "mbps")
    if metric not in families.METRIC_TITLES:
        raise ApplicationError(
            f"Unknown metric {metric!r}; choose one of: {', '.join(families.METRIC_TITLES)}.", field="metric"
        )
    title = request.GET.get("family", "")
    found = {family.title: family for family in families.transfer_size_families(system=system)}
    if title not in found:
        raise NotFoundError(f"{system.name} has no thread-count x transfer-size sweep named {title!r}.")
    return families.family_chart(found[title], metric=metric)


@answers_errors()
def stroke(request: HttpRequest, system_id: int) -> HttpResponse:
    system = system_selectors.system_readable(system_id=system_id, viewer=request.user)
    form = valid(StrokeForm(request.GET))
    tables = sweeps.stroke_tables(system=system, threshold_ms=form.value("threshold_ms"))
    wanted = form.value("table")
    chosen = next((table for table in tables if table.key == wanted), None) if wanted else next(iter(tables), None)
    if wanted and chosen is None:
        known = ", ".join(table.key for table in tables) or "none"
        raise NotFoundError(f"This system has no multiplier table {wanted!r}; it has: {known}.")
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
    figures = result_selectors.threshold_figures(
        system=system, threshold_ms=threshold_ms, workload=table.workload, raid_level=table.raid_level
    )
    return [
        (figure, estimate_throughput(figure.value, multiplier))
        for figure in figures
        if figure.value is not None and figure.config.stroke_pct == table.baseline_pct
    ]


@answers_errors()
def sizing(request: HttpRequest, system_id: int) -> HttpResponse:
    system = system_selectors.system_readable(system_id=system_id, viewer=request.user)
    form = SizingQuestionForm(request.GET or None)
    answer = sizing_answer(form=valid(form), system=system) if request.GET else None
    export_format = request.GET.get("export")
    if answer is not None and export_format:
        return _sizing_export(system, answer, export_format)
    query = request.GET.urlencode()
    exports = [(name, f"?{query}&export={name}") for name in EXPORT_FORMATS] if answer else []
    workloads = _described(sweep_workloads(system=system), by_name=run_lists.workload_run_counts(system=system))
    context = {"system": system, "form": form, "answer": answer, "workloads": workloads}
    return render(request, "pages/sizing.html", {**context, "exports": exports})


def _sizing_export(system, answer, export_format):
    if export_format not in EXPORT_FORMATS:
        raise ApplicationError(
            f"Unknown export format {export_format!r}; choose one of: {', '.join(EXPORT_FORMATS)}.", field="export"
        )
    tables = sizing_tables(system, answer)
    if not tables:
        why = "".join(f" {line}" for line in answer.not_sized)
        raise NotFoundError(f"{system.name} has no sizing answer to export for these choices.{why}")
    found = EXPORT_FORMATS[export_format]
    response = HttpResponse(export(tables, export_format), content_type=found.content_type)
    response["Content-Disposition"] = f'attachment; filename="{slugify(system.name)}-sizing.{found.extension}"'
    return response


@answers_errors()
def predict(request: HttpRequest, system_id: int) -> HttpResponse:
    system = system_selectors.system_readable(system_id=system_id, viewer=request.user)
    runs = grid_runs(system=system)
    found = along = None
    if request.GET.get("along"):
        try:
            along = parameter_prediction(system=system, parameter=request.GET["along"])
        except NoGrid as error:
            raise ApplicationError(f"{error}.", field="along") from None
    elif request.GET:
        form = valid(PredictForm(request.GET))
        run = next((r for r in runs if r.id == form.value("run")), None)
        if run is None:
            raise NotFoundError(f"{system.name} has no queue depth x jobs grid in run #{form.value('run')}.")
        try:
            found = run_prediction(
                run=run, focal_queue_depth=form.value("focal_queue_depth"), focal_jobs=form.value("focal_jobs")
            )
        except NoGrid as error:
            raise ApplicationError(f"{error}.", field="run") from None
    context = {"system": system, "runs": runs, "found": found, "along": along, "parameters": PARAMETERS}
    return render(request, "pages/predict.html", context)
