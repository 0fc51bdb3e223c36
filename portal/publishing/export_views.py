"""Downloads of the white-paper tables, charts and bundles; parameters are described in ``urls.py``."""

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET
from kombu.exceptions import KombuError

from portal.analysis.tables import Table
from portal.charts import plotly_figure
from portal.charts.comparison import multi_compare_chart
from portal.comparisons.query import ComparisonQuery, stated_params
from portal.comparisons.selectors import Comparison, comparison, multi_comparison
from portal.errors import ApplicationError, answers_errors, error_body
from portal.models import System
from portal.systems.selectors import system_by_name
from portal.teams.selectors import Viewer, visible

from . import bundle_jobs
from .charts import CHART_FORMATS, ChartUnavailable, comparison_figure, for_print, render_chart
from .comparison_tables import comparison_tables_from
from .formats import FORMATS, export
from .multi_tables import multi_comparison_table
from .parameters import (
    COMPARISON_TABLES,
    DOWNLOAD_PARAMETERS,
    choice,
    parameters_taken,
    system_tables,
    table_parameters_taken,
)
from .tasks import bundle_task


def _system(params: Mapping[str, str], name: str, *, viewer: Viewer) -> System:
    """The system ``params[name]`` names among those ``viewer`` may read; 404 for any other."""
    if not params.get(name, "").strip():
        raise ApplicationError(f"the '{name}' parameter (a system name) is required", field=name)
    return system_by_name(name=params[name], viewer=viewer)


def _attachment(content, filename: str, content_type: str):
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# Downloads: an error is answered as plain text unless the request asks for the error page or JSON.
def _download(view):
    return require_GET(answers_errors(default="text")(view))


def _tables_response(tables: list[Table], params: QueryDict, stem: str) -> HttpResponse:
    exporter = FORMATS[choice(params, "format", tuple(FORMATS), "csv")]
    return _attachment(export(tables, exporter.name), f"{slugify(stem)}.{exporter.extension}", exporter.content_type)


@_download
def table(request: HttpRequest) -> HttpResponse:
    table_parameters_taken(request.GET)
    system = _system(request.GET, "system", viewer=request.user)
    tables, preset = system_tables(system, request.GET)
    return _tables_response(tables, request.GET, f"{system.name} {preset}")


def _comparison(params: QueryDict, *, viewer: Viewer) -> Comparison:
    """The comparison the compare page shows for these parameters (the page's own form reads them)."""
    query = ComparisonQuery.from_params(params)
    a, b = _system(params, "a", viewer=viewer), _system(params, "b", viewer=viewer)
    return comparison(a=a, b=b, query=query)


@_download
def comparison_tables(request: HttpRequest) -> HttpResponse:
    parameters_taken(request.GET, allowed=DOWNLOAD_PARAMETERS["comparison"])
    if len(_candidate_names(request.GET)) > 1:
        multi = _multi(request, label=None)
        names = " ".join(system.name for system in multi.candidates)
        return _tables_response([multi_comparison_table(multi)], request.GET, f"{names} vs {multi.baseline.name}")
    result = _comparison(request.GET, viewer=request.user)
    tables = comparison_tables_from(result)
    which = choice(request.GET, "table", COMPARISON_TABLES, "all")
    if which != "all":
        tables = [tables[COMPARISON_TABLES.index(which) - 1]]
    return _tables_response(tables, request.GET, f"{result.a_side} vs {result.b_side} {which}")


@_download
def chart(request: HttpRequest) -> HttpResponse:
    parameters_taken(request.GET, allowed=DOWNLOAD_PARAMETERS["chart"])
    image_format = choice(request.GET, "format", tuple(CHART_FORMATS), "svg")
    wanted = request.GET.get("label") or request.GET.get("workload")
    if len(_candidate_names(request.GET)) > 1:
        figure, stem = _multi_figure(request, wanted)
    else:
        result = _comparison(request.GET, viewer=request.user)
        matching = [w for w in result.workloads if w.workload == wanted and w.rows]
        if not matching:
            raise ApplicationError(
                "'label' (or 'workload') must name a workload both systems were measured with", field="label"
            )
        figure = comparison_figure(result, matching[0])
        stem = slugify(f"{result.a_side} vs {result.b_side} {matching[0].workload}")
    try:
        image = render_chart(figure, image_format)
    except ChartUnavailable as error:
        raise ApplicationError(str(error), status=503) from None
    return _attachment(image, f"{stem}.{image_format}", CHART_FORMATS[image_format])


def _candidate_names(params: QueryDict):
    return [name for name in params.getlist("a") if name.strip()]


