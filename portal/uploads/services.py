"""Uploads: originals kept as uploaded, and the ingest jobs that read them queued.

Every way in (the upload page, the API, ``manage.py ingest``) goes through :func:`jobs_create`;
:mod:`portal.uploads.jobs` runs each job exactly once and recovers those a dead worker left.
"""

import hashlib
import logging
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files import File
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Now
from django.utils import timezone

import ingest
from ingest import Source
from portal.celery import app
from portal.models import AuditEvent, IngestJob, Run, System, Team, Upload
from portal.systems.services import systems_facets_recompute
from portal.teams.services import audit, audit_many

logger = logging.getLogger(__name__)

# The Celery task that runs a job (portal/tasks.py).
INGEST_JOB_TASK = "portal.ingest_job"
LIVE_STATUSES = (Upload.Status.QUEUED, Upload.Status.PARSING, Upload.Status.DONE)
# Files given together in one request are grouped as if they were in one folder of this name.
GIVEN_TOGETHER = "given-together"


# --- Receiving files ------------------------------------------------------------------------------


def upload_path(*, sha256: str) -> Path:
    """Where the original with this hash is kept (outside the web root)."""
    return settings.UPLOADS_DIR / sha256[:2] / sha256


def original_keep(*, stream: BinaryIO | File) -> tuple[str, int, Path]:
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
    final = upload_path(sha256=sha256)
    final.parent.mkdir(parents=True, exist_ok=True)
    os.replace(temporary.name, final)
    return sha256, size, final


def upload_create(
    *,
    stream: BinaryIO,
    original_name: str,
    uploader: User | None = None,
    system: System | None = None,
    labels: dict | None = None,
    team: Team | None = None,
) -> Upload:
    """Keep the original bytes (content-addressed) and record the upload.

    Returns the new :class:`Upload`: ``queued``, or ``duplicate`` (pointing at the earlier upload)
    when the same bytes were stored before. The file is hashed while it is copied, never read twice.
    """
    sha256, size, path = original_keep(stream=stream)
    team = system.team if system is not None else team
    return _upload_record(sha256, size, path, original_name, uploader=uploader, system=system, labels=labels, team=team)


def _upload_record(
    sha256: str,
    size: int,
    path: Path,
    original_name: str,
    *,
    uploader: User | None,
    system: System | None,
    labels: dict | None,
    team: Team | None = None,
) -> Upload:
    fields = {
        "original_name": original_name[:500],
        "size_bytes": size,
        "sha256": sha256,
        "stored_path": str(path.relative_to(settings.UPLOADS_DIR)),
        "uploader": uploader,
        "system": system,
        "team": team,
        "labels": labels or {},
    }
    try:
        with transaction.atomic():
            return Upload.objects.create(**fields)  # the partial unique index refuses a second live copy
    except IntegrityError:
        # The team's own earlier copy: another team's is never revealed.
        earlier = Upload.objects.filter(sha256=sha256, status__in=LIVE_STATUSES, team=team).first()
        return Upload.objects.create(**fields, status=Upload.Status.DUPLICATE, duplicate_of=earlier)


def uploads_receive(
    *,
    files: Iterable[File],
    uploader: User | None,
    system: System | None,
    labels: dict,
    new_system: dict | None = None,
    team: Team | None = None,
    send: bool = True,
) -> list[Upload]:
    """Keep uploaded files and queue the jobs that read them once all are recorded; return the uploads.

    ``files`` are readable binary streams with a ``name``. Duplicates are recorded, not read again.
    ``new_system`` (name, vendor, model) is created when the results are stored, so a duplicate or a
    file that fails leaves no empty system behind. The files and the systems they create belong to
    ``team`` (the system's team when one is chosen). With ``send=False`` (the job queue does not
    answer) the jobs are kept unsent: recovery sends them once the queue is back.
    """
    team = system.team if system is not None else team
    kept = [(*original_keep(stream=file), file.name or "") for file in files]
    with transaction.atomic():
        # Rows are inserted in sha256 order: two requests sending the same files in another order
        # then wait on each other's unique index entries one way only, never crosswise.
        recorded = {
            index: _upload_record(*kept[index], uploader=uploader, system=system, labels=labels, team=team)
            for index in sorted(range(len(kept)), key=lambda i: kept[i][0])
        }
        uploads = [recorded[index] for index in range(len(kept))]
        fresh = [upload for upload in uploads if upload.status == Upload.Status.QUEUED]
        jobs_create(uploads=fresh, system=system, new_system=new_system, requested_by=uploader, send=send)
        audit_many(
            team=team,
            actor=uploader,
            action=AuditEvent.Action.UPLOAD,
            subjects=[f"upload #{upload.id} {upload.original_name}" for upload in uploads],
        )
        # As received (queued, failed or duplicate): read before the commit lets a worker start on them.
        for upload in uploads:
            upload.refresh_from_db()
    logger.info("received %d file(s) from %s, %d to read", len(uploads), uploader, len(fresh))
    return uploads


