"""The units tools print figures in, and their conversion to the units of the result contract.

The contract's units are fixed: sizes in bytes, MB/s of 10^6 bytes per second, times in
milliseconds. Tools print sizes with binary suffixes (``4k``, ``64KiB``, ``1 MB`` of 2^20 bytes),
or decimal ones where they say so (fio's ``kb_base=1000``); throughput in binary MiB/s (Iometer up
to 2006, DiskSpd, vdbench, elbencho) or decimal MB/s; times in ns, us, ms or s.

Conversions by powers of two, and by whole factors of ten, are exact: a figure converted here is
the same float a parser gets by multiplying or dividing by the factor itself.
"""

import re

# Bytes: the contract's MB is decimal; the binary multiples are what tools mean by K, M, G, T.
MB = 1_000_000
KIB = 2**10
MIB = 2**20
GIB = 2**30
TIB = 2**40

# The power of 1024 (or of 1000 where a tool says so) each size prefix stands for.
_PREFIX_POWERS = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}
# A size unit after a number: nothing, 'B', 'bytes', 'k', 'KB', 'KiB', 'm', 'MB', 'MiB', ... in any case.
_SIZE_UNIT = re.compile(r"^([kmgtpe]?)(i?)(?:b|bytes?)?$", re.IGNORECASE)

# Nanoseconds in each time unit tools print; whole numbers, so conversions are exact ratios.
_NANOSECONDS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,
    "usec": 1_000,
    "ms": 1_000_000,
    "msec": 1_000_000,
    "s": 1_000_000_000,
    "sec": 1_000_000_000,
    "min": 60_000_000_000,
}


def size_multiplier(unit: str, *, kilo: int = 1024) -> int | None:
    """Bytes in one ``unit`` as tools write it after a size: ``''``, ``B``, ``bytes``, ``k``, ``KB``,
    ``KiB``, ``m``, ``MB``, ``MiB``, ``g``, ... up to exa, in any case. Prefixes are binary unless
    ``kilo`` is 1000; ``KiB`` is binary whatever ``kilo`` says. ``None`` for no size unit."""
    match = _SIZE_UNIT.match(unit.strip())
    if match is None:
        return None
    prefix, binary = match.groups()
    return (1024 if binary else kilo) ** _PREFIX_POWERS[prefix.lower()]


def size_in(value: float, unit: str, *, per: int = 1, kilo: int = 1024) -> float | None:
    """``value`` of ``unit`` counted in units of ``per`` bytes (``size_in(1.5, "TB", per=GIB)`` is
    1536.0 binary GB); ``None`` when ``unit`` is no size unit."""
    multiplier = size_multiplier(unit, kilo=kilo)
    return None if multiplier is None else value * multiplier / per


def binary_prefix(size_bytes: int, *, largest: str = "G") -> tuple[int, str]:
    """The size in the largest binary unit (up to ``largest``: ``K``, ``M``, ``G`` or ``T``) it is a
    whole number of: ``(4, "K")`` for 4096, ``(1, "M")`` for 2^20, ``(512, "")`` for 512 bytes."""
    for prefix in "TGMK"[("TGMK".index(largest)) :]:
        unit = 1024 ** _PREFIX_POWERS[prefix.lower()]
        if size_bytes % unit == 0:
            return size_bytes // unit, prefix
    return size_bytes, ""


def mib_to_mbps(mib_per_s: float | None) -> float | None:
    """Binary MiB/s (2^20 bytes) to decimal MB/s (10^6 bytes); ``None`` stays ``None``."""
    return None if mib_per_s is None else mib_per_s * MIB / MB


def time_factor(unit: str, to: str) -> int:
    """How many ``to`` one ``unit`` holds, when that is a whole number (``time_factor("s", "ms")``
    is 1000); :class:`ValueError` otherwise (use :func:`convert_time`)."""
    whole, rest = divmod(_NANOSECONDS[unit], _NANOSECONDS[to])
    if rest:
        raise ValueError(f"one {unit} is not a whole number of {to}")
    return whole


def convert_time(value: float, unit: str, to: str = "ms") -> float:
    """``value`` in ``unit`` (ns, us, µs, ms, s, min) in ``to``: multiplied or divided by the whole
    factor between them, so ``convert_time(x, "us")`` is exactly ``x / 1000``. :class:`KeyError`
    for a unit that is no time unit."""
    source, target = _NANOSECONDS[unit], _NANOSECONDS[to]
    if source >= target:
        return value * (source // target)
    return value / (target // source)


def is_time_unit(unit: str) -> bool:
    return unit in _NANOSECONDS
