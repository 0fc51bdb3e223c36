"""The parameters of a comparison, one form for the compare page, its exports and the API: the same
names, defaults, limits and messages wherever a comparison is asked for (its fields are
:data:`portal.comparisons.query.PARAMETERS`, which says what each means; :class:`~.query.ComparisonQuery`
is what it reads)."""

from django import forms

from portal.forms import DEFAULT_THRESHOLD_MS, QueryForm, ThresholdField, latency_field

# What the page's checkbox sends for ``best``, and what a script may write.
BEST_VALUES = ("", "0", "1", "false", "true", "off", "on")


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
    a_firmware = forms.CharField(required=False, label="A's firmware", max_length=100)
    b_firmware = forms.CharField(required=False, label="B's firmware", max_length=100)

    def clean_pair(self) -> tuple[str, str] | None:
        text = self.cleaned_data.get("pair") or ""
        if not text.strip():
            return None
        names = [name.strip() for name in text.split("|")]
        if len(names) != 2 or not all(names):
            raise forms.ValidationError("write A's workload and B's workload separated by |, e.g. rd1 | OLTP 8K.")
        return names[0], names[1]

    def clean_best(self) -> bool:
        text = str(self.data.get("best", "")).strip().lower()
        if text not in BEST_VALUES:
            raise forms.ValidationError(f"must be one of {', '.join(BEST_VALUES[1:])}; got {text!r}.")
        return text in ("1", "true", "on")
