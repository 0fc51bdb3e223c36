"""A file's jobs: entries of one job name and group summed into one job, failed jobs set apart."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ...errors import ParseError
from ...result import Point, Workload
from ...source import Source
from .document import JSONObject, _Document
from .figures import _entry_point, _point
from .where import _Known, _object, _Where
from .workload import (
    _TEXT,
    _defaults_taken,
    _direction_ios,
    _measured_fields,
    _measured_workload,
    _options_key,
    _stated_workload,
)

MAX_DIGITS = 9  # iodepth and numjobs beyond a billion are no fio job
LATEST_TIMESTAMP_S = 2**32  # year 2106
_OWN_FIELDS = ("transfer_sizes", "name")  # a workload's fields each job's copy sets itself


# Jobs -----------------------------------------------------------------------------------------


@dataclass
class _Failure:
    file: str
    line: int | None
    sentence: str


@dataclass
class _Job:
    """One job group of one file: its clones summed into one point."""

    name: str
    rw: str | None
    workload: Workload
    point: Point
    options: JSONObject
    version: str | None
    started_at: str | None
    file: str
    # Without job options: the workload fields taken from the figures, and the (read, write) I/Os.
    measured: list[str] | None = None
    ios: tuple[float, float] | None = None


def _job_groups(document: _Document, source: Source, warnings: list[str]) -> tuple[list[_Job], list[_Failure]]:
    groups: dict[tuple[str, Any], list[JSONObject]] = {}
    first_index: dict[tuple[str, Any], int] = {}
    failures: list[_Failure] = []
    for index, job in enumerate(document.data["jobs"]):
        if not isinstance(job, dict):
            raise ParseError(
                f"job {index + 1} is {str(job)[:40]!r}, not an object", file=source.name, line=document.job_line(index)
            )
        name = str(job["jobname"]) if "jobname" in job else f"job {index + 1}"
        if job.get("error", 0):
            sentence = _failure_sentence(name, job["error"], document.preamble)
            failures.append(_Failure(source.name, document.job_line(index), sentence))
            continue
        key = (name, job.get("groupid", 0))
        entries = groups.get(key)
        if entries is None:
            groups[key], first_index[key] = [job], index
        else:
            entries.append(job)
    known = _Known()
    jobs = []
    for key, entries in groups.items():
        name, groupid = key
        where = _Where(source.name, document, first_index[key], known)
        job = _job(document.data, name, groupid, entries, where, warnings)
        if job.point.iops is None:
            failures.append(_Failure(source.name, where.line, f"job {name!r} did no I/O"))
        else:
            jobs.append(job)
    return jobs, failures


def _failure_sentence(name: str, code: object, preamble: list[str]) -> str:
    reason = os.strerror(code) if isinstance(code, int) and code > 0 else str(code)
    sentence = f"job {name!r} failed with error {code} ({reason})"
    if preamble:
        sentence += f"; fio printed: {preamble[-1]!r}"
    return sentence


def _job(
    data: JSONObject, name: str, groupid: object, entries: list[JSONObject], where: _Where, warnings: list[str]
) -> _Job:
    global_options, version, global_text = _document_options(data, where)
    job_options = _object(entries[0], "job options", where)
    options = {**global_options, **job_options}
    # fio writes "job options" for a job given any option, "global options" when a [global] section
    # gave any: either shows the configuration, so fio's defaults fill what it leaves out.
    shown = "job options" in entries[0] or "global options" in data
    key = _options_key(job_options) if global_text and shown else None
    stated = where.known.stated.get(key)
    if stated is None:
        iodepth = _whole_number(options.get("iodepth", 1), "iodepth", where)
        numjobs = _whole_number(options.get("numjobs", len(entries)), "numjobs", where)
        point = _job_point(entries, where)
        rw, workload, fixed, defaults = _job_workload(global_options, job_options, entries, where, shown=shown)
        if key is not None:
            given_numjobs = numjobs if "numjobs" in options else None
            where.known.stated[key] = iodepth, given_numjobs, rw, workload, fixed, defaults
    else:
        iodepth, given_numjobs, rw, workload, fixed, defaults = stated
        numjobs = len(entries) if given_numjobs is None else given_numjobs
        point = _job_point(entries, where)
    # Each run gets its own workload and list: a caller may change one run's sizes.
    # The job name is the tool's name of the workload; a job without one is named by its place only.
    job_name = name if "jobname" in entries[0] else None
    workload = Workload(name=job_name, transfer_sizes=list(workload.transfer_sizes), **fixed)
    # A file that shows no options states no iodepth: fio's default of 1 is no figure of it (fio 2.1.4's
    # "iodepth_level" may put 91 % of the I/Os at >= 64). Several entries of a job are its threads; one
    # entry may be several reported as a group.
    if shown:
        point.load = {"outstanding_io": iodepth * numjobs, "threads": numjobs}
    else:
        point.load = {"threads": len(entries)} if len(entries) > 1 else {}
    _job_warnings(name, rw, point, len(entries), where, warnings)
    options["groupid"] = groupid
    if defaults:
        options["fio_defaults"] = defaults
    return _Job(
        name=name,
        rw=rw,
        workload=workload,
        point=point,
        options=options,
        version=version,
        started_at=_started_at(data, entries[0], where),
        file=where.file,
        measured=None if shown else _measured_fields(workload),
        ios=None if shown else _direction_ios(entries, where),
    )


def _document_options(data: JSONObject, where: _Where) -> tuple[JSONObject, str | None, bool]:
    """The file's global options, fio version and whether every global option is text: read once per file."""
    known = where.known
    if known.document is None:
        global_options = _object(data, "global options", where)
        version = str(data.get("fio version", "")).removeprefix("fio-") or None
        known.document = global_options, version, _TEXT.issuperset(map(type, global_options.values()))
    return known.document


