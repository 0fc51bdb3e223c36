"""A system's drive-count sweeps at a threshold, and the sizing answers read from them.

A sweep is one configuration family (RAID level, cache setting and every other property but the
drive count) and one workload, measured at two or more drive counts. Without a sweep, the
back-end formula gives a stated estimate.
"""

import json
import statistics
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from portal import formatting
from portal.analysis.drive_scaling import (
    RAID_WRITE_PENALTY,
    BackEnd,
    DriveCountFigure,
    DriveScaling,
    DrivesNeeded,
    ScalingError,
    backend,
    drives_needed,
    fit,
    leave_one_out,
    rule_of_thumb_iops,
)
from portal.analysis.tables import Column, ColumnGroup, NumberFormat, Row, Table
from portal.models import Run, System
from portal.results.selectors import COMPARABLE, Figure, threshold_figures

from .forms import SizingQuestionForm


@dataclass(frozen=True)
class SweepSizing:
    """One measured sweep and what it answers; every figure here is modelled from measured ones."""

    workload: str
    raid_level: str
    cache_setting: str
    metric: str
    threshold_ms: float
    drives_per_array: int | None
    scaling: DriveScaling
    error: ScalingError
    needed: DrivesNeeded | None
    with_drives: int | None

    @property
    def label(self) -> str:
        return ", ".join(part for part in (self.raid_level, self.cache_setting, self.workload) if part)

    def lines(self) -> list[str]:
        """The answer in sentences, as the page, the API and the command give it."""
        found = [self._measured_line()]
        if self.needed is not None:
            found.append(self._needed_line(self.needed))
        if self.with_drives is not None:
            found.append(self._with_drives_line(self.with_drives))
        found.append(self._error_line())
        return found

    def table_rows(self) -> list[dict[str, str]]:
        """The measured sweep, each interior drive count with its prediction from the others."""
        left_out = {x.drive_count: x for x in self.error.left_out}
        rows = []
        for figure in self.scaling.measured:
            out = left_out.get(figure.drive_count)
            rows.append(
                {
                    "drives": formatting.whole(figure.drive_count),
                    "measured": self._figure(figure.throughput),
                    "predicted": self._figure(out.predicted) if out else formatting.NO_FIGURE,
                    "error": formatting.percent(out.error_pct) if out else formatting.NO_FIGURE,
                }
            )
        return rows

    def _figure(self, value: float | None) -> str:
        return formatting.throughput(value, self.metric)

    def _measured_line(self) -> str:
        counts = [f.drive_count for f in self.scaling.measured]
        return (
            f"Figures at {formatting.threshold(self.threshold_ms)} (measured, or published by a paper) at"
            f" {len(counts)} drive counts: {', '.join(formatting.whole(n) for n in counts)} drives."
        )

    def _needed_line(self, needed: DrivesNeeded) -> str:
        wanted = f"{self._figure(needed.target)} at {formatting.threshold(self.threshold_ms)}"
        if not needed.reachable:
            return (
                f"{wanted} is not reachable on this system: it levels off at about {self._figure(needed.plateau)}"
                f" from about {formatting.drives(round(needed.knee_drives or 0))}."
            )
        arrays = ""
        if self.drives_per_array and needed.drives and needed.drives % self.drives_per_array:
            whole = -(-needed.drives // self.drives_per_array) * self.drives_per_array
            arrays = f" ({formatting.drives(whole)} in the arrays of {self.drives_per_array} measured)"
        return (
            f"{wanted} needs {formatting.drives(needed.drives)}{arrays}: the model gives"
            f" {self._figure(needed.throughput)} with them, {self._how(needed.drives or 0)}."
        )

    def _with_drives_line(self, drives: int) -> str:
        return (
            f"With {formatting.drives(drives)}: about {self._figure(self.scaling.throughput_with(drives))}"
            f" at {formatting.threshold(self.threshold_ms)}, {self._how(drives)}."
        )

    def _how(self, drives: int) -> str:
        scaling = self.scaling
        if not scaling.extrapolated(drives):
            return f"modelled within the drive counts measured ({scaling.fewest_drives} to {scaling.most_drives})"
        if drives > scaling.most_drives and scaling.plateau is not None:
            return (
                f"extrapolated beyond the {formatting.drives(scaling.most_drives)} measured,"
                f" no more than the plateau of {self._figure(scaling.plateau)}"
            )
        side = "beyond" if drives > scaling.most_drives else "below"
        edge = scaling.most_drives if drives > scaling.most_drives else scaling.fewest_drives
        return f"extrapolated {side} the {formatting.drives(edge)} measured, at the measured figure per drive"

    def _error_line(self) -> str:
        if not self.error.left_out:
            return "No error measured: the sweep has no interior drive count to leave out."
        counts = ", ".join(formatting.whole(x.drive_count) for x in self.error.left_out)
        return (
            f"Error on this sweep: median {formatting.percent(self.error.median_pct)},"
            f" worst {formatting.percent(self.error.worst_pct)}"
            f" (each of {counts} drives left out and predicted from the others)."
        )


@dataclass(frozen=True)
class Estimate:
    """No sweep: the back-end formula, with where its per-drive figure came from."""

    workload: str
    backend: BackEnd
    per_drive_source: str

    def lines(self) -> list[str]:
        result = self.backend
        found = [f"An estimate, not a measurement: back-end IOPS = {result.formula}."]
        if result.drives is None:
            found.append("No per-drive figure is known for these drives, so no drive count.")
        else:
            found.append(
                f"At {formatting.throughput(result.per_drive_iops, 'iops')} a drive ({self.per_drive_source}):"
                f" {formatting.drives(result.drives)}."
            )
        return found


@dataclass(frozen=True)
class Sizing:
    sweeps: tuple[SweepSizing, ...]
    estimate: Estimate | None


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
    families: dict[tuple, list[Figure]] = defaultdict(list)
    for figure in figures:
        if figure.value is None or figure.value <= 0 or not figure.config.drive_count or not _usable(figure):
            continue
        others = {k: v for k, v in figure.config.properties().items() if k != "drive_count"}
        families[(figure.metric, json.dumps(others, sort_keys=True, default=str))].append(figure)
    sweeps = []
    for (metric, _), members in sorted(families.items()):
        by_count: dict[int, list[float]] = defaultdict(list)
        for figure in members:
            by_count[figure.config.drive_count].append(float(figure.value or 0))
        if len(by_count) < 2:
            continue
        measured = [DriveCountFigure(n, statistics.mean(values)) for n, values in sorted(by_count.items())]
        sweeps.append(_sweep_sizing(members[0], metric, measured, threshold_ms, target, drives))
    estimate = None
    if not sweeps and target is not None:
        # Any RAID level's runs give the drives' back-end figure; the penalty is the one asked for.
        any_level = threshold_figures(system=system, threshold_ms=threshold_ms, workload=workload, cache=cache)
        usable = [figure for figure in any_level if _usable(figure)]
        estimate = _estimate(usable, target=target, raid_level=raid_level) if usable else None
    return Sizing(tuple(sweeps), estimate)


def _usable(figure: Figure) -> bool:
    """A measurement no maintainer excluded: preparation steps and excluded runs size nothing."""
    return figure.run.phase == Run.Phase.MEASUREMENT and not figure.run.excluded_reason


def _sweep_sizing(
    first: Figure,
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
        workload=first.run.workload_name,
        raid_level=config.raid_level,
        cache_setting=first.cache_setting,
        metric=metric,
        threshold_ms=threshold_ms,
        drives_per_array=config.drives_per_array,
        scaling=scaling,
        error=leave_one_out(measured),
        needed=needed,
        with_drives=drives,
    )


def _estimate(figures: list[Figure], *, target: float, raid_level: str | None) -> Estimate | None:
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
    return Estimate(workload=run.workload_name, backend=result, per_drive_source=source)


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


def sizing_data(system: System, answer: Sizing) -> dict:
    """The answer as the API and ``size --json`` give it: figures as numbers and the same sentences."""
    return {
        "system": system.name,
        "sweeps": [_sweep_data(sweep) for sweep in answer.sweeps],
        "estimate": None
        if answer.estimate is None
        else {
            "how": "estimate from the back-end formula",
            "workload": answer.estimate.workload,
            "backend_iops": answer.estimate.backend.backend_iops,
            "write_penalty": answer.estimate.backend.write_penalty,
            "per_drive_iops": answer.estimate.backend.per_drive_iops,
            "drives": answer.estimate.backend.drives,
            "text": answer.estimate.lines(),
        },
    }


def _sweep_data(sweep: SweepSizing) -> dict:
    scaling, needed = sweep.scaling, sweep.needed
    return {
        "workload": sweep.workload,
        "raid_level": sweep.raid_level,
        "cache_setting": sweep.cache_setting,
        "metric": sweep.metric,
        "threshold_ms": sweep.threshold_ms,
        "measured": [{"drive_count": f.drive_count, "throughput": f.throughput} for f in scaling.measured],
        "model": {"per_drive": scaling.per_drive, "base": scaling.base, "plateau": scaling.plateau},
        "needed": None
        if needed is None
        else {
            "how": "modelled from the measured sweep",
            "target": needed.target,
            "reachable": needed.reachable,
            "drives": needed.drives,
            "throughput": needed.throughput,
            "extrapolated": needed.extrapolated,
            "levels_off_at": needed.plateau,
            "knee_drives": needed.knee_drives,
        },
        "with_drives": None
        if sweep.with_drives is None
        else {
            "how": "modelled from the measured sweep",
            "drives": sweep.with_drives,
            "throughput": scaling.throughput_with(sweep.with_drives),
            "extrapolated": scaling.extrapolated(sweep.with_drives),
        },
        "error": {
            "median_pct": sweep.error.median_pct,
            "worst_pct": sweep.error.worst_pct,
            "left_out": [
                {
                    "drive_count": x.drive_count,
                    "measured": x.measured,
                    "predicted": x.predicted,
                    "error_pct": x.error_pct,
                }
                for x in sweep.error.left_out
            ],
        },
        "text": sweep.lines(),
    }


# Whole IOPS with separators everywhere (30,060), MB/s and percentages to one decimal; "–" where no figure.
_WHOLE = NumberFormat(decimals=0, group_from=1000, na_text="–")
_ONE_DECIMAL = NumberFormat(decimals=1, trim_zeros=False, group_from=1000, na_text="–")


def sizing_tables(system: System, answer: Sizing) -> list[Table]:
    """One table per sweep for the exports: each drive count's figure, the model's value there, and
    the model's prediction of it with that drive count left out, with the answer in the footnotes."""
    tables = []
    for sweep in answer.sweeps:
        unit = formatting.METRIC_UNITS.get(sweep.metric, sweep.metric)
        number = _WHOLE if sweep.metric == "iops" else _ONE_DECIMAL
        left_out = {x.drive_count: x for x in sweep.error.left_out}
        rows = tuple(
            Row(
                (formatting.whole(figure.drive_count),),
                (
                    figure.throughput,
                    sweep.scaling.throughput_with(figure.drive_count),
                    left_out[figure.drive_count].predicted if figure.drive_count in left_out else None,
                    left_out[figure.drive_count].error_pct if figure.drive_count in left_out else None,
                ),
            )
            for figure in sweep.scaling.measured
        )
        group = ColumnGroup(
            f"{unit} at {formatting.threshold(sweep.threshold_ms)}",
            (
                Column("At the threshold", number),
                Column("Model", number),
                Column("Predicted with it left out", number),
                Column("Error %", _ONE_DECIMAL),
            ),
        )
        title = f"{system.name} {sweep.label}: drives for a target"
        tables.append(Table(title, (("",), ("Drives",)), (group,), rows, tuple(sweep.lines())))
    if answer.estimate is not None:
        estimate = answer.estimate
        group = ColumnGroup("Back-end formula", (Column("Back-end IOPS", _WHOLE), Column("Drives", _WHOLE)))
        row = Row((estimate.workload,), (estimate.backend.backend_iops, estimate.backend.drives))
        title = f"{system.name} {estimate.workload}: drives for a target (estimate)"
        tables.append(Table(title, (("",), ("Workload",)), (group,), (row,), tuple(estimate.lines())))
    return tables
