"""What the page views share: fetching what the viewer may read, answering chart data, and addresses
with some parameters changed (a query string is validated by :func:`portal.errors.valid`)."""

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict

from portal import charts
from portal.charts import AnyChart
from portal.errors import ApplicationError, NotFoundError, error_response
from portal.models import Run, System
from portal.results import selectors as result_selectors
from portal.teams.selectors import visible


def system_for(request: HttpRequest, system_id: int) -> System:
    """The system, or 404 when the user may not read it (a private system is not revealed)."""
    system = visible(System.objects.filter(pk=system_id), viewer=request.user).select_related("team").first()
    if system is None:
        raise NotFoundError(f"There is no system #{system_id}.")
    return system


def run_for(request: HttpRequest, run_id: int) -> Run:
    """The run with what its page shows, or 404 when the user may not read it."""
    try:
        return result_selectors.run_detail(run_id=run_id, viewer=request.user)
    except Run.DoesNotExist:
        raise NotFoundError(f"There is no run #{run_id}.") from None


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
            response = HttpResponse(charts.csv_text(chart), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{view.__name__}.csv"'
            return response
        return HttpResponse(charts.plotly_json(chart), content_type="application/json")

    return wrapped


def query_with(query: QueryDict, **changes: str) -> str:
    """This page's address with some parameters changed."""
    changed = query.copy()
    for name, value in changes.items():
        changed[name] = value
    return f"?{changed.urlencode()}"
