"""A file's jobs: entries of one job name and group summed into one job, failed jobs set apart."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ...errors import ParseError
from ...result import Point, Workload
from ...source import Source
from .document import ALL_CLIENTS, JSONObject, _Document
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
    # The entries the figures were read from and where, for a sum over the files of one run's clients.
    entries: list[JSONObject] = field(default_factory=list)
    where: _Where | None = None


def _job_groups(document: _Document, source: Source, warnings: list[str]) -> tuple[list[_Job], list[_Failure]]:
    groups: dict[tuple[str, Any], list[JSONObject]] = {}
    first_index: dict[tuple[str, Any], int] = {}
    # fio --client: each group's "All clients" entry (figures of every host), and where it is.
    all_clients: dict[Any, tuple[int, JSONObject]] = {}
    failures: list[_Failure] = []
    for index, job in enumerate(document.entries):
        if not isinstance(job, dict):
            raise ParseError(
                f"job {index + 1} is {str(job)[:40]!r}, not an object", file=source.name, line=document.job_line(index)
            )
        name = str(job["jobname"]) if "jobname" in job else f"job {index + 1}"
        if job.get("error", 0):
            sentence = _failure_sentence(name, job["error"], document.preamble)
            failures.append(_Failure(source.name, document.job_line(index), sentence))
            continue
        if document.client_mode and name == ALL_CLIENTS:
            all_clients[job.get("groupid", 0)] = index, job
            continue
        key = (name, job.get("groupid", 0))
        entries = groups.get(key)
        if entries is None:
            groups[key], first_index[key] = [job], index
        else:
            entries.append(job)
    known = _Known()
    jobs = []
    jobs_in_group = Counter(groupid for _, groupid in groups)
    for key, entries in groups.items():
        name, groupid = key
        where = _Where(source.name, document, first_index[key], known)
        if document.client_mode:
            # fio's sum over the hosts is the job's when the group holds this job only.
            aggregate = all_clients.get(groupid) if jobs_in_group[groupid] == 1 else None
            job = _client_job(document, key, entries, aggregate, where, warnings)
        else:
            job = _job(document.data, name, groupid, entries, where, warnings)
        if job.point.iops is None:
            failures.append(_Failure(source.name, where.line, f"job {name!r} did no I/O"))
        else:
            jobs.append(job)
    return jobs, failures


def _client_job(
    document: _Document,
    key: tuple[str, Any],
    entries: list[JSONObject],
    aggregate: tuple[int, JSONObject] | None,
    where: _Where,
    warnings: list[str],
) -> _Job:
    """A job of fio's client/server mode: its options from the hosts' entries, its figures from fio's
    "All clients" entry (``aggregate``: its index and the entry) when it has one, else the hosts'
    entries summed."""
    name, groupid = key
    host_of = [str(entry.get("hostname", "unnamed host")) for entry in entries]
    hosts = list(dict.fromkeys(host_of))
    per_host = ", ".join(f"{host} ({host_of.count(host)} job entries)" for host in hosts)
    figures = [aggregate[1]] if aggregate else None
    job = _job(document.data, name, groupid, entries, where, warnings, figures=figures, hosts=len(hosts))
    job.options["hosts"] = hosts
    ran_on = f"job {name!r} ran on {len(hosts)} host{'s' if len(hosts) != 1 else ''} through fio --client: {per_host}"
    if aggregate:
        job.point.metrics["hosts_summed"] = len(hosts)
        warnings.append(
            f"{where.file}:{document.job_line(aggregate[0])}: {ran_on}; its figures are fio's "
            f'"{ALL_CLIENTS}" sum over them (fio gives that sum no clat percentiles)'
        )
    else:
        warnings.append(f"{where.file}:{where.line}: {ran_on}; their entries are summed into its figures")
    return job


def _failure_sentence(name: str, code: object, preamble: list[str]) -> str:
    reason = os.strerror(code) if isinstance(code, int) and code > 0 else str(code)
    sentence = f"job {name!r} failed with error {code} ({reason})"
    if preamble:
        sentence += f"; fio printed: {preamble[-1]!r}"
    return sentence


def _job(
    data: JSONObject,
    name: str,
    groupid: object,
    entries: list[JSONObject],
    where: _Where,
    warnings: list[str],
    *,
    figures: list[JSONObject] | None = None,
    hosts: int = 1,
) -> _Job:
    """A job group's run: options from ``entries``, figures from ``figures`` when given (fio's sum over
    the ``hosts`` of a client/server run), else from ``entries`` summed."""
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
        point = _job_point(figures or entries, where)
        rw, workload, fixed, defaults = _job_workload(global_options, job_options, entries, where, shown=shown)
        if key is not None:
            given_numjobs = numjobs if "numjobs" in options else None
            where.known.stated[key] = iodepth, given_numjobs, rw, workload, fixed, defaults
    else:
        iodepth, given_numjobs, rw, workload, fixed, defaults = stated
        numjobs = len(entries) if given_numjobs is None else given_numjobs
        point = _job_point(figures or entries, where)
    if hosts > 1 and "numjobs" in options:
        numjobs *= hosts  # each host ran numjobs clones; entries counted every host's already
    # Each run gets its own workload and list: a caller may change one run's sizes.
    # The job name is the tool's name of the workload; a job without one is named by its place only.
    job_name = name if "jobname" in entries[0] else None
    workload = Workload(name=job_name, transfer_sizes=list(workload.transfer_sizes), **fixed)
    point.load = _load(iodepth, numjobs, len(entries), shown=shown)
    _job_warnings(name, rw, point, len(figures or entries), where, warnings)
    steady = _steady_state(name, entries[0], where, warnings)
    options |= {"groupid": groupid} | ({"fio_defaults": defaults} if defaults else {})
    options |= {"steadystate_result": steady} if steady else {}
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
        entries=figures or entries,
        where=where,
    )


def _load(iodepth: int, numjobs: int, entry_count: int, *, shown: bool) -> dict[str, int]:
    """A job's load. A file that shows no options states no iodepth: fio's default of 1 is no figure of
    it (fio 2.1.4's "iodepth_level" may put 91 % of the I/Os at >= 64). Several entries of a job are its
    threads; one entry may be several reported as a group."""
    if shown:
        return {"outstanding_io": iodepth * numjobs, "threads": numjobs}
    return {"threads": entry_count} if entry_count > 1 else {}


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


def _steady_state(name: str, entry: JSONObject, where: _Where, warnings: list[str]) -> JSONObject | None:
    """What fio's ``--steadystate`` check said of a job (its criterion, whether it was attained, the
    window in s), for the run's parameters; a warning when it was not attained. The job's figures are
    of its whole run either way: fio stops a job early once the criterion is met."""
    steady = entry.get("steadystate")
    if not isinstance(steady, dict) or "ss" not in steady:
        return None
    attained = where.number(steady, "attained", 0) > 0
    if not attained:
        warnings.append(
            f"{where.file}:{where.line}: job {name!r}: fio's steady-state criterion {steady['ss']} was not "
            "attained; its figures are of the whole run, which may not be steady"
        )
    return {
        "criterion": str(steady["ss"]),
        "attained": attained,
        "window_s": where.number(steady, "duration"),
        "deviation_found": str(steady.get("criterion", "")),
    }


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
