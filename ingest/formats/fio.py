"""fio JSON results: ``--output-format=json`` and ``json+``, fio 2.x (µs) and 3.x (ns).

One run per job (``jobname`` + ``groupid``); jobs run without ``group_reporting`` appear as one
entry per clone and are summed into one point. Files of one queue-depth sweep named as fio-plot
names them (``<rw>-<iodepth>-<numjobs>.json`` in one folder) are parsed together: one run per
workload (rw, mix, block sizes) with one point per file, in load order.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter
from pathlib import PurePosixPath
from typing import Any

from ..errors import ParseError
from ..latency import iops_weighted_ms
from ..numbers import checked, read_number, read_size
from ..result import MB, Point, ResultSet, Run, TransferSize, Workload
from ..source import Source, describe_group

FORMAT = "fio"
TOOL = "fio"
READS = (
    "fio `--output-format=json` / `json+` (2.x µs and 3.x ns fields); a folder of fio-plot "
    "`<rw>-<iodepth>-<numjobs>.json` files becomes one curve per workload"
)
# Every number in a point's metrics is read through ``_Where.number`` or summed by ``_Where.total``.
METRICS_CHECKED = True

SWEEP_FILE_NAME = re.compile(
    r"^(read|write|trim|randread|randwrite|randtrim|rw|readwrite|randrw|trimwrite)-(\d+)-(\d+)\.json$",
    re.IGNORECASE,
)
# rw value -> (read %, random %); None read % means "from rwmixread". fio's JSON lists only the
# options the job gave; where it lists them, what they leave out is fio's documented default
# (``FIO_DEFAULTS``), and where it lists none (old fio versions) the workload is measured.
RW_MODES: dict[str | None, tuple[float | None, float | None]] = {
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
# fio's documented defaults (fio HOWTO, "Job file parameters") the workload relies on: rw=read,
# bs=4096 bytes for each direction, rwmixread=50 for a mixed job (percentage_random=100 and
# kb_base=1024 are applied where they are read). ``ba`` (default: bs, for random I/O only) is not
# assumed: it says nothing bs does not.
FIO_DEFAULTS = {"rw": "read", "bs": "4096", "rwmixread": "50"}
OPTION_ALIASES = {"readwrite": "rw", "blocksize": "bs", "blockalign": "ba", "blocksize_range": "bsrange"}
DIRECTIONS = ("read", "write", "trim")
PREAMBLE_SHOWN = 3
MAX_DIGITS = 9  # iodepth and numjobs beyond a billion are no fio job
LATEST_TIMESTAMP_S = 2**32  # year 2106
LARGEST_PLAIN_INT = 2**63  # whole figures below this are read as floats without more checks
_NUMBER_TYPES = frozenset((int, float))
_WHOLE = frozenset((int,))
_TEXT = frozenset((str,))
# The objects holding the options a job file gave, where an option may be given twice.
OPTIONS_OBJECT = re.compile(r'"(?:global|job) options"\s*:\s*(?=\{)')
_OPTIONS_KEYS = ('"job options"', '"global options"')  # a job's first: there are more of them
_OPTIONS_KEY_END = ' options"'
_COLON, _COMMA = frozenset((":",)), frozenset((",",))
# A JSON object as decoded.
JSONObject = dict[str, Any]
_OWN_FIELDS = ("transfer_sizes", "name")  # a workload's fields each job's copy sets itself


def sniff(head: bytes, name: str) -> bool:
    return b'"fio version"' in head


def group_key(source: Source) -> str | None:
    """Files of one fio-plot sweep share their folder (the one their name gives, else the one they
    are in); other fio files are parsed alone."""
    name = PurePosixPath(source.name.replace("\\", "/"))
    if not SWEEP_FILE_NAME.match(name.name):
        return None
    if str(name.parent) != "." or source.path is None:
        return str(name.parent)  # a zip member's folder, or a batch of files given together
    return str(source.path.resolve().parent)


def parse(source: Source) -> ResultSet:
    return parse_group([source])


def parse_group(sources: list[Source]) -> ResultSet:
    """Parse fio JSON files given together; jobs with the same workload become one run."""
    sources = sorted(sources, key=lambda s: s.name)
    warnings: list[str] = []
    jobs: list[_Job] = []
    failures: list[_Failure] = []
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


class _Document:
    """The JSON object of one file, the text fio printed before it, and where each job starts."""

    def __init__(self, data: JSONObject, preamble: list[str], text: str, first_line: int) -> None:
        self.data = data
        self.preamble = preamble
        self._text, self._first_line = text, first_line
        self._job_lines: list[int] | None = None

    def job_line(self, index: int) -> int | None:
        """The line of the ``index``-th ``"jobname"`` key; ``None`` past the last. Counted through the
        text when first asked (for a message), not for every file."""
        if self._job_lines is None:
            self._job_lines = _job_lines(self._text, self._first_line)
        return self._job_lines[index] if index < len(self._job_lines) else None


def _read_document(source: Source, warnings: list[str]) -> _Document:
    """The JSON object of a fio output, skipping the text fio prints before it (with a warning)."""
    preamble: list[str] = []
    first_line: int | None = None
    with source.open_text() as stream:
        text = stream.read()  # lines end with "\n": the stream reads newlines universally
    start, number = 0, 1
    while start < len(text):
        end = text.find("\n", start) + 1 or len(text)
        line = text[start:end]
        if line.lstrip().startswith("{"):
            first_line = number
            text = text[start:] if start else text
            break
        if line.strip():
            preamble.append(line.strip())
        start, number = end, number + 1
    if first_line is None:
        raise ParseError("no JSON object found; expected the output of fio --output-format=json", file=source.name)
    if preamble:
        shown = " | ".join(preamble[:PREAMBLE_SHOWN]) + (" | ..." if len(preamble) > PREAMBLE_SHOWN else "")
        warnings.append(f"{source.name}: skipped {len(preamble)} lines of text before the JSON: {shown}")
    data = _decode(text, source, first_line, warnings)
    return _Document(data, preamble, text, first_line)


def _options_given_twice(text: str, end: int) -> list[str]:
    """Options given twice with different values in the option objects (a job file may repeat an
    option; JSON keeps the last). Only these objects are decoded again to see the pairs: fio writes
    every other key once, and a hook on every object of a large file costs as much as the decoding."""
    duplicates: list[str] = []

    def keep_last(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        options = dict(pairs)
        if len(options) != len(pairs):
            first_values: dict[str, Any] = {}
            for key, value in pairs:
                if first_values.setdefault(key, value) != value:
                    duplicates.append(key)
        return options

    decoder = json.JSONDecoder(object_pairs_hook=keep_last)
    # The text of objects found plain, each key once: jobs often repeat their options word for word.
    plain: set[str | None] = set()
    for start in _options_objects(text, end):
        close = text.find("}", start)
        inner = text[start + 1 : close] if close >= 0 else None
        if inner in plain:
            continue
        parts = None if inner is None else _plain_parts(inner)
        if parts is None:
            decoder.raw_decode(text, start)
        elif len(set(keys := parts[1::4])) != len(keys):
            keep_last(list(zip(keys, parts[3::4], strict=True)))
        else:
            plain.add(inner)
    return list(dict.fromkeys(duplicates))


def _options_objects(text: str, end: int) -> Iterator[int]:
    """Where each object ``OPTIONS_OBJECT`` introduces starts, before ``end``: found by looking for
    ``options"`` (a plain search, several times faster than the pattern's over a large file) and
    matching the pattern there."""
    position = text.find(_OPTIONS_KEY_END, 0, end)
    while position >= 0:
        after = position + len(_OPTIONS_KEY_END)
        # '"job options": {' as JSON is commonly written, without the pattern; else the pattern.
        if position >= 4 and text.startswith(": {", after, end) and text.startswith('"job', position - 4):
            yield after + 2
            position = text.find(_OPTIONS_KEY_END, after, end)
            continue
        for key in _OPTIONS_KEYS:
            match = OPTIONS_OBJECT.match(text, position + len(_OPTIONS_KEY_END) - len(key), end)
            if match:
                yield match.end()
                break
        position = text.find(_OPTIONS_KEY_END, position + len(_OPTIONS_KEY_END), end)


def _plain_parts(inner: str) -> list[str] | None:
    """A JSON object, ``inner`` the text between its braces, split at its quotes when it holds only
    text values without escapes, as fio writes options (its keys are ``parts[1::4]``, their values
    ``parts[3::4]``): a few microseconds where decoding it costs several times that, for each of
    thousands of jobs; ``None`` for any other object, which is decoded."""
    if "\\" in inner:
        return None
    # '{' "key" ':' "value" ',' "key" ':' "value" '}': every fourth part is a separator.
    parts = inner.split('"')
    if len(parts) % 4 != 1 or parts[0].strip() or parts[-1].strip():
        return None
    if not _COLON.issuperset(map(str.strip, parts[2::4])) or not _COMMA.issuperset(map(str.strip, parts[4:-1:4])):
        return None
    return parts


def _job_lines(text: str, first_line: int) -> list[int]:
    """The line of each job's ``"jobname"`` key, counting newlines once through the text."""
    lines: list[int] = []
    line, position = first_line, 0
    for match in re.finditer(r'"jobname"\s*:', text):
        line += text.count("\n", position, match.start())
        position = match.start()
        lines.append(line)
    return lines


