"""Celery tasks: they take ids, load rows and call a service."""

from celery import shared_task
from django.db import OperationalError

from . import services

# One retry policy for transient failures (database or broker unavailable).
RETRY_POLICY = {
    "autoretry_for": (OperationalError, ConnectionError),
    "retry_backoff": 2,
    "retry_backoff_max": 120,
    "retry_jitter": True,
    "max_retries": 5,
    "acks_late": True,
}


@shared_task(name="portal.run_summary", **RETRY_POLICY)
def run_summary_task(run_id):
    return services.run_summary_recompute(run_id=run_id)
