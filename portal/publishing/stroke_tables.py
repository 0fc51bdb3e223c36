"""Seed 000 Tables 2 and 6: a system's drive stroke multipliers per RAID level, from a paper's published
tables or from runs that differ only in stroke percentage."""

from collections import defaultdict
from statistics import fmean

from portal import formatting
from portal.analysis.stroke import BASELINE_STROKE_PCT, StrokeMultipliers, StrokeRun, stroke_multipliers
from portal.analysis.tables import Table, stroke_table
from portal.analysis.vocabulary import raid_level_canonical
from portal.models import PublishedStrokeMultipliers, System
from portal.results.selectors import cache_setting, run_metric, run_threshold, runs_filtered, runs_with_points
from portal.results.workloads import run_group_labels
from portal.systems.selectors import published_stroke_multipliers

from .presets import PresetError, natural_key


def stroke(
    system: System,
    *,
    raid_level: str | None = None,
    baseline_pct: float = BASELINE_STROKE_PCT,
    threshold_ms: float = 20.0,
    latency: str = "avg",
) -> list[Table]:
    """Seed 000 Tables 2 and 6: one table per RAID level, multipliers to two decimals.

    Published multiplier tables are used when the system has them; otherwise runs whose
    configurations differ only in stroke percentage, at ``threshold_ms`` of ``latency``.
    """
    raid_level = raid_level_canonical(raid_level)
    published = published_stroke_multipliers(system=system, raid_level=raid_level)
    by_raid = (
        _published_stroke_rows(published)
        if published
        else _measured_stroke_rows(system, raid_level, baseline_pct, threshold_ms, latency)
    )
    if not by_raid:
        raise PresetError(
            f"{system.name} has no stroke multipliers{' for ' + raid_level if raid_level else ''}: publish a "
            f"multiplier table or upload runs that differ only in stroke percentage, one at {baseline_pct:g} %"
        )
    return [
        stroke_table(
            rows,
            title=f"{raid} Drive Stroke Percentage Multiplier",
            group_label=(
                f"To approximate the {raid} I/Os for the following disk stroke percentages, multiply the "
                f"{rows[0][1].baseline_pct:g}% disk stroke I/Os by the corresponding multiplier"
            ),
        )
        for raid, rows in sorted(by_raid.items(), key=lambda item: natural_key(item[0]))
    ]


def _published_stroke_rows(
    published: list[PublishedStrokeMultipliers],
) -> dict[str, list[tuple[str, StrokeMultipliers]]]:
    """Workloads with identical multipliers share a row, as the paper prints "OLTP 4K, 8K, and 16K"."""
    grouped: defaultdict[tuple[str, float, tuple[tuple[float, float], ...]], list[str]] = defaultdict(list)
    for table in sorted(published, key=lambda t: (t.raid_level, natural_key(t.workload_name))):
        multipliers = tuple(sorted((float(k), v) for k, v in table.multipliers.items()))
        grouped[(table.raid_level, table.baseline_stroke_pct, multipliers)].append(table.workload_name)
    by_raid: defaultdict[str, list[tuple[str, StrokeMultipliers]]] = defaultdict(list)
    for (raid, baseline, multipliers), workloads in grouped.items():
        kept = tuple((stroke_pct, m) for stroke_pct, m in multipliers if stroke_pct != baseline)
        by_raid[raid].append((f"{raid} {_join_workloads(workloads)}", StrokeMultipliers(baseline, 1.0, kept)))
    return by_raid


def _join_workloads(names: list[str]) -> str:
    """["OLTP 4K", "OLTP 8K", "OLTP 16K"] -> "OLTP 4K, 8K, and 16K"."""
    if len(names) == 1:
        return names[0]
    family = names[0].rsplit(" ", 1)[0]
    if all(name.rsplit(" ", 1)[0] == family for name in names):
        names = [names[0]] + [name.rsplit(" ", 1)[1] for name in names[1:]]
    return ", ".join(names[:-1]) + (", and " if len(names) > 2 else " and ") + names[-1]


def _measured_stroke_rows(
    system: System, raid_level: str | None, baseline_pct: float, threshold_ms: float, latency: str
) -> dict[str, list[tuple[str, StrokeMultipliers]]]:
    """Runs grouped by everything but the stroke: each group with two strokes or more is one row."""
    runs = runs_filtered(system=system, raid_level=raid_level or None, stroke_stated=True)
    groups: defaultdict[tuple[str, str, str, str], defaultdict[float, list[tuple[float, int | None]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    stroked = list(runs_with_points(runs=runs.select_related("workload")))
    workloads = run_group_labels(runs=stroked)
    for run in stroked:
        properties = {k: v for k, v in run.config.properties().items() if k != "stroke_pct"}
        key = (
            run.config.raid_level,
            workloads[run.id],
            repr(sorted(properties.items())),
            cache_setting(config=run.config),
        )
        _, answer = run_threshold(run=run, threshold_ms=threshold_ms, metric=run_metric(run=run), latency=latency)
        stroke_pct = run.config.stroke_pct  # stated: the runs are filtered by it
        if answer.value is not None and stroke_pct is not None:
            groups[key][stroke_pct].append((answer.value, run.config.drive_count))
    by_raid: defaultdict[str, list[tuple[str, StrokeMultipliers]]] = defaultdict(list)
    for (raid, workload, _, cache), by_stroke in sorted(groups.items(), key=lambda item: natural_key(item[0][1])):
        if len(by_stroke) < 2 or baseline_pct not in by_stroke:
            continue
        strokes = [StrokeRun(s, fmean(v for v, _ in figures)) for s, figures in by_stroke.items()]
        drives = next(iter(by_stroke.values()))[0][1]
        label = ", ".join(
            p for p in (f"{raid} {workload}", formatting.count(drives, "drive") if drives else "", cache) if p
        )
        by_raid[raid].append((label, stroke_multipliers(strokes, baseline_pct=baseline_pct)))
    return by_raid
