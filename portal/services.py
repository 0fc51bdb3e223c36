"""Services: everything that changes state goes through these functions."""

import datetime

from django.db import IntegrityError, connection, models, transaction
from django.db.models import Count, Max, Min
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from psycopg.types.json import Jsonb

from ingest.latency import point_percentiles

from .analysis.vocabulary import raid_level_canonical
from .analysis.workloads import Signature, signature
from .models import Config, Point, Run, System, Workload


def run_summary_recompute(*, run_id):
    """Recompute a run's derived figures (peak IOPS and MB/s, lowest response time, points)."""
    figures = Point.objects.filter(run_id=run_id).aggregate(
        points=Count("id"),
        peak_iops=Max("iops"),
        peak_mbps=Max("mbps"),
        min_response_ms=Min("avg_response_ms"),
        max_response_ms=Max("avg_response_ms"),
    )
    Run.objects.filter(id=run_id).update(summary=figures)
    return figures


# The same figures as run_summary_recompute, for many runs in one statement (runs just stored).
_SUMMARIES_SQL = f"""
    UPDATE {Run._meta.db_table} AS run SET summary = jsonb_build_object(
        'points', figures.points, 'peak_iops', figures.peak_iops, 'peak_mbps', figures.peak_mbps,
        'min_response_ms', figures.min_response_ms, 'max_response_ms', figures.max_response_ms)
    FROM (SELECT run_id, count(*) AS points, max(iops) AS peak_iops, max(mbps) AS peak_mbps,
                 min(avg_response_ms) AS min_response_ms, max(avg_response_ms) AS max_response_ms
          FROM {Point._meta.db_table} WHERE run_id = ANY(%s) GROUP BY run_id) AS figures
    WHERE run.id = figures.run_id
"""


def runs_summaries_recompute(*, run_ids):
    """Recompute the summaries of runs in one statement, inside the caller's transaction."""
    with connection.cursor() as cursor:
        cursor.execute(_SUMMARIES_SQL, [list(run_ids)])


# --- Labels: configuration and run properties given with an upload ---------------------------------

CONFIG_LABELS = tuple(name for name in Config.IDENTITY_FIELDS if name != "extra")
BOOLEAN_LABELS = {"read_cache", "write_cache", "write_cache_mirroring", "prefetch"}
INTEGER_LABELS = {"drive_count", "drives_per_array", "drive_rpm"}
FLOAT_LABELS = {"drive_capacity_gb", "segment_kb", "stroke_pct"}
RUN_LABELS = ("workload_name", "measurement", "tags", "notes")


class LabelError(ValueError):
    """A configuration or run label that cannot be used (unknown name, bad value)."""


def label_parse(name, text):
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


class StoreError(ValueError):
    """Results that parse but cannot be stored as asked (no system named, ...)."""


def system_get_or_create(*, name, vendor="", model=""):
    """The system with this name (case-insensitive), created from vendor and model when new.

    Race-safe: two requests or workers creating the same system at once get the same row (the
    insert runs in a savepoint; the loser of the race reads the winner's row).
    """
    name = " ".join((name or "").split()) or " ".join(f"{vendor} {model}".split())
    if not name:
        raise LabelError("a new system needs a name, or a vendor and model")
    # Matched as the unique constraint compares names: lower-cased (``iexact`` upper-cases, which
    # differs for a few letters).
    same_name = System.objects.alias(lower_name=Lower("name")).filter(lower_name=name.lower())
    found = same_name.first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return System.objects.create(name=name, vendor=(vendor or "").strip(), model=(model or "").strip())
    except IntegrityError:  # created a moment ago by another transaction, now committed
        return same_name.get()


def _systems_for(results, system):
    """The system each result set goes to (the given one, else the one it names), created in name order."""
    if system is not None:
        return [system] * len(results)
    order = sorted(range(len(results)), key=lambda i: ((results[i].get("system") or {}).get("name") or "").lower())
    found = {index: _system_for(results[index], None) for index in order}
    return [found[index] for index in range(len(results))]


def _system_for(result, system):
    described = result.get("system") or {}
    if system is not None:
        return system
    if not described.get("name"):
        raise StoreError(
            f"{result['source']['name']}: the file does not say which system it measured; "
            "choose a system when uploading (or --system on the command line)"
        )
    return system_get_or_create(
        name=described["name"], vendor=described.get("vendor") or "", model=described.get("model") or ""
    )


def _system_profile_update(system, described, upload):
    for name in ("vendor", "model", "firmware"):
        if described.get(name):
            setattr(system, name, described[name])
    for name in ("controllers", "cache_mb_per_controller"):
        if described.get(name) is not None:
            setattr(system, name, described[name])
    system.profile = described
    system.profile_upload = upload
    system.save()


