"""Uploads: originals kept as uploaded, read by ingest jobs exactly once.

Every way in (the upload page, ``manage.py ingest``) goes through :func:`jobs_create` and
:func:`job_run`. A job is claimed with a conditional update that hands out a new lease; the
worker proves it is alive by moving the job's heartbeat; results are stored in the transaction
that locks the job, checks the lease is still the worker's and marks it done. A worker that was
killed leaves a heartbeat that goes stale in seconds, and :func:`jobs_recover` (run by every
worker process) sends the job again.
"""

import datetime
import hashlib
import logging
import os
import tempfile
import threading
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from django.conf import settings
from django.db import DatabaseError, IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, F, Q
from django.db.models.functions import Now
from django.utils import timezone

import ingest
from ingest import ParseError, Source
from ingest.source import ProgressMeter
from portal.celery import app
from portal.models import IngestJob, Run, System, Upload
from portal.services import LabelError, StoreError, result_sets_store, system_get_or_create

logger = logging.getLogger(__name__)

# The Celery task that runs a job (portal/tasks.py).
INGEST_JOB_TASK = "portal.ingest_job"
LIVE_STATUSES = (Upload.Status.QUEUED, Upload.Status.PARSING, Upload.Status.DONE)
# Files given together in one request are grouped as if they were in one folder of this name.
GIVEN_TOGETHER = "given-together"
# Transient failures: the task gives the job back and retries (database or broker unavailable).
TRANSIENT_ERRORS = (OperationalError, InterfaceError, ConnectionError)


# --- Receiving files ------------------------------------------------------------------------------


def upload_path(sha256: str) -> Path:
    """Where the original with this hash is kept (outside the web root)."""
    return settings.UPLOADS_DIR / sha256[:2] / sha256


def original_keep(stream: BinaryIO) -> tuple[str, int, Path]:
    """Copy the bytes to their content-addressed place, hashing them on the way; (sha256, size, path)."""
    settings.UPLOADS_DIR.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    size = 0
    with tempfile.NamedTemporaryFile(dir=settings.UPLOADS_DIR, delete=False) as temporary:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
            temporary.write(block)
            size += len(block)
    sha256 = digest.hexdigest()
    final = upload_path(sha256)
    final.parent.mkdir(parents=True, exist_ok=True)
    os.replace(temporary.name, final)
    return sha256, size, final


def upload_create(
    *, stream: BinaryIO, original_name: str, uploader=None, system: System | None = None, labels: dict | None = None
) -> Upload:
    """Keep the original bytes (content-addressed) and record the upload.

    Returns the new :class:`Upload`: ``queued``, or ``duplicate`` (pointing at the earlier upload)
    when the same bytes were stored before. The file is hashed while it is copied, never read twice.
    """
    sha256, size, path = original_keep(stream)
    return _upload_record(sha256, size, path, original_name, uploader=uploader, system=system, labels=labels)


def _upload_record(sha256, size, path, original_name, *, uploader, system, labels):
    fields = {
        "original_name": original_name[:500],
        "size_bytes": size,
        "sha256": sha256,
        "stored_path": str(path.relative_to(settings.UPLOADS_DIR)),
        "uploader": uploader,
        "system": system,
        "labels": labels or {},
    }
    try:
        with transaction.atomic():
            return Upload.objects.create(**fields)  # the partial unique index refuses a second live copy
    except IntegrityError:
        earlier = Upload.objects.filter(sha256=sha256, status__in=LIVE_STATUSES).first()
        return Upload.objects.create(**fields, status=Upload.Status.DUPLICATE, duplicate_of=earlier)


def uploads_receive(
    *, files: Iterable, uploader, system: System | None, labels: dict, new_system: dict | None = None
) -> list[Upload]:
    """Keep uploaded files and queue the jobs that read them once all are recorded; return the uploads.

    ``files`` are readable binary streams with a ``name``. Duplicates are recorded, not read again.
    ``new_system`` (name, vendor, model) is created when the results are stored, so a duplicate or a
    file that fails leaves no empty system behind.
    """
    kept = [(*original_keep(file), file.name) for file in files]
    with transaction.atomic():
        # Rows are inserted in sha256 order: two requests sending the same files in another order
        # then wait on each other's unique index entries one way only, never crosswise.
        recorded = {
            index: _upload_record(*kept[index], uploader=uploader, system=system, labels=labels)
            for index in sorted(range(len(kept)), key=lambda i: kept[i][0])
        }
        uploads = [recorded[index] for index in range(len(kept))]
        fresh = [upload for upload in uploads if upload.status == Upload.Status.QUEUED]
        jobs_create(uploads=fresh, system=system, new_system=new_system, requested_by=uploader)
        # As received (queued, failed or duplicate): read before the commit lets a worker start on them.
        for upload in uploads:
            upload.refresh_from_db()
    return uploads


