"""Per-drive figures the application papers quote, against the guidelines they quote.

The guidelines come from seed 001 (ESG Lab on the IBM DS5020): Exchange is sized at 100 IOPS
per drive, Oracle starts from 30 IOPS per drive for OLTP and 20 MB/s per drive for DSS. A tool's
own sizing (mailboxes, a matrix's maxima) lives with the tool, in ``portal/tools/``.
"""

from dataclasses import dataclass

EXCHANGE_IOPS_PER_DRIVE = 100.0
ORACLE_OLTP_IOPS_PER_DRIVE = 30.0
ORACLE_DSS_MBPS_PER_DRIVE = 20.0


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
