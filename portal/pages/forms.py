"""Query-string parameters of the pages, validated so a bad value gets a message, never a 500."""

from collections.abc import Iterable
from typing import Any

from django import forms

from portal.comparisons.forms import CompareForm
from portal.comparisons.sweeps import SWEEP_PARAMETERS
from portal.forms import DEFAULT_THRESHOLD_MS, QueryForm, ThresholdField, latency_field
from portal.models import Team
from portal.results.system_runs import DEFAULT_SORT, RUN_SORTS
from portal.systems.selectors import SYSTEM_SORTS
from portal.tools.jetstress.sizing import IOPS_PER_MAILBOX

__all__ = [
    "DEFAULT_THRESHOLD_MS", "CompareForm", "QueryForm", "RunForm", "StrokeForm", "SweepForm",
    "SystemFilterForm", "SystemPageForm", "ThresholdField", "ThresholdForm", "latency_field",
]  # fmt: skip


class SystemFilterForm(QueryForm):
    q = forms.CharField(required=False, label="Search", max_length=200)
    vendor = forms.CharField(required=False, max_length=100)
    model = forms.CharField(required=False, max_length=100)
    raid_level = forms.CharField(required=False, label="RAID level", max_length=20)
    drive_count = forms.IntegerField(required=False, min_value=1, label="Drive count")
    drive_type = forms.CharField(required=False, label="Drive type", max_length=8)
    tool = forms.CharField(required=False, max_length=60)
    workload = forms.CharField(required=False, max_length=200)
    sort = forms.ChoiceField(
        required=False, choices=[(key, heading) for key, (heading, _) in SYSTEM_SORTS.items()], initial="name"
    )


class ThresholdForm(QueryForm):
    threshold_ms = ThresholdField(initial=DEFAULT_THRESHOLD_MS)
    latency = latency_field()


class RunForm(ThresholdForm):
    iops_per_mailbox = forms.FloatField(
        required=False, min_value=0.001, max_value=1000, initial=IOPS_PER_MAILBOX, label="IOPS per mailbox"
    )


class SweepForm(ThresholdForm):
    parameter = forms.ChoiceField(required=False, choices=list(SWEEP_PARAMETERS.items()), initial="drive_count")
    workload = forms.CharField(required=False, max_length=200)
    raid_level = forms.CharField(required=False, label="RAID level", max_length=20)
    cache = forms.CharField(required=False, label="Cache setting", max_length=100)


class SystemPageForm(SweepForm):
    runs = forms.CharField(required=False, label="Runs of workload", max_length=200)
    # Left to the paginator, which answers a bad page number with the first or last page.
    page = forms.CharField(required=False, max_length=20)
    sort = forms.ChoiceField(
        required=False,
        choices=[(key, label) for key, (label, _) in RUN_SORTS.items()],
        initial=DEFAULT_SORT,
        label="Order runs by",
    )


class StrokeForm(ThresholdForm):
    table = forms.SlugField(required=False, max_length=300, label="Multiplier table")
    base = forms.FloatField(required=False, min_value=0, label="Throughput at the baseline stroke")
    stroke_pct = forms.FloatField(required=False, min_value=0.001, max_value=100, initial=45.0, label="Stroke %")


class ThresholdDefaultForm(forms.Form):
    """A reader's default threshold and latency figure, or one of a team they administer (``owner``: its slug)."""

    threshold_ms = ThresholdField(label="Default threshold (ms)", help_text="Leave blank to remove the default.")
    latency = latency_field()
    owner = forms.ChoiceField(required=False, label="For", initial="")

    def __init__(self, *args: Any, teams: Iterable[Team] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.teams = {team.slug: team for team in teams}
        owner = self.fields["owner"]
        assert isinstance(owner, forms.ChoiceField)
        owner.choices = [("", "me"), *((team.slug, f"team {team.name}") for team in teams)]

    def team(self) -> Team | None:
        """The team whose default is set, None for the reader's own."""
        return self.teams.get(self.cleaned_data.get("owner") or "")
