"""What an untested combination of two load parameters would do, from sweeps through a focal point.

Chen & Patterson's self-scaling benchmark (seed 003) measures one parameter at a time around a
focal point (f1, f2) and predicts other combinations by the product of ratios:

    T(x1, x2) = T(x1, f2) * T(f1, x2) / T(f1, f2)

Where the parameters add rather than multiply (a read share that costs the same IOPS at every queue
depth), the sum of differences, T(x1, f2) + T(f1, x2) - T(f1, f2), is offered beside it.

On devices bound by outstanding I/O the product fails: with fio's iodepth and numjobs what counts
is their product, the total outstanding I/O. That model reads each measured sweep as a curve of
throughput against total outstanding I/O (piecewise linear in log-log, flat past its high end) and
reads the cell off both at x1 * x2, weighted by the cell's share of jobs against queue depth in log
terms (log jobs / (log depth + log jobs)): a cell whose outstanding I/Os come mostly from jobs reads
mostly the sweep that varies jobs, one whose come from queue depth the sweep that varies queue depth
(jobs and queue depth are not interchangeable: threads cost CPU, a disk reorders within a queue).
Below a curve's lowest total, throughput follows a closed queue, X(n) = Xmax * n / (n + K), through the
curve's first two points: as load falls latency does not grow, so the curve falls at most in proportion
to the load (Little's law) and never rises.

The focal point is a quarter of the way up each axis: the sweeps then reach low loads, where a device
is still rising, and what lies above them is mostly flat. That rule and the jobs-share reading were
chosen among candidates device by device (tests/grid_candidates.py, ``python -m tests.sizing_eval``:
each device's figure from the candidate chosen on the other 15 devices).

For iodepth x numjobs grids the total outstanding I/O model answers, always: no model is chosen on a
grid's own data (a choice by how well each model predicts the measured cells, or by a cut-off on the sweeps'
cross-check, is tuned on the cells it is then scored on). Each cell says whether its total outstanding
I/O lies within the sweeps' totals (interpolated) or beyond them (extrapolated, and by what factor);
:mod:`portal.analysis.prediction_bands` holds each kind's error, measured device by device on the shared
grids. For other parameters (no total outstanding I/O) the product of ratios or the sum of differences
answers, whichever misses the measured cells off the sweeps less (the product of ratios where there
are none). Predictions are never measurements: the result says which model answered and what error it
showed on the cells that exist.
"""

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from portal.analysis.prediction_bands import Kind, percentile

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
    # Total outstanding I/O model only: the cell's kind, and how many times beyond the sweeps' totals.
    kind: Kind | None = None
    beyond_factor: float = 1.0

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
    # The sweeps' lowest and highest total outstanding I/O (total outstanding I/O model only).
    outstanding_range: tuple[float, float] | None = None

    @property
    def median_error_pct(self) -> float | None:
        return statistics.median(self.check_errors_pct) if self.check_errors_pct else None

    @property
    def p90_error_pct(self) -> float | None:
        return percentile(self.check_errors_pct, 90) if self.check_errors_pct else None


def predict_grid(
    measured: Mapping[Cell, float], *, focal: Cell, outstanding: bool, known: Mapping[Cell, float] | None = None
) -> GridPrediction:
    """Predict every cell of the grid the sweeps span from the two sweeps through ``focal``.

    ``measured``: throughput by (x1, x2), at least the two sweeps; cells off them are used only to
    show the error (and, for other parameters, to choose between product and sum). ``outstanding``: the two
    parameters multiply into the total outstanding I/O (queue depth and jobs), and that model answers.
    ``known``: cells measured elsewhere that the prediction is to be shown against (defaults to the
    off-sweep cells of ``measured``).
    """
    sweeps = _sweeps(measured, focal)
    off_sweep = {cell: value for cell, value in measured.items() if cell[0] != focal[0] and cell[1] != focal[1]}
    model = Model.OUTSTANDING if outstanding else Model.PRODUCT
    if off_sweep and not outstanding:
        errors = {m: _errors(m, sweeps, focal, off_sweep) for m in (Model.PRODUCT, Model.SUM)}
        model = min(errors, key=lambda m: statistics.median(errors[m]))
    check = _errors(model, sweeps, focal, off_sweep)
    checked_on = f"{len(off_sweep)} measured cells off the two sweeps"
    if not off_sweep:
        checked_on = "no measured cell off the two sweeps"
    shown = off_sweep if known is None else known
    totals = sorted(x1 * x2 for x1, x2 in sweeps)
    span = (totals[0], totals[-1]) if model is Model.OUTSTANDING else None
    x1s = sorted({cell[0] for cell in sweeps})
    x2s = sorted({cell[1] for cell in sweeps})
    cells = tuple(
        CellPrediction(x1, x2, _predict(model, sweeps, focal, (x1, x2)), shown.get((x1, x2)), *_extent(span, x1 * x2))
        for x1 in x1s
        for x2 in x2s
        if x1 != focal[0] and x2 != focal[1]
    )
    return GridPrediction(model, focal, cells, checked_on, tuple(check), span)


