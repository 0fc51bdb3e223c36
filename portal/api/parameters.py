"""The query-string parameters each endpoint takes: anything else is refused (400, named in ``fields``
with the parameters the endpoint takes), so a misspelt or renamed option is never silently ignored."""

from collections.abc import Iterable
from typing import cast

from django import forms
from django.http import QueryDict
from django_filters import FilterSet
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError

from portal.comparisons.query import PAGE, PARAMETERS
from portal.errors import form_error
from portal.forms import DEFAULT_THRESHOLD_MS, QueryForm, ThresholdField, latency_field

# DRF's choice of answer format (``?format=``), taken by every endpoint.
FORMAT = "format"

# Parameters of a comparison the API once took under other names: what to write instead.
COMPARE_HINTS = {
    "systems": "name the baseline as b= and each system compared with it as a= (a= may be repeated), "
    "as on the compare page",
    "adjust": "renamed adjust_b: the factor for the baseline B's figures, as on the compare page",
}

# Parameters that may be given more than once: the compare page's systems compared with B.
REPEATABLE = ("a",)

# The compare page's parameters, and its page of workloads: what ``/api/v1/compare/`` takes.
PAGED_PARAMETERS = (*PARAMETERS, PAGE)


def parameters_known(
    params: QueryDict,
    *,
    allowed: Iterable[str],
    hints: dict[str, str] | None = None,
    repeatable: Iterable[str] = REPEATABLE,
) -> None:
    """Refuse parameters the endpoint does not take, and a single-valued one given twice."""
    allowed = sorted({*allowed, FORMAT})
    hints = hints or {}
    errors = {
        name: [f"{hints[name]}." if name in hints else f"unknown parameter; this endpoint takes {', '.join(allowed)}."]
        for name in params
        if name not in allowed
    }
    errors |= {
        name: [f"given {len(params.getlist(name))} times; give it once."]
        for name in params
        if name in allowed and name not in repeatable and len(params.getlist(name)) > 1
    }
    if errors:
        raise ValidationError(dict(sorted(errors.items())))


def filter_parameters(filterset_class: type[FilterSet]) -> set[str]:
    """The query-string names of a filter set's filters (a date range is ``NAME_after`` and ``NAME_before``)."""
    names = set()
    for name, found in filterset_class.base_filters.items():
        suffixes = getattr(found.field.widget, "suffixes", None)
        names |= {f"{name}_{suffix}" if suffix else name for suffix in suffixes} if suffixes else {name}
    return names


class ThresholdQuery(QueryForm):
    """A run's figure at a threshold: the run page's threshold and latency, and the metric."""

    threshold_ms = ThresholdField(initial=DEFAULT_THRESHOLD_MS)
    latency = latency_field()
    metric = forms.ChoiceField(required=False, choices=[("iops", "IOPS"), ("mbps", "MB/s")], label="Metric")


def threshold_query(params: QueryDict) -> ThresholdQuery:
    """A run's threshold, latency and metric read from ``params``; a bad value refused, naming it."""
    form = ThresholdQuery(params)
    if not form.is_valid():
        raise form_error(form)
    return form


# The OpenAPI type of a form field's value.
FIELD_TYPES: dict[type[forms.Field], type] = {
    forms.FloatField: float,
    forms.IntegerField: int,
    forms.BooleanField: bool,
}


def form_parameters(
    form_class: type[forms.Form], descriptions: dict[str, str], *, optional: bool = False
) -> list[OpenApiParameter]:
    """A form's fields as the OpenAPI document's query parameters: type, choices, required (none when
    ``optional``: an endpoint that takes them for some of its uses only)."""
    found = []
    for name, field in form_class.base_fields.items():
        kind = next((value for base, value in FIELD_TYPES.items() if isinstance(field, base)), str)
        choices = (
            [value for value, _ in cast("list[tuple[str, str]]", field.choices)]
            if isinstance(field, forms.ChoiceField)
            else None
        )
        found.append(
            OpenApiParameter(
                name,
                kind,
                required=field.required and not optional,
                enum=choices,
                many=name in REPEATABLE or None,
                explode=True if name in REPEATABLE else None,
                description=descriptions[name],
            )
        )
    return found
