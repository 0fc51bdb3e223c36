"""Celery tasks: they take ids, load rows and call a service; and the recovery every worker runs."""

import logging
import os
import threading
from typing import Any

from celery import shared_task
from celery.signals import task_prerun, worker_ready, worker_shutdown
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection

from .history import notifications
from .results.figures import runs_summaries_recompute
from .uploads import jobs
from .uploads.services import INGEST_JOB_TASK, job_queue_answers

logger = logging.getLogger(__name__)

# One retry policy for transient failures (database or broker unavailable).
RETRY_POLICY = {
    "autoretry_for": (OperationalError, InterfaceError, ConnectionError),
    "retry_backoff": 2,
    "retry_backoff_max": 120,
    "retry_jitter": True,
    "max_retries": 5,
    "acks_late": True,
}


@task_prerun.connect
def connection_check(**kwargs: Any) -> None:
    """As Django does per request: a connection that broke or is older than CONN_MAX_AGE is replaced
    before a task (connections are otherwise kept between tasks: CELERY_DB_REUSE_MAX)."""
    close_old_connections()


@shared_task(name="portal.run_summary", **RETRY_POLICY)
def run_summary_task(run_id: int) -> dict:
    return runs_summaries_recompute(run_ids=[run_id])[run_id]


@shared_task(name=INGEST_JOB_TASK, bind=True, **RETRY_POLICY)
def ingest_job_task(self: Any, job_id: int) -> str:
    """Read the files of one ingest job and store their results; safe to run twice or at once in two
    workers (the claim is a conditional update, the store checks the lease)."""
    job = jobs.job_run(job_id=job_id, worker=f"{self.request.hostname} pid {os.getpid()}")
    return job.status if job is not None else "skipped"


# Webhook tasks run on WEBHOOK_QUEUE, consumed by a worker of their own; each attempt is cut at
# WEBHOOK_ATTEMPT_SECONDS by the delivery itself, the time limits are a backstop.
WEBHOOK_TASK = {"acks_late": True, "soft_time_limit": 60, "time_limit": 90}


@shared_task(name=notifications.NOTIFY_TASK, **WEBHOOK_TASK)
def webhook_notify_task(summary_id: int) -> int | None:
    """Gather a summary's alert changes not told yet into one delivery and queue it."""
    delivery = notifications.summary_notify(summary_id=summary_id)
    return delivery.id if delivery is not None else None


@shared_task(name=notifications.DELIVER_TASK, bind=True, max_retries=None, **WEBHOOK_TASK)
def webhook_deliver_task(self: Any, delivery_id: int) -> None:
    """One attempt at a delivery; retried after the pause it asks for, on the same queue."""
    pause_s = notifications.delivery_attempt(delivery_id=delivery_id)
    if pause_s is not None:
        raise self.retry(countdown=pause_s, queue=settings.WEBHOOK_QUEUE)


# While the job queue (Redis) does not answer, recovery asks it again this often.
QUEUE_DOWN_RECHECK_SECONDS = 1.0


class Recovery:
    """Every worker process looks for jobs (and webhook deliveries) a killed worker left behind, every
    INGEST_RECOVER_SECONDS, in a thread of its main process: no scheduler is needed wherever workers run. While
    the job queue does not answer it asks again every second, and sends the jobs kept meanwhile as soon as it
    answers."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="ingest-recovery", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _loop(self):
        while True:
            wait = settings.INGEST_RECOVER_SECONDS
            try:
                if job_queue_answers():
                    jobs.jobs_recover()
                    notifications.deliveries_recover()
                else:
                    # Jobs kept while the queue is down are sent on the first round it answers again.
                    wait = min(wait, QUEUE_DOWN_RECHECK_SECONDS)
            except Exception:  # the database or broker may be down for a while; try again next round
                logger.exception("recovering ingest jobs failed")
                connection.close()
            if self._stop.wait(wait):
                break
        connection.close()


RECOVERY = Recovery()


@worker_ready.connect
def _start_recovery(sender, **kwargs):
    RECOVERY.start()


@worker_shutdown.connect
def _stop_recovery(sender, **kwargs):
    RECOVERY.stop()
