"""fs_mark 3.x console output: file creation rates.

An invocation starts with the command it was given, echoed after ``#`` (``#  fs_mark  -d ...``), then
``#`` lines saying the version and thread count (``Version 3.3, 32 thread(s) starting at ...``), the sync
method, the directories and the file and write sizes; then a table with a row per loop
(``FSUse%  Count  Size  Files/sec  App Overhead``, with ``-v`` followed by the min/avg/max time in
microseconds of each system call: ``CREAT``, ``WRITE``, ``FSYNC``, ``SYNC``, ``CLOSE``, ``UNLINK``) and,
from fs_mark 3.3, ``Average Files/sec:`` and ``p50`` / ``p90`` / ``p99 Files/sec:`` lines.

One run per invocation, one point: ``load.threads`` = the thread count, ``iops`` = the ``Average
Files/sec`` fs_mark prints (files created per second; without that line, the mean of the loops' rates,
said in a warning). The loops' rows (as a table), the percentiles, the application overhead and the
system call times (``-v``) go to ``metrics``; the file size, write size, sync method and directory layout
to ``params``. The workload is file creation of the stated size: writes, at places the file system
chooses (no random share is stated).
"""

import re
from dataclasses import dataclass, field
from datetime import datetime
from statistics import fmean

from ..errors import ParseError
from ..numbers import Printed, read_number
from ..result import Point, ResultSet, Run, TransferSize, Workload
from ..source import Source

FORMAT = "fsmark"
TOOL = "fs_mark"
READS = (
    "fs_mark 3.x console output: one run per invocation, threads as load, Average Files/sec as IOPS "
    "(files created per second), the loops' rows, p50/p90/p99 and app overhead kept; file and write sizes, "
    "sync method"
)

_COMMAND = re.compile(r"^#\s+fs_mark\s")
_SNIFF = re.compile(rb"(?m)^#\s+fs_mark\s.*\n#\s+Version \d+\.\d+, \d+ thread")
_VERSION = re.compile(r"^#\s+Version (\S+), (\d+) thread\(s\) starting at (.+?)\s*$")
_SYNC = re.compile(r"^#\s+Sync method: (.+?)\s*$")
_DIRECTORIES = re.compile(r"^#\s+Directories:\s+(.+?)\s*$")
_FILES = re.compile(r"^#\s+Files info: size (\d+) bytes, written with an IO size of (\d+) bytes per write")
# With -v, six system-call columns follow ('CREAT (Min/Avg/Max)' ... 'UNLINK (Min/Avg/Max)', in microseconds).
_TABLE = re.compile(r"^FSUse%\s+Count\s+Size\s+Files/sec\s+App Overhead((?:\s+[A-Z]+ \(Min/Avg/Max\))*)\s*$")
_CALL = re.compile(r"([A-Z]+) \(Min/Avg/Max\)")
_AVERAGE = re.compile(r"^Average Files/sec:\s*(\S+)\s*$")
_PERCENTILES = ("p50", "p90", "p99")
_LOOPS = re.compile(r"\s-L\s+(\d+)")
_PERCENTILE = re.compile(r"^(p\d+) Files/sec:\s*(\S+)\s*$")
_COLUMNS = ["FSUse%", "Count", "Size", "Files/sec", "App Overhead"]
_PRINTED = Printed(refusal="{field} {stripped!r} is not a number")


def sniff(head: bytes, name: str) -> bool:
    return bool(_SNIFF.search(head))


@dataclass
class _Invocation:
    line: int
    command: str
    version: str | None = None
    threads: int | None = None
    started: str | None = None
    params: dict[str, object] = field(default_factory=dict)
    rows: list[list[float]] = field(default_factory=list)
    average: float | None = None
    percentiles: dict[str, float] = field(default_factory=dict)
    in_table: bool = False
    calls: list[str] = field(default_factory=list)
    call_times_us: dict[str, list[list[float]]] = field(default_factory=dict)


def parse(source: Source) -> ResultSet:
    invocations: list[_Invocation] = []
    with source.open_text() as stream:
        for number, raw in enumerate(stream, 1):
            line = raw.rstrip("\n")
            if _COMMAND.match(line):
                invocations.append(_Invocation(line=number, command=" ".join(line.lstrip("#").split())))
            elif invocations:
                _read_line(invocations[-1], line, number, source)
    if not invocations:
        raise ParseError(
            "no '#  fs_mark ...' command line: this does not look like fs_mark output", file=source.name, line=1
        )
    warnings: list[str] = []
    runs = [run for invocation in invocations if (run := _run(invocation, source, warnings)) is not None]
    if not runs:
        raise ParseError("no fs_mark invocation in the file reached its Files/sec table", file=source.name)
    versions = sorted({invocation.version for invocation in invocations if invocation.version})
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": ", ".join(versions) or None},
        source=source.describe(),
        runs=runs,
        warnings=warnings,
    )


