"""fio JSON results: ``--output-format=json`` and ``json+``, fio 2.x (µs) and 3.x (ns).

One run per job (``jobname`` + ``groupid``); jobs run without ``group_reporting`` appear as one
entry per clone and are summed into one point. Files of one queue-depth sweep named as fio-plot
names them (``<rw>-<iodepth>-<numjobs>.json`` in one folder) are parsed together: one run per
workload (rw, mix, block sizes) with one point per file, in load order.
"""

import json
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import PurePosixPath

from ..errors import ParseError
from ..numbers import checked, read_number
from ..result import MB, Point, ResultSet, Run, TransferSize, Workload
from ..source import describe_group

FORMAT = "fio"
TOOL = "fio"
READS = (
    "fio `--output-format=json` / `json+` (2.x µs and 3.x ns fields); a folder of fio-plot "
    "`<rw>-<iodepth>-<numjobs>.json` files becomes one curve per workload"
)

SWEEP_FILE_NAME = re.compile(
    r"^(read|write|trim|randread|randwrite|randtrim|rw|readwrite|randrw|trimwrite)-(\d+)-(\d+)\.json$",
    re.IGNORECASE,
)
# rw value -> (read %, random %); None read % means "from rwmixread". fio's JSON lists only the
# options the job gave: without rw (or bs) the workload is unknown, not fio's default.
RW_MODES = {
    None: (None, None),
    "read": (100, 0),
    "write": (0, 0),
    "randread": (100, 100),
    "randwrite": (0, 100),
    "rw": (None, 0),
    "readwrite": (None, 0),
    "randrw": (None, 100),
    "trim": (None, 0),
    "randtrim": (None, 100),
    "trimwrite": (0, 0),
}
SIZE_UNITS = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
PREAMBLE_SHOWN = 3
MAX_DIGITS = 9  # iodepth and numjobs beyond a billion are no fio job
LATEST_TIMESTAMP_S = 2**32  # year 2106


def sniff(head, name):
    return b'"fio version"' in head


def group_key(source):
    """Files of one fio-plot sweep share their folder (the one their name gives, else the one they
    are in); other fio files are parsed alone."""
    name = PurePosixPath(source.name.replace("\\", "/"))
    if not SWEEP_FILE_NAME.match(name.name):
        return None
    if str(name.parent) != "." or source.path is None:
        return str(name.parent)  # a zip member's folder, or a batch of files given together
    return str(source.path.resolve().parent)


def parse(source):
    return parse_group([source])


def parse_group(sources):
    """Parse fio JSON files given together; jobs with the same workload become one run."""
    sources = sorted(sources, key=lambda s: s.name)
    warnings, jobs, failures = [], [], []
    for source in sources:
        document = _read_document(source, warnings)
        file_jobs, file_failures = _job_groups(document, source, warnings)
        jobs.extend(file_jobs)
        failures.extend(file_failures)
    if not jobs:
        first = failures[0] if failures else None
        reason = "; ".join(f.sentence for f in failures) or "the file holds no jobs"
        raise ParseError(
            f"no usable fio results: {reason}. Fix the job and run fio again",
            file=first.file if first else sources[0].name,
            line=first.line if first else None,
        )
    warnings.extend(f"{f.file}:{f.line}: {f.sentence}; it is not stored" for f in failures)
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": _common_version(jobs)},
        source=sources[0].describe() if len(sources) == 1 else describe_group(sources),
        runs=_runs(jobs, several_files=len(sources) > 1),
        warnings=warnings,
    )


# Reading the document -------------------------------------------------------------------------


@dataclass
class _Document:
    data: dict
    job_lines: list  # line number of each job's "jobname", in order
    preamble: list  # text fio printed before the JSON


def _read_document(source, warnings):
    """The JSON object of a fio output, skipping the text fio prints before it (with a warning)."""
    preamble, first_line = [], None
    with source.open_text() as stream:
        for number, line in enumerate(stream, 1):
            if line.lstrip().startswith("{"):
                first_line = number
                text = line + stream.read()
                break
            if line.strip():
                preamble.append(line.strip())
    if first_line is None:
        raise ParseError("no JSON object found; expected the output of fio --output-format=json", file=source.name)
    if preamble:
        shown = " | ".join(preamble[:PREAMBLE_SHOWN]) + (" | ..." if len(preamble) > PREAMBLE_SHOWN else "")
        warnings.append(f"{source.name}: skipped {len(preamble)} lines of text before the JSON: {shown}")
    data = _decode(text, source, first_line, warnings)
    return _Document(data=data, job_lines=_job_lines(text, first_line), preamble=preamble)


def _job_lines(text, first_line):
    """The line of each job's ``"jobname"`` key, counting newlines once through the text."""
    lines, line, position = [], first_line, 0
    for match in re.finditer(r'"jobname"\s*:', text):
        line += text.count("\n", position, match.start())
        position = match.start()
        lines.append(line)
    return lines