def _config_properties(labels):
    properties = {name: labels[name] for name in CONFIG_LABELS if labels.get(name) not in (None, "")}
    properties["raid_level"] = raid_level_canonical(properties.get("raid_level"))
    properties["extra"] = labels.get("extra") or {}
    return properties


def config_for(*, system, labels):
    """The stored configuration with these properties (created once, found by identity)."""
    return configs_for([(system, labels)])[0]


def configs_for(wanted):
    """Stored configurations for ``[(system, labels), ...]``, in order.

    Race-safe: missing ones are inserted with ``ON CONFLICT DO NOTHING`` (in identity order, so two
    transactions never wait on each other crosswise), then every one is read back; a configuration
    another worker inserted a moment before is found, not refused.
    """
    built = [Config(system=system, **_config_properties(labels)) for system, labels in wanted]
    for config in built:
        config.identity = Config.identity_of(config.system_id, config.properties())
    identities = {c.identity for c in built}
    existing = Config.objects.in_bulk(identities, field_name="identity")
    missing = {c.identity: c for c in built if c.identity not in existing}
    if missing:
        Config.objects.bulk_create([missing[identity] for identity in sorted(missing)], ignore_conflicts=True)
        existing = Config.objects.in_bulk(identities, field_name="identity")
    return [existing[c.identity] for c in built]


def run_signature(workload: dict) -> Signature | None:
    """The signature of a run's workload as the result contract gives it (None when not known)."""
    return signature(
        read_pct=workload.get("read_pct"),
        random_pct=workload.get("random_pct"),
        transfer_sizes=workload.get("transfer_sizes"),
        alignment_bytes=workload.get("alignment_bytes"),
        streams=workload.get("streams"),
    )


def workloads_for(wanted: list[tuple[Signature | None, str]]) -> list[Workload | None]:
    """Stored workloads for ``[(signature, name), ...]``, in order (None where the signature is unknown).

    Created race-free like configurations (``ON CONFLICT DO NOTHING``, then read back); each name a
    workload is stored under is added to its names, so it can be asked for by any of them.
    """
    known = {sig.identity: (sig, name) for sig, name in wanted if sig is not None}
    stored = Workload.objects.in_bulk(known, field_name="identity")
    missing = sorted(identity for identity in known if identity not in stored)
    if missing:
        Workload.objects.bulk_create([_workload_row(*known[identity]) for identity in missing], ignore_conflicts=True)
        stored = Workload.objects.in_bulk(known, field_name="identity")
    _workload_names_add({(stored[sig.identity].id, name) for sig, name in wanted if sig is not None}, stored)
    return [stored[sig.identity] if sig is not None else None for sig, _name in wanted]


def _workload_row(sig, name):
    return Workload(
        identity=sig.identity,
        read_pct=sig.read_pct,
        random_pct=sig.random_pct,
        transfer_sizes=[list(size) for size in sig.transfer_sizes],
        alignment_bytes=sig.alignment_bytes,
        streams=sig.streams,
        name=name[:200],
        names=[name[:200]],
    )


_NAMES_ADD_SQL = f"""
    UPDATE {Workload._meta.db_table} AS workload SET names = workload.names || added.names
    FROM (SELECT pair.id, array_agg(pair.name ORDER BY pair.position) AS names
          FROM unnest(%s::bigint[], %s::varchar[]) WITH ORDINALITY AS pair(id, name, position)
          GROUP BY pair.id) AS added
    WHERE workload.id = added.id
"""


def _workload_names_add(pairs, stored):
    """Append the names each workload is not yet known by, in one statement whatever their number
    (a 50 MB Iometer file names thousands of runs)."""
    by_id = {workload.id: workload for workload in stored.values()}
    added = sorted(
        (workload_id, name[:200]) for workload_id, name in pairs if name[:200] not in by_id[workload_id].names
    )
    if not added:
        return
    ids = sorted({workload_id for workload_id, _name in added})
    with connection.cursor() as cursor:
        # Locked in id order first: concurrent stores lock rows one way, and a name another
        # transaction added meanwhile is not added twice.
        cursor.execute(
            f"SELECT id, names FROM {Workload._meta.db_table} WHERE id = ANY(%s) ORDER BY id FOR UPDATE", [ids]
        )
        current = {workload_id: set(names) for workload_id, names in cursor.fetchall()}
        added = [(workload_id, name) for workload_id, name in added if name not in current[workload_id]]
        if added:
            cursor.execute(_NAMES_ADD_SQL, [[pair[0] for pair in added], [pair[1] for pair in added]])


