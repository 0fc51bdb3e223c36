"""Query-string fields the pages, the exports and the API share, validated so a bad value gets a
message naming the parameter, never a 500."""

from typing import Any

from django import forms

from portal.results.selectors import LATENCIES

DEFAULT_THRESHOLD_MS = 20.0


class ThresholdField(forms.FloatField):
    """A response-time threshold in ms: positive and finite."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("label", "Threshold (ms)")
        kwargs.setdefault("min_value", 0.001)
        kwargs.setdefault("max_value", 100_000)
        kwargs.setdefault(
            "error_messages",
            {
                "invalid": "the threshold must be a number of milliseconds, such as 20.",
                "min_value": "the threshold must be a positive number of milliseconds, such as 20.",
                "max_value": "the threshold must be at most %(limit_value)s ms.",
            },
        )
        super().__init__(**kwargs)


class QueryForm(forms.Form):
    """A GET form whose blank fields take their initial value."""

    def value(self, name: str) -> Any:
        value = self.cleaned_data.get(name)
        return self.fields[name].initial if value in (None, "") else value


def latency_field() -> forms.ChoiceField:
    """What the threshold applies to: the papers' average response time, a percentile, or the maximum."""
    return forms.ChoiceField(
        required=False,
        choices=list(LATENCIES.items()),
        initial="avg",
        label="Threshold applies to",
        error_messages={"invalid_choice": f"must be one of {', '.join(LATENCIES)}; got %(value)r."},
    )