def upload_source(*, upload: Upload, folder: str | None = None) -> Source:
    """The stored original as the parsers read it, under its uploaded name (``folder/name`` to plan groups)."""
    name = f"{folder}/{upload.original_name}" if folder else upload.original_name
    return Source(settings.UPLOADS_DIR / upload.stored_path, name=name)


def jobs_create(
    *,
    uploads: list[Upload],
    folders: dict[int, str] | None = None,
    system: System | None = None,
    new_system: dict | None = None,
    requested_by: User | None = None,
    send: bool = True,
) -> list[IngestJob]:
    """One job per group of files read together, as the registry plans them; each sent to a worker
    once the transaction commits (kept unsent for recovery with ``send=False``).

    ``folders`` gives each upload's folder (files of one fio sweep share theirs); files given in
    one request without folders are taken as one folder. A file that is refused or not recognised
    gets a job that has already failed, with the message.
    """
    folders = folders or {}
    upload_of = {
        upload_source(upload=upload, folder=folders.get(upload.id, GIVEN_TOGETHER)): upload for upload in uploads
    }
    return [
        job_create(
            group=group,
            members=[upload_of[source] for source in group.sources],
            system=system,
            new_system=new_system,
            requested_by=requested_by,
            unsent=not send,
        )
        for group in ingest.plan(list(upload_of))
    ]


def job_create(
    *,
    group: ingest.Group,
    members: list[Upload],
    system: System | None = None,
    new_system: dict | None = None,
    requested_by: User | None = None,
    enqueue: bool = True,
    unsent: bool = False,
) -> IngestJob:
    """The job reading ``members`` as ``group`` plans them. With ``enqueue=False`` the caller runs it
    at once (:func:`job_run`); a worker takes it only when the caller stopped before (recovery). With
    ``unsent=True`` it is not sent now (the job queue does not answer): recovery sends it first."""
    anchor = members[0]
    job = IngestJob.objects.create(
        anchor=anchor,
        format=group.format,
        system=system,
        new_system=new_system or {},
        requested_by=requested_by,
        sent_at=None if unsent else Now(),
    )
    Upload.objects.filter(id=anchor.id).update(job=job, read_with=None, format=group.format)
    Upload.objects.filter(id__in=[u.id for u in members[1:]]).update(job=job, read_with=anchor, format=group.format)
    if group.error is not None:
        error = group.error
        if error.file in (None, group.sources[0].name):  # the folder was only for planning groups
            error.file = anchor.original_name
        job_mark_failed(job=job, message=str(error))
    elif enqueue and not unsent:
        job_enqueue(job=job)
    return job


def job_queue_answers() -> bool:
    """Whether the job queue (Redis, the workers' broker) answers now: one ping, two seconds at most."""
    try:
        redis.Redis.from_url(app.conf.broker_url, socket_timeout=2, socket_connect_timeout=2).ping()
    except (redis.RedisError, OSError):
        logger.warning("the job queue (Redis at the broker URL) does not answer")
        return False
    return True


def job_enqueue(*, job: IngestJob) -> None:
    """Send the job to a worker once the current transaction commits (nothing is sent on rollback)."""
    IngestJob.objects.filter(id=job.id).update(sent_at=Now())
    # robust: with the broker down the rows are kept and recovery sends the job later
    transaction.on_commit(lambda: jobs_send(job_ids=[job.id]), robust=True)


