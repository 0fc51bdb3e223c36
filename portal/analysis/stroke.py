"""Disk-stroke multipliers: how throughput falls as the workload spans more of the drives.

For runs that differ only in stroke percentage (the share of capacity the workload touches),
multiplier(s) = throughput at the threshold at stroke s / throughput at the baseline stroke.
The DS4500 paper's baseline is 8 %; its estimator multiplies a table figure measured at the
baseline by the multiplier for the user's stroke (14,320 I/Os x 0.74 at 45 %).
"""

from collections.abc import Iterable
from dataclasses import dataclass

BASELINE_STROKE_PCT = 8.0


@dataclass(frozen=True)
class StrokeRun:
    """Throughput at the threshold (IOPS or MB/s) of one run at ``stroke_pct`` % of capacity."""

    stroke_pct: float
    throughput: float


@dataclass(frozen=True)
class StrokeMultipliers:
    """Multipliers by stroke percentage, in increasing stroke order, the baseline left out."""

    baseline_pct: float
    baseline_throughput: float
    multipliers: tuple[tuple[float, float], ...]

    @property
    def strokes_pct(self) -> tuple[float, ...]:
        return tuple(stroke for stroke, _ in self.multipliers)

    def multiplier_at(self, stroke_pct: float) -> float:
        if stroke_pct == self.baseline_pct:
            return 1.0
        for stroke, multiplier in self.multipliers:
            if stroke == stroke_pct:
                return multiplier
        known = ", ".join(f"{stroke:g} %" for stroke in (self.baseline_pct, *self.strokes_pct))
        raise KeyError(f"no multiplier for {stroke_pct:g} % stroke; the table has {known}")


def stroke_multipliers(runs: Iterable[StrokeRun], *, baseline_pct: float = BASELINE_STROKE_PCT) -> StrokeMultipliers:
    """Multipliers from one figure per stroke percentage, one of them at ``baseline_pct``.

    Several figures at one stroke are refused: average the replicates first, so the caller
    decides how.
    """
    by_stroke: dict[float, float] = {}
    for run in runs:
        if run.stroke_pct in by_stroke:
            raise ValueError(
                f"two figures at {run.stroke_pct:g} % stroke; give one per stroke (the mean of replicates)"
            )
        by_stroke[run.stroke_pct] = run.throughput
    if baseline_pct not in by_stroke:
        found = ", ".join(f"{stroke:g} %" for stroke in sorted(by_stroke)) or "none"
        raise ValueError(f"no run at the {baseline_pct:g} % baseline stroke (strokes found: {found})")
    baseline = by_stroke.pop(baseline_pct)
    if baseline <= 0:
        raise ValueError(f"the baseline throughput at {baseline_pct:g} % stroke must be positive, got {baseline}")
    multipliers = tuple((stroke, by_stroke[stroke] / baseline) for stroke in sorted(by_stroke))
    return StrokeMultipliers(baseline_pct=baseline_pct, baseline_throughput=baseline, multipliers=multipliers)


def estimate_throughput(baseline_throughput: float, multiplier: float) -> float:
    """The paper's estimator: a figure measured at the baseline stroke x the multiplier for the user's stroke."""
    return baseline_throughput * multiplier