def _multi(request: HttpRequest, *, label):
    """Several systems (``a`` given more than once) each against the baseline ``b``."""
    query = ComparisonQuery.from_params(request.GET)
    candidates = [_system({"a": name}, "a", viewer=request.user) for name in _candidate_names(request.GET)]
    baseline = _system(request.GET, "b", viewer=request.user)
    return multi_comparison(candidates=candidates, baseline=baseline, query=query, label=label)


def _multi_figure(request: HttpRequest, wanted):
    """The several-systems page's chart of one workload, sized as the others."""
    multi = _multi(request, label=wanted)
    matching = [w for w in multi.workloads if w.workload == wanted]
    if not matching:
        raise ApplicationError(
            "'label' (or 'workload') must name a workload a system was compared with the baseline in", field="label"
        )
    chart = multi_compare_chart(
        matching[0], baseline=multi.baseline, candidates=multi.candidates, threshold_ms=multi.threshold_ms
    )
    figure = for_print(plotly_figure(chart))
    names = " ".join(system.name for system in multi.candidates)
    return figure, slugify(f"{names} against {multi.baseline.name} {matching[0].workload}")


@_download
def bundle(request: HttpRequest) -> HttpResponse:
    """The bundle of this selection at once when it is built, else the page that follows its build."""
    params = request.GET
    parameters_taken(params, allowed=DOWNLOAD_PARAMETERS["bundle"], repeatable=())
    query = ComparisonQuery.from_params(params)
    a, b = _system(params, "a", viewer=request.user), _system(params, "b", viewer=request.user)
    key = bundle_jobs.bundle_key(a=a, b=b, query=query)
    filename = f"{slugify(f'{a.name} vs {b.name}')}-white-paper.zip"
    title = f"{a.name} vs {b.name}"
    address = urlencode(stated_params(params))
    state, send = bundle_jobs.bundle_request(
        key, a=a, b=b, query=query, address=address, filename=filename, title=title
    )
    if state["status"] == "done":
        return _bundle_file(key, state)
    if send:
        try:
            bundle_task.delay(key)
        except KombuError as error:
            bundle_jobs.bundle_failed(key, f"The bundle could not be queued: the task queue is unreachable ({error}).")
    return redirect("exports:bundle_progress", key=key)


def _bundle_state(request: HttpRequest, key: str):
    """The state of bundle ``key`` if ``request``'s user may read both its systems, else None."""
    state = bundle_jobs.bundle_state(key)
    if state is None or not {state.get("a"), state.get("b")} <= _visible_ids(request, state):
        return None
    return state


def _visible_ids(request: HttpRequest, state: dict[str, Any]):
    ids = [side for side in (state.get("a"), state.get("b")) if side is not None]
    return set(visible(System.objects.filter(id__in=ids), viewer=request.user).values_list("id", flat=True))


def _bundle_file(key: str, state: dict[str, Any]):
    response = FileResponse(
        bundle_jobs.bundle_served(key).open("rb"),
        as_attachment=True,
        filename=state.get("filename") or "white-paper.zip",
        content_type="application/zip",
    )
    return response


@require_GET
def bundle_progress(request: HttpRequest, key: str) -> HttpResponse:
    state = _bundle_state(request, key)
    if state is None:
        return render(request, "exports/bundle.html", {"missing": True}, status=404)
    context = {
        "state": state,
        "key": key,
        "percent": round(100 * state.get("progress", 0)),
        "compare_url": f"{reverse('pages:compare')}?{state.get('query', '')}",
        "again_url": f"{reverse('exports:bundle')}?{state.get('query', '')}",
    }
    return render(request, "exports/bundle.html", context)


@require_GET
def bundle_status(request: HttpRequest, key: str) -> HttpResponse:
    """The build's state for the progress page's script: status, progress (0 to 1), step, error, note."""
    state = _bundle_state(request, key)
    if state is None:
        return JsonResponse(
            {"status": "missing", **error_body(status=404, message="There is no such bundle.")}, status=404
        )
    fields = ("status", "progress", "step", "error", "note", "size_bytes")
    answer = {name: state.get(name) for name in fields}
    if state["status"] == "done":
        answer["download_url"] = reverse("exports:bundle_download", kwargs={"key": key})
    return JsonResponse(answer)


@require_GET
def bundle_download(request: HttpRequest, key: str) -> HttpResponse:
    state = _bundle_state(request, key)
    if state is None or state["status"] != "done":
        return HttpResponse("This bundle is not built (yet).", status=404, content_type="text/plain; charset=utf-8")
    return _bundle_file(key, state)