def _run_from(result, run, *, config, upload, labels, workload=None):
    workload_fields = run["workload"]
    # Ids, not instances: the related-object descriptors cost more than the row for thousands of runs.
    return Run(
        config_id=config.id,
        upload_id=upload.id if upload is not None else None,
        name=run["name"][:300],
        description=run.get("description") or "",
        tool=result["tool"]["name"],
        tool_version=result["tool"].get("version") or "",
        workload_name=_workload_name(run, labels),
        workload_id=workload.id if workload is not None else None,
        read_pct=workload_fields.get("read_pct"),
        random_pct=workload_fields.get("random_pct"),
        transfer_sizes=workload_fields.get("transfer_sizes") or [],
        params=run.get("params") or {},
        verdict=run.get("verdict") or "",
        measurement=labels.get("measurement") or Run.Measurement.END_TO_END,
        started_at=_aware(parse_datetime(run["started_at"])) if run.get("started_at") else None,
        tags=labels.get("tags") or [],
        notes=labels.get("notes") or "",
    )


def _workload_name(run, labels):
    return (labels.get("workload_name") or run["name"])[:200]


def _aware(moment):
    """Tools print local times without a zone; they are stored as UTC (the tool's clock as is)."""
    if moment is not None and timezone.is_naive(moment):
        return timezone.make_aware(moment, datetime.UTC)
    return moment


def _point_row(run_id, seq, point):
    """A point as the row COPY writes, in ``POINT_COPY_COLUMNS`` order (no model instance per point)."""
    load = point.get("load") or {}
    metrics = point.get("metrics") or {}
    return [
        *(run_id, seq, load.get("outstanding_io"), load.get("threads"), Jsonb(load)),
        *[point.get(name) for name in Point.FIGURES],
        *(Jsonb(point_percentiles(metrics)), Jsonb(metrics)),
    ]


POINT_COPY_COLUMNS = (
    *("run_id", "seq", "outstanding_io", "threads", "load"),
    *Point.FIGURES,
    *("latency_percentiles_ms", "metrics"),
)


def points_copy(rows):
    """Insert point rows (from :func:`_point_row`) with PostgreSQL COPY: points carry kilobytes of
    JSON metrics each, and COPY streams them without building (and quoting) one huge INSERT statement."""
    _copy(Point._meta.db_table, POINT_COPY_COLUMNS, rows)


def _copy(table, columns, rows):
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def runs_copy(runs):
    """Insert runs with COPY, their ids reserved from the table's sequence in one query; sets each
    run's id. One INSERT of thousands of runs binds hundreds of thousands of parameters."""
    if not runs:
        return runs
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [Run._meta.db_table, len(runs)],
        )
        for run, (run_id,) in zip(runs, cursor.fetchall(), strict=True):
            run.id = run_id
    fields = Run._meta.concrete_fields
    # JSON columns need the adapter; every other value is written as the model holds it (Django's
    # per-field preparation costs more than the COPY itself for thousands of runs).
    json_columns = [isinstance(field, models.JSONField) for field in fields]
    created_at = timezone.now()
    for run in runs:
        run.created_at = created_at
    rows = (
        [Jsonb(value) if is_json else value for value, is_json in zip(_values(run, fields), json_columns, strict=True)]
        for run in runs
    )
    _copy(Run._meta.db_table, [field.column for field in fields], rows)
    return runs


def _values(instance, fields):
    return [getattr(instance, field.attname) for field in fields]


def result_sets_store(*, results, upload, system=None, labels=None):
    """Store result sets (from :func:`ingest.read`, which checked them against the contract) in bulk;
    return what was stored.

    Array profiles create or update their system; runs go to the configuration given by the
    labels; run summaries are computed in the same transaction. Must run inside a transaction:
    the caller decides what is stored together.
    """
    labels = labels or {}
    counts = {"system": None, "runs": 0, "points": 0}
    # Systems and configurations are created first, in one order (names, identities), so two
    # transactions storing results of the same arrays never wait on each other crosswise.
    targets = _systems_for(results, system)
    measured = {target.id: target for target, result in zip(targets, results, strict=True) if result["runs"]}
    with_runs = [measured[system_id] for system_id in sorted(measured)]
    config_of = dict(zip((t.id for t in with_runs), configs_for([(t, labels) for t in with_runs]), strict=True))
    for target, result in zip(targets, results, strict=True):
        counts["system"] = target
        if result["format"] == "array_profile":
            _system_profile_update(target, result["system"], upload)
        if not result["runs"]:
            continue
        config = config_of[target.id]
        workloads = workloads_for(
            [(run_signature(run["workload"]), _workload_name(run, labels)) for run in result["runs"]]
        )
        runs = runs_copy(
            [
                _run_from(result, run, config=config, upload=upload, labels=labels, workload=workload)
                for run, workload in zip(result["runs"], workloads, strict=True)
            ]
        )
        points = sum(len(run["points"]) for run in result["runs"])
        points_copy(
            _point_row(stored.id, seq, point)
            for stored, run in zip(runs, result["runs"], strict=True)
            for seq, point in enumerate(run["points"])
        )
        runs_summaries_recompute(run_ids=[run.id for run in runs])
        counts["runs"] += len(runs)
        counts["points"] += points
    return counts
