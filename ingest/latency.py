"""Latency percentiles of a point, from what each tool reports, in one shape.

``{"50": ms, "90": ms, "95": ms, "99": ms, "99.9": ms}`` for all I/O of the point. Tools report
percentiles per direction (fio ``clat_percentiles_ms`` by read / write, DiskSpd ``%-ile`` by read
/ write / total); a total is used when the tool gives one, the one direction when only one was
measured, else the slower direction at each percentile (an upper bound: the percentile of all
I/O is at most that).
"""

PERCENTILES = ("50", "90", "95", "99", "99.9")
# Where each tool's parser keeps its percentile tables in a point's metrics.
_TABLES = ("clat_percentiles_ms", "percentiles_ms")


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
