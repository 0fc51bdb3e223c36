"""Services of results: result sets stored in bulk (COPY) with their runs' summaries, figures and curves; a
system's results published (readable by everyone) or made private to its team again."""

import datetime
from collections.abc import Iterator, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from ingest.cycles import cycle_collection_paused
from ingest.latency import point_percentiles
from ingest.result_dicts import PointDict, ResultSetDict, RunDict, SystemDict
from portal.errors import ApplicationError
from portal.models import AuditEvent, Config, Run, System, Team, Upload, Workload
from portal.results.copy import curves_copy, point_row, points_copy, runs_copy, sweep_cells_lock
from portal.results.figures import run_curve_row, run_stored_figures, run_summary_of
from portal.results.selectors import PointFigures
from portal.results.workloads import configs_for, run_signature, workload_names_publish, workloads_for
from portal.systems.selectors import systems_named
from portal.systems.services import system_get_or_create, systems_facets_recompute
from portal.teams.selectors import Viewer
from portal.teams.services import TeamError, audit


class StoreError(ApplicationError):
    """Results that parse but cannot be stored as asked (no system named, ...)."""


def _systems_for(results: list[ResultSetDict], system: System | None, team: Team | None) -> list[System]:
    """The system each result set goes to (the given one, else the one it names, of ``team``), created
    in name order."""
    if system is not None:
        return [system] * len(results)
    order = sorted(range(len(results)), key=lambda i: _system_name(results[i]).lower())
    found = {index: _system_for(results[index], team) for index in order}
    return [found[index] for index in range(len(results))]


def _system_name(result: ResultSetDict) -> str:
    """The name of the system the result set describes, "" when it names none."""
    described = result.get("system")
    return (described.get("name") if described is not None else None) or ""


def _system_for(result: ResultSetDict, team: Team | None) -> System:
    described = result.get("system")
    name = described.get("name") if described is not None else None
    if described is None or not name:
        raise StoreError(
            f"{result['source']['name']}: the file does not say which system it measured; "
            "choose a system when uploading (or --system on the command line)"
        )
    return system_get_or_create(
        name=name, vendor=described.get("vendor") or "", model=described.get("model") or "", team=team
    )


def _profiled_firmware(targets: list[System], results: list[ResultSetDict]) -> dict[int, str]:
    """Each system's controller firmware as an array profile among these results names it, else as the
    system's last profile did: the firmware of runs that state none."""
    firmware = {target.id: target.firmware for target in targets if target.firmware}
    for target, result in zip(targets, results, strict=True):
        described = result.get("system")
        if result["format"] == "array_profile" and described is not None and (profiled := described.get("firmware")):
            firmware[target.id] = profiled
    return firmware


def _system_profile_update(system: System, described: SystemDict, upload: Upload | None) -> None:
    for name in ("vendor", "model", "firmware"):
        if value := described.get(name):
            setattr(system, name, value)
    for name in ("controllers", "cache_mb_per_controller"):
        if (value := described.get(name)) is not None:
            setattr(system, name, value)
    system.profile = described
    system.profile_upload = upload
    system.save()


def _run_values(
    result: ResultSetDict,
    run: RunDict,
    *,
    percentiles: Sequence[dict[str, float]],
    config: Config,
    upload: Upload | None,
    labels: dict,
    workload: Workload | None = None,
    firmware: str = "",
) -> dict[str, Any]:
    """The column values of a run of the result contract, by attribute name (ids, not instances);
    ``percentiles``: its points' latency percentiles, in point order."""
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
        "started_at": _aware(parse_datetime(started)) if (started := run.get("started_at")) else None,
        "tags": labels.get("tags") or [],
        "notes": labels.get("notes") or "",
        "summary": run_summary_of(run["points"]),
        **_stored_figures(run, percentiles),
    }


def _stored_figures(run: RunDict, percentiles: Sequence[dict[str, float]]) -> dict[str, Any]:
    """The stored figures of a run of the result contract, from the points it holds (stored as measured) and
    their latency percentiles (``ingest.latency.point_percentiles``, in point order)."""
    points = [
        _point_figures(seq, point, point_ms)
        for seq, (point, point_ms) in enumerate(zip(run["points"], percentiles, strict=True))
    ]
    printed = [(point.get("metrics") or {}).get("published_mbps_binary") for point in run["points"]]
    return run_stored_figures(
        points=points,
        params=run.get("params"),
        origin=Run.Origin.MEASURED,
        published_at_ms=None,
        printed_mbps_binary=printed,
    )


def _point_figures(seq: int, point: PointDict, percentiles: dict[str, float]) -> PointFigures:
    load = point.get("load") or {}
    return PointFigures(
        seq,
        load.get("outstanding_io"),
        load.get("threads"),
        point.get("iops"),
        point.get("mbps"),
        point.get("avg_response_ms"),
        point.get("max_response_ms"),
        percentiles,
    )


def _workload_name(run: RunDict, labels: dict) -> str:
    return (labels.get("workload_name") or (run.get("workload") or {}).get("name") or run["name"])[:200]


