"""Services of results: result sets stored in bulk (COPY), their configurations, workloads and summaries."""

import datetime
from collections.abc import Iterable, Sequence

from django.db import connection, models
from django.db.models import Count, Max, Min
from django.db.models.fields.json import KT
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from psycopg.types.json import Jsonb

from ingest.cycles import cycle_collection_paused
from ingest.latency import point_percentiles
from portal.analysis.vocabulary import raid_level_canonical
from portal.analysis.workloads import Signature, describe, signature
from portal.errors import ApplicationError
from portal.models import Config, Point, Run, System, Upload, Workload
from portal.results.selectors import (
    CurveSource,
    PointFigures,
    points_by_run,
    points_metric,
    points_threshold,
    published_mbps_binary,
    run_rule,
    stated_response_ms,
)
from portal.systems.services import CONFIG_LABELS, system_get_or_create, systems_facets_recompute


def run_summary_recompute(*, run_id: int) -> dict:
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


def runs_summaries_recompute(*, run_ids: Iterable[int]) -> None:
    """Recompute the summaries of runs in one statement, inside the caller's transaction."""
    with connection.cursor() as cursor:
        cursor.execute(_SUMMARIES_SQL, [list(run_ids)])


# The columns of a run's stored figures, in the order :func:`run_stored_figures` gives them.
STORED_FIGURE_COLUMNS = (
    "throughput_metric",
    "iops_at_20ms",
    "iops_at_20ms_status",
    "mbps_at_20ms",
    "mbps_at_20ms_status",
    "reached_20ms",
    "published_mbps_binary",
)


def run_stored_figures(
    *,
    points: Sequence[CurveSource],
    params: dict | None,
    origin: str,
    published_at_ms: float | None,
    printed_mbps_binary: Sequence[float | None] = (),
) -> dict:
    """A run's figures at the papers' default (``Run.STORED_FIGURES_AT_MS`` of average response time) in
    IOPS and MB/s, each with the status the curve gives, as the run's columns (:data:`STORED_FIGURE_COLUMNS`).

    ``points`` in load order; ``printed_mbps_binary``: each point's MB/s as a paper printed it in binary
    units, where it did (``metrics.published_mbps_binary``)."""
    latency = Run.STORED_FIGURES_LATENCY
    stated_ms = stated_response_ms(origin=origin, published_at_ms=published_at_ms, latency=latency)
    judged_by = points_metric(points=points)
    columns: dict = {"throughput_metric": judged_by}
    for metric in ("iops", "mbps"):
        _, answer = points_threshold(
            points=points,
            threshold_ms=Run.STORED_FIGURES_AT_MS,
            rule=run_rule(params=params),
            stated_ms=stated_ms,
            metric=metric,
            latency=latency,
            published=origin == Run.Origin.PUBLISHED,
        )
        columns |= {f"{metric}_at_20ms": answer.value, f"{metric}_at_20ms_status": str(answer.status)}
        if metric == judged_by:
            columns["reached_20ms"] = answer.reached
    columns["published_mbps_binary"] = published_mbps_binary(printed=printed_mbps_binary)
    return columns


_STORED_UPDATE_SQL = f"""
    UPDATE {Run._meta.db_table} AS run SET {", ".join(f"{name} = figures.{name}" for name in STORED_FIGURE_COLUMNS)}
    FROM unnest(%s::bigint[], %s::varchar[], %s::float8[], %s::varchar[], %s::float8[], %s::varchar[], %s::bool[],
                %s::float8[]) AS figures(id, {", ".join(STORED_FIGURE_COLUMNS)})
    WHERE run.id = figures.id
"""