def upload_source(upload: Upload, *, folder: str | None = None) -> Source:
    """The stored original as the parsers read it, under its uploaded name (``folder/name`` to plan groups)."""
    name = f"{folder}/{upload.original_name}" if folder else upload.original_name
    return Source(settings.UPLOADS_DIR / upload.stored_path, name=name)


def jobs_create(
    *,
    uploads: list[Upload],
    folders: dict[int, str] | None = None,
    system: System | None = None,
    new_system: dict | None = None,
    requested_by=None,
) -> list[IngestJob]:
    """One job per group of files read together, as the registry plans them; each sent to a worker
    once the transaction commits.

    ``folders`` gives each upload's folder (files of one fio sweep share theirs); files given in
    one request without folders are taken as one folder. A file that is refused or not recognised
    gets a job that has already failed, with the message.
    """
    folders = folders or {}
    upload_of = {upload_source(upload, folder=folders.get(upload.id, GIVEN_TOGETHER)): upload for upload in uploads}
    return [
        job_create(
            group,
            [upload_of[source] for source in group.sources],
            system=system,
            new_system=new_system,
            requested_by=requested_by,
        )
        for group in ingest.plan(list(upload_of))
    ]


def job_create(
    group: ingest.Group,
    members: list[Upload],
    *,
    system: System | None = None,
    new_system: dict | None = None,
    requested_by=None,
    enqueue: bool = True,
) -> IngestJob:
    """The job reading ``members`` as ``group`` plans them. With ``enqueue=False`` the caller runs it
    at once (:func:`job_run`); a worker takes it only when the caller stopped before (recovery)."""
    anchor = members[0]
    job = IngestJob.objects.create(
        anchor=anchor,
        format=group.format,
        system=system,
        new_system=new_system or {},
        requested_by=requested_by,
        sent_at=Now(),
    )
    Upload.objects.filter(id=anchor.id).update(job=job, read_with=None, format=group.format)
    Upload.objects.filter(id__in=[u.id for u in members[1:]]).update(job=job, read_with=anchor, format=group.format)
    if group.error is not None:
        error = group.error
        if error.file in (None, group.sources[0].name):  # the folder was only for planning groups
            error.file = anchor.original_name
        _finish_failed(job, message=str(error))
    elif enqueue:
        job_enqueue(job=job)
    return job


def job_enqueue(*, job: IngestJob) -> None:
    """Send the job to a worker once the current transaction commits (nothing is sent on rollback)."""
    IngestJob.objects.filter(id=job.id).update(sent_at=Now())
    # robust: with the broker down the rows are kept and recovery sends the job later
    transaction.on_commit(lambda: _send(job.id), robust=True)


def _send(job_id: int) -> None:
    """Hand a job to the workers by the task's name: the tasks module imports this one, not the reverse."""
    app.send_task(INGEST_JOB_TASK, args=[job_id])


def _send_each(job_ids: list[int]) -> None:
    for job_id in job_ids:
        _send(job_id)


def upload_reingest(*, upload: Upload, requested_by=None) -> bool:
    """Queue a finished upload (and the files read with it) to be read again with the current parser.

    Its runs are replaced only when the new reading succeeds. Returns False when the upload is not
    finished (queued, being read, or a duplicate).
    """
    anchor = upload.read_with or upload
    try:
        return _reingest_queue(anchor, requested_by)
    except IntegrityError:  # a later copy of the same file is the live one
        return False


def _reingest_queue(anchor, requested_by):
    with transaction.atomic():
        locked = Upload.objects.select_for_update().filter(id=anchor.id).first()
        if locked is None or locked.status not in (Upload.Status.DONE, Upload.Status.FAILED):
            return False
        if locked.job_id and IngestJob.objects.filter(id=locked.job_id, status__in=["queued", "running"]).exists():
            return False
        previous = IngestJob.objects.filter(id=locked.job_id).first()
        job = IngestJob.objects.create(
            anchor=anchor,
            kind=IngestJob.Kind.REINGEST,
            format=previous.format if previous else "",
            system=previous.system if previous else anchor.system,
            new_system=previous.new_system if previous else {},
            requested_by=requested_by,
        )
        members = Upload.objects.filter(Q(id=anchor.id) | Q(read_with=anchor))
        members.update(job=job, status=Upload.Status.QUEUED, progress_pct=0, started_at=None, finished_at=None)
        job_enqueue(job=job)
    return True


