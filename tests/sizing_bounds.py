"""Drives needed for a left-out count, answered with help from the other sweeps, and bounds no answer reaches.

Each function returns, for every rising count of seed 000's sweeps (:func:`portal.analysis.drives_error.rising`),
its drives-needed error (%) and whether it is clearly rising, in the order of the sweeps and their counts.
What the other sweeps lend is taken with the scored sweep left out:

- :func:`knee_of_the_workload`: the knee roundness that predicts the same workload's other sweeps best (the
  other block sizes, RAID levels and cache settings; each of their counts left out in turn).
- :func:`shared_shape`: one curve learnt on the other sweeps: each of their interior counts left out, where
  it lies against the model of the others (drive-bound figure over plateau) for its throughput over the
  plateau; the scored count is read off that curve (monotone, fitted by pool-adjacent-violators).
- :func:`nearest_sweep`: the other sweep whose shape over the counts kept is closest, its own measured
  count included: an answer that is not available between measured counts (no sweep measured those).

And two bounds: :func:`knee_known`, the knee roundness of each sweep chosen on its own scored counts, and
:func:`fitted_with_it`, the portal's model fitted with the count asked among its counts.
"""

import math
import statistics
from collections.abc import Callable, Sequence

from portal.analysis.drive_scaling import DriveCountFigure, _left_out_errors, fit, fit_knee
from portal.analysis.drives_error import drive_count_for, rising

Sweeps = dict[tuple[str, str, str, str], list[DriveCountFigure]]
Scored = list[tuple[float, bool]]
KNEES = (3, 4, 6, 8, 12, 20)


def _miss(predicted: float | None, drive_count: int) -> float:
    return 100.0 if predicted is None else abs(predicted - drive_count) / drive_count * 100


def _each(sweeps: Sweeps, answer: Callable[[tuple, int], float | None]) -> Scored:
    """Every rising count's error with ``answer(key, index)``, and whether it is clearly rising."""
    found = []
    for key, measured in sweeps.items():
        for index, gain in rising(measured):
            found.append((_miss(answer(key, index), measured[index].drive_count), gain >= 0.5))
    return found


def _without(measured: Sequence[DriveCountFigure], index: int) -> list[DriveCountFigure]:
    return [*measured[:index], *measured[index + 1 :]]


def _family(workload: str) -> str:
    """The workload without its block size: "OLTP 8K" is "OLTP"."""
    words = workload.split()
    return " ".join(words[:-1]) if words[-1].endswith("K") and words[-1][:-1].isdigit() else workload


def knee_of_the_workload(sweeps: Sweeps) -> Scored:
    looe = {key: {k: statistics.mean(_left_out_errors(f, k)) for k in KNEES} for key, f in sweeps.items()}

    def answer(key: tuple, index: int) -> float | None:
        kin = [o for o in sweeps if o != key and _family(o[3]) == _family(key[3])] or [o for o in sweeps if o != key]
        knee = min(KNEES, key=lambda k: sum(looe[o][k] for o in kin))
        others = _without(sweeps[key], index)
        return drive_count_for(fit_knee(others, knee_sharpness=knee), target=sweeps[key][index].throughput)

    return _each(sweeps, answer)


def _isotonic(xs: list[float], ys: list[float]) -> tuple[list[float], list[float]]:
    """``ys`` against sorted ``xs``, made non-decreasing by pooling adjacent violators."""
    order = sorted(range(len(xs)), key=xs.__getitem__)
    blocks: list[list[float]] = []
    for i in order:
        blocks.append([ys[i], 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            value, weight = blocks.pop()
            pooled, pooled_weight = blocks[-1]
            blocks[-1] = [(pooled * pooled_weight + value * weight) / (pooled_weight + weight), pooled_weight + weight]
    fitted = [value for value, weight in blocks for _ in range(int(weight))]
    return [xs[i] for i in order], fitted


def shared_shape(sweeps: Sweeps) -> Scored:
    # Each interior count of each sweep: (throughput / plateau, drive-bound figure / plateau) of the others' model.
    samples: dict[tuple, dict[int, tuple[float, float, float, float, float]]] = {}
    for key, measured in sweeps.items():
        samples[key] = {}
        for index in range(1, len(measured) - 1):
            scaling = fit(_without(measured, index))
            if scaling.plateau is None:
                continue
            point, plateau = measured[index], scaling.plateau
            drive_bound = (scaling.base + scaling.per_drive * point.drive_count) / plateau
            samples[key][index] = (point.throughput / plateau, drive_bound, plateau, scaling.base, scaling.per_drive)

    def answer(key: tuple, index: int) -> float | None:
        if index not in samples[key]:
            return None
        pairs = [(y, x) for other, by in samples.items() if other != key for y, x, *_ in by.values() if y < 1]
        ys, xs = _isotonic([y for y, _ in pairs], [x for _, x in pairs])
        y, _, plateau, base, per_drive = samples[key][index]
        if y >= ys[-1]:
            return None
        at = next(i for i in range(len(ys)) if ys[i] >= y)
        if at == 0:
            x = xs[0] * y / ys[0]
        else:
            x = xs[at - 1] + (xs[at] - xs[at - 1]) * (y - ys[at - 1]) / (ys[at] - ys[at - 1] or 1)
        return (x * plateau - base) / per_drive

    return _each(sweeps, answer)


def nearest_sweep(sweeps: Sweeps) -> Scored:
    def answer(key: tuple, index: int) -> float | None:
        kept, target = _without(sweeps[key], index), sweeps[key][index].throughput
        best = None
        for other, figures in sweeps.items():
            by_count = {f.drive_count: f.throughput for f in figures}
            if other == key or any(f.drive_count not in by_count for f in sweeps[key]):
                continue
            logs = [math.log(f.throughput / by_count[f.drive_count]) for f in kept]
            offset = statistics.mean(logs)
            mismatch = sum((v - offset) ** 2 for v in logs)
            if best is None or mismatch < best[0]:
                best = (mismatch, figures, math.exp(offset))
        if best is None:
            return None
        _, figures, scale = best
        for low, high in zip(figures, figures[1:], strict=False):
            if scale * low.throughput < target <= scale * high.throughput:
                share = math.log(target / scale / low.throughput) / math.log(high.throughput / low.throughput)
                return math.exp(math.log(low.drive_count) + share * math.log(high.drive_count / low.drive_count))
        return None

    return _each(sweeps, answer)


def knee_known(sweeps: Sweeps) -> Scored:
    found = []
    for measured in sweeps.values():
        asked = rising(measured)
        if not asked:
            continue
        misses = {
            k: [
                _miss(
                    drive_count_for(fit_knee(_without(measured, i), knee_sharpness=k), target=measured[i].throughput),
                    measured[i].drive_count,
                )
                for i, _ in asked
            ]
            for k in KNEES
        }
        best = min(KNEES, key=lambda k: statistics.mean(misses[k]))
        found += [(miss, gain >= 0.5) for miss, (_, gain) in zip(misses[best], asked, strict=True)]
    return found


def fitted_with_it(sweeps: Sweeps) -> Scored:
    return _each(sweeps, lambda key, i: drive_count_for(fit(sweeps[key]), target=sweeps[key][i].throughput))
