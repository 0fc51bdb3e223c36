"""What the page views share: fetching the run the viewer may read and addresses with some parameters changed
(a query string is validated by :func:`portal.errors.valid`, a chart's data answered by
:func:`portal.charts.answers.chart_data`)."""

from django.http import HttpRequest, QueryDict

from portal.errors import NotFoundError
from portal.models import Run
from portal.results import selectors as result_selectors


def run_for(request: HttpRequest, run_id: int) -> Run:
    """The run with what its page shows, or 404 when the user may not read it."""
    try:
        return result_selectors.run_detail(run_id=run_id, viewer=request.user)
    except Run.DoesNotExist:
        raise NotFoundError(f"There is no run #{run_id}.") from None


def query_with(query: QueryDict, **changes: str) -> str:
    """This page's address with some parameters changed."""
    changed = query.copy()
    for name, value in changes.items():
        changed[name] = value
    return f"?{changed.urlencode()}"
