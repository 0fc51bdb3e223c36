"""What the history and alerts pages take: a series, filters, a triage, a webhook."""

from django import forms
from django.core.validators import URLValidator

from portal.models import Alert, AlertStatus


class SeriesForm(forms.Form):
    config = forms.IntegerField(required=False, min_value=1)
    series = forms.CharField(required=False, max_length=220)
    figure = forms.ChoiceField(choices=Alert.Figure.choices, required=False)


class AlertFilterForm(forms.Form):
    status = forms.ChoiceField(choices=[("", "any status"), *AlertStatus.choices], required=False)
    system = forms.IntegerField(required=False, min_value=1)
    min_change_pct = forms.FloatField(label="At least (%)", required=False, min_value=0)


class TriageForm(forms.Form):
    status = forms.ChoiceField(choices=AlertStatus.choices)
    note = forms.CharField(max_length=1000, required=False)


class WebhookForm(forms.Form):
    url = forms.URLField(
        label="Webhook URL",
        assume_scheme="https",
        max_length=500,
        required=False,
        help_text="Changes of alerts are POSTed here as JSON (public addresses only).",
        validators=[URLValidator(schemes=["http", "https"])],
        error_messages={"invalid": "Give an http:// or https:// address."},
    )