def _read_line(invocation: _Invocation, line: str, number: int, source: Source) -> None:
    if match := _VERSION.match(line):
        invocation.version, invocation.started = match[1], match[3]
        invocation.threads = int(_number(match[2], "thread(s)", number, source))
    elif match := _SYNC.match(line):
        invocation.params["sync_method"] = match[1]
    elif match := _DIRECTORIES.match(line):
        invocation.params["directories"] = match[1]
    elif match := _FILES.match(line):
        invocation.params["file_size_bytes"] = int(_number(match[1], "file size", number, source))
        invocation.params["io_size_bytes"] = int(_number(match[2], "IO size", number, source))
    elif match := _TABLE.match(line):
        invocation.in_table = True
        invocation.calls = [call.lower() for call in _CALL.findall(match[1])]
    elif match := _AVERAGE.match(line):
        invocation.in_table = False
        invocation.average = _number(match[1], "Average Files/sec", number, source)
    elif match := _PERCENTILE.match(line):
        invocation.percentiles[f"{match[1]}_files_per_s"] = _number(match[2], f"{match[1]} Files/sec", number, source)
    elif invocation.in_table and line.strip():
        _read_row(invocation, line.split(), number, source)


def _read_row(invocation: _Invocation, cells: list[str], number: int, source: Source) -> None:
    """A loop's row: the 5 columns, then (with -v) each system call's min, average and max time."""
    expected = len(_COLUMNS) + 3 * len(invocation.calls)
    if len(cells) != expected:
        calls = f" and the min/avg/max of {', '.join(invocation.calls)}" if invocation.calls else ""
        raise ParseError(
            f"expected the {expected} columns {', '.join(_COLUMNS)}{calls} in a row of fs_mark's table, "
            f"found {len(cells)}: {' '.join(cells)[:40]!r}",
            file=source.name,
            line=number,
        )
    invocation.rows.append(
        [_number(text, column, number, source) for text, column in zip(cells, _COLUMNS, strict=False)]
    )
    for index, call in enumerate(invocation.calls):
        start = len(_COLUMNS) + 3 * index
        times = [_number(text, f"{call} time", number, source) for text in cells[start : start + 3]]
        invocation.call_times_us.setdefault(call, []).append(times)


def _run(invocation: _Invocation, source: Source, warnings: list[str]) -> Run | None:
    where = f"{source.name}:{invocation.line}"
    if not invocation.rows:
        warnings.append(
            f"{where}: this fs_mark invocation has no Files/sec rows (it did not run or the file is cut); no run"
        )
        return None
    if invocation.threads is None:
        raise ParseError(
            "an fs_mark invocation without its 'Version ..., N thread(s)' line", file=source.name, line=invocation.line
        )
    rate = invocation.average
    if rate is None:
        rate = fmean(row[3] for row in invocation.rows)
        warnings.append(
            f"{where}: {_no_average(invocation)}; the rate stored is the mean of the {len(invocation.rows)} loop(s)"
        )
    missing = [name for name in _PERCENTILES if f"{name}_files_per_s" not in invocation.percentiles]
    if invocation.average is not None and missing:
        warnings.append(
            f"{where}: no {', '.join(missing)} Files/sec line(s), which fs_mark writes after its average: "
            "the file may be cut short; the percentiles read are kept"
        )
    loops = _LOOPS.search(invocation.command)
    if loops and int(loops[1]) > len(invocation.rows):
        warnings.append(
            f"{where}: the command asks for {loops[1]} loops (-L) and the file holds {len(invocation.rows)}: "
            "the file may be cut short, or the run stopped early"
        )
    file_size = invocation.params.get("file_size_bytes")
    sync = str(invocation.params.get("sync_method", "")).split(":")[0].strip()
    point = Point(
        load={"threads": invocation.threads},
        iops=rate,
        metrics={
            "loops": {"columns": _COLUMNS, "rows": invocation.rows},
            **invocation.percentiles,
            "app_overhead_us": [row[4] for row in invocation.rows],
            **_call_times(invocation),
        },
    )
    size_text = f"{file_size}-byte files" if isinstance(file_size, int) else "files"
    return Run(
        name=f"fs_mark file create, {size_text}" + (f", {sync}" if sync else ""),
        description=invocation.command,
        started_at=_started_at(invocation.started),
        workload=Workload(
            name="File create",
            read_pct=0.0,
            # Where the files' blocks land is the file system's choice: neither sequential nor random is stated.
            random_pct=None,
            transfer_sizes=[TransferSize(bytes=file_size, pct=100.0)]
            if isinstance(file_size, int) and file_size > 0
            else [],
        ),
        params={**invocation.params, "started": invocation.started, "source_lines": [invocation.line]},
        points=[point],
    )


def _call_times(invocation: _Invocation) -> dict[str, object]:
    """With -v: each system call's [min, avg, max] time (microseconds) per loop; nothing otherwise."""
    return {"syscall_us_min_avg_max": invocation.call_times_us} if invocation.call_times_us else {}


def _no_average(invocation: _Invocation) -> str:
    """Why an invocation has no ``Average Files/sec``: fs_mark 3.3 always ends one with it, so a copy cut short."""
    if invocation.version and tuple(int(part) for part in re.findall(r"\d+", invocation.version)[:2]) >= (3, 3):
        return (
            f"no 'Average Files/sec' line, which fs_mark {invocation.version} writes after its loops: "
            "the file may be cut short"
        )
    return "no 'Average Files/sec' line"


def _started_at(text: str | None) -> str | None:
    """``Mon Jun  7 09:52:25 2021`` (C's ctime, local time of the machine) as ISO 8601; None if not so."""
    try:
        return datetime.strptime(" ".join((text or "").split()), "%a %b %d %H:%M:%S %Y").isoformat()
    except ValueError:
        return None


def _number(text: str, field: str, number: int, source: Source) -> float:
    value = read_number(text, file=source.name, line=number, field=field, printed=_PRINTED)
    if value is None:
        raise ParseError(f"{field} holds no figure", file=source.name, line=number, field=field)
    return value
