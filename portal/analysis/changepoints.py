"""Changes in a history of firmware versions, judged after each version as the history stands.

The noise is estimated from the whole series: the spread of the runs within each version, pooled over
the versions (a version whose runs spread more than the median version's noise would in one version of a
thousand is left out of the pool, so that one disturbed run does not hide every change, and weighted by
its own spread). A history whose versions have one run each takes the noise from the differences between
successive versions (their median, robust to a step).

The history is then split into segments of constant level (optimal partitioning of the version means by
weighted least squares with a penalty per change; a segment holds at least two versions except the newest,
which may stand alone), and a change between two segments is kept when Student's t-test gives p (times
the number of places a step could start to the power ``PLACES_POWER``) < ``P_VALUE`` (``EARLY_P_FACTOR``
times it for a step with two versions before it) with the pooled noise and the versions' scatter
around the two segments' levels pooled in (the degrees of freedom a short history's versions hold), its
size is at least ``MIN_EFFECT`` run noise standard deviations, the versions after it agree with each other
(not a blip of one version and back), and a straight line does not fit its two segments about as well (a
drift cut in two), nor the segments of a run of steps in the same direction around it (a drift cut in a
staircase). A step the newest version alone shows must also be found with that version's runs moved to
their median (one slow run is not a new level). Each segment of ``DRIFT_MIN_VERSIONS`` versions
or more whose trend is significant is a drift over its versions.

Pure Python and deterministic: a history of 200 versions is judged in some tens of milliseconds.
"""

import math
from dataclasses import dataclass
from statistics import fmean, median, median_low

from portal.analysis.compare import improvement_pct
from portal.analysis.stats import regularized_beta, student_t_two_sided_p

P_VALUE = 0.001
# A change smaller than this many standard deviations of one run's noise is not reported, however many
# runs make it significant.
MIN_EFFECT = 0.5
# The penalty of one more change in the partitioning, in units of the noise variance: about the squared
# t of P_VALUE, so that the partitioning proposes what the test may keep.
PENALTY = 12.0
# A version whose runs spread more than Gaussian noise would in one version of a thousand (the standard
# normal's 0.999 quantile) is left out of the pooled noise.
OUTLIER_Z = 3.09
# A step is not kept when a line through its two segments leaves at most this much more weighted squared
# error (noise variance units) than the step does, on at least DRIFT_MIN_VERSIONS versions.
LINE_MARGIN = 5.0
DRIFT_MIN_VERSIONS = 6
# The power of the number of places a step could start at that multiplies its p-value (1: Bonferroni);
# chosen with make changepoints' histories without a change, seeds 1000 to 1599.
PLACES_POWER = 1.0
# The versions' scatter around the levels either side of a step is pooled with the runs' noise unless it is
# larger than that noise makes it with p below this (the F-test); chosen with seeds 1000 to 1599.
POOL_P_VALUE = 0.05
# A step with two versions before it, the earliest place one may start, is kept at EARLY_P_FACTOR times the
# p-value once a version after its own is stored: a larger share of the false alarms (a weighted Bonferroni)
# for the place whose level before is known from the fewest runs. The largest of 2, 3, 4, 5, 8, 12 and 16
# that kept every kind of history without a change at most 4 % ever notified with seeds 1000 to 1599 (a
# point under the goal of 5 %, about one standard error of 300 histories).
EARLY_P_FACTOR = 5.0
# A step is confirmed once this many versions stand after it.
CONFIRMING_VERSIONS = 3

STEP = "step"
DRIFT = "drift"


