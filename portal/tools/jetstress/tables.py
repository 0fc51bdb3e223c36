"""Seed 001's Exchange figures as a table: achieved IOPS, per drive, mailboxes, latencies."""

from portal.analysis.sizing import EXCHANGE_IOPS_PER_DRIVE
from portal.analysis.tables import Column, ColumnGroup, NumberFormat, Row, Table
from portal.models import Run, System

from ..common import run_label
from .sizing import jetstress_sizing


def jetstress_table(system: System, runs: list[Run], *, iops_per_mailbox: float) -> Table:
    """Seed 001's Exchange figures of ``runs`` (their points prefetched): achieved IOPS, per drive,
    mailboxes at ``iops_per_mailbox``, latencies."""
    whole = NumberFormat(decimals=0, group_from=1_000)
    latency = NumberFormat(decimals=2)
    columns = (
        Column("Achieved IOPS", whole),
        Column("Drives", whole),
        Column("IOPS per drive", whole),
        Column(f"Mailboxes at {iops_per_mailbox:g} IOPS", whole),
        Column("DB read ms", latency),
        Column("Log write ms", latency),
    )
    rows = tuple(_jetstress_row(run, iops_per_mailbox) for run in runs)
    return Table(
        title=f"{system.name} Microsoft Exchange Jetstress results",
        corner=(("", ""), ("Test", "Result")),
        column_groups=(ColumnGroup("Jetstress", columns),),
        rows=rows,
        footnotes=(
            f"Mailboxes = achieved IOPS / {iops_per_mailbox:g} IOPS per mailbox; guideline "
            f"{EXCHANGE_IOPS_PER_DRIVE:g} IOPS per drive; goals 20 ms database reads, 5 ms log writes.",
        ),
    )


def _jetstress_row(run, iops_per_mailbox):
    point = run.points.all()[0] if run.points.all() else None
    iops = point.iops if point else None
    db_read_ms = point.avg_read_response_ms if point else None
    log_write_ms = _log_write_ms(point)
    drives = run.config.drive_count or (run.params or {}).get("drive_count")
    sizing = None
    if iops is not None:
        sizing = jetstress_sizing(
            achieved_iops=iops, db_read_ms=db_read_ms, log_write_ms=log_write_ms, iops_per_mailbox=iops_per_mailbox
        )
    verdict = (
        run.verdict or (("pass" if sizing.passed else "fail") if sizing and sizing.passed is not None else None) or ""
    )
    cells = (
        iops,
        drives,
        iops / drives if iops is not None and drives else None,
        sizing.mailboxes if sizing else None,
        db_read_ms,
        log_write_ms,
    )
    return Row((run_label(run), verdict.capitalize()), cells)


def _log_write_ms(point):
    if point is None:
        return None
    metrics = point.metrics or {}
    return metrics.get("log_write_latency_ms", metrics.get("log_write_response_ms"))
