"""A system's drive-count sweeps at a threshold, and the sizing answers read from them.

A sweep is one configuration family (RAID level, cache setting and every other property but the
drive count) and one workload, measured at two or more drive counts. Without a sweep, the
back-end formula gives a stated estimate.
"""

import json
import statistics
from collections import defaultdict

from django.db.models import Count

from portal import formatting
from portal.analysis.drive_scaling import (
    RAID_WRITE_PENALTY,
    DriveCountFigure,
    backend,
    drives_needed,
    fit,
    leave_one_out,
    rule_of_thumb_iops,
)
from portal.analysis.drives_error import drives_left_out
from portal.analysis.figure_kinds import not_sized, sized_by_drives
from portal.models import Run, System
from portal.results.kinds import run_figure_kind
from portal.results.selectors import COMPARABLE, Figure, threshold_figures
from portal.results.workloads import run_group_labels

from .answers import Estimate, Sizing, SweepSizing
from .forms import SizingQuestionForm


def sizing(
    *,
    system: System,
    workload: str,
    threshold_ms: float,
    raid_level: str | None = None,
    cache: str | None = None,
    target: float | None = None,
    drives: int | None = None,
) -> Sizing:
    """Every sweep of ``workload`` on ``system`` matching the filters, each fitted and asked the question."""
    figures = threshold_figures(
        system=system, threshold_ms=threshold_ms, workload=workload, raid_level=raid_level, cache=cache
    )
    unsized = _unsized(figures, workload=workload)
    figures_sized = [figure for figure in figures if _sized(figure)]
    # One workload a sweep: runs stored under the name asked for may be of several (fio-plot's "random-read").
    groups = run_group_labels(runs=[figure.run for figure in figures_sized])
    families: dict[tuple[str, str, str], list[Figure]] = defaultdict(list)
    for figure in figures_sized:
        if figure.value is None or figure.value <= 0 or not figure.config.drive_count or not _usable(figure):
            continue
        others = {k: v for k, v in figure.config.properties().items() if k != "drive_count"}
        families[(groups[figure.run.id], figure.metric, json.dumps(others, sort_keys=True, default=str))].append(figure)
    sweeps = []
    for (group, metric, _), members in sorted(families.items()):
        by_count: dict[int, list[float]] = defaultdict(list)
        for figure in members:
            by_count[figure.config.drive_count].append(float(figure.value or 0))
        if len(by_count) < 2:
            continue
        measured = [DriveCountFigure(n, statistics.mean(values)) for n, values in sorted(by_count.items())]
        sweeps.append(_sweep_sizing(members[0], group, metric, measured, threshold_ms, target, drives))
    estimate = None
    if not sweeps and target is not None:
        # Any RAID level's runs give the drives' back-end figure; the penalty is the one asked for.
        any_level = threshold_figures(system=system, threshold_ms=threshold_ms, workload=workload, cache=cache)
        # The RAID level asked for is the formula's penalty, not a filter: the workload's rates say whether it
        # can be sized at all, at whatever level they were measured.
        unsized = unsized or _unsized(any_level, workload=workload)
        usable = [figure for figure in any_level if _usable(figure) and _sized(figure)]
        # The first workload stored under the name asked for, by its group's name: its read share is the one
        # the formula reads, and the answer says which workload it is.
        of = run_group_labels(runs=[figure.run for figure in usable])
        chosen = of[usable[0].run.id] if usable else ""
        usable = [figure for figure in usable if of[figure.run.id] == chosen]
        estimate = _estimate(usable, workload=chosen, target=target, raid_level=raid_level) if usable else None
    return Sizing(tuple(sweeps), estimate, runs_read=len({figure.run.id for figure in figures}), not_sized=unsized)


def _sized(figure: Figure) -> bool:
    """A figure drive-count sizing reads: I/O operations or MB/s at the threshold, not an object, metadata or
    file rate (:func:`portal.analysis.figure_kinds.sized_by_drives`)."""
    return sized_by_drives(run_figure_kind(figure.run, figure.metric))


def _unsized(figures: list[Figure], *, workload: str) -> tuple[str, ...]:
    """Why the workload's figures of other kinds get no drive count, a sentence a kind."""
    kinds = {run_figure_kind(figure.run, figure.metric) for figure in figures if _usable(figure)}
    return tuple(sorted(not_sized(kind, workload=workload) for kind in kinds if not sized_by_drives(kind)))


def _usable(figure: Figure) -> bool:
    """A measurement no maintainer excluded: preparation steps and excluded runs size nothing."""
    return figure.run.phase == Run.Phase.MEASUREMENT and not figure.run.excluded_reason


def _sweep_sizing(
    first: Figure,
    workload: str,
    metric: str,
    measured: list[DriveCountFigure],
    threshold_ms: float,
    target: float | None,
    drives: int | None,
) -> SweepSizing:
    config = first.config
    scaling = fit(measured)
    needed = None
    if target is not None:
        needed = drives_needed(scaling, target=target, raid_level=config.raid_level)
    return SweepSizing(
        workload=workload,
        raid_level=config.raid_level,
        cache_setting=first.cache_setting,
        metric=metric,
        threshold_ms=threshold_ms,
        drives_per_array=config.drives_per_array,
        scaling=scaling,
        error=leave_one_out(measured),
        drives_error=drives_left_out(measured),
        needed=needed,
        with_drives=drives,
    )


def _estimate(figures: list[Figure], *, workload: str, target: float, raid_level: str | None) -> Estimate | None:
    """The back-end formula at the workload's read share; the per-drive back-end figure from the system's
    runs at the threshold, else from the rule of thumb for the drives' rotation speed."""
    run, config = figures[0].run, figures[0].config
    level = raid_level or config.raid_level
    if run.read_pct is None or level not in RAID_WRITE_PENALTY:
        return None
    per_drive_figures = [
        backend(frontend_iops=f.value, read_pct=f.run.read_pct, raid_level=f.config.raid_level).backend_iops
        / f.config.drive_count
        for f in figures
        if f.metric == "iops"
        and f.value
        and f.config.drive_count
        and f.run.read_pct is not None
        and f.config.raid_level in RAID_WRITE_PENALTY
    ]
    if per_drive_figures:
        per_drive, source = (
            statistics.median(per_drive_figures),
            "back-end, the median of this system's measured runs at their RAID levels",
        )
    else:
        per_drive = rule_of_thumb_iops(drive_type=config.drive_type, drive_rpm=config.drive_rpm)
        source = f"the rule of thumb for {formatting.whole(config.drive_rpm)} rpm drives"
    result = backend(frontend_iops=target, read_pct=run.read_pct, raid_level=level, per_drive_iops=per_drive)
    return Estimate(workload=workload, backend=result, per_drive_source=source)


def sweep_workloads(*, system: System) -> list[str]:
    """Workloads of the system measured at two or more drive counts (one query), for the page's choice."""
    runs = Run.objects.filter(COMPARABLE, config__system=system, config__drive_count__isnull=False)
    counts = runs.values("workload_name").annotate(counts=Count("config__drive_count", distinct=True))
    return [row["workload_name"] for row in counts.filter(counts__gte=2).order_by("workload_name")]


def sizing_answer(*, form: SizingQuestionForm, system: System) -> Sizing:
    """The answer to a valid :class:`~portal.sizing.forms.SizingForm` (page and API)."""
    return sizing(
        system=system,
        workload=form.value("workload"),
        threshold_ms=form.value("threshold_ms"),
        raid_level=form.value("raid_level") or None,
        cache=form.value("cache") or None,
        target=form.value("target"),
        drives=form.value("drives"),
    )
