"""Bonnie++ 1.96 / 1.97 / 1.98 / 2.00a CSV: the line ``bonnie++`` prints last (or with ``-q``), one per
test, optionally under bon_csv2html's header line (``format_version,bonnie_version,name,...``).

A line holds 48 comma-separated fields: the format and bonnie++ versions, the machine's name, the
concurrency (``-c``), the seed, the test file size (``7423M``) and chunk size (empty when the default)
(bonnie++ 2.00a adds the number of seeks and of seeking processes here: 50 fields, kept in ``params``),
then each test's rate and CPU % (per-character and block output, rewrite, per-character and block
input in K/sec, random seeks per second; file creation, stat and deletion, sequential and random, in
files per second), the file test's sizes, and the tests' latencies with their unit (``512ms``,
``44660us``), which bonnie++ measures as the longest time one operation took.

One run per test the line measured, one point per run: ``load.threads`` = the concurrency; the block
and per-character tests' K/sec (1,024 bytes) as ``mbps`` (read or write by the test) with the CPU %,
random seeks and the file tests' rates as ``iops`` (operations per second), each test's latency as
``max_response_ms``. Bonnie++ prints ``+++++`` (rate) and ``+++`` (CPU) for a test that ran too fast to
measure: no figure is stored for it and a warning says which. A test with an empty rate was not run
and is no run. The test file and chunk sizes, the file test's file count (in 1,024 files) and sizes go
to each run's ``params``. Older CSV without the format version (bonnie++ 1.03) is refused.
"""

import re
from dataclasses import dataclass

from ..errors import ParseError
from ..numbers import Printed, read_number
from ..result import Point, ResultSet, Run, Workload
from ..source import Source
from ..units import KIB, MB, convert_time, size_multiplier

FORMAT = "bonnie"
TOOL = "Bonnie++"
READS = (
    "Bonnie++ 1.96+ CSV (one line per test run, with or without bon_csv2html's header): one run per test "
    "(block and per-character output and input, rewrite, random seeks, file create/stat/delete), K/sec "
    "(1,024 bytes) as MB/s, seeks and files/s as IOPS, latencies as maxima; '+++++' (too fast) left unknown"
)

_HEADER = "format_version,bonnie_version,name,concurrency,seed,file_size,chunk_size"
# The format version (1.96 to 1.98) and the bonnie++ version (1.96 to 1.98, or 2.00a whose format is 1.98).
_LINE = re.compile(r"^1\.9\d[a-z]?,(?:1\.9\d|2\.\d\d)[a-z]?,")
_SNIFF = re.compile(rb"\A\s*(?:format_version,bonnie_version,|1\.9\d[a-z]?,(?:1\.9\d|2\.\d\d)[a-z]?,[^,\n]*,\d+,)")
_FIELDS = 48
# Bonnie++ 2.00a (format 1.98) writes two more fields after the chunk size: the number of seeks and of
# seeking processes (``-s size:chunk:seeks:seekers``); the rest is laid out as in 1.96.
_SEEK_FIELDS = {7: "seeks", 8: "seek_processes"}
_TOO_FAST_RATE = "+++++"
_TOO_FAST_CPU = "+++"
_LATENCY = re.compile(r"^([\d.]+)(ns|us|ms|s)$")
_SIZE = re.compile(r"^(\d+)([KMGTkmgt]?)$")
_PRINTED = Printed(refusal="{field} {stripped!r} is not a number")


@dataclass(frozen=True)
class _Test:
    """A test of the line: its name, the field of its rate, of its CPU %, of its latency, and what it does."""

    name: str
    rate: int
    cpu: int
    latency: int
    per: str  # "mbps" (K/sec) or "iops" (per second)
    read_pct: float | None
    random_pct: float | None


_TESTS = (
    _Test("Sequential output, per character", 7, 8, 36, "mbps", 0.0, 0.0),
    _Test("Sequential output, block", 9, 10, 37, "mbps", 0.0, 0.0),
    _Test("Sequential rewrite", 11, 12, 38, "mbps", 50.0, 0.0),
    _Test("Sequential input, per character", 13, 14, 39, "mbps", 100.0, 0.0),
    _Test("Sequential input, block", 15, 16, 40, "mbps", 100.0, 0.0),
    _Test("Random seeks", 17, 18, 41, "iops", None, 100.0),
    _Test("Sequential file create", 24, 25, 42, "iops", None, None),
    _Test("Sequential file stat", 26, 27, 43, "iops", None, None),
    _Test("Sequential file delete", 28, 29, 44, "iops", None, None),
    _Test("Random file create", 30, 31, 45, "iops", None, None),
    _Test("Random file stat", 32, 33, 46, "iops", None, None),
    _Test("Random file delete", 34, 35, 47, "iops", None, None),
)
_PARAMS = {5: "file_size", 6: "chunk_size", 19: "files_1024", 20: "max_file_size", 21: "min_file_size", 22: "dirs"}
_PARAMS_23 = "file_chunk_size"


def sniff(head: bytes, name: str) -> bool:
    return bool(_SNIFF.match(head))


