"""How far "how many drives for this throughput?" can be off, measured on the sweep that answers it.

The sizing question is drives for a throughput, so its error is measured that way round: each interior
drive count on a rising part of the sweep is left out, the model is fitted to the other counts (its knee
chosen on them, as :func:`portal.analysis.drive_scaling.fit` does), and the drives it needs for the
left-out count's throughput are compared with the drives that measured it. Where the sweep has levelled
off, a throughput does not name a drive count, so those counts are not asked; where it still rises but
gains little with each drive, a throughput names the count only loosely, and those counts are marked.
"""

from collections.abc import Iterable, Sequence
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
# A rising count is clearly rising when the throughput it gained per drive from the count before is at least
# this share of its own throughput per drive. That share is the chord's elasticity (d log T / d log n): at
# 0.5 a 1 % error in throughput moves the drives needed by about 2 %, below it by more, so there the answer
# is set as much by the figures' noise as by the drives. Fixed before any error was scored against it (a
# round bound on how much a throughput error is magnified), not chosen on seed 000's errors.
CLEARLY_RISING_GAIN = 0.5


@dataclass(frozen=True)
class DrivesLeftOut:
    """One left-out drive count and the (fractional) drives the others' model needs for its throughput;
    ``predicted`` is ``None`` where the model does not reach it (counted as a 100 % miss). ``gain`` is the
    throughput gained per drive from the count before over the count's own throughput per drive."""

    drive_count: int
    throughput: float
    predicted: float | None
    gain: float

    @property
    def clearly_rising(self) -> bool:
        return self.gain >= CLEARLY_RISING_GAIN

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


def rising(measured: Sequence[DriveCountFigure]) -> list[tuple[int, float]]:
    """The interior drive counts of a sweep (sorted by drive count) on a rising part, each as its index
    and its gain (:attr:`DrivesLeftOut.gain`)."""
    rise = 1 + RISING_PCT / 100
    found = []
    for index in range(1, len(measured) - 1):
        before, point, after = measured[index - 1 : index + 2]
        if point.throughput < before.throughput * rise or after.throughput < point.throughput * rise:
            continue
        per_drive_gained = (point.throughput - before.throughput) / (point.drive_count - before.drive_count)
        found.append((index, per_drive_gained / (point.throughput / point.drive_count)))
    return found


def drives_left_out(
    figures: Iterable[DriveCountFigure], *, gradual_margin_pct: float = GRADUAL_KNEE_MARGIN_PCT
) -> DrivesError:
    """Each interior drive count on a rising part, its drives predicted from the other counts' model."""
    measured = sorted(figures, key=lambda f: f.drive_count)
    left_out = []
    for index, gain in rising(measured):
        point = measured[index]
        scaling = fit([*measured[:index], *measured[index + 1 :]], gradual_margin_pct=gradual_margin_pct)
        predicted = drive_count_for(scaling, target=point.throughput)
        left_out.append(DrivesLeftOut(point.drive_count, point.throughput, predicted, gain))
    return DrivesError(tuple(left_out))