@dataclass(frozen=True)
class Change:
    """A step starting at version ``index`` (0-based in the history given), or a drift over versions
    ``index`` to ``end_index``: ``before_mean`` and ``after_mean`` are then the trend's values there."""

    index: int
    before_mean: float
    after_mean: float
    p_value: float
    versions_after: int
    kind: str = STEP
    end_index: int | None = None

    @property
    def change_pct(self) -> float:
        # A change from nothing is unbounded.
        return improvement_pct(self.after_mean, self.before_mean) if self.before_mean > 0 else math.inf

    @property
    def slope_pct(self) -> float:
        """A drift's change per version, % of its value at its first version (0 for a step)."""
        if self.end_index is None or self.end_index == self.index:
            return 0.0
        return self.change_pct / (self.end_index - self.index)

    @property
    def tentative(self) -> bool:
        """A step with fewer than ``CONFIRMING_VERSIONS`` versions after it."""
        return self.kind == STEP and self.versions_after < CONFIRMING_VERSIONS


@dataclass(frozen=True)
class Noise:
    """One run's noise standard deviation, the degrees of freedom it was estimated with, and whether it was
    estimated from the runs within versions (else from the differences between versions of one run each)."""

    sd: float
    df: float
    within_versions: bool = True


def _variance(values: list[float], mean: float) -> float:
    return sum((value - mean) ** 2 for value in values) / (len(values) - 1)


def student_t_p(before: list[float], after: list[float]) -> float:
    """Two-sided p-value of Student's t-test (pooled variance) that two samples have the same mean."""
    n, m = len(before), len(after)
    if n + m < 3:
        return 1.0
    mean_before, mean_after = fmean(before), fmean(after)
    squares = sum((x - mean_before) ** 2 for x in before) + sum((y - mean_after) ** 2 for y in after)
    error_sq = squares / (n + m - 2) * (1 / n + 1 / m)
    difference, rounding = mean_after - mean_before, 1e-9 * abs(mean_before)
    if error_sq <= rounding**2:
        return 0.0 if abs(difference) > rounding else 1.0
    return student_t_two_sided_p(difference / math.sqrt(error_sq), n + m - 2)


def series_noise(replicates: list[list[float]]) -> Noise | None:
    """The noise of one run, pooled over the versions (see the module's docstring); None when the history
    cannot tell it (fewer than three versions of one run each)."""
    spreads = [(_variance(values, fmean(values)), len(values) - 1) for values in replicates if len(values) > 1]
    if not spreads:
        means = [fmean(values) for values in replicates]
        steps = [abs(b - a) for a, b in zip(means, means[1:], strict=False)]
        if len(steps) < 2:
            return None
        # The median absolute difference of two normal values is 0.6745 * sqrt(2) standard deviations.
        return Noise(median(steps) / (0.6745 * math.sqrt(2)), max(1.0, len(steps) / 2), within_versions=False)
    # Each version's variance over the median of its chi-squared share: an estimate of the noise variance.
    typical = median(variance / _chi2_share(df, 0.0) for variance, df in spreads)
    kept = [(v, df) for v, df in spreads if len(spreads) < 3 or v <= typical * _chi2_share(df, OUTLIER_Z)]
    df = sum(df for _v, df in kept)
    return Noise(math.sqrt(sum(v * df for v, df in kept) / df), float(df))


def _chi2_share(df: float, z: float) -> float:
    """The quantile of chi-squared with ``df`` degrees of freedom over ``df`` at the standard normal's ``z``
    (Wilson and Hilferty's cube-root approximation, within 3 % from one degree of freedom on)."""
    spread = 2 / (9 * df)
    return max(0.0, 1 - spread + z * math.sqrt(spread)) ** 3