def runs_stored_figures_recompute(*, run_ids: Sequence[int]) -> None:
    """Compute and store the figures of runs already stored (:func:`run_stored_figures`), from their points
    in load order: three statements for the runs given, whatever their number."""
    runs = {
        run_id: (rule, origin, published_at_ms)
        for run_id, rule, origin, published_at_ms in Run.objects.filter(id__in=list(run_ids))
        .order_by()
        .values_list("id", KT("params__threshold_rule"), "origin", "published_at_ms")
    }
    rows = []
    for run_id, (points, printed) in points_by_run(list(runs)).items():
        rule, origin, published_at_ms = runs[run_id]
        figures = run_stored_figures(
            points=points,
            params={"threshold_rule": rule},
            origin=origin,
            published_at_ms=published_at_ms,
            printed_mbps_binary=printed,
        )
        rows.append((run_id, *(figures[name] for name in STORED_FIGURE_COLUMNS)))
    if rows:
        with connection.cursor() as cursor:
            cursor.execute(_STORED_UPDATE_SQL, [list(column) for column in zip(*rows, strict=True)])


def runs_stored_figures_fill(*, batch: int = 5_000) -> int:
    """Store the figures of every run without them (stored before they were kept, or edited since), ``batch``
    runs at a time in id order; returns how many runs were filled."""
    filled, after = 0, 0
    while True:
        ids = list(
            Run.objects.filter(throughput_metric="", id__gt=after).order_by("id").values_list("id", flat=True)[:batch]
        )
        if not ids:
            return filled
        runs_stored_figures_recompute(run_ids=ids)
        filled, after = filled + len(ids), ids[-1]


class StoreError(ApplicationError):
    """Results that parse but cannot be stored as asked (no system named, ...)."""


def _systems_for(results, system, team):
    """The system each result set goes to (the given one, else the one it names, of ``team``), created
    in name order."""
    if system is not None:
        return [system] * len(results)
    order = sorted(range(len(results)), key=lambda i: ((results[i].get("system") or {}).get("name") or "").lower())
    found = {index: _system_for(results[index], team) for index in order}
    return [found[index] for index in range(len(results))]


def _system_for(result, team):
    described = result.get("system") or {}
    if not described.get("name"):
        raise StoreError(
            f"{result['source']['name']}: the file does not say which system it measured; "
            "choose a system when uploading (or --system on the command line)"
        )
    return system_get_or_create(
        name=described["name"], vendor=described.get("vendor") or "", model=described.get("model") or "", team=team
    )


def _profiled_firmware(targets, results):
    """Each system's controller firmware as an array profile among these results names it, else as the
    system's last profile did: the firmware of runs that state none."""
    firmware = {target.id: target.firmware for target in targets if target.firmware}
    for target, result in zip(targets, results, strict=True):
        if result["format"] == "array_profile" and (result.get("system") or {}).get("firmware"):
            firmware[target.id] = result["system"]["firmware"]
    return firmware


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


def config_for(*, system: System, labels: dict) -> Config:
    """The stored configuration with these properties (created once, found by identity)."""
    return configs_for(wanted=[(system, labels)])[0]


def configs_for(*, wanted: list[tuple[System, dict]]) -> list[Config]:
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


def run_signature(*, workload: dict) -> Signature | None:
    """The signature of a run's workload as the result contract gives it (None when not known)."""
    return signature(
        read_pct=workload.get("read_pct"),
        random_pct=workload.get("random_pct"),
        transfer_sizes=workload.get("transfer_sizes"),
        alignment_bytes=workload.get("alignment_bytes"),
        streams=workload.get("streams"),
    )


def workloads_for(
    *, wanted: list[tuple[Signature | None, str]], public: bool = True, titled: bool = False
) -> list[Workload | None]:
    """Stored workloads for ``[(signature, name), ...]``, in order (None where the signature is unknown).

    Created race-free like configurations (``ON CONFLICT DO NOTHING``, then read back); each name a
    workload is stored under is added to its names, so it can be asked for by any of them. A new
    workload is titled by what it does ("8 KiB random, 67 % read"), unless its names were given by a
    paper or a person (``titled``: "OLTP 8K"): a tool's job name ("iotest", "rd1") is only an alias.
    Workloads are shared by every system: the names of a private system's runs (not ``public``) are
    not added, and a workload it is the first to store is titled by its description.
    """
    known = {sig.identity: (sig, name) for sig, name in wanted if sig is not None}
    stored = Workload.objects.in_bulk(known, field_name="identity")
    missing = sorted(identity for identity in known if identity not in stored)
    if missing:
        rows = [_workload_row(*known[identity], public=public, titled=titled) for identity in missing]
        Workload.objects.bulk_create(rows, ignore_conflicts=True)
        stored = Workload.objects.in_bulk(known, field_name="identity")
    if public:
        _workload_names_add({(stored[sig.identity].id, name) for sig, name in wanted if sig is not None}, stored)
    return [stored[sig.identity] if sig is not None else None for sig, _name in wanted]