def _decode(text: str, source: Source, first_line: int, warnings: list[str]) -> JSONObject:
    try:
        data, end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"not valid JSON ({error.msg}); the fio output may be truncated",
            file=source.name,
            line=first_line + error.lineno - 1,
            column=error.colno,
        ) from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits
        huge = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        line = first_line + text.count("\n", 0, huge.start()) if huge else None
        raise ParseError("a number of thousands of digits: the file is damaged", file=source.name, line=line) from None
    for key in _options_given_twice(text, end):
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
    known = where.known
    if known.document is None:
        global_options = _object(data, "global options", where)
        version = str(data.get("fio version", "")).removeprefix("fio-") or None
        known.document = global_options, version, _TEXT.issuperset(map(type, global_options.values()))
    (global_options, version, global_text), job_options = known.document, _object(entries[0], "job options", where)
    options = {**global_options, **job_options}
    # fio writes "job options" for a job given any option, "global options" when a [global] section
    # gave any: either shows the configuration, so fio's defaults fill what it leaves out.
    shown = "job options" in entries[0] or "global options" in data
    key = _options_key(job_options) if global_text and shown else None
    stated = known.stated.get(key)
    if stated is None:
        iodepth = _whole_number(options.get("iodepth", 1), "iodepth", where)
        numjobs = _whole_number(options.get("numjobs", len(entries)), "numjobs", where)
        point = (_entry_point(entries[0], where) if len(entries) == 1 else None) or _point(entries, where)
        if shown:
            rw, workload = _stated_workload(global_options, job_options, where)
            defaults = _defaults_taken({**global_options, **job_options})
        else:
            rw, workload, defaults = None, _measured_workload(entries, where), {}
        # The workload's other fields, for a copy of it per run (as ``dataclasses.replace`` would
        # make, at half its cost: the workload holds only its fields).
        fixed = {field_name: value for field_name, value in vars(workload).items() if field_name not in _OWN_FIELDS}
        if key is not None:
            given_numjobs = numjobs if "numjobs" in options else None
            known.stated[key] = iodepth, given_numjobs, rw, workload, fixed, defaults
    else:
        iodepth, given_numjobs, rw, workload, fixed, defaults = stated
        numjobs = len(entries) if given_numjobs is None else given_numjobs
        point = (_entry_point(entries[0], where) if len(entries) == 1 else None) or _point(entries, where)
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
    if len(entries) > 1:
        point.metrics["job_entries_summed"] = len(entries)
        warnings.append(
            f"{where.file}:{where.line}: job {name!r}: {len(entries)} job entries (no group_reporting) summed into "
            "one point; their clat percentiles cannot be combined and are left out"
        )
    if rw in ("trim", "randtrim"):
        warnings.append(
            f"{where.file}:{where.line}: job {name!r}: rw={rw} trims, which are neither reads nor writes; "
            "its read % is left unknown"
        )
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


