"""The sizing question, one form for the page, the API and the command."""

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from portal.forms import DEFAULT_THRESHOLD_MS, QueryForm, ThresholdField


class WorkloadFamilyForm(QueryForm):
    """What is sized: a workload, optionally one RAID level and cache setting, at a threshold."""

    workload = forms.CharField(max_length=200, label="Workload")
    raid_level = forms.CharField(max_length=20, required=False, label="RAID level")
    cache = forms.CharField(max_length=100, required=False, label="Cache setting")
    threshold_ms = ThresholdField(initial=DEFAULT_THRESHOLD_MS)


TARGET_LABEL = "Target throughput (IOPS, or MB/s for a MB/s sweep)"


class SizingQuestionForm(WorkloadFamilyForm):
    """The question about one system (the page's system is in its address)."""

    target = forms.FloatField(required=False, min_value=0.001, max_value=1e12, label=TARGET_LABEL)
    drives = forms.IntegerField(
        required=False, min_value=1, max_value=100_000, label="Throughput with this many drives"
    )

    field_order = ["workload", "raid_level", "cache", "target", "drives", "threshold_ms"]


class SizingForm(SizingQuestionForm):
    """The API's question: the system by name or id, then the same fields."""

    system = forms.CharField(max_length=200, label="System")

    field_order = ["system", *SizingQuestionForm.base_fields]


# How many systems one side-by-side sizing takes (the compare page's five A systems and B).
MOST_SYSTEMS_SIDE_BY_SIDE = 6


class SystemNamesField(forms.Field):
    """``system`` repeated: two or more systems by name or id."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[str]:
        values = value if isinstance(value, list | tuple) else [value] if value else []
        return [" ".join(str(name).split()) for name in values if str(name).strip()]

    def validate(self, value: Any) -> None:
        super().validate(value)
        if not 2 <= len(value) <= MOST_SYSTEMS_SIDE_BY_SIDE:
            raise ValidationError(
                f"give two to {MOST_SYSTEMS_SIDE_BY_SIDE} systems (repeat system=), got {len(value)}."
            )


class SideBySideForm(WorkloadFamilyForm):
    """Several systems sized for one target: the systems, then the workload, family and target."""

    system = SystemNamesField(label="Systems")
    target = forms.FloatField(min_value=0.001, max_value=1e12, label=TARGET_LABEL)

    field_order = ["system", "workload", "raid_level", "cache", "target", "threshold_ms"]


class PredictForm(QueryForm):
    """Which run's grid to predict, and around which cell."""

    run = forms.IntegerField(min_value=1, label="Run")
    focal_queue_depth = forms.FloatField(required=False, min_value=0.001, label="Focal queue depth per job")
    focal_jobs = forms.FloatField(required=False, min_value=1, label="Focal jobs")
