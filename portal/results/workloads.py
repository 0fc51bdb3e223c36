"""Workloads and configurations of results: found by identity or created race-free, in bulk; and the names a
viewer's teams gave workloads (curated in :mod:`portal.curation`), as a search by name reads them."""

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Q, QuerySet

from portal.analysis.vocabulary import raid_level_canonical
from portal.analysis.workload_groups import GroupedRun, group_key, group_labels
from portal.analysis.workloads import Signature, describe, signature
from portal.models import Config, Membership, Run, System, Workload, WorkloadAlias
from portal.systems.services import CONFIG_LABELS
from portal.teams.selectors import Viewer


def _config_properties(labels: dict) -> dict:
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


def run_signature(*, workload: Mapping[str, Any]) -> Signature | None:
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


def _workload_row(sig: Signature, name: str, *, public: bool, titled: bool) -> Workload:
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


def _workload_names_add(pairs: set[tuple[int, str]], stored: dict) -> None:
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


def run_group_labels(*, runs: Iterable[Run], titled: bool = False) -> dict[int, str]:
    """Each run's workload group by run id, as its name (:mod:`portal.analysis.workload_groups`): runs of one
    workload share it, runs of two never do, whatever they were stored under; ``titled``: a group of a
    workload named by the workload's name (as comparisons name it), not its runs' stored name. Reads
    ``run.workload``: select it with the runs."""
    grouped = {run.id: _grouped(run, titled=titled) for run in runs}
    labels = group_labels(grouped.values())
    return {
        run_id: labels[group_key(workload_id=run.workload_id, stored_name=run.stored_name)]
        for run_id, run in grouped.items()
    }


def _grouped(run: Run, *, titled: bool = False) -> GroupedRun:
    workload = run.workload
    if workload is None:
        return GroupedRun(None, run.workload_name, "", "")
    # A workload's group key is its id: the stored name only names it.
    name = workload.name if titled else run.workload_name
    return GroupedRun(workload.id, name, workload.name, describe(workload.signature()))


def _teams_of(viewer: User) -> QuerySet[Membership, Any]:
    return Membership.objects.filter(user_id=viewer.pk).values("team_id")


def viewer_aliases(*, viewer: Viewer | None) -> QuerySet[WorkloadAlias]:
    """The names the teams of ``viewer`` gave to workloads (none for a reader without a team)."""
    if viewer is None or not viewer.is_authenticated:
        return WorkloadAlias.objects.none()
    return WorkloadAlias.objects.filter(team_id__in=_teams_of(viewer))


def named_by_team(*, name: str, viewer: Viewer | None) -> Q:
    """Runs of a workload (or stored under a name) that a team of ``viewer`` calls ``name``: a condition
    with two subqueries, no query of its own."""
    aliases = viewer_aliases(viewer=viewer).filter(name=name)
    return Q(workload_id__in=aliases.filter(workload__isnull=False).values("workload_id")) | Q(
        workload__isnull=True, workload_name__in=aliases.filter(workload__isnull=True).values("workload_name")
    )
