"""The tools' own summaries as tables: seed 001's Exchange (Jetstress) and Oracle (ORION) figures."""

from collections import defaultdict

from ingest.formats import jetstress as jetstress_format
from ingest.formats import orion as orion_format
from portal import formatting
from portal.analysis.sizing import (
    EXCHANGE_IOPS_PER_DRIVE,
    IOPS_PER_MAILBOX,
    OrionPoint,
    jetstress_sizing,
    orion_summary,
)
from portal.analysis.tables import Column, ColumnGroup, NumberFormat, Row, Table
from portal.models import Point, Run, System
from portal.results.selectors import runs_filtered, runs_with_points

from .presets import PresetError


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
    return Row((_run_label(run), verdict.capitalize()), cells)


def _log_write_ms(point):
    if point is None:
        return None
    metrics = point.metrics or {}
    return metrics.get("log_write_latency_ms", metrics.get("log_write_response_ms"))


def _run_label(run):
    config, params = run.config, run.params or {}
    parts = [formatting.config_words(config.raid_level, config.drive_count), params.get("machine")]
    if params.get("tiles"):
        parts.append(f"{params['tiles']} tiles")
    if run.origin == Run.Origin.PUBLISHED:
        parts.append(run.citation_table)
    elif run.upload_id:
        parts.append(f"upload #{run.upload_id}")
    return ", ".join(str(p) for p in parts if p)


def orion_table(system: System, runs: list[Run]) -> Table:
    """Seed 001's Oracle figures of ``runs`` (their points prefetched): ORION's maxima, per drive, and
    the Oracle sizing class of the small IOPS."""
    tests = defaultdict(list)
    for run in runs:
        tests[(run.config_id, run.upload_id, run.citation_document, run.citation_table)].append(run)
    whole = NumberFormat(decimals=0, group_from=1_000)
    columns = (
        Column("Max small IOPS", whole),
        Column("Small IOPS per drive", whole),
        Column("Max large MB/s", NumberFormat(decimals=2)),
        Column("Min small latency ms", NumberFormat(decimals=2)),
    )
    return Table(
        title=f"{system.name} Oracle ORION results",
        corner=(("", ""), ("Test", "Oracle sizing class")),
        column_groups=(ColumnGroup("ORION", columns),),
        rows=tuple(_orion_row(group) for group in tests.values()),
        footnotes=("Sizing classes: low 1,000, medium 5,000, high 10,000 small IOPS; MB/s = 10^6 bytes/s.",),
    )


def _orion_row(runs):
    summary = orion_summary(_orion_point(point) for run in runs for point in run.points.all())
    iops = summary.max_small_iops.value if summary.max_small_iops else None
    drives = runs[0].config.drive_count or (runs[0].params or {}).get("drive_count")
    cells = (
        iops,
        iops / drives if iops is not None and drives else None,
        summary.max_large_mbps.value if summary.max_large_mbps else None,
        summary.min_small_latency_ms.value if summary.min_small_latency_ms else None,
    )
    return Row((_run_label(runs[0]), summary.sizing_class.name if summary.sizing_class else ""), cells)


def _orion_point(point: Point) -> OrionPoint:
    """A published figure without its matrix position counts where it applies (small or large I/Os)."""
    load = point.load or {}
    small = load.get("small_outstanding", 1 if point.iops is not None or point.avg_response_ms is not None else 0)
    large = load.get("large_outstanding", 1 if point.mbps is not None else 0)
    return OrionPoint(small, large, point.iops, point.mbps, point.avg_response_ms)


def jetstress(system: System, *, iops_per_mailbox: float = IOPS_PER_MAILBOX) -> Table:
    """Seed 001's Exchange figures: achieved IOPS, per drive, mailboxes at ``iops_per_mailbox``, latencies."""
    runs = list(runs_with_points(runs=runs_filtered(system=system, tool=jetstress_format.TOOL)))
    if not runs:
        raise PresetError(f"{system.name} has no Jetstress runs")
    return jetstress_table(system, runs, iops_per_mailbox=iops_per_mailbox)


def orion(system: System) -> Table:
    """Seed 001's Oracle figures: ORION's maxima, per drive, and the Oracle sizing class of the small IOPS."""
    runs = list(runs_with_points(runs=runs_filtered(system=system, tool=orion_format.TOOL)))
    if not runs:
        raise PresetError(f"{system.name} has no ORION runs")
    return orion_table(system, runs)
