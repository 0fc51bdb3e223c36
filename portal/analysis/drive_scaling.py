"""How many drives for a target: throughput against drive count, and the back-end formula.

A drive-count sweep (seed 000's Tables 1-8: 20 to 180 drives) has two regimes. While the drives
are the limit, throughput grows by a per-drive figure with every drive; once the controller is,
it levels off at a plateau. The model is the smaller of the two, with a rounded knee:

    T(n) = D(n) / (1 + (D(n) / P) ** k) ** (1 / k),  D(n) = base + per_drive * n

``base`` is zero (throughput proportional to drives) unless a fixed share of the load costs no drive
(a write cache absorbing writes) and the data say so clearly enough to pay for the extra term.
Two knees are tried: a sharp one (k = 12) and a gradual one (k = 4), for sweeps that bend long
before they level off or peak and drop; the sharp knee answers unless the gradual one predicts the
sweep's own drive counts, each left out, clearly better (:func:`fit`).
Every answer carries its error measured on the same sweep: each interior drive count is left out
and predicted from the others, the knee chosen without it.

Without a sweep, the back-end formula estimates the drives: reads plus writes times the RAID write
penalty, over what one drive does.
"""

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

# The knee's roundness: 12 keeps T within 6 % of the smaller regime at the knee and within 0.1 %
# a third of the way either side of it; 4 is 16 % under at the knee and bends from half of it.
KNEE_SHARPNESS = 12
GRADUAL_KNEE_SHARPNESS = 4
# How much lower (percentage points of mean leave-one-out error) the gradual knee must miss a sweep's
# drive counts to answer instead of the sharp one. Chosen on seed 000's sweeps (median 1.9 % against
# 2.0 % without it), so its own figures flatter it: chosen instead on the other sweeps, each sweep left
# out in turn (`python -m tests.sizing_eval`), the margins picked are 0.5 to 3 points and the drives needed
# for a left-out count miss by a median of 4.1 %, 90th percentile 26 % (21.9 % with 1 point fixed).
# The model also answers between measured drive counts: monotone interpolation (PCHIP) or straight lines
# between the two measured neighbours, which need no knee, miss the same left-out counts by a 90th
# percentile of 28 to 46 %, and one knee roundness everywhere (k = 4 to 12) by 21.5 to 26 %. Help from the other
# sweeps (their knee, one shape learnt on them) gets 20 to 29 %; only knowing each sweep's roundness gets 13.4 %.
GRADUAL_KNEE_MARGIN_PCT = 1.0
# Up to this many drive counts the knee is chosen by leave-one-out error; past it (where each count
# weighs less, and leaving each out in turn would cost a number of fits growing as a power of the
# counts) by each knee's own squared log error on all of them.
LEAVE_OUT_CHOICE_MOST_COUNTS = 8
# The most interior drive counts left out in turn to measure a sweep's error (each costs a fit).
MOST_LEFT_OUT = 12
# The squared log error a fixed base must save to be fitted: about 10 % on one drive count.
BASE_COST = 0.01
# How far beyond the largest drive count measured an answer is searched for.
SEARCH_FACTOR = 4

RAID_WRITE_PENALTY = {"RAID-0": 1, "RAID-1": 2, "RAID-10": 2, "RAID-5": 4, "RAID-6": 6}
# The fewest drives each RAID level is built from, and the step it grows by.
RAID_MIN_DRIVES = {"RAID-0": 1, "RAID-1": 2, "RAID-10": 4, "RAID-5": 3, "RAID-6": 4}
RAID_DRIVE_STEP = {"RAID-1": 2, "RAID-10": 2}
# Random IOPS per drive by rotation speed, the rule of thumb sizing calculators use when nothing was measured.
HDD_IOPS_BY_RPM = {5400: 50.0, 7200: 75.0, 10000: 125.0, 15000: 175.0}


@dataclass(frozen=True)
class DriveCountFigure:
    """Throughput at the threshold measured with ``drive_count`` drives."""

    drive_count: int
    throughput: float


