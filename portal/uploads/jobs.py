"""Ingest jobs, run exactly once: claimed under a lease, kept alive by a heartbeat, recovered when
their worker dies.

A job is claimed with a conditional update that hands out a new lease; the worker proves it is
alive by moving the job's heartbeat; results are stored in the transaction that locks the job,
checks the lease is still the worker's and marks it done. A worker that was killed leaves a
heartbeat that goes stale in seconds, and :func:`jobs_recover` (run by every worker process)
sends the job again.
"""

import datetime
import logging
import threading
import uuid

import redis
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection, transaction
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, F, Q
from django.db.models.functions import Now
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

import ingest
from ingest import ParseError
from ingest.source import ProgressMeter
from portal.curation.services import overrides_kept, overrides_restore
from portal.errors import ApplicationError
from portal.history.services import changes_after_store
from portal.models import IngestJob, Run, Upload
from portal.results.services import StoreError, result_sets_store
from portal.systems.services import system_get_or_create, systems_facets_recompute

from .services import GIVEN_TOGETHER, job_mark_failed, jobs_send, upload_source

logger = logging.getLogger(__name__)

# Transient failures: the task gives the job back and retries (database or broker unavailable).
TRANSIENT_ERRORS = (OperationalError, InterfaceError, ConnectionError)


def _ago(seconds: float) -> ExpressionWrapper:
    """A moment ``seconds`` before now on the database's clock: every host compares against the same
    clock, so a worker whose own clock is behind never makes a live job look dead."""
    return ExpressionWrapper(Now() - datetime.timedelta(seconds=seconds), output_field=DateTimeField())


def job_claim(*, job_id: int, worker: str) -> uuid.UUID | None:
    """Take a job with a conditional update: a queued one, or a running one whose heartbeat went
    stale (its worker died). Returns the new lease, or None when the job is not to be taken."""
    stale = Q(status=IngestJob.Status.RUNNING, heartbeat_at__lt=_ago(settings.INGEST_STALE_SECONDS))
    lease = uuid.uuid4()
    with transaction.atomic():
        taken = IngestJob.objects.filter(
            Q(status=IngestJob.Status.QUEUED) | stale, id=job_id, attempts__lt=settings.INGEST_MAX_ATTEMPTS
        ).update(
            status=IngestJob.Status.RUNNING,
            lease=lease,
            worker=worker[:200],
            heartbeat_at=Now(),
            started_at=Now(),
            resends=0,
            attempts=F("attempts") + 1,
        )
        if not taken:
            return None
        Upload.objects.filter(job_id=job_id).update(status=Upload.Status.PARSING, progress_pct=0, started_at=Now())
    return lease


def job_run(*, job_id: int, worker: str) -> IngestJob | None:
    """Claim the job, read its files and store the results exactly once.

    Returns the finished job, or None when it was not ours to run (finished, or held by a live
    worker). A file that cannot be read fails the job with the parser's message; any other
    exception is a bug, recorded as an internal error with a reference; database or broker
    outages give the job back and are raised for the task to retry.
    """
    lease = job_claim(job_id=job_id, worker=worker)
    if lease is None:
        return None
    job = IngestJob.objects.select_related("anchor", "system").get(id=job_id)
    with Heartbeat(job_id=job_id, lease=lease):
        try:
            results = _read(job, lease)
            _store(job, lease, results)
        except (ParseError, ApplicationError) as error:
            _fail(job, lease, message=str(error))
        except (*TRANSIENT_ERRORS, KeyboardInterrupt, SystemExit):
            # Given back at once: a retry, or any worker once the command that ran it was stopped.
            job_release(job_id=job_id, lease=lease)
            raise
        except Exception as error:  # a bug: the user gets a reference, the log the traceback
            reference = uuid.uuid4().hex[:12]
            logger.exception("internal error reading ingest job %s (reference %s)", job_id, reference)
            _fail(job, lease, message=_internal_error_message(error, reference), reference=reference)
    job.refresh_from_db()
    return job


def _internal_error_message(error: BaseException, reference: str):
    return (
        f"ArrayBench could not read this file because of an internal error ({type(error).__name__}, "
        f"reference {reference}); the file is kept and can be re-ingested once the problem is fixed"
    )


