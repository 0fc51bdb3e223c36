"""Services of systems: a system found or created race-free by name, renamed, and the labels of a configuration."""

from collections.abc import Iterable

from django.db import IntegrityError, connection, models, transaction

from portal.analysis.vocabulary import raid_level_canonical
from portal.errors import ApplicationError
from portal.models import AuditEvent, Config, Run, System, Team
from portal.teams.selectors import Viewer
from portal.teams.services import TeamError, audit

from .selectors import systems_named

CONFIG_LABELS = tuple(name for name in Config.IDENTITY_FIELDS if name != "extra")


def _labels_stored_as(kind: type[models.Field]) -> frozenset[str]:
    """The configuration labels whose model field is a ``kind`` (a label's text is read as its field's type)."""
    return frozenset(name for name in CONFIG_LABELS if isinstance(Config._meta.get_field(name), kind))


BOOLEAN_LABELS = _labels_stored_as(models.BooleanField)
INTEGER_LABELS = _labels_stored_as(models.IntegerField)
FLOAT_LABELS = _labels_stored_as(models.FloatField)
RUN_LABELS = ("workload_name", "measurement", "firmware", "tags", "notes")


class LabelError(ApplicationError):
    """A configuration or run label that cannot be used (unknown name, bad value); ``field`` names it."""


def label_parse(*, name: str, text: str) -> object:
    """A label given as text (``--config write_cache=on``) converted to its field's type."""
    if name not in CONFIG_LABELS and name not in RUN_LABELS:
        raise LabelError(f"unknown label {name!r}; known: {', '.join(CONFIG_LABELS + RUN_LABELS)}", field=name)
    text = text.strip()
    try:
        if name in BOOLEAN_LABELS:
            return {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}[text.lower()]
        if name in INTEGER_LABELS:
            return int(text)
        if name in FLOAT_LABELS:
            return float(text.rstrip("%"))
    except (KeyError, ValueError):
        raise LabelError(f"{name}={text!r} is not a valid value", field=name) from None
    if name == "tags":
        return [tag.strip() for tag in text.split(",") if tag.strip()]
    if name == "raid_level":
        return raid_level_canonical(text)
    if name == "measurement" and text not in Run.Measurement.values:
        raise LabelError(f"measurement must be one of {', '.join(Run.Measurement.values)}", field=name)
    return text


_FACETS_SQL = """
    UPDATE portal_system AS system SET
        run_tools = ARRAY(
            SELECT DISTINCT run.tool FROM portal_run AS run JOIN portal_config AS config ON config.id = run.config_id
            WHERE config.system_id = system.id AND run.tool <> '' ORDER BY 1),
        run_workloads = ARRAY(
            SELECT DISTINCT run.workload_name FROM portal_run AS run
            JOIN portal_config AS config ON config.id = run.config_id
            WHERE config.system_id = system.id AND run.workload_name <> '' ORDER BY 1)
    WHERE system.id = ANY(%s)
"""


def systems_facets_recompute(*, system_ids: Iterable[int]) -> None:
    """Recompute the tools and workload names the systems' runs have, in the caller's transaction."""
    ids = sorted(set(system_ids))
    if ids:
        with connection.cursor() as cursor:
            cursor.execute(_FACETS_SQL, [ids])


def system_get_or_create(*, name: str, vendor: str = "", model: str = "", team: Team | None = None) -> System:
    """``team``'s system with this name (case-insensitive), created from vendor and model when new.

    A team's new system is private to it until published; one without a team (the operator's, like
    the published studies) is published at once.

    Race-safe: two requests or workers creating the same system at once get the same row (the
    insert runs in a savepoint; the loser of the race reads the winner's row).
    """
    name = " ".join((name or "").split()) or " ".join(f"{vendor} {model}".split())
    if not name:
        raise LabelError("a new system needs a name, or a vendor and model", field="new_system_name")
    same_name = systems_named(name=name).filter(team=team)
    found = same_name.first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return System.objects.create(
                name=name, vendor=(vendor or "").strip(), model=(model or "").strip(), team=team, published=team is None
            )
    except IntegrityError:  # created a moment ago by another transaction, now committed
        return same_name.get()


def system_rename(*, system: System, name: str, actor: Viewer | None = None) -> System:
    """Give a system another name: unique within its team and, once published, among published systems."""
    name = " ".join(name.split())
    if not name:
        raise TeamError("a system needs a name")
    try:
        with transaction.atomic():
            return _system_renamed(system, name, actor)
    except IntegrityError:  # the same name taken a moment ago by another request
        raise TeamError(f"a system is already named {name!r}") from None


def _system_renamed(system: System, name: str, actor: Viewer | None) -> System:
    system = System.objects.select_for_update().get(pk=system.pk)
    if name == system.name:
        return system
    others = systems_named(name=name).exclude(pk=system.pk)
    if others.filter(team=system.team).exists():
        owner = system.team.name if system.team else "the operator"
        raise TeamError(f"{owner} has a system named {name!r} already")
    if system.published and others.filter(published=True).exists():
        raise TeamError(f"a published system is already named {name!r}")
    before = system.name
    system.name = name
    system.save(update_fields=["name", "updated_at"])
    audit(team=system.team, actor=actor, action=AuditEvent.Action.RENAME, subject=f"system {before} to {name}")
    return system
