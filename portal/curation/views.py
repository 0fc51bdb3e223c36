"""A maintainer's changes from the run page: POST only, then back to the run with what was done said."""

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from portal.errors import ApplicationError, answers_errors, form_error
from portal.teams.selectors import SignedInRequest

from . import services
from .forms import AliasForm, ExcludeForm, StatementForm


def _change(
    request: HttpRequest, run_id: int, change: Callable[[], str], form: forms.Form | None = None
) -> HttpResponse:
    """Make ``change`` (which returns what was done, in words) and go back to the run's page; a value to
    correct is said there, a run the user may not change is answered 404 or 403."""
    try:
        if form is not None and not form.is_valid():
            raise form_error(form)
        messages.success(request, change())
    except ApplicationError as error:
        if error.status in (403, 404):
            raise
        messages.error(request, error.message)
    return redirect("pages:run", run_id=run_id)


@login_required
@require_POST
@answers_errors()
def run_exclude(request: SignedInRequest, run_id: int) -> HttpResponse:
    form = ExcludeForm(request.POST)

    def change() -> str:
        services.run_exclude(run_id=run_id, reason=form.cleaned_data["reason"], actor=request.user)
        return "The run is excluded from comparisons."

    return _change(request, run_id, change, form)


@login_required
@require_POST
@answers_errors()
def run_include(request: SignedInRequest, run_id: int) -> HttpResponse:
    def change() -> str:
        services.run_include(run_id=run_id, actor=request.user)
        return "The run is compared again."

    return _change(request, run_id, change)


@login_required
@require_POST
@answers_errors()
def alias_set(request: SignedInRequest, run_id: int) -> HttpResponse:
    form = AliasForm(request.POST)

    def change() -> str:
        alias = services.workload_alias_set(run_id=run_id, name=form.cleaned_data["name"], actor=request.user)
        return f"Your team calls this workload {alias.name}."

    return _change(request, run_id, change, form)


@login_required
@require_POST
@answers_errors()
def alias_remove(request: SignedInRequest, run_id: int) -> HttpResponse:
    def change() -> str:
        services.workload_alias_remove(run_id=run_id, actor=request.user)
        return "The workload is shown under its stored name again."

    return _change(request, run_id, change)


@login_required
@require_POST
@answers_errors()
def statement_set(request: SignedInRequest, run_id: int) -> HttpResponse:
    form = StatementForm(request.POST)

    def change() -> str:
        stated = services.run_statement_set(run_id=run_id, actor=request.user, **form.cleaned_data)
        return f"Stated for {len(stated)} run{'s' if len(stated) != 1 else ''}; compared by the stated values."

    return _change(request, run_id, change, form)


@login_required
@require_POST
@answers_errors()
def statement_remove(request: SignedInRequest, run_id: int) -> HttpResponse:
    def change() -> str:
        services.run_statement_remove(run_id=run_id, actor=request.user)
        return "The stated values are removed; the run is compared by its file's values."

    return _change(request, run_id, change)