def workload_names_publish(*, system_id: int) -> None:
    """Add the names a system's runs were stored under to their workloads (the system is published)."""
    pairs = set(
        Run.objects.filter(config__system_id=system_id, workload__isnull=False)
        .values_list("workload_id", "workload_name")
        .distinct()
    )
    if pairs:
        stored = Workload.objects.in_bulk({workload_id for workload_id, _name in pairs})
        _workload_names_add({pair for pair in pairs if pair[1]}, stored)


def _workload_row(sig, name, *, public, titled):
    title = name if public and titled else describe(sig)
    return Workload(
        identity=sig.identity,
        read_pct=sig.read_pct,
        random_pct=sig.random_pct,
        transfer_sizes=[list(size) for size in sig.transfer_sizes],
        alignment_bytes=sig.alignment_bytes,
        streams=sig.streams,
        name=title[:200],
        names=[name[:200]] if public else [],
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


def _run_values(result, run, *, config, upload, labels, workload=None, firmware=""):
    """The column values of a run of the result contract, by attribute name (ids, not instances)."""
    workload_fields = run["workload"]
    return {
        "config_id": config.id,
        "upload_id": upload.id if upload is not None else None,
        "name": run["name"][:300],
        "description": run.get("description") or "",
        "tool": result["tool"]["name"],
        "tool_version": result["tool"].get("version") or "",
        "workload_name": _workload_name(run, labels),
        "workload_id": workload.id if workload is not None else None,
        "read_pct": workload_fields.get("read_pct"),
        "random_pct": workload_fields.get("random_pct"),
        "transfer_sizes": workload_fields.get("transfer_sizes") or [],
        "params": run.get("params") or {},
        "verdict": run.get("verdict") or "",
        "phase": run.get("phase") or Run.Phase.MEASUREMENT,
        "measurement": labels.get("measurement") or Run.Measurement.END_TO_END,
        "firmware": (labels.get("firmware") or firmware)[:100],
        "started_at": _aware(parse_datetime(run["started_at"])) if run.get("started_at") else None,
        "tags": labels.get("tags") or [],
        "notes": labels.get("notes") or "",
        **_stored_figures(run),
    }


def _stored_figures(run):
    """The stored figures of a run of the result contract, from the points it holds (stored as measured)."""
    points = [_point_figures(seq, point) for seq, point in enumerate(run["points"])]
    printed = [(point.get("metrics") or {}).get("published_mbps_binary") for point in run["points"]]
    return run_stored_figures(
        points=points,
        params=run.get("params"),
        origin=Run.Origin.MEASURED,
        published_at_ms=None,
        printed_mbps_binary=printed,
    )


def _point_figures(seq, point):
    load = point.get("load") or {}
    return PointFigures(
        seq,
        load.get("outstanding_io"),
        load.get("threads"),
        point.get("iops"),
        point.get("mbps"),
        point.get("avg_response_ms"),
        point.get("max_response_ms"),
    )


def _workload_name(run, labels):
    return (labels.get("workload_name") or (run.get("workload") or {}).get("name") or run["name"])[:200]


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


def points_copy(*, rows: Iterable[list]) -> None:
    """Insert point rows (from :func:`_point_row`) with PostgreSQL COPY: points carry kilobytes of
    JSON metrics each, and COPY streams them without building (and quoting) one huge INSERT statement."""
    _copy(Point._meta.db_table, POINT_COPY_COLUMNS, rows)


def _copy(table, columns, rows):
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def runs_copy(*, runs: list[dict]) -> list[int]:
    """Insert runs (column values by attribute name; the model's defaults for the others) with COPY,
    their ids reserved from the table's sequence in one query; returns their ids. One INSERT of
    thousands of runs binds hundreds of thousands of parameters, and a model instance per run costs
    more than its row."""
    if not runs:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [Run._meta.db_table, len(runs)],
        )
        ids = [run_id for (run_id,) in cursor.fetchall()]
    fields = Run._meta.concrete_fields
    # What the model gives a run that states nothing else; written as it holds values (Django's
    # per-field preparation costs more than the COPY itself for thousands of runs). JSON columns
    # need the adapter.
    defaults = {field.attname: field.get_default() for field in fields} | {"created_at": timezone.now()}
    json_columns = {field.attname for field in fields if isinstance(field, models.JSONField)}
    names = [field.attname for field in fields]
    rows = (
        [Jsonb(row[name]) if name in json_columns else row[name] for name in names]
        for row in ({**defaults, **values, "id": run_id} for run_id, values in zip(ids, runs, strict=True))
    )
    _copy(Run._meta.db_table, [field.column for field in fields], rows)
    return ids


