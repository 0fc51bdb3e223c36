"""Downloads of the white-paper tables, charts and bundles; parameters are described in ``urls.py``."""

import functools

from django.http import HttpResponse, HttpResponseBadRequest
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from portal.pages.forms import CompareForm
from portal.selectors import SystemNotFound, comparison, system_by_name

from . import presets
from .bundle import comparison_bundle
from .charts import CHART_FORMATS, ChartUnavailable, comparison_figure, render_chart
from .formats import FORMATS, export

PRESETS = ("whitepaper", "pivot", "stroke", "jetstress", "orion")
COMPARISON_TABLES = ("all", "comparison", "summary", "side_by_side")


class BadRequest(ValueError):
    """A parameter a user can correct; the message is the whole 400 response."""


def _system(params, name):
    if not params.get(name, "").strip():
        raise BadRequest(f"the '{name}' parameter (a system name) is required")
    try:
        return system_by_name(params[name])
    except SystemNotFound as error:
        raise BadRequest(str(error)) from None


def _number(params, name, default, *, positive=True):
    text = params.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise BadRequest(f"'{name}' must be a number, got {text!r}") from None
    if positive and not value > 0:
        raise BadRequest(f"'{name}' must be greater than 0, got {text}")
    return value


def _choice(params, name, choices, default):
    value = params.get(name, default)
    if value not in choices:
        raise BadRequest(f"'{name}' must be one of {', '.join(choices)}; got {value!r}")
    return value


def _attachment(content, filename, content_type):
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _bad_requests(view):
    @functools.wraps(view)
    def wrapped(request):
        try:
            return view(request)
        except (BadRequest, presets.PresetError) as error:
            return HttpResponseBadRequest(str(error), content_type="text/plain; charset=utf-8")

    return require_GET(wrapped)


def _tables_response(tables, params, stem):
    exporter = FORMATS[_choice(params, "format", tuple(FORMATS), "csv")]
    return _attachment(export(tables, exporter.name), f"{slugify(stem)}.{exporter.extension}", exporter.content_type)


@_bad_requests
def table(request):
    system = _system(request.GET, "system")
    tables, preset = system_tables(system, request.GET)
    return _tables_response(tables, request.GET, f"{system.name} {preset}")


def system_tables(system, params):
    """One system's tables of the preset ``params`` name, read from the parameters of ``table/``
    (the API reads the same ones); returns (tables, preset)."""
    preset = _choice(params, "preset", PRESETS, "whitepaper")
    threshold_ms = _number(params, "threshold_ms", 20.0)
    workloads = tuple(w.strip() for w in params.get("workloads", "").split(",") if w.strip()) or None
    raid_level = params.get("raid_level") or None
    if preset == "stroke":
        tables = presets.stroke(system, raid_level=raid_level, threshold_ms=threshold_ms)
    elif preset in ("jetstress", "orion"):
        tables = [getattr(presets, preset)(system)]
    elif preset == "pivot":
        rows = tuple(params.get("rows", "drive_count,cache_setting").split(","))
        selection = presets.Selection(raid_level, workloads, params.get("source_table") or None)
        tables = [presets.pivot(system, rows=rows, threshold_ms=threshold_ms, selection=selection)]
    else:
        selection = presets.default_selection(
            system, raid_level=raid_level, workloads=workloads, source_table=params.get("source_table") or None
        )
        tables = [presets.whitepaper(system, threshold_ms=threshold_ms, selection=selection)]
    return tables, preset


def _comparison(params):
    """The comparison the compare page shows for these parameters (the page's own form reads them)."""
    form = CompareForm(params)
    if not form.is_valid():
        raise BadRequest(form.errors_text())
    return comparison(a=_system(params, "a"), b=_system(params, "b"), **form.selection())


@_bad_requests
def comparison_tables(request):
    result = _comparison(request.GET)
    tables = presets.comparison_tables_from(result)
    which = _choice(request.GET, "table", COMPARISON_TABLES, "all")
    if which != "all":
        tables = [tables[COMPARISON_TABLES.index(which) - 1]]
    return _tables_response(tables, request.GET, f"{result.a.name} vs {result.b.name} {which}")


@_bad_requests
def chart(request):
    result = _comparison(request.GET)
    image_format = _choice(request.GET, "format", tuple(CHART_FORMATS), "svg")
    wanted = request.GET.get("label") or request.GET.get("workload")
    matching = [w for w in result.workloads if w.workload == wanted and w.rows]
    if not matching:
        raise BadRequest("'label' (or 'workload') must name a workload both systems were measured with")
    try:
        image = render_chart(comparison_figure(result, matching[0]), image_format)
    except ChartUnavailable as error:
        return HttpResponse(str(error), status=503, content_type="text/plain; charset=utf-8")
    stem = slugify(f"{result.a.name} vs {result.b.name} {matching[0].workload}")
    return _attachment(image, f"{stem}.{image_format}", CHART_FORMATS[image_format])


@_bad_requests
def bundle(request):
    params = request.GET
    a, b = _system(params, "a"), _system(params, "b")
    content = comparison_bundle(
        a=a, b=b, threshold_ms=_number(params, "threshold_ms", 20.0), adjust_b=_number(params, "adjust_b", 1.0)
    )
    return _attachment(content, f"{slugify(f'{a.name} vs {b.name}')}-white-paper.zip", "application/zip")
