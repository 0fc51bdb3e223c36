"""ORION's heat maps: one figure of its small x large matrix, cell by cell."""

from portal.charts import Heatmap
from portal.models import Run

from .summary import OrionPoint

ORION_FIGURES = {
    "small-iops": ("iops", "Small IOPS"),
    "large-mbps": ("mbps", "Large MB/s"),
    "small-latency": ("avg_response_ms", "Small latency (ms)"),
}


def orion_points(run: Run) -> list[OrionPoint]:
    """The run's points as cells of ORION's small x large matrix (points without both loads are left out)."""
    cells: list[OrionPoint] = []
    for point in run.points.all():
        load = point.load or {}
        if load.get("small_outstanding") is None or load.get("large_outstanding") is None:
            continue
        cells.append(
            OrionPoint(
                small_outstanding=int(load["small_outstanding"]),
                large_outstanding=int(load["large_outstanding"]),
                small_iops=point.iops,
                large_mbps=point.mbps,
                small_latency_ms=point.avg_response_ms,
            )
        )
    return cells


def orion_heatmap(run: Run, figure: str) -> Heatmap:
    field_name, title = ORION_FIGURES[figure]
    attribute = {"iops": "small_iops", "mbps": "large_mbps", "avg_response_ms": "small_latency_ms"}[field_name]
    cells = orion_points(run)
    smalls = sorted({c.small_outstanding for c in cells})
    larges = sorted({c.large_outstanding for c in cells})
    values = {(c.small_outstanding, c.large_outstanding): getattr(c, attribute) for c in cells}
    z = [[values.get((small, large)) for small in smalls] for large in larges]
    return Heatmap(f"{run.name}: {title}", "Outstanding small I/Os", "Outstanding large I/Os", smalls, larges, z, title)