# --- Running a job --------------------------------------------------------------------------------


def _ago(seconds: float):
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
        except (ParseError, LabelError, StoreError) as error:
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


def _internal_error_message(error, reference):
    return (
        f"ArrayBench could not read this file because of an internal error ({type(error).__name__}, "
        f"reference {reference}); the file is kept and can be re-ingested once the problem is fixed"
    )


def _members(job):
    return list(Upload.objects.filter(job_id=job.id).order_by("id"))


def _read(job, lease):
    """Parse the job's files as planned when they arrived (formats detected then, not again)."""
    members = _members(job)
    if not members:
        raise StoreError(f"ingest job #{job.id} has no files to read")
    sources = [upload_source(upload) for upload in members]
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
    return ingest.parse_sources([upload_source(upload, folder=GIVEN_TOGETHER) for upload in members])


def _store(job, lease, results):
    """Store the results, replacing the runs read before, in the transaction that checks the lease."""
    members = _members(job)
    anchor = job.anchor
    with transaction.atomic():
        if not _lease_held(job.id, lease, lock=True):
            logger.warning("ingest job %s: lease lost to another worker; nothing stored", job.id)
            return
        system = job.system or (system_get_or_create(**job.new_system) if job.new_system else None)
        Run.objects.filter(upload_id__in=[upload.id for upload in members]).delete()
        counts = result_sets_store(results=results, upload=anchor, system=system, labels=anchor.labels)
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


def _lease_held(job_id, lease, *, lock=False):
    held = IngestJob.objects.filter(id=job_id, lease=lease, status=IngestJob.Status.RUNNING)
    return (held.select_for_update() if lock else held).exists()


def _fail(job, lease, *, message, reference=""):
    """Mark the job failed, if it is still ours. A failed re-ingest keeps the earlier results."""
    with transaction.atomic():
        if not _lease_held(job.id, lease, lock=True):
            return
        _finish_failed(job, message=message, reference=reference)


def _finish_failed(job, *, message, reference=""):
    now = timezone.now()
    IngestJob.objects.filter(id=job.id).update(
        status=IngestJob.Status.FAILED, error=message, error_ref=reference, finished_at=now
    )
    uploads = Upload.objects.filter(job_id=job.id)
    if job.kind == IngestJob.Kind.REINGEST and _has_results(job.anchor_id):
        kept = f"re-ingest failed: {message}; the earlier results are kept"
        uploads.update(status=Upload.Status.DONE, error=kept, progress_pct=100, finished_at=now)
    else:
        uploads.update(status=Upload.Status.FAILED, error=message, finished_at=now)


def _has_results(upload_id):
    """Whether an upload holds stored results: runs, or the array profile of a system."""
    return (
        Run.objects.filter(upload_id=upload_id).exists() or System.objects.filter(profile_upload_id=upload_id).exists()
    )


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

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc_info):
        self._stop.set()
        self._thread.join()

    def _beat(self):
        while not self._stop.wait(settings.INGEST_HEARTBEAT_SECONDS):
            try:
                IngestJob.objects.filter(id=self.job_id, lease=self.lease).update(heartbeat_at=Now())
            except DatabaseError:  # a dropped connection: the next beat reconnects
                logger.warning("ingest job %s: heartbeat not written", self.job_id, exc_info=True)
                connection.close()
        connection.close()


# --- Recovery -------------------------------------------------------------------------------------


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
            _finish_failed(job, message=_exhausted_message(job))
        resend = [job.id for job in jobs if job not in exhausted]
        IngestJob.objects.filter(id__in=resend).update(sent_at=Now(), resends=F("resends") + 1)
        transaction.on_commit(lambda: _send_each(resend), robust=True)
    return resend


def _backoff(job):
    """How long after its last sending a job is sent again: the stale or lost period, doubled per resend."""
    base = settings.INGEST_STALE_SECONDS if job.status == IngestJob.Status.RUNNING else settings.INGEST_LOST_SECONDS
    return datetime.timedelta(seconds=base * 2 ** min(job.resends, 6))


def _exhausted(job):
    return job.attempts >= settings.INGEST_MAX_ATTEMPTS


def _exhausted_message(job):
    names = ", ".join(Upload.objects.filter(job_id=job.id).values_list("original_name", flat=True))
    return (
        f"{names}: the worker reading this stopped {job.attempts} times (killed, or out of memory); "
        "the file is kept and can be re-ingested"
    )
