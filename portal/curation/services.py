"""Changing what a maintainer says of their team's results: exclusions, workload names, stated facts.

Every change is a maintainer's (or an admin's) of the team that owns the run's system, is recorded in
the team's audit log and can be undone. A run of a system the actor may not read does not exist for
them (404); reading it without the maintainer role is refused (403).
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from portal.analysis.workloads import Signature, signature
from portal.errors import ApplicationError, NotFoundError
from portal.models import AuditEvent, Role, Run, RunStatement, WorkloadAlias
from portal.results.workloads import workloads_for
from portal.teams.selectors import allows, visible
from portal.teams.services import audit, audit_many

REASON_MAX = 300
NAME_MAX = 200


def run_maintained(*, run_id: int, actor: User) -> Run:
    """The run, when ``actor`` maintains the team that owns its system (404 when they may not read it,
    403 when they read it without that role)."""
    run = (
        visible(Run.objects.all(), viewer=actor, prefix="config__system__")
        .select_related("config__system__team", "workload")
        .filter(pk=run_id)
        .first()
    )
    if run is None:
        raise NotFoundError(f"There is no run #{run_id}.")
    if not allows(actor, run.config.system.team, Role.MAINTAINER):
        raise ApplicationError(
            "Only a maintainer of the system's team can change how its runs are compared.", status=403
        )
    return run


def _subject(run: Run) -> str:
    return f"run #{run.id} {run.name} of {run.config.system.name}"


@transaction.atomic
def run_exclude(*, run_id: int, reason: str, actor: User) -> Run:
    """Leave the run out of every comparison, table and sweep, with the reason shown beside it."""
    run = run_maintained(run_id=run_id, actor=actor)
    reason = " ".join(reason.split())
    if not reason:
        raise ApplicationError("Say why the run is excluded (a preconditioning pass, a failed run).", field="reason")
    if len(reason) > REASON_MAX:
        raise ApplicationError(f"A reason is at most {REASON_MAX} characters.", field="reason")
    now = timezone.now()
    Run.objects.filter(pk=run.pk).update(excluded_reason=reason, excluded_by=actor, excluded_at=now)
    run.excluded_reason, run.excluded_by, run.excluded_at = reason, actor, now
    audit(
        team=run.config.system.team, actor=actor, action=AuditEvent.Action.EXCLUDE, subject=f"{_subject(run)}: {reason}"
    )
    return run


@transaction.atomic
def run_include(*, run_id: int, actor: User) -> Run:
    """Compare the run again (undo :func:`run_exclude`)."""
    run = run_maintained(run_id=run_id, actor=actor)
    if not run.excluded_reason:
        return run
    Run.objects.filter(pk=run.pk).update(excluded_reason="", excluded_by=None, excluded_at=None)
    run.excluded_reason, run.excluded_by, run.excluded_at = "", None, None
    audit(team=run.config.system.team, actor=actor, action=AuditEvent.Action.INCLUDE, subject=_subject(run))
    return run


def _alias_target(run: Run) -> dict:
    """What a team's name is given to: the run's workload, else the name its runs were stored under."""
    return {"workload": run.workload} if run.workload_id else {"workload": None, "workload_name": run.workload_name}


def _aliased_text(run: Run) -> str:
    return f"workload {run.workload.name}" if run.workload is not None else f"workload {run.workload_name}"


@transaction.atomic
def workload_alias_set(*, run_id: int, name: str, actor: User) -> WorkloadAlias:
    """Give the run's workload the team's own name (for every run of it the team's members read)."""
    run = run_maintained(run_id=run_id, actor=actor)
    team = run.config.system.team
    if team is None:
        raise ApplicationError("Workload names are a team's; this system belongs to no team.")
    name = " ".join(name.split())
    if not name:
        raise ApplicationError("Give the workload a name.", field="name")
    if len(name) > NAME_MAX:
        raise ApplicationError(f"A workload name is at most {NAME_MAX} characters.", field="name")
    target = _alias_target(run)
    alias = WorkloadAlias.objects.select_for_update().filter(team=team, **target).first()
    if alias is None:
        alias = WorkloadAlias(team=team, **target)
    elif alias.name == name:
        return alias
    alias.name, alias.set_by = name, actor
    alias.save()
    audit(team=team, actor=actor, action=AuditEvent.Action.ALIAS, subject=f"{_aliased_text(run)} as {name}")
    return alias


@transaction.atomic
def workload_alias_remove(*, run_id: int, actor: User) -> None:
    """Remove the team's name for the run's workload: its stored name is shown again."""
    run = run_maintained(run_id=run_id, actor=actor)
    team = run.config.system.team
    alias = WorkloadAlias.objects.filter(team=team, **_alias_target(run)).first() if team else None
    if alias is None:
        return
    alias.delete()
    audit(team=team, actor=actor, action=AuditEvent.Action.UNALIAS, subject=f"{_aliased_text(run)} ({alias.name})")


def _stated_signature(run: Run, statement: RunStatement) -> Signature | None:
    """The run's workload from its file's values, where the file said them, and the stated ones elsewhere."""
    sizes = run.transfer_sizes or (
        [{"bytes": statement.transfer_size_bytes, "pct": 100}] if statement.transfer_size_bytes else []
    )
    parsed = statement.parsed_workload
    return signature(
        read_pct=run.read_pct if run.read_pct is not None else statement.read_pct,
        random_pct=run.random_pct if run.random_pct is not None else statement.random_pct,
        transfer_sizes=sizes,
        alignment_bytes=parsed.alignment_bytes if parsed else None,
        streams=parsed.streams if parsed else None,
    )


def _stated_values(run: Run, *, read_pct: int | None, random_pct: int | None, transfer_size_bytes: int | None) -> dict:
    """The values stated for ``run``: those its file left out (a value the file gave is not overridden)."""
    return {
        "read_pct": read_pct if run.read_pct is None else None,
        "random_pct": random_pct if run.random_pct is None else None,
        "transfer_size_bytes": transfer_size_bytes if not run.transfer_sizes else None,
    }


@transaction.atomic
def run_statement_set(
    *,
    run_id: int,
    actor: User,
    read_pct: int | None = None,
    random_pct: int | None = None,
    transfer_size_bytes: int | None = None,
    same_name: bool = False,
) -> list[RunStatement]:
    """State what the run's file did not say (read %, random %, one transfer size), for this run or
    (``same_name``) every run of its name in its system; each run's workload is resolved again from its
    file's values and the stated ones, so it is compared with the same workload of other systems."""
    run = run_maintained(run_id=run_id, actor=actor)
    asked = {"read_pct": read_pct, "random_pct": random_pct, "transfer_size_bytes": transfer_size_bytes}
    _check_stated(asked)
    runs = [run]
    if same_name:
        runs = list(
            Run.objects.filter(config__system_id=run.config.system_id, name=run.name).select_related("workload")
        )
    existing = {s.run_id: s for s in RunStatement.objects.select_for_update().filter(run__in=runs)}
    statements, changed = [], []
    for each in runs:
        values = _stated_values(each, **asked)
        if all(value is None for value in values.values()):
            continue
        found = existing.get(each.id) or RunStatement(run=each, parsed_workload_id=each.workload_id)
        for field, value in values.items():
            setattr(found, field, value if value is not None else getattr(found, field))
        found.stated_by = actor
        statements.append(found)
        changed.append(each)
    if not statements:
        raise ApplicationError("The file stated these values already; nothing was left to state.")
    RunStatement.objects.bulk_create(
        statements,
        update_conflicts=True,
        unique_fields=["run"],
        update_fields=["read_pct", "random_pct", "transfer_size_bytes", "stated_by", "stated_at"],
    )
    _workloads_resolve(changed, {s.run_id: s for s in statements}, public=run.config.system.published)
    stated = ", ".join(_stated_words(asked))
    audit_many(
        team=run.config.system.team,
        actor=actor,
        action=AuditEvent.Action.STATE,
        subjects=[f"{_subject(each)}: {stated}" for each in changed],
    )
    return statements


def _check_stated(asked: dict) -> None:
    if all(value is None for value in asked.values()):
        raise ApplicationError("State a read %, a random % or a transfer size.")
    for field in ("read_pct", "random_pct"):
        if asked[field] is not None and not 0 <= asked[field] <= 100:
            raise ApplicationError("A percentage is between 0 and 100.", field=field)
    if asked["transfer_size_bytes"] is not None and asked["transfer_size_bytes"] <= 0:
        raise ApplicationError("A transfer size is a positive number of bytes.", field="transfer_size_bytes")


def _stated_words(asked: dict) -> list[str]:
    words = {"read_pct": "read % {}", "random_pct": "random % {}", "transfer_size_bytes": "transfer size {} bytes"}
    return [words[field].format(value) for field, value in asked.items() if value is not None]


def _workloads_resolve(runs: list[Run], statements: dict[int, RunStatement], *, public: bool) -> None:
    """Point each run at the workload its file's and stated values give (the file's own when they still
    are not enough): one update per workload, whatever the number of runs."""
    signatures = [_stated_signature(run, statements[run.id]) for run in runs]
    found = workloads_for(
        wanted=[(sig, run.workload_name) for sig, run in zip(signatures, runs, strict=True)], public=public
    )
    by_workload: dict[int | None, list[int]] = defaultdict(list)
    for run, workload in zip(runs, found, strict=True):
        chosen = workload if workload is not None else statements[run.id].parsed_workload
        by_workload[chosen.id if chosen else None].append(run.id)
    for workload_id, run_ids in by_workload.items():
        Run.objects.filter(id__in=run_ids).update(workload_id=workload_id)


@transaction.atomic
def run_statement_remove(*, run_id: int, actor: User) -> None:
    """Remove what was stated of the run: its workload is the one its file's values give again."""
    run = run_maintained(run_id=run_id, actor=actor)
    statement = RunStatement.objects.filter(run=run).first()
    if statement is None:
        return
    Run.objects.filter(pk=run.pk).update(workload_id=statement.parsed_workload_id)
    statement.delete()
    audit(team=run.config.system.team, actor=actor, action=AuditEvent.Action.UNSTATE, subject=_subject(run))


@dataclass(frozen=True)
class KeptOverride:
    """A run's exclusion and stated values, to give back to the run of the same name a new reading stores."""

    name: str
    # The run's place among the runs of its name in the upload (replicates share a name), from 1.
    position: int
    excluded_reason: str
    excluded_by_id: int | None
    excluded_at: datetime | None
    statement: RunStatement | None


def _by_position(runs: QuerySet[Run]) -> QuerySet[Run]:
    return runs.annotate(position=Window(RowNumber(), partition_by=F("name"), order_by=F("id").asc()))


def _position(run: Run) -> int:
    return run.position  # type: ignore[attr-defined]  # annotated by _by_position


def overrides_kept(*, runs: QuerySet[Run]) -> list[KeptOverride]:
    """What maintainers said of ``runs`` (an upload's, about to be read again): one query."""
    said = _by_position(runs).filter(~Q(excluded_reason="") | Q(statement__isnull=False))
    return [
        KeptOverride(run.name, _position(run), run.excluded_reason, run.excluded_by_id, run.excluded_at, statement)
        for run in said.select_related("statement")
        for statement in [getattr(run, "statement", None)]
    ]


def overrides_restore(*, kept: list[KeptOverride], runs: QuerySet[Run]) -> int:
    """Give the runs a new reading stored (``runs``) the exclusions and stated values of the runs they
    replace, matched by name and place among the runs of that name; returns how many got them back."""
    if not kept:
        return 0
    wanted = {(override.name, override.position): override for override in kept}
    found = [
        run
        for run in _by_position(runs.filter(name__in={name for name, _ in wanted})).select_related("config__system")
        if (run.name, _position(run)) in wanted
    ]
    excluded = []
    statements: dict[int, RunStatement] = {}
    for run in found:
        override = wanted[(run.name, _position(run))]
        if override.excluded_reason:
            run.excluded_reason, run.excluded_by_id = override.excluded_reason, override.excluded_by_id
            run.excluded_at = override.excluded_at
            excluded.append(run)
        if override.statement is not None:
            old = override.statement
            statements[run.id] = RunStatement(
                run=run,
                read_pct=old.read_pct,
                random_pct=old.random_pct,
                transfer_size_bytes=old.transfer_size_bytes,
                parsed_workload_id=run.workload_id,
                stated_by_id=old.stated_by_id,
            )
    Run.objects.bulk_update(excluded, ["excluded_reason", "excluded_by", "excluded_at"])
    RunStatement.objects.bulk_create(statements.values())
    for public in (True, False):
        stated = [run for run in found if run.id in statements and run.config.system.published is public]
        if stated:
            _workloads_resolve(stated, statements, public=public)
    return len(found)
