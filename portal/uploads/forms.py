"""The upload form: which system was measured and how it was configured (the labels of every file sent)."""

from django import forms

from portal.models import DriveType, Run, System

UNKNOWN_ON_OFF = [("", "unknown"), ("true", "on"), ("false", "off")]


def _on_off(value):
    return {"true": True, "false": False}.get(value)


class UploadLabelsForm(forms.Form):
    system = forms.ModelChoiceField(
        queryset=System.objects.all(),
        required=False,
        empty_label="(named in the file, or new below)",
        help_text="The storage system the files measured.",
    )
    new_system_vendor = forms.CharField(label="Vendor", max_length=100, required=False)
    new_system_model = forms.CharField(label="Model", max_length=100, required=False)
    new_system_name = forms.CharField(
        label="Name", max_length=200, required=False, help_text='Shown everywhere; defaults to "vendor model".'
    )
    raid_level = forms.CharField(label="RAID level", max_length=20, required=False)
    drive_count = forms.IntegerField(label="Drives", min_value=1, required=False)
    drive_type = forms.ChoiceField(label="Drive type", choices=[("", "unknown"), *DriveType.choices], required=False)
    drive_rpm = forms.IntegerField(label="Drive rpm", min_value=1, required=False)
    segment_kb = forms.FloatField(label="Segment size (KB)", min_value=0, required=False)
    read_cache = forms.ChoiceField(label="Read cache", choices=UNKNOWN_ON_OFF, required=False)
    write_cache = forms.ChoiceField(label="Write cache", choices=UNKNOWN_ON_OFF, required=False)
    write_cache_mirroring = forms.ChoiceField(label="Write-cache mirroring", choices=UNKNOWN_ON_OFF, required=False)
    stroke_pct = forms.FloatField(
        label="Stroke (%)", min_value=0.001, max_value=100, required=False, help_text="Share of capacity touched."
    )
    measurement = forms.ChoiceField(choices=Run.Measurement.choices, initial=Run.Measurement.END_TO_END)
    tags = forms.CharField(max_length=500, required=False, help_text="Separated by commas.")
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    NEW_SYSTEM_FIELDS = ("new_system_vendor", "new_system_model", "new_system_name")
    CONFIG_FIELDS = ("raid_level", "drive_count", "drive_type", "drive_rpm", "segment_kb", "stroke_pct")
    ON_OFF_FIELDS = ("read_cache", "write_cache", "write_cache_mirroring")

    def clean(self):
        cleaned = super().clean()
        new_system = any(cleaned.get(name, "").strip() for name in self.NEW_SYSTEM_FIELDS)
        if cleaned.get("system") and new_system:
            raise forms.ValidationError("Choose an existing system or describe a new one, not both.")
        return cleaned

    def new_system(self):
        """Vendor, model and name of the system to create, or None when none was described."""
        values = {name.removeprefix("new_system_"): self.cleaned_data[name].strip() for name in self.NEW_SYSTEM_FIELDS}
        return values if any(values.values()) else None

    def labels(self):
        """The configuration and run labels as ``Upload.labels`` holds them: only what was given."""
        data = self.cleaned_data
        labels = {name: data[name] for name in self.CONFIG_FIELDS if data.get(name) not in (None, "")}
        labels.update({name: _on_off(data[name]) for name in self.ON_OFF_FIELDS if data.get(name)})
        labels["measurement"] = data["measurement"]
        tags = [tag.strip() for tag in data["tags"].split(",") if tag.strip()]
        if tags:
            labels["tags"] = tags
        if data["notes"].strip():
            labels["notes"] = data["notes"].strip()
        return labels
