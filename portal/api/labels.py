"""The labels sent with an API upload: the upload page's form, plus the other labels
``manage.py ingest --config`` takes, so a lab script can say everything a person can."""

from django.http import QueryDict
from rest_framework.exceptions import ValidationError

from portal.models import Run, System
from portal.services import LabelError, label_parse
from portal.uploads.forms import UploadLabelsForm

from .querysets import systems_for
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


def upload_labels(*, data: QueryDict | dict, user) -> tuple[System | None, dict | None, dict]:
    """(chosen system, new system to create when results are stored, labels); ValidationError naming
    each field to correct, as the upload page's form words it."""
    values = {name: str(data.get(name)) for name in data if name != "files"}
    known = set(UploadLabelsForm.base_fields) | set(extra_labels())
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValidationError({name: [f"unknown label; known: {', '.join(sorted(known))}"] for name in unknown})
    form = UploadLabelsForm(_form_data(values, user))
    if not form.is_valid():
        errors = form.errors.get_json_data()
        raise ValidationError({_field(name): [error["message"] for error in found] for name, found in errors.items()})
    labels = form.labels()
    errors = {}
    for name in set(values) & set(extra_labels()):
        try:
            labels[name] = label_parse(name, values[name])
        except LabelError as error:
            errors[name] = [str(error)]
    if errors:
        raise ValidationError(errors)
    return form.cleaned_data["system"], form.new_system(), labels


def _form_data(values: dict, user) -> dict:
    data = {name: value for name, value in values.items() if name in UploadLabelsForm.base_fields}
    data.setdefault("measurement", Run.Measurement.END_TO_END)
    for name in UploadLabelsForm.ON_OFF_FIELDS:
        if name in data:
            data[name] = SWITCHES.get(data[name].strip().lower(), data[name])
    if data.get("system", "").strip() and not data["system"].strip().isdigit():
        data["system"] = _system_id(data["system"], user)
    return data


def _system_id(name: str, user) -> str:
    """A system named rather than numbered: scripts know names, not ids."""
    found = systems_for(user=user).filter(name__iexact=" ".join(name.split())).first()
    if found is None:
        raise ValidationError({"system": [f"no system named {name!r}; to create one, send new_system_name instead"]})
    return str(found.id)


def _field(name: str) -> str:
    return "non_field_errors" if name == "__all__" else name
