"""Requests met while the database does not answer (restarting, failing over) are answered 503 with
``Retry-After``, in the form they ask for (a page for a browser, the API's JSON error shape, plain text),
never a 500 or a debug page."""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from portal.errors import ApplicationError, Kind, asked_kind, error_response

logger = logging.getLogger(__name__)

DATABASE_RETRY_AFTER_SECONDS = 5
DATABASE_DOWN_MESSAGE = (
    "The database does not answer (restarting?): try again in a moment. Files sent again are answered "
    "with the earlier upload of the same bytes if this one was stored."
)


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("%s %s answered 503: the database does not answer: %s", request.method, request.path, exception)
        default: Kind = "json" if request.path.startswith("/api/") else "html"
        kind = asked_kind(request, default=default)
        if kind == "html":
            # Rendered without the request: no context processor reads the session, from the database that is down.
            page = render_to_string("unavailable.html", {"retry_after": DATABASE_RETRY_AFTER_SECONDS})
            response = HttpResponse(page, status=503)
        else:
            response = error_response(request, ApplicationError(DATABASE_DOWN_MESSAGE, status=503), kind=kind)
        response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
        return response
