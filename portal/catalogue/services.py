"""Storing a published catalogue's submissions: each a published system (the operator's, read by everyone)
whose runs are published figures citing the repository, the file and the commit they were read from.

Idempotent: a submission stored again from the same commit changes nothing; from a newer commit, a run
whose figures or citation changed is replaced, and a run whose file is gone from the repository is removed.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction

from ingest import RunDict
from portal.models import Point, Run, System
from portal.results.figures import run_stored_figures, runs_curves_recompute
from portal.results.workloads import configs_for
from portal.systems.services import systems_facets_recompute

from .clone import Citation, Submission


@dataclass
class Stored:
    """What an import changed, counted per system and run."""

    systems_added: int = 0
    systems_updated: int = 0
    runs_added: int = 0
    runs_replaced: int = 0
    runs_removed: int = 0
    runs_unchanged: int = 0
    systems: list[System] = field(default_factory=list)

    def sentence(self) -> str:
        return (
            f"{len(self.systems)} systems ({self.systems_added} added, {self.systems_updated} updated); runs: "
            f"{self.runs_added} added, {self.runs_replaced} replaced, {self.runs_removed} removed, "
            f"{self.runs_unchanged} unchanged"
        )


def catalogue_store(*, submissions: Sequence[Submission]) -> Stored:
    """Store ``submissions`` (of one catalogue: MLPerf Storage's, IO500's) in one transaction."""
    stored = Stored()
    with transaction.atomic():
        for submission in submissions:
            system = _system_store(submission, stored)
            _runs_store(system, submission, stored)
            stored.systems.append(system)
        systems_facets_recompute(system_ids=[system.id for system in stored.systems])
    return stored


def _system_store(submission: Submission, stored: Stored) -> System:
    """The submission's published system (no team), created or brought up to date; saved only when a
    field differs, so that importing the same commit again changes nothing."""
    wanted = {**submission.system_fields(), "published": True}
    system = System.objects.filter(team=None, published=True, name__iexact=submission.name).first()
    if system is None:
        stored.systems_added += 1
        return System.objects.create(name=submission.name, team=None, **wanted)
    changed = {name: value for name, value in wanted.items() if getattr(system, name) != value}
    if changed:
        for name, value in changed.items():
            setattr(system, name, value)
        system.save()
        stored.systems_updated += 1
    return system


def _runs_store(system: System, submission: Submission, stored: Stored) -> None:
    config = configs_for(wanted=[(system, {})])[0]
    existing = {
        (run.citation_table, run.name): run
        for run in Run.objects.filter(config__system=system, origin=Run.Origin.PUBLISHED).prefetch_related("points")
    }
    new_runs: list[Run] = []
    new_points: list[Point] = []
    for result_run, citation in submission.runs:
        run, points = _published_run(config.id, result_run, citation, tool=submission.tool)
        old = existing.pop((run.citation_table, run.name), None)
        if old is not None and _same(old, run, points):
            stored.runs_unchanged += 1
            continue
        if old is not None:
            old.delete()
            stored.runs_replaced += 1
        else:
            stored.runs_added += 1
        new_runs.append(run)
        new_points.extend(points)
    for gone in existing.values():
        gone.delete()
        stored.runs_removed += 1
    Run.objects.bulk_create(new_runs)
    for point in new_points:
        point.run_id = point.run.id
    Point.objects.bulk_create(new_points)
    runs_curves_recompute(run_ids=[run.id for run in new_runs])


# What a published run is compared by: its citation, what it is and its figures.
_RUN_FIELDS = ("name", "description", "tool", "workload_name", "params", "verdict", "citation_document",
               "citation_table", "citation_note")  # fmt: skip
_POINT_FIELDS = ("load", "metrics", *Point.FIGURES)


def _same(old: Run, new: Run, points: list[Point]) -> bool:
    if any(getattr(old, name) != getattr(new, name) for name in _RUN_FIELDS):
        return False
    stored = sorted(old.points.all(), key=lambda point: point.seq)
    return [[getattr(p, name) for name in _POINT_FIELDS] for p in stored] == [
        [getattr(p, name) for name in _POINT_FIELDS] for p in points
    ]


def _published_run(config_id: int, run: RunDict, citation: Citation, *, tool: str) -> tuple[Run, list[Point]]:
    """A run of the result contract as a published run citing ``citation``, with its points. The figure the
    report printed in binary units (its "MB/second" is MiB/s) is kept as printed."""
    stored = Run(
        config_id=config_id,
        name=run["name"][:300],
        description=run.get("description") or "",
        tool=tool,
        workload_name=((run.get("workload") or {}).get("name") or run["name"])[:200],
        params=run.get("params") or {},
        verdict=run.get("verdict") or "",
        phase=run.get("phase") or Run.Phase.MEASUREMENT,
        origin=Run.Origin.PUBLISHED,
        citation_document=citation.repository[:200],
        citation_table=citation.path[:200],
        citation_note=citation.note(),
    )
    points = []
    for seq, point in enumerate(run["points"]):
        metrics = dict(point.get("metrics") or {})
        if metrics.get("mib_per_second_printed") is not None:
            metrics["published_mbps_binary"] = metrics["mib_per_second_printed"]
        load = point.get("load") or {}
        figures = {name: point.get(name) for name in Point.FIGURES}
        points.append(Point(run=stored, seq=seq, load=load, metrics=metrics, threads=load.get("threads"), **figures))
    figures = run_stored_figures(
        points=points,
        params=stored.params,
        origin=stored.origin,
        published_at_ms=None,
        printed_mbps_binary=[point.metrics.get("published_mbps_binary") for point in points],
    )
    for name, value in figures.items():
        setattr(stored, name, value)
    return stored, points
