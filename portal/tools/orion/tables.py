"""Seed 001's Oracle figures as a table: ORION's maxima, per drive, and the Oracle sizing class."""

from collections import defaultdict

from portal.analysis.tables import Column, ColumnGroup, NumberFormat, Row, Table
from portal.models import Point, Run, System

from ..common import run_label
from .summary import OrionPoint, orion_summary


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
    return Row((run_label(runs[0]), summary.sizing_class.name if summary.sizing_class else ""), cells)


def _orion_point(point: Point) -> OrionPoint:
    """A published figure without its matrix position counts where it applies (small or large I/Os)."""
    load = point.load or {}
    small = load.get("small_outstanding", 1 if point.iops is not None or point.avg_response_ms is not None else 0)
    large = load.get("large_outstanding", 1 if point.mbps is not None else 0)
    return OrionPoint(small, large, point.iops, point.mbps, point.avg_response_ms)
