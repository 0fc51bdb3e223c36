"""The run page's MLPerf Storage view: accelerators, throughput per accelerator and utilisation, and the
benchmark runs and epochs."""

from typing import Any

from portal.models import Point, Run

from ..base import ViewOptions
from ..common import named_rows

TEMPLATE = "pages/tools/mlperf_storage.html"


def run_view(run: Run, points: list[Point], options: ViewOptions) -> dict[str, Any]:
    """The figures people compare of an MLPerf Storage run: the simulated accelerators it kept busy enough,
    its throughput per accelerator and the accelerator utilisation (AU) against the benchmark's rule; and
    its benchmark runs and epochs (``ingest.formats.mlperf_storage`` stores them as arrays)."""
    point = points[0] if points else None
    metrics = (point.metrics or {}) if point is not None else {}
    params = run.params or {}
    return {
        "template": TEMPLATE,
        "point": point,
        "accelerators": (point.load or {}).get("accelerators") if point is not None else None,
        "accelerator": params.get("accelerator"),
        "metrics": metrics,
        "au_pct": metrics.get("au_pct", metrics.get("au_pct_lowest")),
        "au_lowest": "au_pct" not in metrics and metrics.get("au_pct_lowest") is not None,
        "au_threshold_pct": params.get("au_threshold_pct"),
        "rule_met": {"pass": "met", "fail": "not met"}.get(run.verdict, ""),
        "runs": named_rows(metrics.get("runs")),
        "au_runs": named_rows(metrics.get("au_runs")),
        "epochs": named_rows(metrics.get("epochs")),
    }
