"""What an untested combination of two load parameters would do, from sweeps through a focal point.

Chen & Patterson's self-scaling benchmark (seed 003) measures one parameter at a time around a
focal point (f1, f2) and predicts other combinations by the product of ratios:

    T(x1, x2) = T(x1, f2) * T(f1, x2) / T(f1, f2)

Where the parameters add rather than multiply (a read share that costs the same IOPS at every queue
depth), the sum of differences, T(x1, f2) + T(f1, x2) - T(f1, f2), is offered beside it.

On devices bound by outstanding I/O the product fails: with fio's iodepth and numjobs what counts
is their product, the total outstanding I/O. That model reads both measured sweeps as one curve of
throughput against total outstanding I/O (piecewise linear in log-log, its low end extended along
its first slope, flat past its high end) and reads the cell off it at x1 * x2.

The model is chosen per data set by how well it predicts measured cells: the cells off the two
sweeps where some were measured (the smaller median error), else each sweep's cells read from the
other sweep's curve at the same total outstanding I/O (total outstanding I/O when none misses by
more than 40 %, else the product of ratios; for other parameters the product of ratios). Predictions
are never measurements: the result says which model answered and what error it showed on the cells
that exist.
"""

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from portal.analysis.digits import rounded_half_up, written

# The largest error on any measured cell of the sweeps, each read from the other sweep, at which total
# outstanding I/O is trusted when only the two sweeps were measured. A device where jobs and queue depth
# are not interchangeable misses somewhere by far more (fio-plot's grids: 42 % to 249 % where the
# product of ratios does better, at most 33 % where it does not).
OUTSTANDING_WORST_PCT = 40.0

Cell = tuple[float, float]


class Model(StrEnum):
    PRODUCT = "product of ratios"
    OUTSTANDING = "total outstanding I/O"
    SUM = "sum of differences"


@dataclass(frozen=True)
class CellPrediction:
    """One cell predicted; ``measured`` is the measurement where that cell exists (never used to predict it)."""

    x1: float
    x2: float
    predicted: float
    measured: float | None

    @property
    def error_pct(self) -> float | None:
        if self.measured is None:
            return None
        return abs(self.predicted - self.measured) / self.measured * 100


@dataclass(frozen=True)
class GridPrediction:
    """Every cell off the two sweeps predicted by ``model``; the error as measured on ``checked_on``."""

    model: Model
    focal: Cell
    cells: tuple[CellPrediction, ...]
    checked_on: str
    check_errors_pct: tuple[float, ...]

    @property
    def median_error_pct(self) -> float | None:
        return statistics.median(self.check_errors_pct) if self.check_errors_pct else None

    @property
    def p90_error_pct(self) -> float | None:
        return percentile(self.check_errors_pct, 90) if self.check_errors_pct else None


