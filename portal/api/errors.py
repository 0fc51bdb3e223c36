"""The portal's one error shape for every API answer that is not a success (``portal.errors``):

    {"error": {"status": 400, "message": "drive_count: Ensure this value is ...", "fields": {"drive_count": ["..."]}}}

``fields`` names the parameters to correct (empty when the error is not about one).
"""

import logging
from typing import Any

from django.core.exceptions import TooManyFilesSent
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from portal.errors import ApplicationError, error_body
from portal.uploads.limits import too_many_files_message

logger = logging.getLogger(__name__)


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request is too large."
    default_code = "too_large"


def _messages(detail) -> list[str]:
    if isinstance(detail, dict):
        return [text for value in detail.values() for text in _messages(value)]
    if isinstance(detail, list):
        return [text for value in detail for text in _messages(value)]
    return [str(detail)]


def _fields(detail) -> dict:
    if not isinstance(detail, dict):
        return {}
    return {name: _messages(value) for name, value in detail.items() if name not in ("detail", "non_field_errors")}


def _message(detail) -> str:
    if isinstance(detail, dict):
        parts = [
            " ".join(_messages(value))
            if name in ("detail", "non_field_errors")
            else f"{name}: {' '.join(_messages(value))}"
            for name, value in detail.items()
        ]
        return "; ".join(parts)
    return " ".join(_messages(detail))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler (status, Retry-After and WWW-Authenticate headers) with the body in the one shape;
    the portal's :class:`ApplicationError` answered in it too. Anything else is a 500, logged by Django."""
    if isinstance(exc, TooManyFilesSent):
        exc = ApplicationError(too_many_files_message(), field="files")
    if isinstance(exc, ApplicationError):
        set_rollback()
        response: Response | None = Response(
            error_body(status=exc.status, message=exc.message, fields=exc.fields), status=exc.status
        )
    else:
        response = drf_exception_handler(exc, context)
        if response is not None:
            detail = response.data
            response.data = error_body(status=response.status_code, message=_message(detail), fields=_fields(detail))
    if response is not None and response.status_code >= 500:
        view = context.get("view")
        logger.error("%s answered %s: %s", type(view).__name__, response.status_code, exc, exc_info=exc)
    return response
