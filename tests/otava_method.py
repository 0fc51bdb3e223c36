"""Apache Otava's change detection as it documents it (E-divisive means on each version's mean, alpha = 1,
windows of 30 versions half overlapping, Student's t-test p < 0.001 with at least 3 versions a side, then
changes no longer significant between their neighbours merged away), deterministic, for ``make
changepoints`` to compare on the same finished histories: Otava itself is not installed, as its package
needs the Google BigQuery and Slack SDKs. It found the same change point and significance as the published
implementation's own tests (DataStax Hunter, ``tests/analysis_test.py``) when it was the portal's detector.
"""

from statistics import fmean

from portal.analysis.changepoints import student_t_p

P_VALUE = 0.001
MIN_VERSIONS = 3
WINDOW = 30


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


def otava_changes(replicates: list[list[float]], *, p_value: float = P_VALUE) -> list[int]:
    """The versions the changes of a finished history start at."""
    means = [fmean(values) for values in replicates]
    found: set[int] = set()
    _split(replicates, means, 0, len(means), found, p_value)
    return [split for split, _p in _merge(replicates, found, len(means), p_value)]