@dataclass(frozen=True)
class DriveScaling:
    """The fitted sweep: per-drive figure, fixed base, plateau (``None`` while no level-off was measured)."""

    per_drive: float
    base: float
    plateau: float | None
    measured: tuple[DriveCountFigure, ...]
    knee_sharpness: int = KNEE_SHARPNESS

    def throughput_with(self, drive_count: float) -> float:
        return _model(self.base, self.per_drive, self.plateau, drive_count, self.knee_sharpness)

    @property
    def model_name(self) -> str:
        """The model that answered, in words."""
        if self.plateau is None:
            return "drive-bound (no level-off measured)"
        knee = "sharp" if self.knee_sharpness == KNEE_SHARPNESS else "gradual"
        return f"drive-bound / controller-bound, {knee} knee"

    @property
    def knee_drives(self) -> float | None:
        """Where the two regimes meet (``None`` without a plateau)."""
        return None if self.plateau is None else (self.plateau - self.base) / self.per_drive

    @property
    def fewest_drives(self) -> int:
        return self.measured[0].drive_count

    @property
    def most_drives(self) -> int:
        return self.measured[-1].drive_count

    def extrapolated(self, drive_count: float) -> bool:
        return not self.fewest_drives <= drive_count <= self.most_drives


@dataclass(frozen=True)
class LeftOut:
    """One interior drive count predicted from the others; ``error_pct`` is relative to the measurement."""

    drive_count: int
    measured: float
    predicted: float

    @property
    def error_pct(self) -> float:
        return abs(self.predicted - self.measured) / self.measured * 100


class _HasErrorPct(Protocol):
    @property
    def error_pct(self) -> float: ...


class LeftOutErrors:
    """Median and worst of the errors of what was left out (``left_out``, each with its ``error_pct``)."""

    left_out: Sequence[_HasErrorPct]

    @property
    def median_pct(self) -> float | None:
        return statistics.median(x.error_pct for x in self.left_out) if self.left_out else None

    @property
    def worst_pct(self) -> float | None:
        return max(x.error_pct for x in self.left_out) if self.left_out else None


@dataclass(frozen=True)
class ScalingError(LeftOutErrors):
    """The model's error on its own sweep: median and worst over the drive counts left out."""

    left_out: tuple[LeftOut, ...]


@dataclass(frozen=True)
class DrivesNeeded:
    """The answer to "how many drives for ``target``?".

    ``drives`` is the model's count rounded up to what the RAID level allows (``None`` when the target
    is not reachable: the sweep levels off below it); ``extrapolated`` when it lies outside the
    drive counts measured.
    """

    target: float
    drives: int | None
    throughput: float | None
    reachable: bool
    extrapolated: bool
    plateau: float | None
    knee_drives: float | None


def fit(figures: Iterable[DriveCountFigure], *, gradual_margin_pct: float = GRADUAL_KNEE_MARGIN_PCT) -> DriveScaling:
    """Fit both regimes to a sweep of at least two drive counts (one throughput per count).

    The sharp knee answers unless the gradual knee's mean leave-one-out error on this sweep is lower by
    more than :data:`GRADUAL_KNEE_MARGIN_PCT` (which needs two interior drive counts to measure); past
    :data:`LEAVE_OUT_CHOICE_MOST_COUNTS` counts, unless its own error on all of them is lower."""
    sharp = fit_knee(figures, knee_sharpness=KNEE_SHARPNESS)
    if len(sharp.measured) < 4:
        return sharp
    gradual = fit_knee(sharp.measured, knee_sharpness=GRADUAL_KNEE_SHARPNESS)
    if len(sharp.measured) > LEAVE_OUT_CHOICE_MOST_COUNTS:
        return gradual if _own_error(gradual) < _own_error(sharp) else sharp
    sharp_error = statistics.mean(_left_out_errors(sharp.measured, KNEE_SHARPNESS))
    gradual_error = statistics.mean(_left_out_errors(sharp.measured, GRADUAL_KNEE_SHARPNESS))
    return gradual if gradual_error < sharp_error - gradual_margin_pct else sharp


def fit_knee(figures: Iterable[DriveCountFigure], *, knee_sharpness: int) -> DriveScaling:
    """Fit both regimes with the knee's roundness given."""
    measured = tuple(sorted(figures, key=lambda f: f.drive_count))
    counts = [f.drive_count for f in measured]
    if len(measured) < 2 or len(set(counts)) < len(counts):
        raise ValueError(f"a drive-count sweep needs two or more different drive counts, got {counts}")
    if any(f.drive_count <= 0 or f.throughput <= 0 for f in measured):
        raise ValueError("drive counts and throughputs of a sweep must be positive")
    best: _Candidate | None = None
    for with_base in (False, True):
        for split in range(1 if not with_base else 2, len(measured) + 1):
            candidate = _candidate(measured, split, with_base, knee_sharpness)
            if candidate is not None and (best is None or candidate.cost < best.cost - 1e-12):
                best = candidate
    if best is None:
        raise ValueError("no drive-bound regime: throughput does not grow with drives anywhere in the sweep")
    return DriveScaling(
        per_drive=best.per_drive,
        base=best.base,
        plateau=best.plateau,
        measured=measured,
        knee_sharpness=knee_sharpness,
    )


