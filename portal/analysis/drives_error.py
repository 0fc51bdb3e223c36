"""How far "how many drives for this throughput?" can be off, measured on the sweep that answers it.

The sizing question is drives for a throughput, so its error is measured that way round: each interior
drive count on a rising part of the sweep is left out, the model is fitted to the other counts (its knee
chosen on them, as :func:`portal.analysis.drive_scaling.fit` does), and the drives it needs for the
left-out count's throughput are compared with the drives that measured it. Where the sweep has levelled
off, a throughput does not name a drive count, so those counts are not asked.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from portal.analysis.drive_scaling import (
    GRADUAL_KNEE_MARGIN_PCT,
    SEARCH_FACTOR,
    DriveCountFigure,
    DriveScaling,
    LeftOutErrors,
    fit,
)

# A left-out drive count is on a rising part of its sweep when it measured at least this much more than the
# count before it, and the count after it at least this much more again. Fixed before any error was scored
# (a flatter step says more about the figures' noise than about drives).
RISING_PCT = 5.0


@dataclass(frozen=True)
class DrivesLeftOut:
    """One left-out drive count and the (fractional) drives the others' model needs for its throughput;
    ``predicted`` is ``None`` where the model does not reach it (counted as a 100 % miss)."""

    drive_count: int
    throughput: float
    predicted: float | None

    @property
    def error_pct(self) -> float:
        if self.predicted is None:
            return 100.0
        return abs(self.predicted - self.drive_count) / self.drive_count * 100


@dataclass(frozen=True)
class DrivesError(LeftOutErrors):
    """The error of the drives needed on one sweep: median and worst over the drive counts left out."""

    left_out: tuple[DrivesLeftOut, ...]


def drive_count_for(scaling: DriveScaling, *, target: float) -> float | None:
    """The (fractional) drive count at which the model reaches ``target``, searched up to
    ``SEARCH_FACTOR`` times the most drives measured; ``None`` where it does not reach it."""
    low, high = 0.0, float(SEARCH_FACTOR * scaling.most_drives)
    if scaling.throughput_with(high) < target:
        return None
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (low, middle) if scaling.throughput_with(middle) >= target else (middle, high)
    return high


def drives_left_out(
    figures: Iterable[DriveCountFigure], *, gradual_margin_pct: float = GRADUAL_KNEE_MARGIN_PCT
) -> DrivesError:
    """Each interior drive count on a rising part, its drives predicted from the other counts' model."""
    measured = sorted(figures, key=lambda f: f.drive_count)
    rise = 1 + RISING_PCT / 100
    left_out = []
    for index in range(1, len(measured) - 1):
        before, point, after = measured[index - 1 : index + 2]
        if point.throughput < before.throughput * rise or after.throughput < point.throughput * rise:
            continue
        scaling = fit([*measured[:index], *measured[index + 1 :]], gradual_margin_pct=gradual_margin_pct)
        predicted = drive_count_for(scaling, target=point.throughput)
        left_out.append(DrivesLeftOut(point.drive_count, point.throughput, predicted))
    return DrivesError(tuple(left_out))
