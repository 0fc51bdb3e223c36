"""The run page's forms of a maintainer's changes."""

from django import forms

from .services import NAME_MAX, REASON_MAX


class ExcludeForm(forms.Form):
    reason = forms.CharField(max_length=REASON_MAX, label="Reason")


class AliasForm(forms.Form):
    name = forms.CharField(max_length=NAME_MAX, label="Your team's name for this workload")


class StatementForm(forms.Form):
    read_pct = forms.IntegerField(min_value=0, max_value=100, required=False, label="Read %")
    random_pct = forms.IntegerField(min_value=0, max_value=100, required=False, label="Random %")
    transfer_size_bytes = forms.IntegerField(min_value=1, required=False, label="Transfer size (bytes)")
    same_name = forms.BooleanField(required=False, label="Every run of this name in the system")
