"""The sizing question, one form for the page, the API and the command."""

from django import forms

from portal.forms import DEFAULT_THRESHOLD_MS, QueryForm, ThresholdField


class SizingQuestionForm(QueryForm):
    """The question about one system (the page's system is in its address)."""

    workload = forms.CharField(max_length=200, label="Workload")
    raid_level = forms.CharField(max_length=20, required=False, label="RAID level")
    cache = forms.CharField(max_length=100, required=False, label="Cache setting")
    target = forms.FloatField(
        required=False, min_value=0.001, max_value=1e12, label="Target throughput (IOPS, or MB/s for a MB/s sweep)"
    )
    drives = forms.IntegerField(
        required=False, min_value=1, max_value=100_000, label="Throughput with this many drives"
    )
    threshold_ms = ThresholdField(initial=DEFAULT_THRESHOLD_MS)


class SizingForm(SizingQuestionForm):
    """The API's question: the system by name or id, then the same fields."""

    system = forms.CharField(max_length=200, label="System")

    field_order = ["system", *SizingQuestionForm.base_fields]


class PredictForm(QueryForm):
    """Which run's grid to predict, and around which cell."""

    run = forms.IntegerField(min_value=1, label="Run")
    focal_queue_depth = forms.FloatField(required=False, min_value=0.001, label="Focal queue depth per job")
    focal_jobs = forms.FloatField(required=False, min_value=1, label="Focal jobs")