def refuse(head: bytes, name: str) -> str | None:
    """Bonnie++ 1.03's CSV (under its header line) has no format version, and its fields are laid out otherwise."""
    if head.lstrip().startswith(b"name,file_size,putc,"):
        return (
            "this looks like bonnie++ 1.03 CSV (no format version); ArrayBench reads the CSV of bonnie++ 1.96 and later"
        )
    return None


def parse(source: Source) -> ResultSet:
    runs: list[Run] = []
    warnings: list[str] = []
    versions: set[str] = set()
    with source.open_text() as stream:
        for number, line in enumerate(stream, 1):
            text = line.strip()
            if not text or (number == 1 and text.startswith(_HEADER)):
                continue
            if not _LINE.match(text):
                raise ParseError(
                    f"expected a bonnie++ CSV line starting with its format and bonnie++ versions, found {text[:40]!r}",
                    file=source.name,
                    line=number,
                )
            fields = text.split(",")
            seeking = {}
            if len(fields) == _FIELDS + len(_SEEK_FIELDS):
                seeking = {key: fields[index] for index, key in _SEEK_FIELDS.items() if fields[index]}
                fields = fields[: min(_SEEK_FIELDS)] + fields[max(_SEEK_FIELDS) + 1 :]
            if len(fields) != _FIELDS:
                raise ParseError(
                    f"expected {_FIELDS} comma-separated fields in a bonnie++ 1.96 CSV line (or "
                    f"{_FIELDS + len(_SEEK_FIELDS)} with 2.00's seeks and seekers), found {len(fields)}",
                    file=source.name,
                    line=number,
                )
            versions.add(fields[1])
            runs += _runs(fields, seeking, number, source, warnings)
    if not runs:
        raise ParseError("the file holds no bonnie++ CSV line with a measured test", file=source.name, line=1)
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": ", ".join(sorted(versions))},
        source=source.describe(),
        runs=runs,
        warnings=warnings,
    )


def _runs(fields: list[str], seeking: dict[str, str], number: int, source: Source, warnings: list[str]) -> list[Run]:
    threads = _count(fields[3], "concurrency", number, source)
    params: dict[str, object] = {"machine": fields[2], "source_lines": [number], **seeking}
    for index, key in (*_PARAMS.items(), (23, _PARAMS_23)):
        if fields[index]:
            params[key] = fields[index]
    for key in ("file_size", "chunk_size"):
        if key in params:
            params[f"{key}_bytes"] = _size(str(params[key]), key, number, source)
    runs = []
    too_fast = []
    for test in _TESTS:
        rate_text = fields[test.rate].strip()
        if not rate_text:
            continue  # not run (bonnie++ -n 0, -f, ...)
        point = Point(load={"threads": threads}, metrics={})
        if rate_text == _TOO_FAST_RATE:
            too_fast.append(test.name)
        else:
            rate = _number(rate_text, test.name, number, source)
            if test.per == "mbps":
                point.mbps = rate * KIB / MB
                if test.read_pct == 100.0:
                    point.read_mbps = point.mbps
                elif test.read_pct == 0.0:
                    point.write_mbps = point.mbps
            else:
                point.iops = rate
        cpu_text = fields[test.cpu].strip()
        if cpu_text and cpu_text != _TOO_FAST_CPU:
            point.cpu_pct = _number(cpu_text, f"{test.name} CPU %", number, source)
        point.max_response_ms = _latency(fields[test.latency].strip(), test.name, number, source)
        runs.append(
            Run(
                name=f"{test.name} ({fields[2]}, line {number})",
                description=f"bonnie++ {fields[1]} on {fields[2]}",
                workload=Workload(name=test.name, read_pct=test.read_pct, random_pct=test.random_pct),
                params={**params, "test": test.name},
                points=[point],
            )
        )
    if too_fast:
        warnings.append(
            f"{source.name}:{number}: bonnie++ printed '+++++' (too fast to measure) for {', '.join(too_fast)}; "
            "no rate is stored for them"
        )
    return runs


def _number(text: str, field: str, number: int, source: Source) -> float:
    value = read_number(text, file=source.name, line=number, field=field, printed=_PRINTED)
    if value is None:  # callers pass a text that is not empty
        raise ParseError(f"{field} holds no figure", file=source.name, line=number, field=field)
    return value


def _count(text: str, field: str, number: int, source: Source) -> int:
    value = _number(text, field, number, source)
    if value != int(value) or value < 1:
        raise ParseError(f"{field} {text!r} is not a count", file=source.name, line=number, field=field)
    return int(value)


def _latency(text: str, field: str, number: int, source: Source) -> float | None:
    if not text:
        return None
    match = _LATENCY.match(text)
    if not match:
        raise ParseError(
            f"{field} latency {text!r} is not a time (a number and ns, us, ms or s)",
            file=source.name,
            line=number,
            field=f"{field} latency",
        )
    return convert_time(_number(match[1], f"{field} latency", number, source), match[2])


def _size(text: str, field: str, number: int, source: Source) -> int:
    match = _SIZE.match(text)
    multiplier = size_multiplier(match[2]) if match else None
    if not match or multiplier is None:
        raise ParseError(f"{field} {text!r} is not a size", file=source.name, line=number, field=field)
    return int(match[1]) * multiplier
