"""A chart's data answered at its address: Plotly JSON for the page's script, CSV for the reader
(``<fmt:fmt>`` in a URL pattern, registered here)."""

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import register_converter

from portal.errors import ApplicationError, error_response

from . import AnyChart, csv_text, plotly_json


class ChartFormat:
    """The data behind a chart: Plotly JSON for the page, CSV for the reader."""

    regex = "json|csv"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ChartFormat, "fmt")


def chart_data(view: Callable[..., AnyChart]) -> Callable[..., HttpResponse]:
    """A chart's data, Plotly JSON or CSV as the address says (``fmt``); an error as JSON for JSON,
    as the request asks (plain text unless it says) for CSV."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, fmt: str, **kwargs: Any) -> HttpResponse:
        try:
            chart = view(request, *args, **kwargs)
        except ApplicationError as error:
            return error_response(request, error, kind="json" if fmt == "json" else None, default="text")
        if fmt == "csv":
            response = HttpResponse(csv_text(chart), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{view.__name__}.csv"'
            return response
        return HttpResponse(plotly_json(chart), content_type="application/json")

    return wrapped