def _own_error(scaling: DriveScaling) -> float:
    """The fit's squared log error on the drive counts it was fitted to."""
    return sum(math.log(scaling.throughput_with(f.drive_count) / f.throughput) ** 2 for f in scaling.measured)


def _left_out_errors(measured: Sequence[DriveCountFigure], knee_sharpness: int) -> list[float]:
    """Each interior drive count's error (%) when the model of this knee is fitted to the others."""
    errors = []
    for index in range(1, len(measured) - 1):
        others, point = [*measured[:index], *measured[index + 1 :]], measured[index]
        predicted = fit_knee(others, knee_sharpness=knee_sharpness).throughput_with(point.drive_count)
        errors.append(abs(predicted - point.throughput) / point.throughput * 100)
    return errors


class _Candidate(NamedTuple):
    cost: float
    base: float
    per_drive: float
    plateau: float | None


def _candidate(
    measured: Sequence[DriveCountFigure], split: int, with_base: bool, knee_sharpness: int
) -> _Candidate | None:
    """The first ``split`` counts drive-bound (a least-squares line), the rest on the plateau (their mean)."""
    below, above = measured[:split], measured[split:]
    base, per_drive = _line(below, with_base)
    if per_drive <= 0:
        return None
    plateau = statistics.mean(f.throughput for f in above) if above else None
    predicted = [_model(base, per_drive, plateau, f.drive_count, knee_sharpness) for f in measured]
    if min(predicted) <= 0:
        return None
    error = sum(math.log(p / f.throughput) ** 2 for p, f in zip(predicted, measured, strict=True))
    return _Candidate(error + (BASE_COST if with_base else 0.0), base, per_drive, plateau)


def _line(points: Sequence[DriveCountFigure], with_base: bool) -> tuple[float, float]:
    if not with_base:
        return 0.0, sum(f.throughput * f.drive_count for f in points) / sum(f.drive_count**2 for f in points)
    mean_n = statistics.mean(f.drive_count for f in points)
    mean_t = statistics.mean(f.throughput for f in points)
    slope = sum((f.drive_count - mean_n) * (f.throughput - mean_t) for f in points) / sum(
        (f.drive_count - mean_n) ** 2 for f in points
    )
    return mean_t - slope * mean_n, slope


def _model(base: float, per_drive: float, plateau: float | None, drive_count: float, knee_sharpness: int) -> float:
    drive_bound = max(base + per_drive * drive_count, 0.0)
    if plateau is None or drive_bound == 0:
        return drive_bound
    return drive_bound / (1 + (drive_bound / plateau) ** knee_sharpness) ** (1 / knee_sharpness)


def leave_one_out(figures: Iterable[DriveCountFigure]) -> ScalingError:
    """Each interior drive count predicted by the model fitted to the others, its knee chosen on them
    (none for under three counts; of a sweep with more than :data:`MOST_LEFT_OUT` interior counts, that
    many spread evenly over them)."""
    measured = tuple(sorted(figures, key=lambda f: f.drive_count))
    interior = list(range(1, len(measured) - 1))
    if len(interior) > MOST_LEFT_OUT:
        step = (len(interior) - 1) / (MOST_LEFT_OUT - 1)
        interior = sorted({interior[round(i * step)] for i in range(MOST_LEFT_OUT)})
    left_out = []
    for index in interior:
        others = measured[:index] + measured[index + 1 :]
        point = measured[index]
        left_out.append(LeftOut(point.drive_count, point.throughput, fit(others).throughput_with(point.drive_count)))
    return ScalingError(tuple(left_out))


def drives_allowed(drive_count: float, raid_level: str | None, *, drives_per_array: int | None = None) -> int:
    """``drive_count`` rounded up to what the RAID level is built from (RAID-10 an even number of at least 4,
    RAID-5 at least 3, ...), and to whole arrays when their width is given."""
    drives = max(math.ceil(round(drive_count, 9)), RAID_MIN_DRIVES.get(raid_level or "", 1))
    step = RAID_DRIVE_STEP.get(raid_level or "", 1)
    if drives_per_array:
        step = drives_per_array
    return math.ceil(drives / step) * step


