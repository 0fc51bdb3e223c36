"""The upload form: which system was measured and how it was configured (the labels of every file sent)."""

from typing import Any, cast

from django import forms
from django.db.models import QuerySet

from portal.models import DriveType, Role, Run, System, Team
from portal.teams import selectors as teams
from portal.teams.selectors import Viewer

UNKNOWN_ON_OFF = [("", "not stated"), ("true", "on"), ("false", "off")]


def _on_off(value: str) -> bool | None:
    return {"true": True, "false": False}.get(value)


def uploadable_systems(user: Viewer) -> QuerySet[System]:
    """The systems ``user`` may add results to: those of the teams where they upload (all, for superusers)."""
    if teams.sees_everything(user):
        return System.objects.all()
    return System.objects.filter(team__in=teams.teams_of(user, role=Role.UPLOADER))


class LabelsForm(forms.Form):
    """How the files' configuration was set up, and what their runs are: the labels of an upload."""

    raid_level = forms.CharField(label="RAID level", max_length=20, required=False)
    drive_count = forms.IntegerField(label="Drives", min_value=1, required=False)
    drive_type = forms.ChoiceField(label="Drive type", choices=[("", "not stated"), *DriveType.choices], required=False)
    drive_rpm = forms.IntegerField(label="Drive rpm", min_value=1, required=False)
    drive_model = forms.CharField(label="Drive model", max_length=100, required=False, help_text="e.g. Samsung PM883")
    drive_capacity_gb = forms.FloatField(label="Drive capacity (GB)", min_value=0.001, required=False)
    host_server = forms.CharField(
        label="Host", max_length=100, required=False, help_text="The server measured from, e.g. HP DL380 G8, H420i"
    )
    segment_kb = forms.FloatField(label="Segment size (KB)", min_value=0, required=False)
    read_cache = forms.ChoiceField(label="Read cache", choices=UNKNOWN_ON_OFF, required=False)
    write_cache = forms.ChoiceField(label="Write cache", choices=UNKNOWN_ON_OFF, required=False)
    write_cache_mirroring = forms.ChoiceField(label="Write-cache mirroring", choices=UNKNOWN_ON_OFF, required=False)
    stroke_pct = forms.FloatField(
        label="Stroke (%)", min_value=0.001, max_value=100, required=False, help_text="Share of capacity touched."
    )
    measurement = forms.ChoiceField(choices=Run.Measurement.choices, initial=Run.Measurement.END_TO_END)
    firmware = forms.CharField(
        label="Firmware",
        max_length=100,
        required=False,
        help_text="The controller firmware measured, e.g. 07.15.07.00; else the array profile's.",
    )
    tags = forms.CharField(max_length=500, required=False, help_text="Separated by commas.")
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    CONFIG_FIELDS = (
        "raid_level",
        "drive_count",
        "drive_type",
        "drive_rpm",
        "drive_model",
        "drive_capacity_gb",
        "host_server",
        "segment_kb",
        "stroke_pct",
    )
    ON_OFF_FIELDS = ("read_cache", "write_cache", "write_cache_mirroring")

    def initial_from(self, labels: dict) -> None:
        """Show ``labels`` (an upload's) in the fields."""
        for name in (*self.CONFIG_FIELDS, "measurement", "firmware", "notes"):
            if labels.get(name) is not None:
                self.initial[name] = labels[name]
        for name in self.ON_OFF_FIELDS:
            if labels.get(name) is not None:
                self.initial[name] = "true" if labels[name] else "false"
        if labels.get("tags"):
            self.initial["tags"] = ", ".join(labels["tags"])

    def labels(self) -> dict[str, Any]:
        """The configuration and run labels as ``Upload.labels`` holds them: only what was given."""
        data = self.cleaned_data
        labels = {name: data[name] for name in self.CONFIG_FIELDS if data.get(name) not in (None, "")}
        for name in ("drive_model", "host_server"):
            if name in labels:
                labels[name] = " ".join(labels[name].split())
        labels.update({name: _on_off(data[name]) for name in self.ON_OFF_FIELDS if data.get(name)})
        labels["measurement"] = data["measurement"]
        if data["firmware"].strip():
            labels["firmware"] = " ".join(data["firmware"].split())
        tags = [tag.strip() for tag in data["tags"].split(",") if tag.strip()]
        if tags:
            labels["tags"] = tags
        if data["notes"].strip():
            labels["notes"] = data["notes"].strip()
        return labels


NO_TEAM_LABEL = "(no team: published at once, to everyone)"


class SystemChoiceField(forms.ModelChoiceField):
    """A system picker that marks the systems still private to their team."""

    def label_from_instance(self, obj: System) -> str:
        return obj.name if obj.published else f"{obj.name} (private)"


class UploadLabelsForm(LabelsForm):
    """The upload form: which team and system the files are for, and their labels."""

    team = forms.ModelChoiceField(
        queryset=Team.objects.none(),
        required=False,
        empty_label=None,
        help_text="The team the results belong to: private to its members until a maintainer publishes them.",
    )
    system = SystemChoiceField(
        queryset=System.objects.none(),
        required=False,
        empty_label="(named in the file, or new below)",
        help_text="The storage system the files measured.",
    )
    new_system_vendor = forms.CharField(label="Vendor", max_length=100, required=False)
    new_system_model = forms.CharField(label="Model", max_length=100, required=False)
    new_system_name = forms.CharField(
        label="Name", max_length=200, required=False, help_text='Shown everywhere; defaults to "vendor model".'
    )

    NEW_SYSTEM_FIELDS = ("new_system_vendor", "new_system_model", "new_system_name")

    def __init__(self, *args: Any, user: Viewer, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        team_field = cast(forms.ModelChoiceField, self.fields["team"])
        self.own_teams = own_teams = teams.teams_of(user, role=Role.UPLOADER)
        team_field.queryset = own_teams
        if teams.sees_everything(user):
            # The operator's own results (like the published studies) belong to no team, but only when
            # chosen: an upload is private to the superuser's own team whenever they have one.
            team_field.queryset = Team.objects.order_by("name")
            team_field.empty_label = NO_TEAM_LABEL
            team_field.initial = own_teams.values_list("pk", flat=True).first()
        system_field = cast(forms.ModelChoiceField, self.fields["system"])
        system_field.queryset = uploadable_systems(user).order_by("name")

    def may_upload(self) -> bool:
        """Whether the user can upload for some team (or, as a superuser, for none)."""
        return teams.sees_everything(self.user) or self.own_teams.exists()

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        new_system = any(cleaned.get(name, "").strip() for name in self.NEW_SYSTEM_FIELDS)
        if cleaned.get("system") and new_system:
            raise forms.ValidationError("Choose an existing system or describe a new one, not both.")
        system = cleaned.get("system")
        if system is not None:
            # Results go to the team of the system they add to.
            cleaned["team"] = system.team
        elif not cleaned.get("team") and not teams.sees_everything(self.user):
            cleaned["team"] = self._only_team()
        return cleaned

    def _only_team(self) -> Team:
        # Called for members only: the team field offers their own teams.
        choices = list(self.own_teams[:2])
        if not choices:
            raise forms.ValidationError(
                "You can upload only for a team: ask a team's admin to add you as uploader, or create a team."
            )
        if len(choices) > 1:
            raise forms.ValidationError("Choose the team the results belong to.")
        return choices[0]

    def new_system(self) -> dict[str, str] | None:
        """Vendor, model and name of the system to create, or None when none was described."""
        values = {name.removeprefix("new_system_"): self.cleaned_data[name].strip() for name in self.NEW_SYSTEM_FIELDS}
        return values if any(values.values()) else None
