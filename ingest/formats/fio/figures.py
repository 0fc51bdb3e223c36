"""A job's point: its figures per direction, read on a fast path from a single entry (and its
percentile table) when every figure is plain, else figure by figure through ``_Where.number``."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from ...errors import ParseError
from ...latency import iops_weighted_ms
from ...numbers import read_number
from ...result import MB, Point
from .document import JSONObject
from .where import LARGEST_PLAIN_INT, _object, _Where

DIRECTIONS = ("read", "write", "trim")
_NUMBER_TYPES = frozenset((int, float))
_WHOLE = frozenset((int,))


# Figures --------------------------------------------------------------------------------------


@dataclass
class _Direction:
    ios: float = 0
    iops: float = 0.0
    bytes_per_s: float = 0.0
    latency_ms_sum: float = 0.0  # mean latency x I/Os, summed over job entries
    max_ms: float | None = None
    percentiles_ms: dict[str, float] = field(default_factory=dict)


def _direction(entries: list[JSONObject], direction: str, where: _Where) -> _Direction:
    """One direction (read, write, trim) summed over the job entries of a group."""
    total = _Direction()
    for entry in entries:
        stats = _object(entry, direction, where)
        iops = where.number(stats, "iops", 0.0)
        ios = where.number(stats, "total_ios", iops)
        if not ios:
            continue
        total.ios += ios
        total.iops += iops
        # ``bw_bytes`` (fio 3) as written, else ``bw`` (KiB/s); a null ``bw_bytes`` is not written.
        total.bytes_per_s += (
            where.number(stats, "bw_bytes")
            if stats.get("bw_bytes") is not None
            else where.number(stats, "bw", 0) * 1024
        )
        latency_key, to_ms = ("lat_ns", 1e-6) if "lat_ns" in stats else ("lat", 1e-3)
        latency = _object(stats, latency_key, where)
        if latency:
            total.latency_ms_sum += where.number(latency, "mean", 0) * to_ms * ios
            total.max_ms = max(total.max_ms or 0.0, where.number(latency, "max", 0) * to_ms)
        if len(entries) == 1:
            total.percentiles_ms = _clat_percentiles_ms(stats, where)
    return total


def _clat_percentiles_ms(stats: JSONObject, where: _Where) -> dict[str, float]:
    clat, to_ms = ("clat_ns", 1e-6) if "clat_ns" in stats else ("clat", 1e-3)
    table = stats.get(clat)
    table = table.get("percentile") if type(table) is dict else None
    if type(table) is not dict:
        table = _object(_object(stats, clat, where), "percentile", where)
    keys = tuple(table)
    layout = where.known.percentile_layouts.get(keys) or _percentile_layout(keys, where)
    if layout is not None:
        names, values_of = layout
        values = values_of(table)
        # fio writes whole µs or ns: an int is finite, and one past a float's range raises here.
        if values and _WHOLE.issuperset(map(type, values)) and min(values) >= 0:
            try:
                # names and values_of come from the same keys: zip ends both at once.
                return dict(zip(names, map(to_ms.__rmul__, values)))  # noqa: B905
            except OverflowError:
                pass  # read by the careful reading, which names it
        scaled = _plain_scaled(values, to_ms)
        if scaled is not None:
            # names and values_of come from the same keys: zip ends both at once.
            return dict(zip(names, scaled))  # noqa: B905
    percentiles = {}
    for key in table:
        # fio pads the table with "0.00" entries for unused slots.
        if _percentile(key, where) > 0:
            value = where.number(table, key)
            if value is None:
                raise ParseError(f"clat percentile {key!r} has no value", file=where.file, line=where.line, field=key)
            percentiles[key.rstrip("0").rstrip(".")] = value * to_ms
    return percentiles


def _percentile_layout(
    keys: tuple[str, ...], where: _Where
) -> tuple[tuple[str, ...], Callable[[JSONObject], tuple[Any, ...]]] | None:
    """``(names, values_of)`` of the entries above 0 of a percentile table with ``keys``, worked out
    once per set of keys in a file (``values_of(table)`` gives their values); ``None`` when a key is
    no percentile, for the careful reading to name it."""
    layouts = where.known.percentile_layouts
    if keys not in layouts:
        try:
            kept = [key for key in keys if _percentile(key, where) > 0]
        except ParseError:
            return None
        names = tuple(key.rstrip("0").rstrip(".") for key in kept)
        layouts[keys] = names, _values_getter(kept)
    return layouts[keys]


def _values_getter(keys: list[str]) -> Callable[[JSONObject], tuple[Any, ...]]:
    """A function giving the values at ``keys`` as a tuple (``itemgetter`` of one key gives the value)."""
    if len(keys) == 1:
        return lambda table: (table[keys[0]],)
    return itemgetter(*keys) if keys else lambda table: ()


def _plain_scaled(values: tuple[Any, ...], to_ms: float) -> list[float] | None:
    """``values`` times ``to_ms`` when every one is a finite, non-negative int or float (what
    ``_Where.number`` accepts as it is), in a few passes over a percentile table; ``None`` when any
    is not, for the careful reading to name it."""
    if not _NUMBER_TYPES.issuperset(map(type, values)):
        return None
    try:
        scaled = [value * to_ms for value in values]
    except OverflowError:  # an int too large for a float
        return None
    # NaN fails ``>=`` when min() returns it and makes the sum NaN otherwise.
    if scaled and not (min(scaled) >= 0 and sum(scaled) < math.inf):
        return None
    return scaled


def _percentile(key: str, where: _Where) -> float:
    value = where.read(read_number, key, "percentile")
    if value is None:
        raise ParseError("a clat percentile has no name", file=where.file, line=where.line, field="percentile")
    return value


class _Unusual(Exception):
    """A figure the reading of a single job entry leaves to the general one (``_point``)."""


def _plain(value: Any, default: float | None = None) -> float:
    """``value`` as ``_Where.number`` reads a plain figure (``default`` for ``None``); ``_Unusual``
    for anything else, which the general reading checks and names."""
    kind = type(value)
    if kind is float and 0.0 <= value < math.inf:
        return value
    if kind is int and 0 <= value < LARGEST_PLAIN_INT:
        return float(value)
    if value is None and default is not None:
        return default
    raise _Unusual


def _entry_direction(
    entry: JSONObject, direction: str, where: _Where
) -> tuple[float, float, float, float, float | None, dict[str, float]] | None:
    """``(ios, iops, bytes_per_s, latency_ms_sum, max_ms, percentiles_ms)`` of one direction of a
    single job entry, as ``_direction`` sums them; ``None`` without I/O."""
    stats = entry.get(direction) or {}
    if type(stats) is not dict:
        raise _Unusual
    iops, ios = stats.get("iops"), stats.get("total_ios")
    # fio writes IOPS as a float and I/Os as an int: those are checked here without a call.
    iops = iops if type(iops) is float and 0.0 <= iops < math.inf else _plain(iops, 0.0)
    ios = float(ios) if type(ios) is int and 0 <= ios < LARGEST_PLAIN_INT else _plain(ios, iops)
    if not ios:
        return None
    bw_bytes = stats.get("bw_bytes")
    if bw_bytes is not None:
        bytes_per_s = _plain(bw_bytes)
    else:
        bw = stats.get("bw")
        bytes_per_s = (float(bw) if type(bw) is int and 0 <= bw < LARGEST_PLAIN_INT else _plain(bw, 0)) * 1024
    latency_key, to_ms = ("lat_ns", 1e-6) if "lat_ns" in stats else ("lat", 1e-3)
    latency = stats.get(latency_key) or {}
    if type(latency) is not dict:
        raise _Unusual
    latency_ms_sum, max_ms = 0.0, None
    if latency:
        mean, most = latency.get("mean"), latency.get("max")
        mean = mean if type(mean) is float and 0.0 <= mean < math.inf else _plain(mean, 0)
        most = float(most) if type(most) is int and 0 <= most < LARGEST_PLAIN_INT else _plain(most, 0)
        latency_ms_sum += mean * to_ms * ios
        max_ms = max(0.0, most * to_ms)
    # Adding 0.0 as the sum over entries does (-0.0 becomes 0.0).
    return ios, iops + 0.0, bytes_per_s + 0.0, latency_ms_sum, max_ms, _clat_percentiles_ms(stats, where)


def _entry_point(entry: JSONObject, where: _Where) -> Point | None:
    """``_point`` of a job group of one entry, as most are, without summing; ``None`` when a figure
    is not plain, for ``_point`` to read and name it. Figures are not negative and not -0.0 here, so
    a sum of one figure is the figure."""
    try:
        read = _entry_direction(entry, "read", where)
        write = _entry_direction(entry, "write", where)
        trim = _entry_direction(entry, "trim", where)
        usr, sys = entry.get("usr_cpu"), entry.get("sys_cpu")
        cpu = None if usr is None or sys is None else (_plain(usr), _plain(sys))
    except _Unusual:
        return None
    point = Point()
    if read is not None:
        point.read_iops, point.read_mbps = read[1], read[2] / MB
        point.avg_read_response_ms = read[3] / read[0] if read[3] else None
    if write is not None:
        point.write_iops, point.write_mbps = write[1], write[2] / MB
        point.avg_write_response_ms = write[3] / write[0] if write[3] else None
    if read is None or write is None:
        active = read if write is None else write
        if active is not None:
            point.iops, point.mbps = active[1], active[2] / MB
            mean_ms, iops = (active[3] / active[0] if active[3] else None), active[1]
            # ``iops_weighted_ms`` of one part without its lists: the same float (mean x IOPS / IOPS).
            point.avg_response_ms = mean_ms * iops / iops if mean_ms is not None and iops else None
            point.max_response_ms = active[4]
    else:
        point.iops = read[1] + write[1]
        point.mbps = (read[2] + write[2]) / MB
        latencies = [(d[3] / d[0], d[1]) for d in (read, write) if d[3]]
        point.avg_response_ms = iops_weighted_ms(latencies)
        maxima = [d[4] for d in (read, write) if d[4] is not None]
        point.max_response_ms = max(maxima) if maxima else None
    if cpu is not None:
        # ``+ 0.0`` as summing over entries does (-0.0 becomes 0.0).
        usr, sys = cpu[0] + 0.0, cpu[1] + 0.0
        point.cpu_pct = usr + sys
        point.metrics = {"usr_cpu_pct": usr, "sys_cpu_pct": sys}
    percentiles = {}
    if read is not None and read[5]:
        percentiles["read"] = read[5]
    if write is not None and write[5]:
        percentiles["write"] = write[5]
    if percentiles:
        point.metrics["clat_percentiles_ms"] = percentiles
    if trim is not None:
        point.metrics["trim_iops"] = trim[1]
    return point


def _point(entries: list[JSONObject], where: _Where) -> Point:
    read, write, trim = (_direction(entries, d, where) for d in DIRECTIONS)
    active = [d for d in (read, write) if d.ios]
    point = Point()
    point.read_iops, point.read_mbps, point.avg_read_response_ms = _figures(read)
    point.write_iops, point.write_mbps, point.avg_write_response_ms = _figures(write)
    if active:
        point.iops = sum(d.iops for d in active)
        point.mbps = sum(d.bytes_per_s for d in active) / MB
        latencies = [(d.latency_ms_sum / d.ios, d.iops) for d in active if d.latency_ms_sum]
        point.avg_response_ms = iops_weighted_ms(latencies)
        maxima = [d.max_ms for d in active if d.max_ms is not None]
        point.max_response_ms = max(maxima) if maxima else None
    # CPU time when every entry states it (a null is not stated).
    if all(entry.get("usr_cpu") is not None and entry.get("sys_cpu") is not None for entry in entries):
        usr = where.total([where.number(entry, "usr_cpu") for entry in entries], "usr_cpu")
        sys = where.total([where.number(entry, "sys_cpu") for entry in entries], "sys_cpu")
        # Percent of one CPU, as fio reports it; clones of a job add up.
        point.cpu_pct = usr + sys
        point.metrics = {"usr_cpu_pct": usr, "sys_cpu_pct": sys}
    percentiles = {name: d.percentiles_ms for name, d in (("read", read), ("write", write)) if d.percentiles_ms}
    if percentiles:
        point.metrics["clat_percentiles_ms"] = percentiles
    if trim.ios:
        point.metrics["trim_iops"] = where.total([trim.iops], "iops")
    return point


def _figures(direction: _Direction) -> tuple[float | None, float | None, float | None]:
    """(IOPS, MB/s, mean total latency in ms) of one direction; None for a direction without I/O."""
    if not direction.ios:
        return None, None, None
    latency_ms = direction.latency_ms_sum / direction.ios if direction.latency_ms_sum else None
    return direction.iops, direction.bytes_per_s / MB, latency_ms