def _members(job: IngestJob):
    return list(Upload.objects.filter(job_id=job.id).order_by("id"))


def _read(job: IngestJob, lease: uuid.UUID) -> list[ingest.ResultSetDict]:
    """Parse the job's files as planned when they arrived (formats detected then, not again)."""
    members = _members(job)
    if not members:
        raise StoreError(f"ingest job #{job.id} has no files to read")
    sources = [upload_source(upload=upload) for upload in members]
    meter = ProgressMeter(
        sum(upload.size_bytes for upload in members),
        lambda pct: Upload.objects.filter(job_id=job.id, job__lease=lease).update(progress_pct=pct),
    )
    for source in sources:
        source.meter = meter
    if job.format == "zip":
        return ingest.parse_archive(sources[0])
    if job.format in ingest.FORMATS:
        return ingest.read(ingest.Group(sources, ingest.FORMATS[job.format]))
    # Planned before formats were recorded, or refused then: plan again, as the files were given.
    return ingest.parse_sources([upload_source(upload=upload, folder=GIVEN_TOGETHER) for upload in members])


def _store(job: IngestJob, lease: uuid.UUID, results: list[ingest.ResultSetDict]) -> None:
    """Store the results, replacing the runs read before, in the transaction that checks the lease."""
    members = _members(job)
    anchor = job.anchor
    with transaction.atomic():
        if not _lease_held(job.id, lease, lock=True):
            logger.warning("ingest job %s: lease lost to another worker; nothing stored", job.id)
            return
        system = job.system or (system_get_or_create(**job.new_system, team=anchor.team) if job.new_system else None)
        replaced = Run.objects.filter(upload_id__in=[upload.id for upload in members])
        earlier_systems = set(replaced.values_list("config__system_id", flat=True).distinct())
        # A maintainer's exclusions and stated values go to the runs of the same names read again.
        kept = overrides_kept(runs=replaced)
        replaced.delete()
        counts = result_sets_store(results=results, upload=anchor, system=system, labels=anchor.labels)
        overrides_restore(kept=kept, runs=Run.objects.filter(upload=anchor))
        # Systems that lost runs to the new reading (stored ones were recomputed with the runs).
        systems_facets_recompute(system_ids=earlier_systems)
        now = timezone.now()
        IngestJob.objects.filter(id=job.id).update(status=IngestJob.Status.DONE, error="", finished_at=now)
        Upload.objects.filter(job_id=job.id).update(
            status=Upload.Status.DONE,
            progress_pct=100,
            error="",
            finished_at=now,
            format=",".join(sorted({result["format"] for result in results})),
            parser_version=f"ingest {ingest.__version__}",
            warnings=[warning for result in results for warning in result["warnings"]],
            system=counts["system"],
        )
    logger.info("ingest job %s stored %s run(s), %s point(s)", job.id, counts["runs"], counts["points"])
    changes_after_store(upload_id=anchor.id)


def _lease_held(job_id: int, lease: uuid.UUID, *, lock=False):
    held = IngestJob.objects.filter(id=job_id, lease=lease, status=IngestJob.Status.RUNNING)
    return (held.select_for_update() if lock else held).exists()


def _fail(job: IngestJob, lease: uuid.UUID, *, message: str, reference: str = ""):
    """Mark the job failed, if it is still ours. A failed re-ingest keeps the earlier results."""
    with transaction.atomic():
        if not _lease_held(job.id, lease, lock=True):
            return
        job_mark_failed(job=job, message=message, reference=reference)


def job_release(*, job_id: int, lease: uuid.UUID) -> None:
    """Give a claimed job back to the queue (a transient failure; the task retries it)."""
    with transaction.atomic():
        released = IngestJob.objects.filter(id=job_id, lease=lease, status=IngestJob.Status.RUNNING).update(
            status=IngestJob.Status.QUEUED, lease=None, heartbeat_at=None, attempts=F("attempts") - 1, sent_at=None
        )
        if released:
            Upload.objects.filter(job_id=job_id).update(status=Upload.Status.QUEUED)