def drives_needed(
    scaling: DriveScaling, *, target: float, raid_level: str | None, drives_per_array: int | None = None
) -> DrivesNeeded:
    """The fewest drives whose modelled throughput reaches ``target``, rounded up as the RAID level allows."""
    if target <= 0:
        raise ValueError(f"the target throughput must be positive, got {target}")
    reachable_limit = SEARCH_FACTOR * scaling.most_drives
    needed = next((n for n in range(1, reachable_limit + 1) if scaling.throughput_with(n) >= target), None)
    if needed is None:
        return DrivesNeeded(target, None, None, False, True, scaling.plateau, scaling.knee_drives)
    drives = drives_allowed(needed, raid_level, drives_per_array=drives_per_array)
    return DrivesNeeded(
        target=target,
        drives=drives,
        throughput=scaling.throughput_with(drives),
        reachable=True,
        extrapolated=scaling.extrapolated(drives),
        plateau=scaling.plateau,
        knee_drives=scaling.knee_drives,
    )


@dataclass(frozen=True)
class BackEnd:
    """The back-end formula: front-end IOPS split into reads and writes, writes times the RAID penalty.

    ``backend_iops`` = reads x (1 - read hit ratio) + writes x (1 - write hit ratio) x penalty.
    """

    frontend_iops: float
    read_pct: float
    raid_level: str
    write_penalty: int
    read_hit_pct: float
    write_hit_pct: float
    backend_iops: float
    per_drive_iops: float | None
    drives: int | None

    @property
    def formula(self) -> str:
        reads = self.frontend_iops * self.read_pct / 100
        writes = self.frontend_iops - reads
        read_part = f"{reads:,.0f}" if not self.read_hit_pct else f"{reads:,.0f} x {1 - self.read_hit_pct / 100:g}"
        write_part = f"{writes:,.0f}" if not self.write_hit_pct else f"{writes:,.0f} x {1 - self.write_hit_pct / 100:g}"
        penalty = f"{self.write_penalty} ({self.raid_level})"
        return f"{read_part} reads + {write_part} writes x {penalty} = {self.backend_iops:,.0f}"


def backend(
    *,
    frontend_iops: float,
    read_pct: float,
    raid_level: str,
    per_drive_iops: float | None = None,
    read_hit_pct: float = 0.0,
    write_hit_pct: float = 0.0,
    drives_per_array: int | None = None,
) -> BackEnd:
    """Back-end IOPS of a front-end load on a RAID level, and the drives it takes when ``per_drive_iops`` is known."""
    if raid_level not in RAID_WRITE_PENALTY:
        raise ValueError(f"no write penalty known for {raid_level!r}; choose one of: {', '.join(RAID_WRITE_PENALTY)}")
    for name, pct in (("read", read_pct), ("read hit", read_hit_pct), ("write hit", write_hit_pct)):
        if not 0 <= pct <= 100:
            raise ValueError(f"the {name} percentage must be between 0 and 100, got {pct}")
    if frontend_iops <= 0 or (per_drive_iops is not None and per_drive_iops <= 0):
        raise ValueError("front-end IOPS and IOPS per drive must be positive")
    penalty = RAID_WRITE_PENALTY[raid_level]
    reads = frontend_iops * read_pct / 100
    writes = frontend_iops - reads
    backend_iops = reads * (1 - read_hit_pct / 100) + writes * (1 - write_hit_pct / 100) * penalty
    drives = None
    if per_drive_iops is not None:
        drives = drives_allowed(backend_iops / per_drive_iops, raid_level, drives_per_array=drives_per_array)
    return BackEnd(
        frontend_iops,
        read_pct,
        raid_level,
        penalty,
        read_hit_pct,
        write_hit_pct,
        backend_iops,
        per_drive_iops,
        drives,
    )


def rule_of_thumb_iops(*, drive_type: str | None, drive_rpm: float | None) -> float | None:
    """Random IOPS of one hard drive by its rotation speed (``None`` for SSDs and unknown speeds)."""
    if drive_type not in (None, "", "HDD") or drive_rpm is None:
        return None
    return HDD_IOPS_BY_RPM.get(int(drive_rpm))
