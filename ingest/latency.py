"""Latencies of a point from what each tool reports: the mean response time of several parts of a
test, and the percentiles of all its I/O.

A tool that reports a mean response time per worker, target, job or direction gives the point's
mean as :func:`iops_weighted_ms`: each part's mean weighted by the I/Os it completed.

Percentiles are given in one shape,
``{"50": ms, "90": ms, "95": ms, "99": ms, "99.9": ms}`` for all I/O of the point. Tools report
percentiles per direction (fio ``clat_percentiles_ms`` by read / write, DiskSpd ``%-ile`` by read
/ write / total); a total is used when the tool gives one, the one direction when only one was
measured, else the slower direction at each percentile (an upper bound: the percentile of all
I/O is at most that).
"""

from collections.abc import Iterable

PERCENTILES = ("50", "90", "95", "99", "99.9")
# Where each tool's parser keeps its percentile tables in a point's metrics.
_TABLES = ("clat_percentiles_ms", "percentiles_ms")


def iops_weighted_ms(parts: Iterable[tuple[float | None, float | None]]) -> float | None:
    """The mean response time (ms) of all I/O of several parts, from ``(mean_ms, iops)`` per part:
    each part's mean weighted by its IOPS (or by its I/O count, the same over one interval). A part
    whose mean is unknown (``None``) or that did no I/O (IOPS ``None`` or 0) is left out; ``None``
    when no part is left."""
    weighted = [(mean_ms, iops) for mean_ms, iops in parts if mean_ms is not None and iops]
    total_iops = sum(iops for _, iops in weighted)
    return sum(mean_ms * iops for mean_ms, iops in weighted) / total_iops if total_iops else None


def point_percentiles(metrics: dict) -> dict[str, float]:
    """The point's latency percentiles of all I/O (ms), from its metrics; {} when the tool gave none."""
    for key in _TABLES:
        by_direction = metrics.get(key)
        if isinstance(by_direction, dict) and by_direction:
            return _combined(by_direction)
    return {}


def _combined(by_direction: dict) -> dict[str, float]:
    if isinstance(by_direction.get("total"), dict):
        tables = [by_direction["total"]]
    else:
        tables = [table for table in by_direction.values() if isinstance(table, dict) and table]
    found: dict[str, float] = {}
    for pct in PERCENTILES:
        values = [value for table in tables if (value := _at(table, pct)) is not None]
        if values and len(values) == len(tables):
            found[pct] = max(values)
    return found


def _at(table: dict, pct: str) -> float | None:
    """The value at ``pct`` in a table keyed by percentile text ("99", "99.90", "99.900000")."""
    for key, value in table.items():
        try:
            if float(key) == float(pct) and isinstance(value, int | float):
                return float(value)
        except ValueError:
            continue
    return None