@dataclass
class _Known:
    """What is worked out once per file: the jobs of a large file share their options, start time
    and percentile names."""

    started_at: dict[float, str] = field(default_factory=dict)  # seconds -> ISO 8601
    # a table's keys -> _percentile_layout
    percentile_layouts: dict[tuple[str, ...], tuple[tuple[str, ...], Callable[[JSONObject], tuple[Any, ...]]]] = field(
        default_factory=dict
    )
    document: tuple[JSONObject, str | None, bool] | None = None  # (global options, fio version, whether all text)
    # _options_key of the job options -> (iodepth, numjobs given or None, rw, Workload, its other
    # fields, the fio defaults it took)
    stated: dict[Hashable, tuple[int, int | None, str | None, Workload, dict[str, Any], dict[str, str]]] = field(
        default_factory=dict
    )


class _Where:
    """Where a job's figures are read from, for messages: the file and the line of the job's name
    (counted only when a message needs it)."""

    def __init__(self, file: str, document: _Document, index: int, known: _Known) -> None:
        self.file = file
        self.known = known
        self._document, self._index = document, index

    @property
    def line(self) -> int | None:
        return self._document.job_line(self._index)

    def number(self, stats: JSONObject, key: str, default: float | None = None) -> Any:
        """``stats[key]`` as a finite, non-negative number; ``default`` when absent."""
        value: Any = stats.get(key)
        kind = type(value)
        # The common cases first: a large file holds a few hundred thousand figures.
        if kind is float and 0.0 <= value < math.inf:
            return value
        if kind is int and 0 <= value < LARGEST_PLAIN_INT:
            return float(value)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ParseError(f"{str(value)[:40]!r} is not a number", file=self.file, line=self.line, field=key)
        return checked(value, file=self.file, line=self.line, field=key, shown=value)

    def total(self, values: list[float], key: str) -> float:
        """The sum of figures read by ``number``, refused when the job entries' figures add up to
        more than a float holds (every number in a point's metrics is finite, METRICS_CHECKED)."""
        total = sum(values)
        return total if total < math.inf else checked(total, file=self.file, line=self.line, field=key)

    def read(self, reader: Callable[..., Any], text: object, field: str, **options: Any) -> Any:
        """``reader(text)`` (``read_number``, ``read_size``) with this place in its errors; the line is
        counted only for an error."""
        try:
            return reader(text, file=self.file, field=field, **options)
        except ParseError as error:
            error.line = self.line
            raise


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


# Figures --------------------------------------------------------------------------------------


@dataclass
class _Direction:
    ios: float = 0
    iops: float = 0.0
    bytes_per_s: float = 0.0
    latency_ms_sum: float = 0.0  # mean latency x I/Os, summed over job entries
    max_ms: float | None = None
    percentiles_ms: dict[str, float] = field(default_factory=dict)


