"""Figures of a point that parsers derive from other figures, by one rule for every format.

Unknown figures stay unknown (``None``): a total or a share is computed from what the tool
reported, never from a 0 put in for a figure it did not report.
"""

from collections.abc import Iterable


def known_sum(figures: Iterable[float | None]) -> float | None:
    """The total of the figures that are known; ``None`` when none is (no 0: nothing was reported)."""
    known = [figure for figure in figures if figure is not None]
    return sum(known) if known else None


def known_max(figures: Iterable[float | None]) -> float | None:
    """The largest of the figures that are known (a point's maximum response time from its
    parts'); ``None`` when none is."""
    return max((figure for figure in figures if figure is not None), default=None)


def measured_read_pct(read_iops: float | None, write_iops: float | None) -> float | None:
    """The reads' share (%) of the I/O measured; ``None`` when either direction is unknown or no
    I/O was done at all."""
    if read_iops is None or write_iops is None or not read_iops + write_iops:
        return None
    return 100.0 * read_iops / (read_iops + write_iops)
