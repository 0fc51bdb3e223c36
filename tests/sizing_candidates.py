"""Ways to answer "how many drives for this throughput?", compared on seed 000's sweeps under leave-one-sweep-out.

Each candidate answers the question :mod:`portal.analysis.drives_error` asks (the drives for a left-out
point's throughput, on the rising parts of a sweep, from the sweep's other drive counts). The candidate
that answers a sweep is chosen on the other sweeps only (lowest 90th percentile of drives-needed error,
then lowest median), so the pooled figure is measured on data its choice never saw.

- ``model, knee chosen``: what the portal answers (:func:`portal.analysis.drive_scaling.fit`).
- ``model, knee k = N``: the same model with one knee roundness everywhere.
- ``PCHIP, log-log`` / ``PCHIP``: monotone piecewise cubic (Fritsch-Carlson) through the other counts,
  log throughput against log drives / throughput against drives, inverted between the two measured
  neighbours; no knee fitted.
- ``straight line, log-log`` / ``straight line``: the chord between the two measured neighbours.
"""

import math
import statistics
from collections.abc import Callable, Sequence

from portal.analysis.drive_scaling import DriveCountFigure, fit, fit_knee
from portal.analysis.drives_error import CLEARLY_RISING_GAIN, drive_count_for, rising
from portal.analysis.grid_prediction import percentile

Answer = Callable[[Sequence[DriveCountFigure], float], float | None]


def _slopes(x: list[float], y: list[float]) -> list[float]:
    """Fritsch-Carlson slopes (as scipy's PchipInterpolator): monotone between each pair of points."""
    h = [b - a for a, b in zip(x, x[1:], strict=False)]
    d = [(y[i + 1] - y[i]) / h[i] for i in range(len(h))]
    if len(d) == 1:
        return [d[0], d[0]]
    inner = [
        0.0
        if d[i - 1] * d[i] <= 0
        else (3 * h[i] + 3 * h[i - 1]) / ((2 * h[i] + h[i - 1]) / d[i - 1] + (h[i] + 2 * h[i - 1]) / d[i])
        for i in range(1, len(d))
    ]
    return [_end(h[0], h[1], d[0], d[1]), *inner, _end(h[-1], h[-2], d[-1], d[-2])]


def _end(h0: float, h1: float, d0: float, d1: float) -> float:
    slope = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1)
    if slope * d0 <= 0:
        return 0.0
    if d0 * d1 < 0 and abs(slope) > 3 * abs(d0):
        return 3 * d0
    return slope


def _hermite(x0: float, x1: float, y0: float, y1: float, m0: float, m1: float, x: float) -> float:
    h, t = x1 - x0, (x - x0) / (x1 - x0)
    return (
        (2 * t**3 - 3 * t**2 + 1) * y0
        + (t**3 - 2 * t**2 + t) * h * m0
        + (-2 * t**3 + 3 * t**2) * y1
        + (t**3 - t**2) * h * m1
    )


def _pchip(log: bool) -> Answer:
    def answer(others: Sequence[DriveCountFigure], target: float) -> float | None:
        scale = math.log if log else float
        x = [scale(f.drive_count) for f in others]
        y = [scale(f.throughput) for f in others]
        wanted, m = scale(target), _slopes(x, y)
        for i in range(len(x) - 1):
            if y[i] < wanted <= y[i + 1]:
                low, high = x[i], x[i + 1]
                for _ in range(60):
                    middle = (low + high) / 2
                    reaches = _hermite(x[i], x[i + 1], y[i], y[i + 1], m[i], m[i + 1], middle) >= wanted
                    low, high = (low, middle) if reaches else (middle, high)
                return math.exp(high) if log else high
        return None

    return answer


def _chord(log: bool) -> Answer:
    def answer(others: Sequence[DriveCountFigure], target: float) -> float | None:
        scale = math.log if log else float
        for low, high in zip(others, others[1:], strict=False):
            if low.throughput < target <= high.throughput:
                share = (scale(target) - scale(low.throughput)) / (scale(high.throughput) - scale(low.throughput))
                count = scale(low.drive_count) + share * (scale(high.drive_count) - scale(low.drive_count))
                return math.exp(count) if log else count
        return None

    return answer


def _knee(sharpness: int) -> Answer:
    return lambda others, target: drive_count_for(fit_knee(others, knee_sharpness=sharpness), target=target)


CANDIDATES: dict[str, Answer] = {
    "model, knee chosen": lambda others, target: drive_count_for(fit(others), target=target),
    **{f"model, knee k = {k}": _knee(k) for k in (4, 6, 8, 12)},
    "PCHIP, log-log": _pchip(log=True),
    "PCHIP": _pchip(log=False),
    "straight line, log-log": _chord(log=True),
    "straight line": _chord(log=False),
}


def errors_by_sweep(sweeps: dict, answer: Answer, *, clearly: bool = False) -> dict:
    """Each sweep's drives-needed errors (%) on its rising left-out points (``None`` counts as 100 %); only
    the clearly rising ones with ``clearly``."""
    errors: dict = {}
    for key, measured in sweeps.items():
        errors[key] = []
        for index, gain in rising(measured):
            if clearly and gain < CLEARLY_RISING_GAIN:
                continue
            point = measured[index]
            predicted = answer([*measured[:index], *measured[index + 1 :]], point.throughput)
            miss = 100.0 if predicted is None else abs(predicted - point.drive_count) / point.drive_count * 100
            errors[key].append(miss)
    return errors


def _score(errors: dict, left_out: object) -> tuple[float, float]:
    pooled = [e for key, values in errors.items() if key != left_out for e in values]
    return percentile(pooled, 90), statistics.median(pooled)


def compared(sweeps: dict, *, clearly: bool = False) -> tuple[dict[str, list[float]], list[float], list[str]]:
    """Each candidate's pooled errors; the errors with the candidate chosen on the other sweeps; the choices
    (on the clearly rising counts only with ``clearly``)."""
    by_candidate = {name: errors_by_sweep(sweeps, answer, clearly=clearly) for name, answer in CANDIDATES.items()}
    chosen_errors, choices = [], []
    for key in sweeps:
        name = min(by_candidate, key=lambda n, left=key: _score(by_candidate[n], left))
        choices.append(name)
        chosen_errors += by_candidate[name][key]
    pooled = {name: [e for values in errors.values() for e in values] for name, errors in by_candidate.items()}
    return pooled, chosen_errors, choices