def _direction(entries: list[JSONObject], direction: str, where: _Where) -> _Direction:
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
        # ``bw_bytes`` (fio 3) as written, else ``bw`` (KiB/s); a null ``bw_bytes`` is not written.
        total.bytes_per_s += (
            where.number(stats, "bw_bytes")
            if stats.get("bw_bytes") is not None
            else where.number(stats, "bw", 0) * 1024
        )
        latency_key, to_ms = ("lat_ns", 1e-6) if "lat_ns" in stats else ("lat", 1e-3)
        latency = _object(stats, latency_key, where)
        if latency:
            total.latency_ms_sum += where.number(latency, "mean", 0) * to_ms * ios
            total.max_ms = max(total.max_ms or 0.0, where.number(latency, "max", 0) * to_ms)
        if len(entries) == 1:
            total.percentiles_ms = _clat_percentiles_ms(stats, where)
    return total


def _object(data: JSONObject, key: str, where: _Where) -> JSONObject:
    """``data[key]`` when it is a JSON object; ``{}`` when absent."""
    value = data.get(key) or {}
    if not isinstance(value, dict):
        raise ParseError(f"expected an object, found {str(value)[:40]!r}", file=where.file, line=where.line, field=key)
    return value


def _clat_percentiles_ms(stats: JSONObject, where: _Where) -> dict[str, float]:
    clat, to_ms = ("clat_ns", 1e-6) if "clat_ns" in stats else ("clat", 1e-3)
    table = stats.get(clat)
    table = table.get("percentile") if type(table) is dict else None
    if type(table) is not dict:
        table = _object(_object(stats, clat, where), "percentile", where)
    keys = tuple(table)
    layout = where.known.percentile_layouts.get(keys) or _percentile_layout(keys, where)
    if layout is not None:
        names, values_of = layout
        values = values_of(table)
        # fio writes whole µs or ns: an int is finite, and one past a float's range raises here.
        if values and _WHOLE.issuperset(map(type, values)) and min(values) >= 0:
            try:
                # names and values_of come from the same keys: zip ends both at once.
                return dict(zip(names, map(to_ms.__rmul__, values)))  # noqa: B905
            except OverflowError:
                pass  # read by the careful reading, which names it
        scaled = _plain_scaled(values, to_ms)
        if scaled is not None:
            # names and values_of come from the same keys: zip ends both at once.
            return dict(zip(names, scaled))  # noqa: B905
    percentiles = {}
    for key in table:
        # fio pads the table with "0.00" entries for unused slots.
        if _percentile(key, where) > 0:
            value = where.number(table, key)
            if value is None:
                raise ParseError(f"clat percentile {key!r} has no value", file=where.file, line=where.line, field=key)
            percentiles[key.rstrip("0").rstrip(".")] = value * to_ms
    return percentiles


def _percentile_layout(
    keys: tuple[str, ...], where: _Where
) -> tuple[tuple[str, ...], Callable[[JSONObject], tuple[Any, ...]]] | None:
    """``(names, values_of)`` of the entries above 0 of a percentile table with ``keys``, worked out
    once per set of keys in a file (``values_of(table)`` gives their values); ``None`` when a key is
    no percentile, for the careful reading to name it."""
    layouts = where.known.percentile_layouts
    if keys not in layouts:
        try:
            kept = [key for key in keys if _percentile(key, where) > 0]
        except ParseError:
            return None
        names = tuple(key.rstrip("0").rstrip(".") for key in kept)
        layouts[keys] = names, _values_getter(kept)
    return layouts[keys]


def _values_getter(keys: list[str]) -> Callable[[JSONObject], tuple[Any, ...]]:
    """A function giving the values at ``keys`` as a tuple (``itemgetter`` of one key gives the value)."""
    if len(keys) == 1:
        return lambda table: (table[keys[0]],)
    return itemgetter(*keys) if keys else lambda table: ()


def _plain_scaled(values: tuple[Any, ...], to_ms: float) -> list[float] | None:
    """``values`` times ``to_ms`` when every one is a finite, non-negative int or float (what
    ``_Where.number`` accepts as it is), in a few passes over a percentile table; ``None`` when any
    is not, for the careful reading to name it."""
    if not _NUMBER_TYPES.issuperset(map(type, values)):
        return None
    try:
        scaled = [value * to_ms for value in values]
    except OverflowError:  # an int too large for a float
        return None
    # NaN fails ``>=`` when min() returns it and makes the sum NaN otherwise.
    if scaled and not (min(scaled) >= 0 and sum(scaled) < math.inf):
        return None
    return scaled


def _percentile(key: str, where: _Where) -> float:
    value = where.read(read_number, key, "percentile")
    if value is None:
        raise ParseError("a clat percentile has no name", file=where.file, line=where.line, field="percentile")
    return value


class _Unusual(Exception):
    """A figure the reading of a single job entry leaves to the general one (``_point``)."""