def _decode(text, source, first_line, warnings):
    duplicates = []

    def keep_last(pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            first_values = {}
            for key, value in pairs:
                if first_values.setdefault(key, value) != value:
                    duplicates.append(key)
        return obj

    decoder = json.JSONDecoder(object_pairs_hook=keep_last)
    try:
        data, end = decoder.raw_decode(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"not valid JSON ({error.msg}); the fio output may be truncated",
            file=source.name,
            line=first_line + error.lineno - 1,
            column=error.colno,
        ) from None
    for key in dict.fromkeys(duplicates):
        warnings.append(f"{source.name}: key {key!r} appears twice with different values; the last one was kept")
    if text[end:].strip():
        line = first_line + text.count("\n", 0, end)
        warnings.append(f"{source.name}:{line}: text after the JSON object was skipped")
    if not isinstance(data, dict) or not isinstance(data.get("jobs"), list):
        raise ParseError('no "jobs" list; expected the output of fio --output-format=json', file=source.name)
    return data


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
    rw: str
    workload: Workload
    point: Point
    options: dict
    version: str | None
    started_at: str | None
    file: str


def _job_groups(document, source, warnings):
    groups, lines = {}, {}
    failures = []
    for index, job in enumerate(document.data["jobs"]):
        line = document.job_lines[index] if index < len(document.job_lines) else None
        name = str(job.get("jobname", f"job {index + 1}"))
        if job.get("error", 0):
            failures.append(_Failure(source.name, line, _failure_sentence(name, job["error"], document.preamble)))
            continue
        key = (name, job.get("groupid", 0))
        groups.setdefault(key, []).append(job)
        lines.setdefault(key, line)
    jobs = []
    for (name, groupid), entries in groups.items():
        job = _job(document.data, name, groupid, entries, source, lines[(name, groupid)], warnings)
        if job.point.iops is None:
            failures.append(_Failure(source.name, lines[(name, groupid)], f"job {name!r} did no I/O"))
        else:
            jobs.append(job)
    return jobs, failures


def _failure_sentence(name, code, preamble):
    reason = os.strerror(code) if isinstance(code, int) and code > 0 else str(code)
    sentence = f"job {name!r} failed with error {code} ({reason})"
    if preamble:
        sentence += f"; fio printed: {preamble[-1]!r}"
    return sentence


def _job(data, name, groupid, entries, source, line, warnings):
    options = {**(data.get("global options") or {}), **(entries[0].get("job options") or {})}
    iodepth = _whole_number(options.get("iodepth", 1), "iodepth", source, line)
    numjobs = _whole_number(options.get("numjobs", len(entries)), "numjobs", source, line)
    point = _point(entries, _Where(source.name, line))
    point.load = {"outstanding_io": iodepth * numjobs, "threads": numjobs}
    if len(entries) > 1:
        point.metrics["job_entries_summed"] = len(entries)
        warnings.append(
            f"{source.name}:{line}: job {name!r}: {len(entries)} job entries (no group_reporting) summed into "
            "one point; their clat percentiles cannot be combined and are left out"
        )
    rw = _rw_mode(options, source, line)
    version = str(data.get("fio version", "")).removeprefix("fio-") or None
    return _Job(
        name=name,
        rw=rw,
        workload=_workload(rw, options, source, line),
        point=point,
        options={**options, "groupid": groupid},
        version=version,
        started_at=_started_at(data, entries[0], _Where(source.name, line)),
        file=source.name,
    )


def _whole_number(value, option, source, line):
    number = str(value).strip()
    if not number.isdigit() or len(number) > MAX_DIGITS:
        raise ParseError(
            f"job option {option}={str(value)[:40]!r} is not a whole number", file=source.name, line=line, field=option
        )
    return int(number)


@dataclass
class _Where:
    """The file and line (of the job's name) a figure is read from, for errors."""

    file: str
    line: int | None

    def number(self, stats, key, default=None):
        """``stats[key]`` as a finite, non-negative number; ``default`` when absent."""
        value = stats.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ParseError(f"{str(value)[:40]!r} is not a number", file=self.file, line=self.line, field=key)
        return checked(value, file=self.file, line=self.line, field=key, shown=value)


def _started_at(data, job, where):
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
    return datetime.fromtimestamp(seconds, UTC).isoformat()


# Figures --------------------------------------------------------------------------------------


@dataclass
class _Direction:
    ios: float = 0
    iops: float = 0.0
    bytes_per_s: float = 0.0
    latency_ms_sum: float = 0.0  # mean latency x I/Os, summed over job entries
    max_ms: float | None = None
    percentiles_ms: dict = field(default_factory=dict)


def _direction(entries, direction, where):
    """One direction (read, write, trim) summed over the job entries of a group."""
    total = _Direction()
    for entry in entries:
        stats = _object(entry, direction, where)
        iops = where.number(stats, "iops", 0.0)
        ios = where.number(stats, "total_ios", iops)
        if not ios:
            continue
        total.ios += ios
        total.iops += iops
        total.bytes_per_s += (
            where.number(stats, "bw_bytes") if "bw_bytes" in stats else where.number(stats, "bw", 0) * 1024
        )
        latency, to_ms = ("lat_ns", 1e-6) if "lat_ns" in stats else ("lat", 1e-3)
        latency = _object(stats, latency, where)
        if latency:
            total.latency_ms_sum += where.number(latency, "mean", 0) * to_ms * ios
            total.max_ms = max(total.max_ms or 0.0, where.number(latency, "max", 0) * to_ms)
        if len(entries) == 1:
            total.percentiles_ms = _clat_percentiles_ms(stats, where)
    return total


def _object(data, key, where):
    """``data[key]`` when it is a JSON object; ``{}`` when absent."""
    value = data.get(key) or {}
    if not isinstance(value, dict):
        raise ParseError(f"expected an object, found {str(value)[:40]!r}", file=where.file, line=where.line, field=key)
    return value


def _clat_percentiles_ms(stats, where):
    clat, to_ms = ("clat_ns", 1e-6) if "clat_ns" in stats else ("clat", 1e-3)
    table = _object(_object(stats, clat, where), "percentile", where)
    # fio pads the table with "0.00" entries for unused slots.
    return {
        key.rstrip("0").rstrip("."): where.number(table, key) * to_ms
        for key in table
        if read_number(key, file=where.file, line=where.line, field="percentile") > 0
    }


def _point(entries, where):
    read, write, trim = (_direction(entries, d, where) for d in ("read", "write", "trim"))
    active = [d for d in (read, write) if d.ios]
    point = Point()
    point.read_iops, point.read_mbps, point.avg_read_response_ms = _figures(read)
    point.write_iops, point.write_mbps, point.avg_write_response_ms = _figures(write)
    if active:
        point.iops = sum(d.iops for d in active)
        point.mbps = sum(d.bytes_per_s for d in active) / MB
        latencies = [(d.latency_ms_sum / d.ios, d.iops) for d in active if d.latency_ms_sum]
        if latencies and point.iops:
            point.avg_response_ms = sum(ms * iops for ms, iops in latencies) / point.iops
        maxima = [d.max_ms for d in active if d.max_ms is not None]
        point.max_response_ms = max(maxima) if maxima else None
    if all("usr_cpu" in entry and "sys_cpu" in entry for entry in entries):
        usr = sum(where.number(entry, "usr_cpu") for entry in entries)
        sys = sum(where.number(entry, "sys_cpu") for entry in entries)
        # Percent of one CPU, as fio reports it; clones of a job add up.
        point.cpu_pct = usr + sys
        point.metrics = {"usr_cpu_pct": usr, "sys_cpu_pct": sys}
    percentiles = {name: d.percentiles_ms for name, d in (("read", read), ("write", write)) if d.percentiles_ms}
    if percentiles:
        point.metrics["clat_percentiles_ms"] = percentiles
    if trim.ios:
        point.metrics["trim_iops"] = trim.iops
    return point


def _figures(direction):
    """(IOPS, MB/s, mean total latency in ms) of one direction; None for a direction without I/O."""
    if not direction.ios:
        return None, None, None
    latency_ms = direction.latency_ms_sum / direction.ios if direction.latency_ms_sum else None
    return direction.iops, direction.bytes_per_s / MB, latency_ms


# Workload -------------------------------------------------------------------------------------


def _rw_mode(options, source, line):
    given = options.get("rw", options.get("readwrite"))
    if given is None:
        return None
    rw = str(given).split(":")[0].strip().lower()
    if rw not in RW_MODES:
        raise ParseError(f"unknown rw mode {rw!r}", file=source.name, line=line, field="rw")
    return rw


def _workload(rw, options, source, line):
    read_pct, random_pct = RW_MODES[rw]
    if rw is not None and read_pct is None and not rw.endswith("trim"):
        if "rwmixread" in options:
            read_pct = _percent(options["rwmixread"], "rwmixread", source, line)
        elif "rwmixwrite" in options:
            read_pct = 100 - _percent(options["rwmixwrite"], "rwmixwrite", source, line)
        else:
            read_pct = 50.0
    if random_pct and "percentage_random" in options:
        random_pct = _percent(str(options["percentage_random"]).split(",")[0], "percentage_random", source, line)
    kb_base = 1000 if str(options.get("kb_base", "1024")) == "1000" else 1024
    try:
        sizes = _transfer_sizes(options, read_pct, kb_base)
    except ValueError as error:
        raise ParseError(str(error), file=source.name, line=line, field="bs") from None
    return Workload(read_pct=read_pct, random_pct=random_pct, transfer_sizes=sizes)


def _percent(value, option, source, line):
    pct = read_number(value, file=source.name, line=line, field=option)
    if pct is None or pct > 100:
        raise ParseError(f"{option}={value!r} is not a percentage", file=source.name, line=line, field=option)
    return pct


def _transfer_sizes(options, read_pct, kb_base):
    """Transfer-size mix from ``bssplit`` or ``bs``; per-direction lists weighted by the read share."""
    if "bssplit" in options:
        per_direction = [_split_shares(part, kb_base) for part in str(options["bssplit"]).split(",")]
    elif "bs" in options or "blocksize" in options:
        spec = str(options.get("bs", options.get("blocksize")))
        per_direction = [{_size_bytes(part, kb_base): 100.0} for part in spec.split(",") if part.strip()]
    else:
        return []
    if not per_direction:
        raise ValueError(f"block size {options.get('bs', options.get('blocksize'))!r} is empty")
    reads = per_direction[0]
    writes = per_direction[1] if len(per_direction) > 1 else reads
    read_share = 100.0 if read_pct is None else read_pct
    mix = {}
    for shares, weight in ((reads, read_share), (writes, 100.0 - read_share)):
        for size, pct in shares.items():
            mix[size] = mix.get(size, 0.0) + pct * weight / 100
    return [TransferSize(bytes=size, pct=round(pct, 6)) for size, pct in sorted(mix.items()) if pct > 0]


def _split_shares(spec, kb_base):
    """``4k/10:64k/50:32k/`` -> {bytes: pct}; entries without a share split what is left equally."""
    shares, open_sizes = {}, []
    for item in filter(None, (part.strip() for part in spec.split(":"))):
        size_text, _, pct_text = item.partition("/")
        size = _size_bytes(size_text, kb_base)
        if pct_text.strip():
            shares[size] = shares.get(size, 0.0) + _share(pct_text)
        else:
            open_sizes.append(size)
    left = max(0.0, 100.0 - sum(shares.values()))
    for size in open_sizes:
        shares[size] = shares.get(size, 0.0) + left / len(open_sizes)
    return shares


def _share(text):
    try:
        pct = float(text)
    except ValueError:
        pct = -1.0
    if not 0 <= pct <= 100:
        raise ValueError(f"block size share {text.strip()!r} is not a percentage")
    return pct


def _size_bytes(text, kb_base):
    match = re.fullmatch(r"\s*(\d{1,15}(?:\.\d{1,15})?)\s*([kmgtp]?)(i?)b?\s*", text, re.IGNORECASE)
    if not match:
        raise ValueError(f"block size {text!r} is not a size fio writes (e.g. 4k, 64KiB, 1m)")
    number, unit, binary = match.groups()
    base = 1024 if binary else kb_base
    size = int(float(number) * base ** SIZE_UNITS[unit.lower()])
    if size <= 0:
        raise ValueError(f"block size {text!r} is not a size fio writes (e.g. 4k, 64KiB, 1m)")
    return size


# Runs -----------------------------------------------------------------------------------------


def _runs(jobs, *, several_files):
    """One run per job, or, for a sweep over files, one run per workload with a point per file."""
    if not several_files:
        return [_run(job.name, [job]) for job in jobs]
    by_workload = {}
    for job in jobs:
        sizes = tuple((s.bytes, s.pct) for s in job.workload.transfer_sizes)
        key = (job.rw, job.workload.read_pct, job.workload.random_pct, sizes)
        by_workload.setdefault(key, []).append(job)
    runs = []
    for members in by_workload.values():
        names = {job.name for job in members}
        name = names.pop() if len(names) == 1 else _workload_name(members[0])
        for job in members:
            job.point.metrics["file"] = job.file
        runs.append(_run(name, members))
    return runs


def _run(name, jobs):
    first = jobs[0]
    starts = [job.started_at for job in jobs if job.started_at]
    return Run(
        name=name,
        started_at=min(starts) if starts else None,
        workload=first.workload,
        params=first.options if len(jobs) == 1 else {"rw": first.rw, "files": [job.file for job in jobs]},
        points=sorted((job.point for job in jobs), key=lambda p: (p.load["outstanding_io"], p.load["threads"])),
    )


def _workload_name(job):
    sizes = "+".join(
        f"{s.bytes // 1024}k" if s.bytes % 1024 == 0 else f"{s.bytes}B" for s in job.workload.transfer_sizes
    )
    return f"{job.rw or 'unknown rw'} {sizes or 'unknown bs'}"


def _common_version(jobs):
    versions = sorted({job.version for job in jobs if job.version})
    return ", ".join(versions) or None
