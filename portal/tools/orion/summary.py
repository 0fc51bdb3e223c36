"""ORION's maxima as the application papers quote them, and the Oracle sizing class they reach.

The guidelines come from seed 001 (ESG Lab on the IBM DS5020): an OLTP system is low (1,000 IOPS),
medium (5,000) or high-end (10,000).
"""

from collections.abc import Iterable
from dataclasses import dataclass

ORACLE_SIZING_CLASSES = (("low", 1_000.0), ("medium", 5_000.0), ("high", 10_000.0))


@dataclass(frozen=True)
class OrionPoint:
    """One cell of ORION's matrix: outstanding small and large I/Os and what was measured there."""

    small_outstanding: int
    large_outstanding: int
    small_iops: float | None = None
    large_mbps: float | None = None
    small_latency_ms: float | None = None


@dataclass(frozen=True)
class OrionExtreme:
    """A maximum or minimum and where in the matrix it was measured (ORION prints "@ Small=25 and Large=0")."""

    value: float
    small_outstanding: int
    large_outstanding: int


@dataclass(frozen=True)
class OracleSizingClass:
    """The Oracle OLTP class an IOPS figure reaches (``"below low"`` under 1,000) and the next one up."""

    name: str
    next_name: str | None
    next_iops: float | None


@dataclass(frozen=True)
class OrionSummary:
    max_small_iops: OrionExtreme | None
    max_large_mbps: OrionExtreme | None
    min_small_latency_ms: OrionExtreme | None
    sizing_class: OracleSizingClass | None


def orion_summary(points: Iterable[OrionPoint]) -> OrionSummary:
    """ORION's three headline figures from its matrix; the sizing class follows the maximum small IOPS.

    Latency counts only where small I/Os were outstanding, as ORION reports it.
    """
    points = tuple(points)
    max_iops = _extreme(points, "small_iops", max)
    return OrionSummary(
        max_small_iops=max_iops,
        max_large_mbps=_extreme(points, "large_mbps", max),
        min_small_latency_ms=_extreme([p for p in points if p.small_outstanding > 0], "small_latency_ms", min),
        sizing_class=None if max_iops is None else oracle_sizing_class(max_iops.value),
    )


def _extreme(points, field: str, pick) -> OrionExtreme | None:
    measured = [p for p in points if getattr(p, field) is not None]
    if not measured:
        return None
    best = pick(measured, key=lambda p: getattr(p, field))
    return OrionExtreme(getattr(best, field), best.small_outstanding, best.large_outstanding)


def oracle_sizing_class(iops: float) -> OracleSizingClass:
    reached = [index for index, (_, floor_iops) in enumerate(ORACLE_SIZING_CLASSES) if iops >= floor_iops]
    index = reached[-1] if reached else -1
    name = ORACLE_SIZING_CLASSES[index][0] if reached else "below low"
    following = ORACLE_SIZING_CLASSES[index + 1] if index + 1 < len(ORACLE_SIZING_CLASSES) else None
    return OracleSizingClass(
        name=name,
        next_name=None if following is None else following[0],
        next_iops=None if following is None else following[1],
    )