def _job_point(entries: list[JSONObject], where: _Where) -> Point:
    """A job's point: a single entry read on its fast path when it can be, else the entries summed."""
    return (_entry_point(entries[0], where) if len(entries) == 1 else None) or _point(entries, where)


def _job_workload(
    global_options: JSONObject, job_options: JSONObject, entries: list[JSONObject], where: _Where, *, shown: bool
) -> tuple[str | None, Workload, dict[str, Any], dict[str, str]]:
    """The job's rw, its workload as the options state it (or as measured when none is shown), the
    workload's fields other than its own, and the fio defaults it took."""
    if shown:
        rw, workload = _stated_workload(global_options, job_options, where)
        defaults = _defaults_taken({**global_options, **job_options})
    else:
        rw, workload, defaults = None, _measured_workload(entries, where), {}
    # The workload's other fields, for a copy of it per run (as ``dataclasses.replace`` would
    # make, at half its cost: the workload holds only its fields).
    fixed = {field_name: value for field_name, value in vars(workload).items() if field_name not in _OWN_FIELDS}
    return rw, workload, fixed, defaults


def _job_warnings(
    name: str, rw: str | None, point: Point, entry_count: int, where: _Where, warnings: list[str]
) -> None:
    if entry_count > 1:
        point.metrics["job_entries_summed"] = entry_count
        warnings.append(
            f"{where.file}:{where.line}: job {name!r}: {entry_count} job entries (no group_reporting) summed into "
            "one point; their clat percentiles cannot be combined and are left out"
        )
    if rw in ("trim", "randtrim"):
        warnings.append(
            f"{where.file}:{where.line}: job {name!r}: rw={rw} trims, which are neither reads nor writes; "
            "its read % is left unknown"
        )


def _whole_number(value: object, option: str, where: _Where) -> int:
    number = str(value).strip()
    if not number.isdigit() or len(number) > MAX_DIGITS:
        raise ParseError(
            f"job option {option}={str(value)[:40]!r} is not a whole number",
            file=where.file,
            line=where.line,
            field=option,
        )
    return int(number)


def _started_at(data: JSONObject, job: JSONObject, where: _Where) -> str | None:
    """fio 3.x stamps ``job_start`` (ms); older versions only stamp the end of the run."""
    if job.get("job_start"):
        seconds = where.number(job, "job_start") / 1000
    elif data.get("timestamp"):
        seconds = where.number(data, "timestamp") - where.number(job, "elapsed", 0)
    else:
        return None
    if not 0 <= seconds < LATEST_TIMESTAMP_S:
        raise ParseError(
            f"the time stamp {seconds:.0f} s is no date fio ran on", file=where.file, line=where.line, field="timestamp"
        )
    known = where.known.started_at
    if seconds not in known:
        known[seconds] = datetime.fromtimestamp(seconds, UTC).isoformat()
    return known[seconds]
