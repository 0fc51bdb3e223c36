"""Celery tasks: they take ids, load rows and call a service."""

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError
from django.utils import timezone

from . import services
from .models import Upload

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


@shared_task(name="portal.upload_ingest", bind=True, **RETRY_POLICY)
def upload_ingest_task(self, upload_id):
    """Read one uploaded file and store its results; safe to run twice (the claim is a conditional update).

    A ``ParseError`` is the user's file, not a transient failure: the upload is marked failed, no retry.
    """
    if not services.upload_claim(upload_id=upload_id, stale_after=services.UPLOAD_STALE_AFTER):
        return _claim_lost(self, upload_id)
    try:
        return services.upload_ingest(upload_ids=[upload_id]).status
    except RETRY_POLICY["autoretry_for"]:
        services.upload_release(upload_id=upload_id)
        raise
    except Exception as error:
        services.upload_fail(
            upload_id=upload_id,
            message=f"ArrayBench could not read this file because of an internal error ({type(error).__name__}: "
            f"{error}); it is kept, and can be re-ingested once the parser is fixed",
        )
        raise


def _claim_lost(task, upload_id):
    """Another worker holds the upload, or it is finished. A claim held by a worker that died becomes
    stale: come back then (a redelivered message after a worker was killed lands here)."""
    upload = Upload.objects.filter(id=upload_id).only("status", "started_at").first()
    if upload is None or upload.status != Upload.Status.PARSING:
        return "skipped"
    stale_at = upload.started_at + services.UPLOAD_STALE_AFTER
    raise task.retry(countdown=max((stale_at - timezone.now()).total_seconds(), 0) + 1)


@shared_task(name="portal.upload_requeue_stale", **RETRY_POLICY)
def upload_requeue_stale_task():
    return services.upload_requeue_stale()


@worker_ready.connect
def _requeue_stale_uploads_on_start(sender, **kwargs):
    """A restarted worker picks up the uploads a killed one left behind (no scheduler needed)."""
    upload_requeue_stale_task.delay()