def _plain(value: Any, default: float | None = None) -> float:
    """``value`` as ``_Where.number`` reads a plain figure (``default`` for ``None``); ``_Unusual``
    for anything else, which the general reading checks and names."""
    kind = type(value)
    if kind is float and 0.0 <= value < math.inf:
        return value
    if kind is int and 0 <= value < LARGEST_PLAIN_INT:
        return float(value)
    if value is None and default is not None:
        return default
    raise _Unusual


def _entry_direction(
    entry: JSONObject, direction: str, where: _Where
) -> tuple[float, float, float, float, float | None, dict[str, float]] | None:
    """``(ios, iops, bytes_per_s, latency_ms_sum, max_ms, percentiles_ms)`` of one direction of a
    single job entry, as ``_direction`` sums them; ``None`` without I/O."""
    stats = entry.get(direction) or {}
    if type(stats) is not dict:
        raise _Unusual
    iops, ios = stats.get("iops"), stats.get("total_ios")
    # fio writes IOPS as a float and I/Os as an int: those are checked here without a call.
    iops = iops if type(iops) is float and 0.0 <= iops < math.inf else _plain(iops, 0.0)
    ios = float(ios) if type(ios) is int and 0 <= ios < LARGEST_PLAIN_INT else _plain(ios, iops)
    if not ios:
        return None
    bw_bytes = stats.get("bw_bytes")
    if bw_bytes is not None:
        bytes_per_s = _plain(bw_bytes)
    else:
        bw = stats.get("bw")
        bytes_per_s = (float(bw) if type(bw) is int and 0 <= bw < LARGEST_PLAIN_INT else _plain(bw, 0)) * 1024
    latency_key, to_ms = ("lat_ns", 1e-6) if "lat_ns" in stats else ("lat", 1e-3)
    latency = stats.get(latency_key) or {}
    if type(latency) is not dict:
        raise _Unusual
    latency_ms_sum, max_ms = 0.0, None
    if latency:
        mean, most = latency.get("mean"), latency.get("max")
        mean = mean if type(mean) is float and 0.0 <= mean < math.inf else _plain(mean, 0)
        most = float(most) if type(most) is int and 0 <= most < LARGEST_PLAIN_INT else _plain(most, 0)
        latency_ms_sum += mean * to_ms * ios
        max_ms = max(0.0, most * to_ms)
    # Adding 0.0 as the sum over entries does (-0.0 becomes 0.0).
    return ios, iops + 0.0, bytes_per_s + 0.0, latency_ms_sum, max_ms, _clat_percentiles_ms(stats, where)


def _entry_point(entry: JSONObject, where: _Where) -> Point | None:
    """``_point`` of a job group of one entry, as most are, without summing; ``None`` when a figure
    is not plain, for ``_point`` to read and name it. Figures are not negative and not -0.0 here, so
    a sum of one figure is the figure."""
    try:
        read = _entry_direction(entry, "read", where)
        write = _entry_direction(entry, "write", where)
        trim = _entry_direction(entry, "trim", where)
        usr, sys = entry.get("usr_cpu"), entry.get("sys_cpu")
        cpu = None if usr is None or sys is None else (_plain(usr), _plain(sys))
    except _Unusual:
        return None
    point = Point()
    if read is not None:
        point.read_iops, point.read_mbps = read[1], read[2] / MB
        point.avg_read_response_ms = read[3] / read[0] if read[3] else None
    if write is not None:
        point.write_iops, point.write_mbps = write[1], write[2] / MB
        point.avg_write_response_ms = write[3] / write[0] if write[3] else None
    if read is None or write is None:
        active = read if write is None else write
        if active is not None:
            point.iops, point.mbps = active[1], active[2] / MB
            mean_ms, iops = (active[3] / active[0] if active[3] else None), active[1]
            # ``iops_weighted_ms`` of one part without its lists: the same float (mean x IOPS / IOPS).
            point.avg_response_ms = mean_ms * iops / iops if mean_ms is not None and iops else None
            point.max_response_ms = active[4]
    else:
        point.iops = read[1] + write[1]
        point.mbps = (read[2] + write[2]) / MB
        latencies = [(d[3] / d[0], d[1]) for d in (read, write) if d[3]]
        point.avg_response_ms = iops_weighted_ms(latencies)
        maxima = [d[4] for d in (read, write) if d[4] is not None]
        point.max_response_ms = max(maxima) if maxima else None
    if cpu is not None:
        # ``+ 0.0`` as summing over entries does (-0.0 becomes 0.0).
        usr, sys = cpu[0] + 0.0, cpu[1] + 0.0
        point.cpu_pct = usr + sys
        point.metrics = {"usr_cpu_pct": usr, "sys_cpu_pct": sys}
    percentiles = {}
    if read is not None and read[5]:
        percentiles["read"] = read[5]
    if write is not None and write[5]:
        percentiles["write"] = write[5]
    if percentiles:
        point.metrics["clat_percentiles_ms"] = percentiles
    if trim is not None:
        point.metrics["trim_iops"] = trim[1]
    return point