def result_sets_store(
    *, results: list[dict], upload: Upload | None, system: System | None = None, labels: dict | None = None
) -> dict:
    """Store result sets (from :func:`ingest.read`, which checked them against the contract) in bulk;
    return what was stored.

    Systems the results name are the upload's team's (created private to it when new). Array
    profiles create or update their system; runs go to the configuration given by the labels; run
    summaries are computed in the same transaction. Must run inside a transaction: the caller
    decides what is stored together.
    """
    # Rows of thousands of runs and points are built here, none in a reference cycle: the collector
    # would traverse them, and the result sets, again and again as they grow.
    with cycle_collection_paused():
        return _result_sets_store(results, upload, system, labels or {})


def _result_sets_store(results, upload, system, labels):
    counts: dict = {"system": None, "runs": 0, "points": 0}
    # Systems and configurations are created first, in one order (names, identities), so two
    # transactions storing results of the same arrays never wait on each other crosswise.
    targets = _systems_for(results, system, upload.team if upload is not None else None)
    measured = {target.id: target for target, result in zip(targets, results, strict=True) if result["runs"]}
    with_runs = [measured[system_id] for system_id in sorted(measured)]
    config_of = dict(zip((t.id for t in with_runs), configs_for(wanted=[(t, labels) for t in with_runs]), strict=True))
    firmware_of = _profiled_firmware(targets, results)
    for target, result in zip(targets, results, strict=True):
        counts["system"] = target
        if result["format"] == "array_profile":
            _system_profile_update(target, result["system"], upload)
        if not result["runs"]:
            continue
        config = config_of[target.id]
        workloads = workloads_for(
            wanted=[(run_signature(workload=run["workload"]), _workload_name(run, labels)) for run in result["runs"]],
            public=target.published,
            titled=bool(labels.get("workload_name")),
        )
        run_ids = runs_copy(
            runs=[
                _run_values(
                    result,
                    run,
                    config=config,
                    upload=upload,
                    labels=labels,
                    workload=workload,
                    firmware=firmware_of.get(target.id, ""),
                )  # fmt: skip
                for run, workload in zip(result["runs"], workloads, strict=True)
            ]
        )
        points = sum(len(run["points"]) for run in result["runs"])
        points_copy(
            rows=(
                _point_row(run_id, seq, point)
                for run_id, run in zip(run_ids, result["runs"], strict=True)
                for seq, point in enumerate(run["points"])
            )
        )
        runs_summaries_recompute(run_ids=run_ids)
        counts["runs"] += len(run_ids)
        counts["points"] += points
    systems_facets_recompute(system_ids=measured)
    return counts