def _extent(span: tuple[float, float] | None, total: float) -> tuple[Kind | None, float]:
    """The cell's kind and how many times beyond the sweeps' totals (1 within them)."""
    if span is None:
        return None, 1.0
    lowest, highest = span
    if total < lowest:
        return Kind.BELOW, lowest / total
    if total > highest:
        return Kind.ABOVE, total / highest
    return Kind.INTERPOLATED, 1.0


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
    by_depth, by_jobs = sweep_curves(sweeps, focal)
    share = jobs_share(x1, x2)
    return _curve_at(by_depth, x1 * x2) ** (1 - share) * _curve_at(by_jobs, x1 * x2) ** share


def sweep_curves(sweeps: Mapping[Cell, float], focal: Cell) -> tuple[list[tuple[float, float]], ...]:
    """The sweep of queue depth (jobs at the focal value) and the sweep of jobs, each as throughput by total
    outstanding I/O."""
    by_depth = sorted((x1 * x2, value) for (x1, x2), value in sweeps.items() if x2 == focal[1])
    by_jobs = sorted((x1 * x2, value) for (x1, x2), value in sweeps.items() if x1 == focal[0])
    return by_depth, by_jobs


def jobs_share(depth: float, jobs: float) -> float:
    """How much of a cell's outstanding I/O comes from jobs rather than queue depth, in log terms (0 to 1)."""
    log_depth, log_jobs = math.log(max(depth, 1)), math.log(max(jobs, 1))
    if log_depth + log_jobs == 0:
        return 0.5
    return log_jobs / (log_depth + log_jobs)


def _curve_at(points: list[tuple[float, float]], x: float) -> float:
    """Piecewise linear in log-log; below the first point a closed queue through the first two, past the last
    point flat."""
    if len(points) == 1 or x >= points[-1][0]:
        return points[-1][1] if x >= points[-1][0] else points[0][1]
    if x <= points[0][0]:
        return _closed_queue_below(points[0], points[1], x)
    for (x0, t0), (x1, t1) in zip(points, points[1:], strict=False):
        if x0 <= x <= x1:
            weight = math.log(x / x0) / math.log(x1 / x0)
            return math.exp(math.log(t0) + weight * math.log(t1 / t0))
    raise AssertionError("unreachable: x lies within the curve's range")


def _closed_queue_below(first: tuple[float, float], second: tuple[float, float], x: float) -> float:
    """Throughput at ``x`` outstanding I/Os, below ``first``: X(n) = Xmax * n / (n + K) through both points.

    A curve that rises as fast as the load or faster falls in proportion to it (latency held); one that does
    not rise is held (throughput does not grow as load falls)."""
    (n0, t0), (n1, t1) = first, second
    rise, growth = t1 / t0, n1 / n0
    if rise >= growth:
        return t0 * x / n0
    if rise <= 1:
        return t0
    k = n1 * (1 - rise) / (rise - growth)
    return t0 * (x / n0) * (n0 + k) / (x + k)


def quarter_up(values: Iterable[float]) -> float:
    """The focal value of an axis: the one a quarter of the way up those measured (the value at index
    count // 4). Chosen among candidate rules device by device (tests/grid_candidates.py)."""
    ordered = sorted(set(values))
    return ordered[len(ordered) // 4]


def default_focal(cells: Iterable[Cell]) -> Cell:
    """A quarter of the way up each axis; on a partial grid, of the measured points whose row and column hold
    the most cells, the one nearest that (in steps along each axis)."""
    measured = set(cells)
    x1s, x2s = sorted({c[0] for c in measured}), sorted({c[1] for c in measured})
    aim = (x1s.index(quarter_up(x1s)), x2s.index(quarter_up(x2s)))

    def preference(cell: Cell) -> tuple[int, int, Cell]:
        filled = sum(c[0] == cell[0] for c in measured) + sum(c[1] == cell[1] for c in measured)
        steps = abs(x1s.index(cell[0]) - aim[0]) + abs(x2s.index(cell[1]) - aim[1])
        return -filled, steps, cell

    return min(measured, key=preference)


def little_response_ms(*, outstanding_ios: float, iops: float) -> float:
    """Average response time by Little's law: outstanding I/Os over throughput, in milliseconds."""
    return outstanding_ios / iops * 1000