def _point(entries: list[JSONObject], where: _Where) -> Point:
    read, write, trim = (_direction(entries, d, where) for d in DIRECTIONS)
    active = [d for d in (read, write) if d.ios]
    point = Point()
    point.read_iops, point.read_mbps, point.avg_read_response_ms = _figures(read)
    point.write_iops, point.write_mbps, point.avg_write_response_ms = _figures(write)
    if active:
        point.iops = sum(d.iops for d in active)
        point.mbps = sum(d.bytes_per_s for d in active) / MB
        latencies = [(d.latency_ms_sum / d.ios, d.iops) for d in active if d.latency_ms_sum]
        point.avg_response_ms = iops_weighted_ms(latencies)
        maxima = [d.max_ms for d in active if d.max_ms is not None]
        point.max_response_ms = max(maxima) if maxima else None
    # CPU time when every entry states it (a null is not stated).
    if all(entry.get("usr_cpu") is not None and entry.get("sys_cpu") is not None for entry in entries):
        usr = where.total([where.number(entry, "usr_cpu") for entry in entries], "usr_cpu")
        sys = where.total([where.number(entry, "sys_cpu") for entry in entries], "sys_cpu")
        # Percent of one CPU, as fio reports it; clones of a job add up.
        point.cpu_pct = usr + sys
        point.metrics = {"usr_cpu_pct": usr, "sys_cpu_pct": sys}
    percentiles = {name: d.percentiles_ms for name, d in (("read", read), ("write", write)) if d.percentiles_ms}
    if percentiles:
        point.metrics["clat_percentiles_ms"] = percentiles
    if trim.ios:
        point.metrics["trim_iops"] = where.total([trim.iops], "iops")
    return point


def _figures(direction: _Direction) -> tuple[float | None, float | None, float | None]:
    """(IOPS, MB/s, mean total latency in ms) of one direction; None for a direction without I/O."""
    if not direction.ios:
        return None, None, None
    latency_ms = direction.latency_ms_sum / direction.ios if direction.latency_ms_sum else None
    return direction.iops, direction.bytes_per_s / MB, latency_ms


# Workload -------------------------------------------------------------------------------------


def _options_key(job_options: JSONObject) -> Hashable:
    """What a job's options are known by in a file, whose global options are the same for every job
    (``_Known.stated``): what is worked out from them is worked out once per distinct set; ``None``
    for options that are not all text, which are worked out for each job."""
    # Options as fio writes them, all text, are shared; others (1 and True are equal keys) are not.
    values = tuple(job_options.values())
    return (tuple(job_options), values) if _TEXT.issuperset(map(type, values)) else None


def _stated_workload(global_options: JSONObject, job_options: JSONObject, where: _Where) -> tuple[str | None, Workload]:
    """``(rw, Workload)`` the options state, with fio's defaults (``FIO_DEFAULTS``) for what they
    leave out."""
    workload_options = {**_canonical(global_options), **_canonical(job_options)}
    workload_options.setdefault("rw", FIO_DEFAULTS["rw"])
    if not {"bs", "bssplit", "bsrange"} & workload_options.keys():
        workload_options["bs"] = FIO_DEFAULTS["bs"]
    rw = _rw_mode(workload_options, where)
    return rw, _workload(rw, workload_options, where)


def _defaults_taken(options: JSONObject) -> dict[str, str]:
    """The fio defaults (``FIO_DEFAULTS``) a job's workload took, by option, for its run's
    ``params["fio_defaults"]``: what the file did not state."""
    given = _canonical(options)
    taken = {}
    if "rw" not in given:
        taken["rw"] = FIO_DEFAULTS["rw"]
    rw = str(given.get("rw", FIO_DEFAULTS["rw"])).split(":")[0].strip().lower()
    if rw in ("rw", "randrw") and not {"rwmixread", "rwmixwrite"} & given.keys():
        taken["rwmixread"] = FIO_DEFAULTS["rwmixread"]
    sizes_given = {"bs", "bssplit", "bsrange"} & given.keys()
    if not sizes_given or sizes_given == {"bs"} and None in _per_direction(given["bs"]).values():
        taken["bs"] = FIO_DEFAULTS["bs"]
    return taken


def _canonical(options: JSONObject | None) -> JSONObject:
    """Job options under one name each (``readwrite`` is ``rw``, ``blocksize`` is ``bs``, ...)."""
    return {OPTION_ALIASES.get(key, key): value for key, value in (options or {}).items()}


def _rw_mode(options: JSONObject, where: _Where) -> str | None:
    given = options.get("rw")
    if given is None:
        return None
    rw = str(given).split(":")[0].strip().lower()
    if rw not in RW_MODES:
        raise ParseError(f"unknown rw mode {rw!r}", file=where.file, line=where.line, field="rw")
    return rw


