"""Ways to predict a queue depth x jobs grid from two sweeps, compared on the shared fio grids device by device.

A candidate is a focal rule (where on each axis the two sweeps cross) and a reading (how a cell is read off
the sweeps' curves of IOPS against total outstanding I/O; below a curve's lowest total, all follow the
closed queue of :mod:`portal.analysis.grid_prediction`). The candidate that answers a device is the one
chosen on the other 15 devices (goals first: pooled median <= 1.8 %; then the lowest 90th percentile, then
the lowest median), so each device's figure is measured on data its choice never saw.

Focal rules (the value at that index of the sorted measured values of each axis): the middle (count // 2,
the page's earlier rule), the lower middle ((count - 1) // 2), a third (count // 3), a quarter (count // 4,
what the page does) and a fifth of the way up (count // 5).

Readings: by the cell's share of jobs (what the page does), by its share of queue depth, the mean of the two
curves (in log terms), and both sweeps as one curve (where both measured a total, their mean: the page's
earlier reading).
"""

import statistics
from collections.abc import Callable, Mapping

from portal.analysis import grid_prediction
from portal.analysis.grid_prediction import Cell, jobs_share, sweep_curves
from portal.analysis.prediction_bands import percentile

FocalRule = Callable[[list[float]], float]
Reading = Callable[[Mapping[Cell, float], Cell, Cell], float]


def _at_index(index: Callable[[int], int]) -> FocalRule:
    return lambda values: sorted(set(values))[index(len(set(values)))]


FOCAL_RULES: dict[str, FocalRule] = {
    "middle": _at_index(lambda count: count // 2),
    "lower middle": _at_index(lambda count: (count - 1) // 2),
    "a third up": _at_index(lambda count: count // 3),
    "a quarter up": _at_index(lambda count: count // 4),
    "a fifth up": _at_index(lambda count: count // 5),
}


def _weighted(share: Callable[[float, float], float]) -> Reading:
    def read(sweeps: Mapping[Cell, float], focal: Cell, cell: Cell) -> float:
        by_depth, by_jobs = sweep_curves(sweeps, focal)
        total, weight = cell[0] * cell[1], share(*cell)
        return (
            grid_prediction._curve_at(by_depth, total) ** (1 - weight)
            * grid_prediction._curve_at(by_jobs, total) ** weight
        )

    return read


def _one_curve(sweeps: Mapping[Cell, float], focal: Cell, cell: Cell) -> float:
    by_total: dict[float, list[float]] = {}
    for (x1, x2), value in sweeps.items():
        by_total.setdefault(x1 * x2, []).append(value)
    points = sorted((total, statistics.mean(values)) for total, values in by_total.items())
    return grid_prediction._curve_at(points, cell[0] * cell[1])


READINGS: dict[str, Reading] = {
    "by the share of jobs": _weighted(jobs_share),
    "by the share of queue depth": _weighted(lambda depth, jobs: 1 - jobs_share(depth, jobs)),
    "mean of the two sweeps": _weighted(lambda depth, jobs: 0.5),
    "one curve through both sweeps": _one_curve,
}

Candidate = tuple[str, str]
DeviceErrors = dict[str, list[float]]


def candidate_errors(grids: Mapping[tuple[str, str], Mapping[Cell, float]]) -> dict[Candidate, DeviceErrors]:
    """Each candidate's error (%) on every off-axis cell, by device (a device's grids pooled)."""
    result: dict[Candidate, DeviceErrors] = {}
    for focal_name, rule in FOCAL_RULES.items():
        for reading_name, read in READINGS.items():
            by_device: DeviceErrors = {}
            for (device, _), cells in grids.items():
                focal = (rule([c[0] for c in cells]), rule([c[1] for c in cells]))
                sweeps = {c: v for c, v in cells.items() if c[0] == focal[0] or c[1] == focal[1]}
                by_device.setdefault(device, []).extend(
                    abs(read(sweeps, focal, cell) - value) / value * 100
                    for cell, value in cells.items()
                    if cell not in sweeps
                )
            result[(focal_name, reading_name)] = by_device
    return result


def _score(by_device: DeviceErrors, left_out: str | None) -> tuple[bool, float, float]:
    pooled = [e for device, errors in by_device.items() if device != left_out for e in errors]
    median = statistics.median(pooled)
    return median > 1.8, percentile(pooled, 90), median


def chosen(errors: dict[Candidate, DeviceErrors], left_out: str | None = None) -> Candidate:
    """The candidate with the best score on every device but ``left_out``."""
    return min(errors, key=lambda candidate: _score(errors[candidate], left_out))


def cross_validated(errors: dict[Candidate, DeviceErrors]) -> tuple[list[float], dict[str, Candidate]]:
    """Each device's errors from the candidate chosen on the other devices; the choices by device."""
    devices = list(next(iter(errors.values())))
    choices = {device: chosen(errors, device) for device in devices}
    return [e for device in devices for e in errors[choices[device]][device]], choices
