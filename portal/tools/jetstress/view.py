"""The run page's Jetstress view: the achieved IOPS, the mailboxes they support and the latencies against
the goals."""

from typing import Any

from portal.models import Point, Run

from ..base import ViewOptions
from .sizing import jetstress_sizing

TEMPLATE = "pages/tools/jetstress.html"


def run_view(run: Run, points: list[Point], options: ViewOptions) -> dict[str, Any]:
    """Sizing of the last point with an achieved IOPS, at the page's IOPS per mailbox."""
    iops_per_mailbox = options.iops_per_mailbox
    achieved = next((p for p in reversed(points) if p.iops is not None), None)
    if achieved is None or achieved.iops is None:  # the second only tells mypy what the first found
        return {"template": TEMPLATE, "achieved": None}
    params, metrics = run.params or {}, achieved.metrics or {}
    log_write_ms = metrics.get("log_write_latency_ms", metrics.get("log_write_response_ms"))
    sizing = jetstress_sizing(
        achieved_iops=achieved.iops,
        db_read_ms=achieved.avg_read_response_ms,
        log_write_ms=log_write_ms,
        iops_per_mailbox=iops_per_mailbox,
        db_read_goal_ms=params.get("db_read_limit_ms") or 20.0,
        log_write_goal_ms=params.get("log_write_limit_ms") or 5.0,
    )
    return {
        "template": TEMPLATE,
        "achieved": achieved,
        "target_iops": metrics.get("target_iops", params.get("target_iops")),
        "sizing": sizing,
        "verdict": run.get_verdict_display() if run.verdict else "not stated",
    }
