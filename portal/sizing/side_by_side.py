"""Which of several systems needs fewer drives for one target: each system sized for the same workload,
configuration family and target, side by side, with a sentence naming the one that needs fewer.

A system's row comes from its measured drive-count sweep (with the sweep's leave-one-out error) or,
without one, from the back-end formula (an estimate, with no measured error). Rows of several sweeps
of one system (no cache setting chosen, say) are all shown; the system's fewest drives compete.
"""

from dataclasses import dataclass
from typing import Any

from portal import formatting
from portal.models import System

from .answers import Sizing, SweepSizing
from .forms import SideBySideForm
from .selectors import sizing

MODELLED = "modelled from the measured sweep"
ESTIMATED = "estimate from the back-end formula"


@dataclass(frozen=True)
class SizedRow:
    """One system's answer for the target: drives needed (``None`` when not reachable or unknown)."""

    system: str
    label: str
    how: str
    metric: str
    drives: int | None
    reachable: bool
    levels_off_at: float | None
    model: str
    median_error_pct: float | None
    worst_error_pct: float | None

    @property
    def drives_text(self) -> str:
        if self.drives is not None:
            return formatting.drives(self.drives)
        if not self.reachable and self.levels_off_at is not None:
            return f"not reachable (levels off at about {formatting.throughput(self.levels_off_at, self.metric)})"
        return "no drive count"

    @property
    def error_text(self) -> str:
        if self.how == ESTIMATED:
            return "an estimate: no error measured"
        if self.median_error_pct is None:
            return "no error measured (no interior drive count)"
        return f"median {formatting.percent(self.median_error_pct)}, worst {formatting.percent(self.worst_error_pct)}"


@dataclass(frozen=True)
class SideBySide:
    workload: str
    target: float
    threshold_ms: float
    systems: tuple[str, ...]
    rows: tuple[SizedRow, ...]
    # The systems with no run of the workload at all (with the RAID level and cache asked for).
    no_data: tuple[str, ...] = ()
    # The RAID level and cache setting asked for, in words.
    filters: tuple[str, ...] = ()
    # (system, why): systems whose figures of the workload are object, metadata or file rates, not sized.
    not_sized: tuple[tuple[str, str], ...] = ()

    @property
    def wanted(self) -> str:
        metrics = {row.metric for row in self.rows} or {"iops"}
        unit = metrics.pop() if len(metrics) == 1 else "iops"
        at = formatting.threshold(self.threshold_ms)
        return f"{formatting.throughput(self.target, unit)} of {self.workload} at {at}"

    def fewest_by_system(self) -> dict[str, SizedRow]:
        """Each system's row with the fewest drives among those that reach the target."""
        fewest: dict[str, SizedRow] = {}
        for row in self.rows:
            if row.drives is not None and (row.system not in fewest or row.drives < (fewest[row.system].drives or 0)):
                fewest[row.system] = row
        return fewest

    def verdict(self) -> str:
        """The sentence naming the system that needs fewer drives, and by how many, with the sweep each
        system's figure comes from; then what is known of the others: does not reach the target in what
        was measured, no sweep to size from, or no data at all."""
        fewest = sorted(self.fewest_by_system().values(), key=lambda row: (row.drives or 0, row.system))
        said = [self._headline(fewest)] if fewest else []
        said += self._choices(fewest)
        unsized = [name for name in self.systems if name not in {row.system for row in fewest}]
        why_not_sized = dict(self.not_sized)
        said += [f"{name}: {why_not_sized[name]}" for name in unsized if name in why_not_sized]
        reached_none = [name for name in unsized if name not in self.no_data and name not in why_not_sized]
        if reached_none:
            said.append(
                f"{_names(reached_none)} {'does' if len(reached_none) == 1 else 'do'} not reach {self.wanted}"
                f" in what was measured: {self._why_not(reached_none)}."
            )
        if self.no_data:
            said.append(f"No data: {_names(self.no_data)} {'has' if len(self.no_data) == 1 else 'have'} no run of"
                        f" {self.workload}{self.filtered}.")  # fmt: skip
        return " ".join(said)

    @property
    def filtered(self) -> str:
        return f" ({', '.join(self.filters)})" if self.filters else ""

    def _headline(self, fewest: list[SizedRow]) -> str:
        best = fewest[0]
        if len(fewest) == 1:
            return f"Only {best.system} reaches {self.wanted}: {_drives(best)}."
        runner_up = fewest[1]
        if runner_up.drives == best.drives:
            both = f"{best.system} ({best.label}) and {runner_up.system} ({runner_up.label})"
            return f"{both} need the same number of drives for {self.wanted}: {formatting.drives(best.drives)}."
        fewer = (runner_up.drives or 0) - (best.drives or 0)
        return (
            f"{best.system} needs fewer drives for {self.wanted}: {_drives(best)},"
            f" {formatting.whole(fewer)} fewer than {runner_up.system}"
            f" ({formatting.drives(runner_up.drives)}: {runner_up.label})."
        )

    def _choices(self, fewest: list[SizedRow]) -> list[str]:
        """Which of a system's several sweeps its figure comes from, and why (the page's choice, stated)."""
        said = []
        for chosen in fewest:
            others = [row for row in self.rows if row.system == chosen.system and row is not chosen]
            if others:
                listed = "; ".join(f"{row.label}: {row.drives_text}" for row in others)
                said.append(
                    f"{chosen.system}'s figure is that of its sweep needing the fewest drives ({chosen.label})"
                    f" of {len(others) + 1} ({listed}); choose a RAID level and cache setting to size one."
                )
        return said

    def _why_not(self, names: list[str]) -> str:
        rows = [row for row in self.rows if row.system in names]
        if not rows:
            return "no sweep of two or more drive counts and no estimate"
        return "; ".join(f"{row.system}, {row.label}: {row.drives_text}" for row in rows)