@dataclass(frozen=True)
class _Versions:
    """Version means and weights in noise units (mean minus the level, over the noise), their sums, and
    whether some version is weighted by its own spread (its runs disturbed)."""

    means: list[float]
    weights: list[float]
    sum_w: list[float]
    sum_wm: list[float]
    sum_wmm: list[float]
    sum_wx: list[float]
    sum_wxx: list[float]
    sum_wxm: list[float]
    disturbed: bool

    @classmethod
    def of(cls, replicates: list[list[float]], noise: Noise, level: float) -> "_Versions":
        means, weights, disturbed = [], [], False
        for values in replicates:
            mean = fmean(values)
            own = _variance(values, mean) / noise.sd**2 if len(values) > 1 else 0.0
            means.append((mean - level) / noise.sd)
            # A version left out of the pooled noise for its spread is weighted by its own spread.
            out = len(values) > 1 and own > _chi2_share(len(values) - 1, OUTLIER_Z)
            weights.append(len(values) / (own if out else 1.0))
            disturbed = disturbed or out
        sums: list[list[float]] = [[0.0] for _ in range(6)]
        for x, (mean, weight) in enumerate(zip(means, weights, strict=True)):
            terms = (weight, weight * mean, weight * mean * mean, weight * x, weight * x * x, weight * x * mean)
            for total, term in zip(sums, terms, strict=True):
                total.append(total[-1] + term)
        sum_w, sum_wm, sum_wmm, sum_wx, sum_wxx, sum_wxm = sums
        return cls(means, weights, sum_w, sum_wm, sum_wmm, sum_wx, sum_wxx, sum_wxm, disturbed)

    def cost(self, start: int, end: int) -> float:
        """Weighted squared error of versions [start, end) around their weighted mean."""
        w = self.sum_w[end] - self.sum_w[start]
        wm = self.sum_wm[end] - self.sum_wm[start]
        return max(0.0, self.sum_wmm[end] - self.sum_wmm[start] - wm * wm / w)

    def mean(self, start: int, end: int) -> tuple[float, float]:
        """Weighted mean of versions [start, end) and its summed weight."""
        w = self.sum_w[end] - self.sum_w[start]
        return (self.sum_wm[end] - self.sum_wm[start]) / w, w

    def line(self, start: int, end: int) -> tuple[float, float, float]:
        """Weighted least-squares line over versions [start, end): its slope per version, the slope's
        standard error, and the weighted mean version it turns about."""
        w = self.sum_w[end] - self.sum_w[start]
        wx, wm = self.sum_wx[end] - self.sum_wx[start], self.sum_wm[end] - self.sum_wm[start]
        sxx = self.sum_wxx[end] - self.sum_wxx[start] - wx * wx / w
        sxm = self.sum_wxm[end] - self.sum_wxm[start] - wx * wm / w
        return sxm / sxx, 1 / math.sqrt(sxx), wx / w

    def line_error(self, start: int, end: int) -> float:
        """The weighted squared error a least-squares line leaves over versions [start, end)."""
        slope, error, _x_mean = self.line(start, end)
        return max(0.0, self.cost(start, end) - (slope / error) ** 2)


def _partition(versions: _Versions) -> list[int]:
    """The versions segments start at (0 excluded) minimising squared error plus ``PENALTY`` per change;
    each segment holds two versions or more, except that the newest version may stand alone."""
    count = len(versions.means)
    best: list[float] = [0.0] + [math.inf] * count
    previous = [0] * (count + 1)
    for end in range(2, count + 1):
        shortest = 1 if end == count else 2
        for start in range(0, end - shortest + 1):
            if start == 1 or math.isinf(best[start]):
                continue
            total = best[start] + versions.cost(start, end) + (PENALTY if start else 0.0)
            if total < best[end]:
                best[end], previous[end] = total, start
    starts, end = [], count
    while end > 0:
        end = previous[end]
        if end:
            starts.append(end)
    return sorted(starts)