def _workload(rw: str | None, options: JSONObject, where: _Where) -> Workload:
    """The signature the job options state (``rw=randrw`` without ``rwmixread`` / ``rwmixwrite``
    reads 50 %, fio's default)."""
    read_pct, random_pct = RW_MODES[rw]
    if rw in ("rw", "randrw"):
        if "rwmixread" in options:
            read_pct = _percent(options["rwmixread"], "rwmixread", where)
        elif "rwmixwrite" in options:
            read_pct = 100 - _percent(options["rwmixwrite"], "rwmixwrite", where)
        else:
            read_pct = _percent(FIO_DEFAULTS["rwmixread"], "rwmixread", where)
    shares = _direction_shares(rw, read_pct)
    if random_pct and "percentage_random" in options:
        random_pct = _mixed_percent(options["percentage_random"], "percentage_random", shares, where)
    kilo = 1000 if str(options.get("kb_base", "1024")).strip() == "1000" else 1024
    return Workload(
        read_pct=read_pct,
        random_pct=random_pct,
        transfer_sizes=_transfer_sizes(options, shares, kilo, where),
        alignment_bytes=_alignment_bytes(options, kilo, where),
    )


def _measured_workload(entries: list[JSONObject], where: _Where) -> Workload:
    """The workload a job's figures show when the file states no options (old fio versions): the
    read share of its I/Os and, per direction, the bytes per I/O where that is a whole number (a
    fraction is an average of several sizes, no size issued). Random % stays unknown: neither the
    figures nor the job name state it."""
    reads, writes = _direction_ios(entries, where)
    trims = sum(_ios(_object(entry, "trim", where), where) for entry in entries)
    if trims or not reads + writes:
        return Workload()  # trims are neither reads nor writes
    read_pct = 100.0 * reads / (reads + writes)
    directions = [d for d in ("read", "write") if (reads if d == "read" else writes)]
    sizes = {d: size for d in directions if (size := _bytes_per_io(entries, d, where)) is not None}
    if len(sizes) < len(directions):
        return Workload(read_pct=read_pct)
    mix: dict[int, float] = {}
    for direction, size in sizes.items():
        mix[size] = mix.get(size, 0.0) + (read_pct if direction == "read" else 100.0 - read_pct)
    transfer_sizes = [TransferSize(bytes=size, pct=round(pct, 6)) for size, pct in sorted(mix.items())]
    return Workload(read_pct=read_pct, transfer_sizes=transfer_sizes)


def _direction_ios(entries: list[JSONObject], where: _Where) -> tuple[float, float]:
    """(read I/Os, write I/Os) summed over a job group's entries (``total_ios``, else IOPS x runtime)."""
    reads = math.fsum(_ios(_object(entry, "read", where), where) for entry in entries)
    writes = math.fsum(_ios(_object(entry, "write", where), where) for entry in entries)
    return reads, writes


def _ios(stats: JSONObject, where: _Where) -> float:
    """A direction's I/Os: ``total_ios``, or, where fio did not write it (2.1.4), IOPS x runtime (ms), which
    fio rounded: a count to about a percent, enough for a read share and a block size."""
    if "total_ios" in stats:
        return where.number(stats, "total_ios", 0.0)
    return where.number(stats, "iops", 0.0) * where.number(stats, "runtime", 0.0) / 1000.0


