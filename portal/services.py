"""Services: everything that changes state goes through these functions."""

from django.db import transaction
from django.db.models import Count, Max, Min

from .models import Point, Run


def run_summary_recompute(*, run_id):
    """Recompute a run's derived figures (peak IOPS and MB/s, lowest response time, points)."""
    figures = Point.objects.filter(run_id=run_id).aggregate(
        points=Count("id"),
        peak_iops=Max("iops"),
        peak_mbps=Max("mbps"),
        min_response_ms=Min("avg_response_ms"),
        max_response_ms=Max("avg_response_ms"),
    )
    Run.objects.filter(id=run_id).update(summary=figures)
    return figures


def run_summary_schedule(*, run_ids):
    """Recompute the summaries in the background once the current transaction commits."""
    from .tasks import run_summary_task

    ids = list(run_ids)
    transaction.on_commit(lambda: [run_summary_task.delay(run_id) for run_id in ids])