def jobs_send(*, job_ids: list[int]) -> None:
    """Hand jobs to the workers by the task's name: the tasks module imports this one, not the reverse."""
    for job_id in job_ids:
        app.send_task(INGEST_JOB_TASK, args=[job_id])


def upload_reingest(*, upload: Upload, requested_by: User | None = None, labels: dict | None = None) -> bool:
    """Queue a finished upload (and the files read with it) to be read again with the current parser,
    with new ``labels`` when given (relabelling: the runs are stored again with them).

    Its runs are replaced only when the new reading succeeds. Returns False when the upload is not
    finished (queued, being read, or a duplicate).
    """
    anchor = upload.read_with or upload
    try:
        return _reingest_queue(anchor, requested_by, labels)
    except IntegrityError:  # a later copy of the same file is the live one
        return False


def _reingest_queue(anchor: Upload, requested_by: User | None, labels: dict | None) -> bool:
    with transaction.atomic():
        locked = Upload.objects.select_for_update().filter(id=anchor.id).first()
        if locked is None or locked.status not in (Upload.Status.DONE, Upload.Status.FAILED):
            return False
        if locked.job_id and IngestJob.objects.filter(id=locked.job_id, status__in=["queued", "running"]).exists():
            return False
        previous = IngestJob.objects.filter(id=locked.job_id).first() if locked.job_id else None
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
        subject = f"upload #{anchor.id} {anchor.original_name}"
        action = AuditEvent.Action.REINGEST
        if labels is not None:
            members.update(labels=labels)
            subject, action = f"{subject}: {_labels_text(labels)}", AuditEvent.Action.RELABEL
        job_enqueue(job=job)
        audit(team=anchor.team, actor=requested_by, action=action, subject=subject)
    logger.info("upload %s queued to be read again (%s, job %s)", anchor.id, action, job.id)
    return True


def _labels_text(labels: dict) -> str:
    return ", ".join(f"{name}={value}" for name, value in labels.items()) or "no labels"


def upload_delete(*, upload: Upload, requested_by: User | None = None) -> int | None:
    """Delete a finished upload, the files read with it and their runs; return the number of runs
    deleted, or None when the files are being read. An original no other upload holds is removed."""
    anchor = upload.read_with or upload
    with transaction.atomic():
        members = list(Upload.objects.select_for_update().filter(Q(id=anchor.id) | Q(read_with=anchor)))
        if any(member.status in (Upload.Status.QUEUED, Upload.Status.PARSING) for member in members):
            return None
        runs = Run.objects.filter(upload__in=members)
        systems = set(runs.values_list("config__system_id", flat=True).distinct())
        deleted = runs.count()
        runs.delete()
        Upload.objects.filter(id__in=[member.id for member in members]).delete()
        systems_facets_recompute(system_ids=systems)
        names = ", ".join(member.original_name for member in members)
        subject = f"upload #{anchor.id} {names} ({deleted} run{'s' if deleted != 1 else ''})"
        audit(team=anchor.team, actor=requested_by, action=AuditEvent.Action.DELETE, subject=subject)
        paths = {member.sha256: member.stored_path for member in members}
        transaction.on_commit(lambda: _originals_forget(paths))
    logger.info("upload %s deleted by %s with %d run(s)", anchor.id, requested_by, deleted)
    return deleted


def _originals_forget(paths: dict[str, str]) -> None:
    """Remove the stored originals that no upload holds any more (another team may hold the same bytes)."""
    held = set(Upload.objects.filter(sha256__in=list(paths)).values_list("sha256", flat=True))
    for sha256, stored in paths.items():
        if sha256 not in held:
            (settings.UPLOADS_DIR / stored).unlink(missing_ok=True)


def job_mark_failed(*, job: IngestJob, message: str, reference: str = "") -> None:
    """Fail the job with ``message``; a re-ingest that fails keeps the earlier results and says so."""
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
    logger.info("ingest job %s failed: %s", job.id, message)


def _has_results(upload_id: int) -> bool:
    """Whether an upload holds stored results: runs, or the array profile of a system."""
    return (
        Run.objects.filter(upload_id=upload_id).exists() or System.objects.filter(profile_upload_id=upload_id).exists()
    )