def _bytes_per_io(entries: list[JSONObject], direction: str, where: _Where) -> int | None:
    """Bytes per I/O of one direction, ``None`` unless a whole number. fio 3 writes ``io_bytes`` in
    bytes beside ``io_kbytes``; fio 2 wrote ``io_bytes`` in KiB (4,392 reads of 4k are 17,568)."""
    total_bytes = total_ios = 0.0
    counted = True
    for entry in entries:
        stats = _object(entry, direction, where)
        if "io_bytes" not in stats:
            return None
        scale = 1 if "io_kbytes" in stats else 1024
        total_bytes += where.number(stats, "io_bytes") * scale
        total_ios += _ios(stats, where)
        counted = counted and "total_ios" in stats
    if not total_ios:
        return None
    if not counted:
        return _rounded_block(total_bytes / total_ios)
    if total_bytes % total_ios:
        return None
    size = int(total_bytes // total_ios)
    return size or None


def _rounded_block(bytes_per_io: float) -> int | None:
    """The block size an I/O count from rounded IOPS and runtime points to: the roundest size within 1 %, a
    multiple of the largest power of two from 1 MiB down to 512 B that has one (fio 2.1.4's 361,984 KiB over
    253 IOPS x 2.788 s is 525,500 B: 512 KiB, not 1,026 x 512 B), else none."""
    for power in range(20, 8, -1):
        size = round(bytes_per_io / 2**power) * 2**power
        if size and abs(bytes_per_io - size) <= 0.01 * size:
            return size
    return None


def _measured_fields(workload: Workload) -> list[str]:
    """The workload fields a job without options took from its figures, for ``measured_workload``."""
    return [name for name in ("read_pct", "transfer_sizes") if getattr(workload, name) not in (None, [])]


def _direction_shares(rw: str | None, read_pct: float | None) -> dict[str, float] | None:
    """Share (%) of the I/Os going each direction (read, write, trim); ``None`` when unknown."""
    if rw in ("trim", "randtrim"):
        return {"trim": 100.0}
    if rw == "trimwrite":
        return {"trim": 50.0, "write": 50.0}  # each block trimmed, then written
    if read_pct is None:
        return None
    return {"read": float(read_pct), "write": 100.0 - read_pct}


def _per_direction(spec: object) -> dict[str, str | None]:
    """fio's ``read,write,trim`` lists: a direction left out inherits the one before; an empty
    entry (``bs=,8k``) is fio's default for that direction (``None``: 4096 for ``bs``, unknown
    for the others)."""
    parts = [part.strip() for part in str(spec).split(",")][: len(DIRECTIONS)]
    parts += [parts[-1]] * (len(DIRECTIONS) - len(parts))
    return dict(zip(DIRECTIONS, (part or None for part in parts), strict=True))


def _mix(per_direction: Mapping[str, Hashable | None], shares: dict[str, float] | None) -> dict[Any, float]:
    """One value per direction (``None`` unknown) as {value: % of I/Os}; ``{}`` when unknown."""
    if len(set(per_direction.values())) == 1:
        value = per_direction["read"]
        return {} if value is None else {value: 100.0}
    if shares is None:
        return {}
    mix: dict[Any, float] = {}
    for direction, share in shares.items():
        if share and per_direction[direction] is None:
            return {}
        if share:
            mix[per_direction[direction]] = mix.get(per_direction[direction], 0.0) + share
    return mix


def _percent(value: object, option: str, where: _Where) -> float:
    pct = where.read(read_number, value, option)
    if pct is None or pct > 100:
        raise ParseError(f"{option}={value!r} is not a percentage", file=where.file, line=where.line, field=option)
    return pct


def _mixed_percent(spec: object, option: str, shares: dict[str, float] | None, where: _Where) -> float | None:
    per_direction = {d: None if v is None else _percent(v, option, where) for d, v in _per_direction(spec).items()}
    mix = _mix(per_direction, shares)
    return sum(value * share for value, share in mix.items()) / 100 if mix else None


def _transfer_sizes(
    options: JSONObject, shares: dict[str, float] | None, kilo: int, where: _Where
) -> list[TransferSize]:
    """Transfer-size mix from ``bssplit``, else a ``bsrange`` of one size, else ``bs``; a range of
    sizes says no mix (fio picks sizes in it at random) and leaves the mix unknown."""
    reader: Callable[[str], Any]
    if "bssplit" in options:
        option, reader = "bssplit", lambda text: _split_shares(text, kilo, where)
    elif "bsrange" in options:
        option, reader = "bsrange", lambda text: _range_size(text, kilo, where)
    elif "bs" in options:
        option, reader = "bs", lambda text: _size(text, "bs", kilo, where)
    else:
        return []
    texts = _per_direction(options[option])
    if option == "bs":  # an empty entry (bs=,8k) is fio's default for that direction
        texts = {d: FIO_DEFAULTS["bs"] if text is None else text for d, text in texts.items()}
    per_direction: dict[str, Any] = {d: None if text is None else reader(text) for d, text in texts.items()}
    combined: dict[int, float]
    if any(isinstance(value, dict) for value in per_direction.values()):
        # bssplit: each direction is itself a mix; weight it by the direction's share.
        splits = {d: None if v is None else tuple(sorted(v.items())) for d, v in per_direction.items()}
        combined = {}
        for split, share in _mix(splits, shares).items():
            for size, pct in split:
                combined[size] = combined.get(size, 0.0) + pct * share / 100
    else:
        combined = _mix(per_direction, shares)
    return [TransferSize(bytes=size, pct=round(pct, 6)) for size, pct in sorted(combined.items()) if pct > 0]


def _split_shares(spec: str, kilo: int, where: _Where) -> dict[int, float] | None:
    """``4k/10:64k/50:32k/`` -> {bytes: pct}; entries without a share split what is left equally."""
    shares: dict[int, float] = {}
    open_sizes: list[int] = []
    for item in filter(None, (part.strip() for part in spec.split(":"))):
        size_text, _, pct_text = item.partition("/")
        size = _size(size_text, "bssplit", kilo, where)
        if pct_text.strip():
            shares[size] = shares.get(size, 0.0) + _percent(pct_text, "bssplit", where)
        else:
            open_sizes.append(size)
    left = max(0.0, 100.0 - sum(shares.values()))
    for size in open_sizes:
        shares[size] = shares.get(size, 0.0) + left / len(open_sizes)
    return shares or None


def _range_size(spec: str, kilo: int, where: _Where) -> int | None:
    """``4k-4k`` is one size; a real range is no single size (``None``)."""
    low_text, _, high = spec.partition("-")
    low = _size(low_text, "bsrange", kilo, where)
    return low if _size(high or str(low), "bsrange", kilo, where) == low else None


def _size(text: str, option: str, kilo: int, where: _Where) -> int:
    return where.read(read_size, text, option, kilo=kilo)


def _alignment_bytes(options: JSONObject, kilo: int, where: _Where) -> int | None:
    """``ba`` / ``blockalign``; per-direction values that differ give no one alignment."""
    if "ba" not in options:
        return None
    values = set(_per_direction(options["ba"]).values())
    if len(values) != 1:
        return None
    value = values.pop()
    return None if value is None else _size(value, "ba", kilo, where)


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
