"""Sizing figures the application papers quote: per drive, Jetstress mailboxes, ORION maxima.

The guidelines come from seed 001 (ESG Lab on the IBM DS5020): Exchange is sized at 100 IOPS
per drive and 0.5 IOPS per mailbox, Jetstress passes at 20 ms database reads and 5 ms log
writes, Oracle starts from 30 IOPS per drive for OLTP and 20 MB/s per drive for DSS, and an
OLTP system is low (1,000 IOPS), medium (5,000) or high-end (10,000).
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass

EXCHANGE_IOPS_PER_DRIVE = 100.0
ORACLE_OLTP_IOPS_PER_DRIVE = 30.0
ORACLE_DSS_MBPS_PER_DRIVE = 20.0
IOPS_PER_MAILBOX = 0.5
DB_READ_GOAL_MS = 20.0
LOG_WRITE_GOAL_MS = 5.0
ORACLE_SIZING_CLASSES = (("low", 1_000.0), ("medium", 5_000.0), ("high", 10_000.0))


@dataclass(frozen=True)
class PerDrive:
    """Throughput per drive, and against a guideline when one is given (``ratio`` 1.29 = 29 % above it)."""

    total: float
    drive_count: int
    per_drive: float
    guideline: float | None
    ratio: float | None
    meets_guideline: bool | None


def per_drive(total: float, drive_count: int, *, guideline: float | None = None) -> PerDrive:
    if drive_count <= 0:
        raise ValueError(f"the drive count must be positive, got {drive_count}")
    if guideline is not None and guideline <= 0:
        raise ValueError(f"a per-drive guideline must be positive, got {guideline}")
    figure = total / drive_count
    ratio = None if guideline is None else figure / guideline
    return PerDrive(
        total=total,
        drive_count=drive_count,
        per_drive=figure,
        guideline=guideline,
        ratio=ratio,
        meets_guideline=None if ratio is None else ratio >= 1,
    )


@dataclass(frozen=True)
class JetstressSizing:
    """Mailboxes the achieved IOPS support, and the verdict against the latency goals.

    ``db_read_pass`` / ``log_write_pass`` are ``None`` when that latency is unknown; ``passed`` is
    ``False`` when a known goal is missed, ``None`` when a latency is unknown and none is missed.
    """

    achieved_iops: float
    iops_per_mailbox: float
    mailboxes: int
    db_read_ms: float | None
    db_read_goal_ms: float
    db_read_pass: bool | None
    log_write_ms: float | None
    log_write_goal_ms: float
    log_write_pass: bool | None
    passed: bool | None


def jetstress_sizing(
    *,
    achieved_iops: float,
    db_read_ms: float | None = None,
    log_write_ms: float | None = None,
    iops_per_mailbox: float = IOPS_PER_MAILBOX,
    db_read_goal_ms: float = DB_READ_GOAL_MS,
    log_write_goal_ms: float = LOG_WRITE_GOAL_MS,
) -> JetstressSizing:
    if iops_per_mailbox <= 0:
        raise ValueError(f"IOPS per mailbox must be positive, got {iops_per_mailbox}")
    # A mailbox is supported whole or not at all; the rounding guards 8253.999... from float division.
    mailboxes = math.floor(round(achieved_iops / iops_per_mailbox, 6))
    db_read_pass = None if db_read_ms is None else db_read_ms <= db_read_goal_ms
    log_write_pass = None if log_write_ms is None else log_write_ms <= log_write_goal_ms
    checks = (db_read_pass, log_write_pass)
    passed = False if False in checks else (None if None in checks else True)
    return JetstressSizing(
        achieved_iops=achieved_iops,
        iops_per_mailbox=iops_per_mailbox,
        mailboxes=mailboxes,
        db_read_ms=db_read_ms,
        db_read_goal_ms=db_read_goal_ms,
        db_read_pass=db_read_pass,
        log_write_ms=log_write_ms,
        log_write_goal_ms=log_write_goal_ms,
        log_write_pass=log_write_pass,
        passed=passed,
    )


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
