"""Jetstress sizing as the application papers quote it: the mailboxes the achieved IOPS support, and the
verdict against the latency goals.

The guidelines come from seed 001 (ESG Lab on the IBM DS5020): Exchange is sized at 0.5 IOPS per mailbox,
and Jetstress passes at 20 ms database reads and 5 ms log writes.
"""

import math
from dataclasses import dataclass

IOPS_PER_MAILBOX = 0.5
DB_READ_GOAL_MS = 20.0
LOG_WRITE_GOAL_MS = 5.0


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
