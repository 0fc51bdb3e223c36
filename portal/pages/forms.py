"""Query-string parameters of the pages, validated so a bad value gets a message, never a 500."""

from django import forms

from portal.analysis.sizing import IOPS_PER_MAILBOX
from portal.comparisons.sweeps import SWEEP_PARAMETERS
from portal.results.selectors import LATENCIES
from portal.systems.selectors import SYSTEM_SORTS

from .system_runs import DEFAULT_SORT, RUN_SORTS

DEFAULT_THRESHOLD_MS = 20.0


class ThresholdField(forms.FloatField):
    """A response-time threshold in ms: positive and finite."""

    def __init__(self, **kwargs):
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

    def value(self, name):
        value = self.cleaned_data.get(name)
        return self.fields[name].initial if value in (None, "") else value


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


def latency_field():
    """What the threshold applies to: the papers' average response time, a percentile, or the maximum."""
    return forms.ChoiceField(
        required=False, choices=list(LATENCIES.items()), initial="avg", label="Threshold applies to"
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


class CompareForm(QueryForm):
    a = forms.CharField(label="System A", max_length=200)
    b = forms.CharField(label="System B", max_length=200)
    threshold_ms = ThresholdField(initial=DEFAULT_THRESHOLD_MS)
    adjust_b = forms.FloatField(
        required=False, min_value=0.01, max_value=100, initial=1.0, label="Adjustment factor for B"
    )
    raid_level = forms.CharField(required=False, label="RAID level", max_length=20)
    cache = forms.CharField(required=False, label="Cache setting", max_length=100)
    drive_count = forms.IntegerField(required=False, min_value=1, label="Drive count")
    workload = forms.CharField(required=False, max_length=200)
    pair = forms.CharField(
        required=False,
        max_length=401,
        label="Pair workloads",
        help_text="A's workload | B's workload, e.g. rd1 | Random Reads 8K",
    )
    best = forms.BooleanField(required=False, label="Best over transfer sizes")
    latency = latency_field()
    a_raid_level = forms.CharField(required=False, label="A's RAID level", max_length=20)
    b_raid_level = forms.CharField(required=False, label="B's RAID level", max_length=20)
    a_drive_count = forms.IntegerField(required=False, min_value=1, label="A's drive count")
    b_drive_count = forms.IntegerField(required=False, min_value=1, label="B's drive count")
    a_cache = forms.CharField(required=False, label="A's cache setting", max_length=100)
    b_cache = forms.CharField(required=False, label="B's cache setting", max_length=100)
    a_config = forms.IntegerField(required=False, min_value=1, label="A's configuration")
    b_config = forms.IntegerField(required=False, min_value=1, label="B's configuration")

    def clean_pair(self):
        text = self.cleaned_data.get("pair") or ""
        if not text.strip():
            return None
        names = [name.strip() for name in text.split("|")]
        if len(names) != 2 or not all(names):
            raise forms.ValidationError("write A's workload and B's workload separated by |, e.g. rd1 | OLTP 8K.")
        return tuple(names)

    def selection(self):
        """The keyword arguments of :func:`portal.comparisons.selectors.comparison` (without the systems)."""
        pair = self.cleaned_data.get("pair")
        return {
            "threshold_ms": self.value("threshold_ms"),
            "adjust_b": self.value("adjust_b"),
            "raid_level": self.value("raid_level") or None,
            "cache": self.value("cache") or None,
            "drive_count": self.value("drive_count"),
            "workload": self.value("workload") or None,
            "pairs": [pair] if pair else [],
            "best_of_sizes": bool(self.cleaned_data.get("best")),
            "latency": self.value("latency"),
            **{name: self.value(name) or None for name in SIDE_FILTERS},
        }


# The compare page's filters of one side (A's or B's configuration), as :func:`comparison` takes them.
SIDE_FILTERS = tuple(f"{side}_{name}" for side in "ab" for name in ("raid_level", "drive_count", "cache", "config"))


class ThresholdDefaultForm(forms.Form):
    """A reader's default threshold and latency figure, or one of a team they administer (``owner``: its slug)."""

    threshold_ms = ThresholdField(label="Default threshold (ms)", help_text="Leave blank to remove the default.")
    latency = latency_field()
    owner = forms.ChoiceField(required=False, label="For", initial="")

    def __init__(self, *args, teams=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.teams = {team.slug: team for team in teams}
        owner = self.fields["owner"]
        assert isinstance(owner, forms.ChoiceField)
        owner.choices = [("", "me"), *((team.slug, f"team {team.name}") for team in teams)]

    def team(self):
        """The team whose default is set, None for the reader's own."""
        return self.teams.get(self.cleaned_data.get("owner") or "")