def _step_p(versions: _Versions, noise: Noise, start: int, split: int, end: int) -> tuple[float, float]:
    """The p-value of the step at ``split`` between [start, split) and [split, end), and its size in noise
    standard deviations."""
    before, w_before = versions.mean(start, split)
    after, w_after = versions.mean(split, end)
    size = after - before
    # The versions' scatter around their segments' levels is noise too, when it is no more than the runs'
    # noise would make it: pooled with the runs' spread, it gives a short history the degrees of freedom its
    # versions hold. Not so when the noise was taken from the differences between versions of one run each
    # (it holds that scatter already) or when some version's runs were disturbed (its mean too).
    scatter, scatter_df = versions.cost(start, split) + versions.cost(split, end), end - start - 2
    pooled = noise.within_versions and not versions.disturbed
    if not pooled or _scatter_p(scatter, scatter_df, noise) < POOL_P_VALUE:
        scatter, scatter_df = 0.0, 0
    df = noise.df + scatter_df
    variance = (noise.df + scatter) / df
    error = math.sqrt(variance * (1 / w_before + 1 / w_after))
    return student_t_two_sided_p(size / error, df), abs(size) / math.sqrt(variance)


def _scatter_p(error: float, df: int, noise: Noise) -> float:
    """The p-value of the F-test that versions whose weighted squared error around their levels is ``error``
    (noise variance units, ``df`` degrees of freedom) scatter more than the runs' noise makes them."""
    if df < 1 or error <= df:
        return 1.0
    return regularized_beta(noise.df / (noise.df + error), noise.df / 2, df / 2)


def _disagree(versions: _Versions, noise: Noise, start: int, end: int) -> bool:
    """Whether versions [start, end) differ from their common level beyond the noise (F-test, p <
    ``P_VALUE``): a level they do not share is not a step to them (a one-version blip and back)."""
    return _scatter_p(versions.cost(start, end), end - start - 1, noise) < P_VALUE


def _places(count: int) -> float:
    """The factor of a step's p-value for the places it was chosen among: their number to the power
    ``PLACES_POWER`` (Bonferroni's factor, their number, at 1)."""
    return max(1, count - 2) ** PLACES_POWER


def _drift_steps(versions: _Versions, bounds: list[int], sizes: list[float]) -> set[int]:
    """The steps (step i between versions ``bounds[i]`` and ``bounds[i + 2]``, of size ``sizes[i]``) that one
    line fits about as well as the levels around them, alone or in a run of neighbouring steps in the same
    direction (a staircase of small steps is a drift sampled coarsely): the line leaves at most
    ``LINE_MARGIN`` more weighted squared error, plus ``PENALTY`` for each step of the run after the first,
    over ``DRIFT_MIN_VERSIONS`` versions or more."""
    found: set[int] = set()
    for first in range(len(sizes)):
        steps_error = versions.cost(bounds[first], bounds[first + 1])
        for last in range(first, len(sizes)):
            if sizes[last] * sizes[first] <= 0:
                break
            steps_error += versions.cost(bounds[last + 1], bounds[last + 2])
            start, end = bounds[first], bounds[last + 2]
            margin = LINE_MARGIN + PENALTY * (last - first)
            if end - start >= DRIFT_MIN_VERSIONS and versions.line_error(start, end) - steps_error <= margin:
                found.update(range(first, last + 1))
    return found


def _kept_steps(versions: _Versions, noise: Noise, splits: list[int], p_value: float) -> list[tuple[int, float]]:
    """Drop the weakest step while one is not significant, too small or a drift, between its neighbours."""
    count = len(versions.means)
    while splits:
        bounds = [0, *splits, count]
        judged = []
        sizes = [versions.mean(split, after)[0] - versions.mean(before, split)[0]
                 for before, split, after in zip(bounds, splits, bounds[2:], strict=False)]  # fmt: skip
        drifts = _drift_steps(versions, bounds, sizes)
        for i, split in enumerate(splits):
            p, size = _step_p(versions, noise, bounds[i], split, bounds[i + 2])
            # The partitioning chose the split among every place a step may start.
            p = min(1.0, p * _places(count))
            limit = p_value * (EARLY_P_FACTOR if split == 2 and count > 3 else 1.0)
            weak = p >= limit or size < MIN_EFFECT or i in drifts or _disagree(versions, noise, split, bounds[i + 2])
            judged.append((weak, p, i))
        weak, _p, worst = max(judged)
        if not weak:
            return [(split, p) for split, (_w, p, _i) in zip(splits, judged, strict=True)]
        del splits[worst]
    return []


