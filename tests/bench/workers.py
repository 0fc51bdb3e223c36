"""P4: a 200-file batch read by real Celery workers against the same batch read in this process.

(a) in-process: ``uploads_receive`` keeps the files and records their jobs, then this process runs
each job (``job_run``, what a worker's task calls); (b) the same upload sent to one prefork worker of
concurrency 1; (c) to one of concurrency 2 (two worker processes). Each repetition starts from empty
tables and an empty uploads folder, and is timed from the upload until every file is read.
"""

import io
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from unittest import mock

from django.db import connection

from tests.bench.batch import batch_files
from tests.bench.servers import WORKERS
from tests.bench.timing import rounds

ONE_WORKER_GOAL = 1.3
TWO_WORKERS_GOAL = 1.5
WARM_UP_FILES = 20
# The tables ingestion writes to; configurations, runs and points are emptied with them (CASCADE).
INGEST_TABLES = ("portal_upload", "portal_ingestjob", "portal_system", "portal_workload")


class WorkerProcess:
    """A ``celery worker`` (prefork) on a queue of its own, against the benchmark's database."""

    def __init__(self, server, *, concurrency: int):
        from django.conf import settings

        self.queue = f"arraybench-bench-p4-{uuid.uuid4().hex[:8]}"
        self.hostname = f"p4-{concurrency}.{self.queue}"
        env = {
            **os.environ,
            "DATABASE_URL": server.url(WORKERS),
            "REDIS_URL": settings.REDIS_URL,
            "ARRAYBENCH_QUEUE": self.queue,
            "ARRAYBENCH_DATA_DIR": str(settings.DATA_DIR),
        }
        command = [sys.executable, "-m", "celery", "--quiet", "-A", "portal", "worker", "--pool", "prefork",
                   "--concurrency", str(concurrency), "--queues", self.queue, "--hostname", f"{self.hostname}@%h",
                   "--loglevel", "WARNING"]  # fmt: skip
        repo = Path(__file__).resolve().parents[2]
        self.process = subprocess.Popen(command, cwd=repo, env=env, start_new_session=True)

    def wait_ready(self, seconds: float = 60) -> None:
        from portal.celery import app

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the Celery worker exited with status {self.process.returncode}")
            if any(name.startswith(f"{self.hostname}@") for reply in app.control.ping(timeout=0.5) for name in reply):
                return
        raise RuntimeError("the Celery worker did not answer within a minute")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _empty() -> None:
    """As a fresh database: no uploads, jobs, systems, runs or workloads, no kept originals."""
    from django.conf import settings

    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(INGEST_TABLES)} RESTART IDENTITY CASCADE")
    shutil.rmtree(settings.UPLOADS_DIR, ignore_errors=True)


def _receive(paths: list[Path], *, send) -> None:
    """Upload the batch as the upload page does (one request, one system); ``send(job_id)`` hands each job on."""
    from portal.models import System
    from portal.uploads import services

    system = System.objects.create(name="P4 batch", vendor="Bench", model="P4")
    files = []
    for path in paths:
        stream = io.BytesIO(path.read_bytes())
        stream.name = path.name
        files.append(stream)

    def jobs_send(*, job_ids: list[int]) -> None:
        for job_id in job_ids:
            send(job_id)

    with mock.patch.object(services, "jobs_send", jobs_send):
        services.uploads_receive(files=files, uploader=None, system=system, labels={})


def _in_process(paths: list[Path]) -> None:
    from portal.uploads.jobs import job_run

    job_ids: list[int] = []
    _receive(paths, send=job_ids.append)
    for job_id in job_ids:
        job_run(job_id=job_id, worker=f"benchmark pid {os.getpid()}")


def _by_worker(paths: list[Path], worker: WorkerProcess) -> None:
    """Send each job as the upload does (``jobs_send``), to the worker's queue; wait until every file is read."""
    from portal.celery import app
    from portal.models import Upload
    from portal.uploads.services import INGEST_JOB_TASK

    _receive(paths, send=lambda job_id: app.send_task(INGEST_JOB_TASK, args=[job_id], queue=worker.queue))
    unfinished = Upload.objects.filter(status__in=[Upload.Status.QUEUED, Upload.Status.PARSING])
    while unfinished.exists():
        if worker.process.poll() is not None:
            raise RuntimeError(f"the Celery worker exited with status {worker.process.returncode}")
        time.sleep(0.05)


def _stored() -> tuple[int, int, int]:
    """(files read, runs, points) of the batch just read; every file must have been read."""
    from portal.models import Point, Run, Upload

    failed = list(Upload.objects.exclude(status=Upload.Status.DONE).values_list("original_name", "error")[:3])
    if failed:
        raise RuntimeError(f"P4: files not read: {failed}")
    return Upload.objects.count(), Run.objects.count(), Point.objects.count()


def bench_workers(report, server, work: Path, *, repeat: int) -> None:
    server.use(WORKERS)
    paths = batch_files(work / "p4-batch")
    one, two = WorkerProcess(server, concurrency=1), WorkerProcess(server, concurrency=2)
    stored = set()
    try:
        one.wait_ready()
        two.wait_ready()
        ways = {
            "in-process": _in_process,
            "1 worker": lambda files: _by_worker(files, one),
            "2 workers": lambda files: _by_worker(files, two),
        }
        for way in ways.values():  # imports and first connections, in this process and the workers
            _empty()
            way(paths[:WARM_UP_FILES])
        times = rounds(
            {label: lambda way=way: way(paths) for label, way in ways.items()},
            repeat=repeat,
            before=_empty,
            after=lambda label: stored.add(_stored()),
        )
    finally:
        one.stop()
        two.stop()
        _empty()
    if len(stored) != 1:
        raise RuntimeError(f"P4: the ways of reading stored different figures: {stored}")
    files, runs, points = stored.pop()
    _report(report, times, f"{files} files, {runs:,} runs, {points:,} points")


def _report(report, times, batch) -> None:
    inline, one, two = times["in-process"], times["1 worker"], times["2 workers"]
    slower = [b / a for a, b in zip(inline, one, strict=True)]
    faster = [b / c for b, c in zip(one, two, strict=True)]
    seconds = ", ".join(f"{label} {statistics.median(values):.1f} s" for label, values in times.items())
    report.add(
        "P4 batch, 1 worker vs in-process",
        f"{statistics.median(slower):.2f}x",
        f"<= {ONE_WORKER_GOAL}x",
        statistics.median(slower) <= ONE_WORKER_GOAL,
        f"{batch}; {seconds}; each round {_each(slower)}",
    )
    report.add(
        "P4 batch, 2 workers vs 1",
        f"{statistics.median(faster):.2f}x",
        f">= {TWO_WORKERS_GOAL}x",
        statistics.median(faster) >= TWO_WORKERS_GOAL,
        f"each round {_each(faster)}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
    )


def _each(ratios) -> str:
    return ", ".join(f"{ratio:.2f}x" for ratio in ratios)
