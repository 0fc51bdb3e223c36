"""Services of systems: a system found or created race-free by name, and the labels of a configuration."""

from collections.abc import Iterable

from django.db import IntegrityError, connection, transaction
from django.db.models.functions import Lower

from portal.analysis.vocabulary import raid_level_canonical
from portal.models import Config, Run, System, Team

CONFIG_LABELS = tuple(name for name in Config.IDENTITY_FIELDS if name != "extra")
BOOLEAN_LABELS = {"read_cache", "write_cache", "write_cache_mirroring", "prefetch"}
INTEGER_LABELS = {"drive_count", "drives_per_array", "drive_rpm"}
FLOAT_LABELS = {"drive_capacity_gb", "segment_kb", "stroke_pct"}
RUN_LABELS = ("workload_name", "measurement", "firmware", "tags", "notes")


class LabelError(ValueError):
    """A configuration or run label that cannot be used (unknown name, bad value)."""


def label_parse(*, name: str, text: str) -> object:
    """A label given as text (``--config write_cache=on``) converted to its field's type."""
    if name not in CONFIG_LABELS and name not in RUN_LABELS:
        raise LabelError(f"unknown label {name!r}; known: {', '.join(CONFIG_LABELS + RUN_LABELS)}")
    text = text.strip()
    try:
        if name in BOOLEAN_LABELS:
            return {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}[text.lower()]
        if name in INTEGER_LABELS:
            return int(text)
        if name in FLOAT_LABELS:
            return float(text.rstrip("%"))
    except (KeyError, ValueError):
        raise LabelError(f"{name}={text!r} is not a valid value") from None
    if name == "tags":
        return [tag.strip() for tag in text.split(",") if tag.strip()]
    if name == "raid_level":
        return raid_level_canonical(text)
    if name == "measurement" and text not in Run.Measurement.values:
        raise LabelError(f"measurement must be one of {', '.join(Run.Measurement.values)}")
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
        raise LabelError("a new system needs a name, or a vendor and model")
    # Matched as the unique constraint compares names: lower-cased (``iexact`` upper-cases, which
    # differs for a few letters).
    same_name = System.objects.alias(lower_name=Lower("name")).filter(lower_name=name.lower(), team=team)
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