def newest_complete(replicates: list[list[float]]) -> bool:
    """Whether the newest version holds as many runs as most versions before it: a version whose runs
    arrive one file at a time is judged once they are all there, so that its first run alone neither
    raises nor withdraws what the whole version would not."""
    if len(replicates) < 2:
        return True
    return len(replicates[-1]) >= median_low(len(values) for values in replicates[:-1])


def changes(replicates: list[list[float]], *, p_value: float = P_VALUE) -> list[Change]:
    """The changes of a history as it stands: ``replicates[i]`` holds the values measured at the i-th
    version, in version order (empty versions are not allowed). Steps (each with the runs' mean on either
    side, up to the neighbouring change) and drifts, in version order."""
    if any(not values for values in replicates):
        raise ValueError("every version of a history needs at least one value")
    judged = _judged(replicates, p_value)
    if judged is None:
        return []
    versions, noise, level, steps = judged
    count = len(replicates)
    splits = [split for split, _p in steps]
    if splits and splits[-1] == count - 1 and not _newest_stands(replicates, p_value):
        steps = _kept_steps(versions, noise, splits[:-1], p_value)
    bounds = [0, *(split for split, _p in steps), count]
    found = [
        Change(
            split,
            fmean(_pooled(replicates, bounds[i], split)),
            fmean(_pooled(replicates, split, bounds[i + 2])),
            p,
            count - split,
        )
        for i, (split, p) in enumerate(steps)
    ]
    for start, end in zip(bounds, bounds[1:], strict=False):
        drift = _drift(versions, noise, start, end, level, p_value)
        if drift is not None:
            found.append(drift)
    return sorted(found, key=lambda change: change.index)


def _judged(
    history: list[list[float]], p_value: float
) -> tuple[_Versions, Noise, float, list[tuple[int, float]]] | None:
    """The versions in noise units, the noise, the mean level and the steps kept (version, p-value); None
    when the history cannot tell its noise."""
    noise = series_noise(history)
    if noise is None or len(history) < 3:
        return None
    level = fmean(fmean(values) for values in history)
    # Identical runs have no noise: only a difference beyond rounding is a change.
    noise = Noise(max(noise.sd, 1e-9 * abs(level), 1e-300), noise.df, noise.within_versions)
    versions = _Versions.of(history, noise, level)
    return versions, noise, level, _kept_steps(versions, noise, _partition(versions), p_value)


def _newest_stands(replicates: list[list[float]], p_value: float) -> bool:
    """Whether a step that the newest version alone shows is still found with that version's runs moved to
    their median: one disturbed run (one slow run in three) is not a new level."""
    newest = replicates[-1]
    shift = median(newest) - fmean(newest)
    judged = _judged([*replicates[:-1], [value + shift for value in newest]], p_value)
    return judged is not None and any(split == len(replicates) - 1 for split, _p in judged[3])


def _pooled(replicates: list[list[float]], start: int, end: int) -> list[float]:
    return [value for values in replicates[start:end] for value in values]


def _drift(versions: _Versions, noise: Noise, start: int, end: int, level: float, p_value: float) -> Change | None:
    """The trend over versions [start, end) when it is significant and its whole size is at least the
    minimum effect."""
    if end - start < DRIFT_MIN_VERSIONS:
        return None
    slope, error, x_mean = versions.line(start, end)
    p = student_t_two_sided_p(slope / error, noise.df)
    if p >= p_value or abs(slope) * (end - 1 - start) < MIN_EFFECT:
        return None
    centre, _w = versions.mean(start, end)
    first = level + noise.sd * (centre + slope * (start - x_mean))
    last = level + noise.sd * (centre + slope * (end - 1 - x_mean))
    return Change(start, first, last, p, 0, DRIFT, end - 1)
