"""The parameters of a comparison, one form for the compare page, its exports and the API: the same
names, defaults, limits and messages wherever a comparison is asked for."""

from typing import Any

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

    def selection(self) -> dict[str, Any]:
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
SIDE_FILTERS = tuple(
    f"{side}_{name}" for side in "ab" for name in ("raid_level", "drive_count", "cache", "config", "firmware")
)
