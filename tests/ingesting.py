"""Reading files the way ``manage.py ingest`` does, in the test's own process: receive, plan, run."""

import io
import os

from django.core.management import call_command

import ingest
from portal.models import Upload
from portal.uploads import jobs, services


def store_file(path=None, *, stream=None, name=None, system=None, labels=None, uploader=None, new_system=None):
    """Receive one file (a path, or a stream with a name) and read it here; return its upload."""
    if stream is None:
        with open(path, "rb") as opened:
            return store_file(stream=opened, name=name or os.path.basename(path), system=system, labels=labels,
                              uploader=uploader, new_system=new_system)  # fmt: skip
    upload = services.upload_create(stream=stream, original_name=name, uploader=uploader, system=system, labels=labels)
    if upload.status == Upload.Status.QUEUED:
        (group,) = ingest.plan([services.upload_source(upload=upload)])
        job = services.job_create(group=group, members=[upload], system=system, new_system=new_system, enqueue=False)
        jobs.job_run(job_id=job.id, worker="test")
    upload.refresh_from_db()
    return upload


def run_job_of(upload):
    """Run the job that reads this upload (queued by the upload page or a re-ingest) here; return the
    upload holding the runs, refreshed."""
    upload.refresh_from_db()
    jobs.job_run(job_id=upload.job_id, worker="test")
    anchor = upload.read_with or upload
    anchor.refresh_from_db()
    return anchor


def ingest_command(*args):
    """``manage.py ingest`` with these arguments: (exit status, what it printed)."""
    out = io.StringIO()
    try:
        call_command("ingest", *map(str, args), stdout=out)
        status = 0
    except SystemExit as exit:
        status = exit.code
    return status, out.getvalue()