class Heartbeat:
    """While a job runs, moves its heartbeat every INGEST_HEARTBEAT_SECONDS from a thread of its own
    (its own database connection), so a parse of any length is never taken for a dead worker."""

    def __init__(self, *, job_id: int, lease: uuid.UUID):
        self.job_id = job_id
        self.lease = lease
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"heartbeat-job-{job_id}", daemon=True)

    def __enter__(self) -> "Heartbeat":
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()

    def _beat(self) -> None:
        while not self._stop.wait(settings.INGEST_HEARTBEAT_SECONDS):
            try:
                IngestJob.objects.filter(id=self.job_id, lease=self.lease).update(heartbeat_at=Now())
            except DatabaseError:  # a dropped connection: the next beat reconnects
                logger.warning("ingest job %s: heartbeat not written", self.job_id, exc_info=True)
                connection.close()
        connection.close()


def jobs_recover() -> list[int]:
    """Send again the jobs no worker will finish; fail those that stopped their worker too often.

    A running job whose heartbeat is older than INGEST_STALE_SECONDS lost its worker; a queued job
    sent more than INGEST_LOST_SECONDS ago lost its message (broker restarted, or a command that ran
    it was stopped). Each resend waits twice as long as the one before, so a backlog is not flooded.
    Rows are taken with ``SKIP LOCKED``: several workers recovering at once send each job once.
    Returns the ids sent.
    """
    dead = Q(status=IngestJob.Status.RUNNING, heartbeat_at__lt=_ago(settings.INGEST_STALE_SECONDS))
    lost = Q(status=IngestJob.Status.QUEUED) & (
        Q(sent_at__lt=_ago(settings.INGEST_LOST_SECONDS)) | Q(sent_at__isnull=True)
    )
    with transaction.atomic():
        candidates = (
            IngestJob.objects.select_for_update(skip_locked=True)
            .filter(dead | lost)
            .annotate(waited=ExpressionWrapper(Now() - F("sent_at"), output_field=DurationField()))
            .order_by("id")[:500]
        )
        jobs = [job for job in candidates if job.sent_at is None or job.waited >= _backoff(job)]
        exhausted = [job for job in jobs if job.status == IngestJob.Status.RUNNING and _exhausted(job)]
        for job in exhausted:
            logger.error("ingest job %s stopped its worker %s times; failed", job.id, job.attempts)
            job_mark_failed(job=job, message=_exhausted_message(job))
        resend = [job.id for job in jobs if job not in exhausted]
        IngestJob.objects.filter(id__in=resend).update(sent_at=Now(), resends=F("resends") + 1)
        transaction.on_commit(lambda: _send_or_keep_unsent(resend))
    if resend:
        logger.warning("ingest jobs %s lost their worker or message; sent again", resend)
    return resend


def _send_or_keep_unsent(job_ids: list[int]) -> None:
    """Send the jobs; when the job queue stops answering meanwhile they are marked unsent again, so the first
    round that finds it answering sends them (not INGEST_LOST_SECONDS after this try)."""
    if not job_ids:
        return
    try:
        jobs_send(job_ids=job_ids)
    except (KombuOperationalError, redis.RedisError, OSError):
        logger.warning("ingest jobs %s not sent: the job queue does not answer; sent once it does", job_ids)
        IngestJob.objects.filter(id__in=job_ids).update(sent_at=None)


def _backoff(job: IngestJob):
    """How long after its last sending a job is sent again: the stale or lost period, doubled per resend."""
    base = settings.INGEST_STALE_SECONDS if job.status == IngestJob.Status.RUNNING else settings.INGEST_LOST_SECONDS
    return datetime.timedelta(seconds=base * 2 ** min(job.resends, 6))


def _exhausted(job: IngestJob):
    return job.attempts >= settings.INGEST_MAX_ATTEMPTS


def _exhausted_message(job: IngestJob):
    names = ", ".join(Upload.objects.filter(job_id=job.id).values_list("original_name", flat=True))
    return (
        f"{names}: the worker reading this stopped {job.attempts} times (killed, or out of memory); "
        "the file is kept and can be re-ingested"
    )