def percentile(values: Iterable[float], pct: float) -> float:
    """The ``pct`` percentile, linear between ranks (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("a percentile of no values")
    rank = (len(ordered) - 1) * pct / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def predict_grid(
    measured: Mapping[Cell, float], *, focal: Cell, outstanding: bool, known: Mapping[Cell, float] | None = None
) -> GridPrediction:
    """Predict every cell of the grid the sweeps span from the two sweeps through ``focal``.

    ``measured``: throughput by (x1, x2), at least the two sweeps; cells off them are used only to
    choose the model and to show its error. ``outstanding``: the two parameters multiply into the total
    outstanding I/O (queue depth and jobs), so that model is offered too. ``known``: cells measured
    elsewhere that the prediction is to be shown against (defaults to the off-sweep cells of ``measured``).
    """
    sweeps = _sweeps(measured, focal)
    off_sweep = {cell: value for cell, value in measured.items() if cell[0] != focal[0] and cell[1] != focal[1]}
    models = [Model.PRODUCT, Model.OUTSTANDING] if outstanding else [Model.PRODUCT, Model.SUM]
    if off_sweep:
        errors = {m: _errors(m, sweeps, focal, off_sweep) for m in models}
        model = min(models, key=lambda m: statistics.median(errors[m]))
        checked_on, check = f"{len(off_sweep)} measured cells off the two sweeps", errors[model]
    elif outstanding:
        check = _cross_errors(sweeps, focal)
        trusted = bool(check) and max(check) <= OUTSTANDING_WORST_PCT
        model = Model.OUTSTANDING if trusted else Model.PRODUCT
        checked_on = f"{len(check)} measured cells of the sweeps, each read from the other sweep"
        if not trusted:
            worst = f"{written(rounded_half_up(max(check), 0), 0)} %" if check else "an unknown share"
            checked_on = (
                "no measured cell off the two sweeps; total outstanding I/O was not used: reading each sweep"
                f" from the other it missed a measured cell by {worst}"
            )
            check = []
    else:
        model, checked_on, check = Model.PRODUCT, "no measured cell off the two sweeps", []
    shown = off_sweep if known is None else known
    x1s = sorted({cell[0] for cell in sweeps})
    x2s = sorted({cell[1] for cell in sweeps})
    cells = tuple(
        CellPrediction(x1, x2, _predict(model, sweeps, focal, (x1, x2)), shown.get((x1, x2)))
        for x1 in x1s
        for x2 in x2s
        if x1 != focal[0] and x2 != focal[1]
    )
    return GridPrediction(model, focal, cells, checked_on, tuple(check))


def _sweeps(measured: Mapping[Cell, float], focal: Cell) -> dict[Cell, float]:
    sweeps = {cell: value for cell, value in measured.items() if cell[0] == focal[0] or cell[1] == focal[1]}
    if focal not in sweeps:
        raise ValueError(f"the focal point {focal} was not measured")
    if len({c[0] for c in sweeps}) < 2 or len({c[1] for c in sweeps}) < 2:
        raise ValueError("predicting needs both sweeps through the focal point, each with two or more values")
    if any(value <= 0 for value in sweeps.values()):
        raise ValueError("throughputs of the sweeps must be positive")
    return sweeps


def _errors(model: Model, sweeps: dict[Cell, float], focal: Cell, cells: Mapping[Cell, float]) -> list[float]:
    return [abs(_predict(model, sweeps, focal, cell) - value) / value * 100 for cell, value in cells.items()]


def _predict(model: Model, sweeps: dict[Cell, float], focal: Cell, cell: Cell) -> float:
    x1, x2 = cell
    if model is Model.PRODUCT:
        return sweeps[(x1, focal[1])] * sweeps[(focal[0], x2)] / sweeps[focal]
    if model is Model.SUM:
        # Each parameter adds or takes away the same throughput wherever the other one is; never below
        # a hundredth of the focal figure (a throughput is positive).
        return max(sweeps[(x1, focal[1])] + sweeps[(focal[0], x2)] - sweeps[focal], sweeps[focal] / 100)
    return _curve_at(_outstanding_curve(sweeps), x1 * x2)


def _outstanding_curve(sweeps: dict[Cell, float]) -> list[tuple[float, float]]:
    """Both sweeps as one curve over total outstanding I/O; where both measured the same total, their mean."""
    by_total: dict[float, list[float]] = {}
    for (x1, x2), value in sweeps.items():
        by_total.setdefault(x1 * x2, []).append(value)
    return sorted((total, statistics.mean(values)) for total, values in by_total.items())


def _cross_errors(sweeps: dict[Cell, float], focal: Cell) -> list[float]:
    """Each sweep's cells (the focal point aside) read from the other sweep's curve at the same total
    outstanding I/O."""
    first = {cell: v for cell, v in sweeps.items() if cell[1] == focal[1] and cell != focal}
    second = {cell: v for cell, v in sweeps.items() if cell[0] == focal[0] and cell != focal}
    errors = []
    for own, other in ((first, second), (second, first)):
        curve = sorted((x1 * x2, v) for (x1, x2), v in {**other, focal: sweeps[focal]}.items())
        for (x1, x2), value in own.items():
            if curve[0][0] <= x1 * x2 <= curve[-1][0]:
                errors.append(abs(_curve_at(curve, x1 * x2) - value) / value * 100)
    return errors


def _curve_at(points: list[tuple[float, float]], x: float) -> float:
    """Piecewise linear in log-log; below the first point along the first slope, past the last point flat."""
    if len(points) == 1 or x >= points[-1][0]:
        return points[-1][1] if x >= points[-1][0] else points[0][1]
    if x <= points[0][0]:
        (x0, t0), (x1, t1) = points[0], points[1]
        return t0 * (x / x0) ** (math.log(t1 / t0) / math.log(x1 / x0))
    for (x0, t0), (x1, t1) in zip(points, points[1:], strict=False):
        if x0 <= x <= x1:
            weight = math.log(x / x0) / math.log(x1 / x0)
            return math.exp(math.log(t0) + weight * math.log(t1 / t0))
    raise AssertionError("unreachable: x lies within the curve's range")


def little_response_ms(*, outstanding_ios: float, iops: float) -> float:
    """Average response time by Little's law: outstanding I/Os over throughput, in milliseconds."""
    return outstanding_ios / iops * 1000