def _drives(row: SizedRow) -> str:
    return f"{formatting.drives(row.drives)} ({row.label})"


def _names(names: list[str] | tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def side_by_side(
    *,
    systems: list[System],
    workload: str,
    target: float,
    threshold_ms: float,
    raid_level: str | None = None,
    cache: str | None = None,
) -> SideBySide:
    """Each system sized for ``target`` by the sizing page's selector (one query set per system)."""
    rows: list[SizedRow] = []
    no_data: list[str] = []
    not_sized: list[tuple[str, str]] = []
    for system in systems:
        answer = sizing(
            system=system,
            workload=workload,
            threshold_ms=threshold_ms,
            raid_level=raid_level,
            cache=cache,
            target=target,
        )
        rows += _rows(system, answer)
        if not answer.runs_read:
            no_data.append(system.name)
        not_sized += [(system.name, why) for why in answer.not_sized]
    names = tuple(system.name for system in systems)
    filters = tuple(f"{what} {value}" for what, value in (("RAID level", raid_level), ("cache", cache)) if value)
    return SideBySide(workload=workload, target=target, threshold_ms=threshold_ms, systems=names, rows=tuple(rows),
                      no_data=tuple(no_data), filters=filters, not_sized=tuple(not_sized))  # fmt: skip


def _rows(system: System, answer: Sizing) -> list[SizedRow]:
    rows = [_sweep_row(system, sweep) for sweep in answer.sweeps]
    if answer.estimate is not None:
        estimate = answer.estimate
        rows.append(
            SizedRow(
                system=system.name,
                label=f"{estimate.backend.raid_level}, {estimate.workload}",
                how=ESTIMATED,
                metric="iops",
                drives=estimate.backend.drives,
                reachable=estimate.backend.drives is not None,
                levels_off_at=None,
                model=f"back-end formula: {estimate.backend.formula}",
                median_error_pct=None,
                worst_error_pct=None,
            )
        )
    return rows


def _sweep_row(system: System, sweep: SweepSizing) -> SizedRow:
    needed = sweep.needed
    return SizedRow(
        system=system.name,
        label=sweep.label,
        how=MODELLED,
        metric=sweep.metric,
        drives=needed.drives if needed else None,
        reachable=bool(needed and needed.reachable),
        levels_off_at=sweep.scaling.plateau,
        model=sweep.scaling.model_name,
        median_error_pct=sweep.error.median_pct,
        worst_error_pct=sweep.error.worst_pct,
    )


def side_by_side_answer(*, form: SideBySideForm, systems: list[System]) -> SideBySide:
    """The answer to a valid :class:`~portal.sizing.forms.SideBySideForm` (page, API and command)."""
    return side_by_side(
        systems=systems,
        workload=form.value("workload"),
        target=form.value("target"),
        threshold_ms=form.value("threshold_ms"),
        raid_level=form.value("raid_level") or None,
        cache=form.value("cache") or None,
    )


def side_by_side_data(found: SideBySide) -> dict[str, Any]:
    """The answer as the API and ``size --json`` give it: figures as numbers and the page's sentence."""
    return {
        "workload": found.workload,
        "target": found.target,
        "threshold_ms": found.threshold_ms,
        "systems": [
            {
                "system": row.system,
                "sweep": row.label,
                "how": row.how,
                "metric": row.metric,
                "drives": row.drives,
                "reachable": row.reachable,
                "levels_off_at": row.levels_off_at,
                "model": row.model,
                "error": {"median_pct": row.median_error_pct, "worst_pct": row.worst_error_pct},
                "text": f"{row.system}, {row.label}: {row.drives_text} ({row.how}; error {row.error_text})",
            }
            for row in found.rows
        ],
        "no_data": list(found.no_data),
        "not_sized": [{"system": name, "text": why} for name, why in found.not_sized],
        "fewer": found.verdict(),
    }
