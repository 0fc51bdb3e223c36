"""Change points of a history: E-divisive means with a t-test significance check, as Apache Otava
(formerly DataStax Hunter) documents it, on the means of each version so that a change can only start
at a version boundary; and a tentative check of the newest version alone.

Pure Python: a history of 200 versions is analysed in milliseconds. Deterministic: no permutation test;
a candidate split is kept when Student's t-test of the replicates on either side gives a p-value under
``p_value`` (0.001 by default) and each side holds at least ``min_versions`` versions.
"""

import math
from dataclasses import dataclass
from statistics import fmean

from portal.analysis.compare import improvement_pct
from portal.analysis.stats import student_t_two_sided_p

P_VALUE = 0.001
MIN_VERSIONS = 3
# Otava's window: a long history is split within windows of this many versions, so that a change is
# found where it is whatever happened far before or after it.
WINDOW = 30


@dataclass(frozen=True)
class Change:
    """A change starting at version ``index`` (0-based in the history given)."""

    index: int
    before_mean: float
    after_mean: float
    p_value: float
    tentative: bool

    @property
    def change_pct(self) -> float:
        # A change from nothing is unbounded.
        return improvement_pct(self.after_mean, self.before_mean) if self.before_mean > 0 else math.inf


def _variance(values: list[float], mean: float) -> float:
    return sum((value - mean) ** 2 for value in values) / (len(values) - 1)


def _t_p(difference: float, standard_error_sq: float, df: float, scale: float) -> float:
    # Equal values differ in the last digits once summed: no spread and no difference beyond rounding
    # is no change.
    rounding = 1e-9 * abs(scale)
    if standard_error_sq <= rounding**2:
        return 0.0 if abs(difference) > rounding else 1.0
    return student_t_two_sided_p(difference / math.sqrt(standard_error_sq), df)


def student_t_p(before: list[float], after: list[float]) -> float:
    """Two-sided p-value of Student's t-test (pooled variance) that two samples have the same mean."""
    n, m = len(before), len(after)
    if n + m < 3:
        return 1.0
    mean_before, mean_after = fmean(before), fmean(after)
    squares = sum((x - mean_before) ** 2 for x in before) + sum((y - mean_after) ** 2 for y in after)
    pooled = squares / (n + m - 2)
    return _t_p(mean_after - mean_before, pooled * (1 / n + 1 / m), n + m - 2, mean_before)


def welch_t_p(before: list[float], after: list[float]) -> float:
    """Two-sided p-value of Welch's t-test (unequal variances); 1 when a side has fewer than two values."""
    n, m = len(before), len(after)
    if n < 2 or m < 2:
        return 1.0
    mean_before, mean_after = fmean(before), fmean(after)
    part_before, part_after = _variance(before, mean_before) / n, _variance(after, mean_after) / m
    error_sq = part_before + part_after
    if error_sq <= (1e-9 * mean_before) ** 2:
        return _t_p(mean_after - mean_before, error_sq, 1, mean_before)
    df = error_sq**2 / (part_before**2 / (n - 1) + part_after**2 / (m - 1))
    return _t_p(mean_after - mean_before, error_sq, df, mean_before)


def _divergence(means: list[float], start: int, end: int) -> tuple[int, float]:
    """The split of ``means[start:end]`` with the largest E-divisive statistic (alpha = 1) and that statistic;
    (-1, 0) when no split leaves ``MIN_VERSIONS`` on each side."""
    best, best_q = -1, 0.0
    for split in range(start + MIN_VERSIONS, end - MIN_VERSIONS + 1):
        left, right = means[start:split], means[split:end]
        n, m = len(left), len(right)
        between = sum(abs(x - y) for x in left for y in right) * 2 / (n * m)
        within_left = sum(abs(left[i] - left[j]) for i in range(n) for j in range(i + 1, n)) / (n * (n - 1) / 2)
        within_right = sum(abs(right[i] - right[j]) for i in range(m) for j in range(i + 1, m)) / (m * (m - 1) / 2)
        q = n * m / (n + m) * (between - within_left - within_right)
        if q > best_q:
            best, best_q = split, q
    return best, best_q


def _pooled(replicates: list[list[float]], start: int, end: int) -> list[float]:
    return [value for values in replicates[start:end] for value in values]


def _significance(replicates: list[list[float]], start: int, split: int, end: int) -> float:
    return student_t_p(_pooled(replicates, start, split), _pooled(replicates, split, end))


def _split(replicates, means, start, end, found, p_value):
    """Binary segmentation of ``[start, end)`` within windows: every significant split, recursively."""
    for window_start in range(start, max(start + 1, end - WINDOW + 1), WINDOW // 2):
        window_end = min(end, window_start + WINDOW)
        split, _q = _divergence(means, window_start, window_end)
        if split < 0 or split in found:
            continue
        if _significance(replicates, window_start, split, window_end) < p_value:
            found.add(split)
            _split(replicates, means, window_start, split, found, p_value)
            _split(replicates, means, split, window_end, found, p_value)


def _merge(replicates, splits, end, p_value):
    """Drop the least significant change while one is not significant between its neighbours."""
    splits = sorted(splits)
    while splits:
        bounds = [0, *splits, end]
        p_values = [_significance(replicates, bounds[i], bounds[i + 1], bounds[i + 2]) for i in range(len(splits))]
        worst = max(range(len(splits)), key=p_values.__getitem__)
        if p_values[worst] < p_value:
            return [(split, p) for split, p in zip(splits, p_values, strict=True)]
        del splits[worst]
    return []


def changes(replicates: list[list[float]], *, p_value: float = P_VALUE) -> list[Change]:
    """The changes of a history: ``replicates[i]`` holds the values measured at the i-th version, in
    version order (empty versions are not allowed). Confirmed changes, then the newest version's
    tentative one when its replicates differ from the segment before it (Welch's t-test)."""
    if any(not values for values in replicates):
        raise ValueError("every version of a history needs at least one value")
    means = [fmean(values) for values in replicates]
    end = len(means)
    found: set[int] = set()
    _split(replicates, means, 0, end, found, p_value)
    confirmed = _merge(replicates, found, end, p_value)
    bounds = [0, *(split for split, _p in confirmed), end]
    result = [
        Change(
            split,
            fmean(_pooled(replicates, bounds[i], split)),
            fmean(_pooled(replicates, split, bounds[i + 2])),
            p,
            False,
        )
        for i, (split, p) in enumerate(confirmed)
    ]
    newest = _tentative(replicates, bounds[-2], p_value)
    return result + ([newest] if newest is not None else [])


def _tentative(replicates, segment_start, p_value):
    """The newest version against the segment before it, when that segment holds other versions."""
    newest = len(replicates) - 1
    if newest - segment_start < 1:
        return None
    before, after = _pooled(replicates, segment_start, newest), replicates[newest]
    p = welch_t_p(before, after)
    if p >= p_value:
        return None
    return Change(newest, fmean(before), fmean(after), p, True)
