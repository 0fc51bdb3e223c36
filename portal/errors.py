"""One application error, answered as the request asks: the error page, JSON or plain text.

A request the portal cannot answer for a reason the user can act on (an unknown or private
system, a parameter to correct) raises :class:`ApplicationError`; :func:`error_response` answers
it. Every JSON error, the API's included, has one shape::

    {"error": {"status": 400, "message": "Threshold (ms): ...", "fields": {"threshold_ms": ["..."]}}}

``fields`` names the parameters to correct (empty when the error is not about one).
"""

import functools
from collections.abc import Callable
from typing import Literal, TypeVar

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

# What an error can be answered as, by the media type a request asks for.
Kind = Literal["html", "json", "text"]
MEDIA_TYPES: dict[Kind, str] = {"html": "text/html", "json": "application/json", "text": "text/plain"}
FormT = TypeVar("FormT", bound=forms.Form)


class ApplicationError(Exception):
    """A request that cannot be answered as asked: ``message`` is shown to the user with ``status``;
    ``field`` names the parameter to correct, ``fields`` several with their messages."""

    status = 400

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        field: str | None = None,
        fields: dict[str, list[str]] | None = None,
    ):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        self.field = field
        self.fields = fields if fields is not None else ({field: [message]} if field else {})


class NotFoundError(ApplicationError):
    """Something the user named does not exist, or is not theirs to read (answered the same way)."""

    status = 404


def form_error(form: forms.BaseForm, *, status: int = 400) -> ApplicationError:
    """An invalid form's errors: each field's by its label in the message, by its name in ``fields``."""
    found = {name: [str(message) for message in messages] for name, messages in form.errors.items()}
    parts = [
        " ".join(messages)
        if name == NON_FIELD_ERRORS
        else f"{form.fields[name].label if name in form.fields else name}: {' '.join(messages)}"
        for name, messages in found.items()
    ]
    fields = {name: messages for name, messages in found.items() if name != NON_FIELD_ERRORS}
    return ApplicationError("; ".join(parts), status=status, fields=fields)


def valid(form: FormT) -> FormT:
    """The form when its query string is valid, else the :class:`ApplicationError` naming what to correct."""
    if not form.is_valid():
        raise form_error(form)
    return form


def error_body(*, status: int, message: str, fields: dict | None = None) -> dict:
    """The one JSON error shape."""
    return {"error": {"status": status, "message": message, "fields": fields or {}}}


def asked_kind(request: HttpRequest, *, default: Kind = "html") -> Kind:
    """What the request's ``Accept`` header prefers among the error page, JSON and text; ``default``
    when it prefers none (no header, or ``*/*``)."""
    offered = [MEDIA_TYPES[default], *(media for kind, media in MEDIA_TYPES.items() if kind != default)]
    preferred = request.get_preferred_type(offered)
    return next((kind for kind, media in MEDIA_TYPES.items() if media == preferred), default)


def error_response(
    request: HttpRequest, error: ApplicationError, *, kind: Kind | None = None, default: Kind = "html"
) -> HttpResponse:
    """``error`` as ``kind``, or as the request asks (``default`` when it does not say)."""
    answer = kind or asked_kind(request, default=default)
    if answer == "json":
        body = error_body(status=error.status, message=error.message, fields=error.fields)
        return JsonResponse(body, status=error.status)
    if answer == "text":
        return HttpResponse(error.message, status=error.status, content_type="text/plain; charset=utf-8")
    return render(request, "pages/error.html", {"message": error.message}, status=error.status)


def answers_errors(*, default: Kind = "html") -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view's :class:`ApplicationError` answered by :func:`error_response`, never a 500."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            try:
                return view(request, *args, **kwargs)
            except ApplicationError as error:
                return error_response(request, error, default=default)

        return wrapped

    return decorator