def _aware(moment: datetime.datetime | None) -> datetime.datetime | None:
    """Tools print local times without a zone; they are stored as UTC (the tool's clock as is)."""
    if moment is not None and timezone.is_naive(moment):
        return timezone.make_aware(moment, datetime.UTC)
    return moment


def _point_rows(
    run_ids: Sequence[int], runs: Sequence[RunDict], percentiles: Sequence[list[dict[str, float]]], curves: list[list]
) -> Iterator[list]:
    """The point rows of ``runs`` for COPY, with their latency percentiles (a list per run, in point order);
    each run's curve is added to ``curves`` once its points are written."""
    for run_id, run, run_percentiles in zip(run_ids, runs, percentiles, strict=True):
        for seq, (point, point_ms) in enumerate(zip(run["points"], run_percentiles, strict=True)):
            yield point_row(run_id, seq, point, percentiles=point_ms)
        curves.append(run_curve_row(run_id=run_id, points=run["points"], percentiles=run_percentiles))


def result_sets_store(
    *, results: list[ResultSetDict], upload: Upload | None, system: System | None = None, labels: dict | None = None
) -> dict[str, Any]:
    """Store result sets (from :func:`ingest.read`, which checked them against the contract) in bulk;
    return what was stored.

    Systems the results name are the upload's team's (created private to it when new). Array
    profiles and system descriptions (MLPerf Storage's) create or update their system; runs go to the
    configuration given by the labels; run summaries, figures at the papers' default and curves are
    written with them. Must run inside a transaction: the caller decides what is stored together.
    """
    # Rows of thousands of runs and points are built here, none in a reference cycle: the collector
    # would traverse them, and the result sets, again and again as they grow.
    with cycle_collection_paused():
        return _result_sets_store(results, upload, system, labels or {})


def _result_sets_store(
    results: list[ResultSetDict], upload: Upload | None, system: System | None, labels: dict
) -> dict:
    counts: dict[str, Any] = {"system": None, "runs": 0, "points": 0}
    # Systems and configurations are created first, in one order (names, identities), so two
    # transactions storing results of the same arrays never wait on each other crosswise.
    targets = _systems_for(results, system, upload.team if upload is not None else None)
    measured = {target.id: target for target, result in zip(targets, results, strict=True) if result["runs"]}
    with_runs = [measured[system_id] for system_id in sorted(measured)]
    config_of = dict(zip((t.id for t in with_runs), configs_for(wanted=[(t, labels) for t in with_runs]), strict=True))
    firmware_of = _profiled_firmware(targets, results)
    if len(config_of) > 1:  # one configuration's lock is taken when its points are written
        sweep_cells_lock(config_ids=[config.id for config in config_of.values()])
    for target, result in zip(targets, results, strict=True):
        counts["system"] = target
        if described := result.get("system"):  # an array profile, a system description (MLPerf Storage's)
            _system_profile_update(target, described, upload)
        if not result["runs"]:
            continue
        config = config_of[target.id]
        workloads = workloads_for(
            wanted=[(run_signature(workload=run["workload"]), _workload_name(run, labels)) for run in result["runs"]],
            public=target.published,
            titled=bool(labels.get("workload_name")),
        )
        # Each point's latency percentiles, read once for the run's figures, its point rows and its curve.
        percentiles = [
            [point_percentiles(point.get("metrics") or {}) for point in run["points"]] for run in result["runs"]
        ]
        run_ids = runs_copy(
            runs=[
                _run_values(
                    result,
                    run,
                    percentiles=run_percentiles,
                    config=config,
                    upload=upload,
                    labels=labels,
                    workload=workload,
                    firmware=firmware_of.get(target.id, ""),
                )  # fmt: skip
                for run, run_percentiles, workload in zip(result["runs"], percentiles, workloads, strict=True)
            ]
        )
        curves: list[list] = []
        points_copy(rows=_point_rows(run_ids, result["runs"], percentiles, curves))
        curves_copy(rows=curves)
        counts["runs"] += len(run_ids)
        counts["points"] += sum(len(run["points"]) for run in result["runs"])
    systems_facets_recompute(system_ids=measured)
    return counts


@transaction.atomic
def system_publish(*, system: System, actor: Viewer | None = None, published: bool = True) -> System:
    """Make a system readable by everyone (or private to its team again)."""
    system = System.objects.select_for_update().get(pk=system.pk)
    if system.published == published:
        return system
    if published:
        clash = systems_named(name=system.name).filter(published=True).exclude(pk=system.pk).first()
        if clash is not None:
            raise TeamError(
                f"a published system is already named {system.name!r}; rename this one before publishing it"
            )
    system.published = published
    system.published_at = timezone.now() if published else None
    system.save(update_fields=["published", "published_at", "updated_at"])
    if published:
        workload_names_publish(system_id=system.id)
    action = AuditEvent.Action.PUBLISH if published else AuditEvent.Action.UNPUBLISH
    audit(team=system.team, actor=actor, action=action, subject=f"system {system.name}")
    return system
