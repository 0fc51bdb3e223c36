"""Jobs into runs: one per job, or, for the files of one fio-plot sweep, one per workload with a
point per file."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from ...result import Run
from ...source import Source
from .figures import _point
from .jobs import _Job

# A CBT job's name ends with its client's host and volume: ``cbt-fio-32krandomread-<host>-file-0``.
CLIENT_JOB_SUFFIX = re.compile(r"-[^-]+-file-\d+$")
SWEEP_FILE_NAME = re.compile(
    r"^(read|write|trim|randread|randwrite|randtrim|rw|readwrite|randrw|trimwrite)-(\d+)-(\d+)\.json$",
    re.IGNORECASE,
)

# CBT (Ceph Benchmarking Tool) writes one fio output per client of a run, ``output.0`` to ``output.N``,
# in the run's folder.
CLIENT_FILE_NAME = re.compile(r"^output\.\d+$")


def group_key(source: Source) -> str | None:
    """Files of one fio-plot sweep share their folder (the one their name gives, else the one they
    are in), and so do the per-client files of one CBT run; other fio files are parsed alone."""
    name = PurePosixPath(source.name.replace("\\", "/"))
    clients = CLIENT_FILE_NAME.match(name.name) is not None
    if not clients and not SWEEP_FILE_NAME.match(name.name):
        return None
    # A zip member's folder, or a batch of files given together; else the folder the file is in.
    folder = str(name.parent) if str(name.parent) != "." or source.path is None else str(source.path.resolve().parent)
    return f"clients of {folder}" if clients else folder


# Runs -----------------------------------------------------------------------------------------


def _runs(jobs: list[_Job], *, several_files: bool) -> list[Run]:
    """One run per job, or, for a sweep over files, one run per workload with a point per file."""
    if not several_files:
        return [_run(job.name, [job]) for job in jobs]
    by_workload: dict[tuple[Any, ...], list[_Job]] = {}
    for job in jobs:
        sizes = tuple((s.bytes, s.pct) for s in job.workload.transfer_sizes)
        key: tuple[Any, ...]
        if job.measured is None:
            key = (job.rw, job.workload.read_pct, job.workload.random_pct, sizes)
        else:  # each file's measured read share differs a little: one run per job name and sizes
            key = ("measured", job.name, tuple(s.bytes for s in job.workload.transfer_sizes))
        by_workload.setdefault(key, []).append(job)
    runs = []
    for members in by_workload.values():
        names = {job.name for job in members}
        name = names.pop() if len(names) == 1 else _workload_name(members[0])
        for job in members:
            job.point.metrics["file"] = job.file
        run = _run(name, members)
        job_names = {job.workload.name for job in members}
        run.workload.name = job_names.pop() if len(job_names) == 1 else None  # where the files agree on it
        runs.append(run)
    return runs


def is_client_file(source: Source) -> bool:
    """Whether ``source`` is named as CBT names one client's fio output (``output.3``)."""
    return CLIENT_FILE_NAME.match(PurePosixPath(source.name.replace("\\", "/")).name) is not None


def _client_runs(jobs: list[_Job], files: int, warnings: list[str]) -> list[Run]:
    """The per-client files of one CBT run summed: one run per workload, its one point the sum of every
    client's job entries (IOPS and MB/s added, mean latency over all I/Os, the largest maximum)."""
    by_workload: dict[tuple[Any, ...], list[_Job]] = {}
    for job in jobs:
        sizes = tuple((s.bytes, s.pct) for s in job.workload.transfer_sizes)
        key = (job.rw, job.workload.read_pct, job.workload.random_pct, sizes)
        by_workload.setdefault(key, []).append(job)
    runs = []
    for members in by_workload.values():
        first = members[0]
        assert first.where is not None
        point = _point([entry for job in members for entry in job.entries], first.where)
        point.load = {
            name: sum(job.point.load[name] for job in members)
            for name in ("outstanding_io", "threads")
            if all(name in job.point.load for job in members)
        }
        point.metrics["clients_summed"] = len(members)
        client_files = sorted({job.file for job in members})
        stems = {CLIENT_JOB_SUFFIX.sub("", job.name) for job in members}
        name = stems.pop() if len(stems) == 1 else _workload_name(first)
        run = _run(name, [first])
        run.points = [point]
        run.params = {**first.options, "files": client_files}
        starts = [job.started_at for job in members if job.started_at]
        run.started_at = min(starts) if starts else None
        warnings.append(
            f"{len(client_files)} per-client fio files of one run summed into {name!r} ({len(members)} jobs: "
            f"{', '.join(client_files)}); clat percentiles cannot be combined and are left out"
        )
        runs.append(run)
    if len(runs) > 1:
        warnings.append(f"the {files} per-client files hold {len(runs)} different workloads: one run each")
    return runs


def _run(name: str, jobs: list[_Job]) -> Run:
    first = jobs[0]
    if len(jobs) == 1:
        run = Run(
            name=name,
            started_at=first.started_at or None,
            workload=first.workload,
            params=first.options,
            points=[first.point],
        )
    else:
        starts = [job.started_at for job in jobs if job.started_at]
        run = Run(
            name=name,
            started_at=min(starts) if starts else None,
            workload=first.workload,
            params={"rw": first.rw, "files": [job.file for job in jobs]},
            points=sorted(
                (job.point for job in jobs),
                key=lambda p: (p.load.get("outstanding_io") or 0, p.load.get("threads") or 0),
            ),
        )
        if "fio_defaults" in first.options:
            run.params["fio_defaults"] = first.options["fio_defaults"]
    if first.measured:
        run.params["measured_workload"] = first.measured
        if len(jobs) > 1:
            _measured_over_files(run, jobs)
    return run


def _measured_over_files(run: Run, jobs: list[_Job]) -> None:
    """A measured workload of a sweep's files: the read share of all its I/Os; a mix of sizes (reads
    and writes of different sizes) is not kept, its shares differ from file to file."""
    reads, writes = (sum(job.ios[i] for job in jobs if job.ios is not None) for i in (0, 1))
    run.workload.read_pct = 100.0 * reads / (reads + writes)
    if len(run.workload.transfer_sizes) > 1:
        run.workload.transfer_sizes = []
        run.params["measured_workload"] = ["read_pct"]


def _workload_name(job: _Job) -> str:
    sizes = "+".join(
        f"{s.bytes // 1024}k" if s.bytes % 1024 == 0 else f"{s.bytes}B" for s in job.workload.transfer_sizes
    )
    return f"{job.rw or 'unknown rw'} {sizes or 'unknown bs'}"


def _common_version(jobs: list[_Job]) -> str | None:
    versions = sorted({job.version for job in jobs if job.version})
    return ", ".join(versions) or None
