"""The labels sent with an API upload: the upload page's form, plus the other labels
``manage.py ingest --config`` takes, so a lab script can say everything a person can."""

from django.http import QueryDict
from rest_framework.exceptions import ValidationError

from portal.models import Role, Run, System, Team
from portal.results.services import StoreError
from portal.systems.selectors import systems_named
from portal.systems.services import label_parse
from portal.teams.selectors import Viewer, team_named, teams_of
from portal.teams.services import TeamError
from portal.uploads.forms import UploadLabelsForm, uploadable_systems

from .serializers import extra_labels

SWITCHES = {
    "on": "true",
    "yes": "true",
    "true": "true",
    "1": "true",
    "off": "false",
    "no": "false",
    "false": "false",
    "0": "false",
}


def upload_labels(*, data: QueryDict | dict, user: Viewer) -> tuple[System | None, Team | None, dict | None, dict]:
    """(chosen system, team, new system to create when results are stored, labels); ValidationError
    naming each field to correct, as the upload page's form words it."""
    values = {name: str(data.get(name)) for name in data if name != "files"}
    known = set(UploadLabelsForm.base_fields) | set(extra_labels())
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValidationError({name: [f"unknown label; known: {', '.join(sorted(known))}"] for name in unknown})
    form = UploadLabelsForm(_form_data(values, user), user=user)
    if not form.is_valid():
        errors = form.errors.get_json_data()
        raise ValidationError({_field(name): [error["message"] for error in found] for name, found in errors.items()})
    labels = form.labels()
    for name in sorted(set(values) & set(extra_labels())):
        labels[name] = label_parse(name=name, text=values[name])
    return form.cleaned_data["system"], form.cleaned_data["team"], form.new_system(), labels


def _form_data(values: dict, user: Viewer) -> dict:
    data = {name: value for name, value in values.items() if name in UploadLabelsForm.base_fields}
    data.setdefault("measurement", Run.Measurement.END_TO_END)
    for name in UploadLabelsForm.ON_OFF_FIELDS:
        if name in data:
            data[name] = SWITCHES.get(data[name].strip().lower(), data[name])
    if data.get("system", "").strip() and not data["system"].strip().isdigit():
        data["system"] = _system_id(data["system"], user)
    if data.get("team", "").strip() and not data["team"].strip().isdigit():
        data["team"] = _team_id(data["team"], user)
    return data


def _system_id(name: str, user: Viewer) -> str:
    """A system named rather than numbered: scripts know names, not ids."""
    found = systems_named(name=name, among=uploadable_systems(user)).first()
    if found is None:
        raise StoreError(f"no system named {name!r}; to create one, send new_system_name instead", field="system")
    return str(found.id)


def _team_id(name: str, user: Viewer) -> str:
    """A team given by name or slug."""
    found = team_named(name=name, among=teams_of(user, role=Role.UPLOADER))
    if found is None:
        raise TeamError(f"you upload for no team named {' '.join(name.split())!r}", field="team")
    return str(found.id)


def _field(name: str) -> str:
    return "non_field_errors" if name == "__all__" else name
