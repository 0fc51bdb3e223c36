"""The run page's Iometer view: each point's workers, targets and latency histogram."""

from typing import Any

from portal.models import Point, Run

from ..base import ViewOptions
from ..common import named_rows

TEMPLATE = "pages/tools/iometer.html"


def run_view(run: Run, points: list[Point], options: ViewOptions) -> dict[str, Any]:
    """Per-worker and per-target rows of each point, and the latency histogram's bins that counted
    I/Os when the file has one. Iometer points store them as arrays (``ingest.formats.iometer``):
    a column list and rows, and the histogram's bin names beside its counts."""
    sections = []
    for point in points:
        metrics = point.metrics or {}
        workers, targets = named_rows(metrics.get("workers")), named_rows(metrics.get("targets"))
        stored = metrics.get("latency_histogram") or {}
        counts = zip(stored.get("bins") or [], stored.get("counts") or [], strict=False)
        histogram = [{"bin": name, "count": count} for name, count in counts if count]
        if workers or targets or histogram:
            sections.append({"point": point, "workers": workers, "targets": targets, "histogram": histogram})
    return {"template": TEMPLATE, "sections": sections}
