"""FFSB (Flexible File System Benchmark) console output.

A log holds one or more FFSB invocations. Each starts with ``FFSB version X started``, echoes its
configuration (benchmark time, each ``ThreadGroup N`` with ``num_threads``, read/write sizes and
block sizes, random on/off and op weights; each ``FileSystem`` with its file set), and, when the
benchmark ran, ``Results:``: one op table per thread group (only when there are several),
``Total Results`` (per-op transactions, trans/sec, % trans, % op weight, throughput), ``N
Transactions per Second``, read/write throughput, system call latency and CPU lines.

FFSB prints sizes in binary units (1 KB = 1024 bytes) with three significant digits; they are
converted to decimal MB/s. An invocation with no ``Total Results`` (the benchmark did not run or
its output is cut) becomes a warning, not a run.

A point: ``load.threads`` = sum of the thread groups' ``num_threads``; ``iops`` = Total Results
transactions per second (FFSB counts one transaction per block read or written, plus one per
metadata op); ``read_mbps`` / ``write_mbps`` from Read/Write Throughput and ``mbps`` their sum;
``avg_read_response_ms`` / ``avg_write_response_ms`` = the ``[read]`` / ``[write]`` system call
averages, ``avg_response_ms`` their mean weighted by call counts, ``max_response_ms`` the larger
of their maxima; ``cpu_pct`` = CPU Utilization. The op tables, all system calls, user/system %
and the benchmark's duration and start go to ``metrics``. The workload's transfer sizes are the
read / write block sizes of the op directions that carry weight; ``read_pct`` and ``random_pct``
are shares of the data ops' weight (x threads), see :func:`_workload`.

Runs: consecutive invocations with the same workload (everything but the thread counts) and a
new total thread count are one run with one point per thread count (a thread sweep); any other
invocation starts a new run. Ten repeats at the same thread count are therefore ten runs.
"""

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import ParseError
from ..figures import known_max, known_sum
from ..latency import iops_weighted_ms
from ..numbers import read_number, read_whole
from ..result import Point, ResultSet, Run, TransferSize, Workload
from ..source import Source
from ..units import MB, binary_prefix, size_in

FORMAT = "ffsb"
TOOL = "FFSB"
READS = (
    "FFSB console output: one run per benchmark (thread sweeps of one workload grouped), ops table, "
    "trans/sec as IOPS, read/write throughput, syscall latency, CPU %; profiles are refused"
)

_STARTED = re.compile(r"^FFSB version (\S+) started")
_SNIFF = re.compile(rb"FFSB version \S+ started")
_PROFILE_SECTION = re.compile(r"^\s*\[(filesystem|threadgroup)\d*\]\s*$", re.MULTILINE)
_OLD_PROFILE_SECTION = re.compile(r"^\s*\[config\d+\]\s*$", re.MULTILINE)
_OLD_PROFILE_COUNT = re.compile(r"^\s*numconfigs\s*=", re.MULTILINE)

_BENCHMARK_TIME = re.compile(r"^benchmark time = (\d+)\s*$")
_DURATION = re.compile(r"^Benchmark took ([\d.]+) sec")
_SETTING = re.compile(r"^\s+([a-z][a-z_ ]*?)\s*=\s*(\S+)")
_OP_WEIGHT = re.compile(r"^\s+(\w+) = (\d+) \(([\d.]+)%\)\s*$")
_FILESET_WEIGHT = re.compile(r"^\s+(\d+) \(\s*\S+\) -> (\d+) \(([\d.]+)%\)\s*$")
_OP_ROW = re.compile(r"^\s*(\w+) :\s+(\d+)\s+([\d.]+)\s+([\d.]+)%\s+([\d.]+)%(?:\s+(\S+))?\s*$")
_TRANS_PER_SEC = re.compile(r"^([\d.]+) Transactions per Second\s*$")
_THROUGHPUT_LINE = re.compile(r"^(Read|Write) Throughput:\s*(\S+)\s*$")
_THROUGHPUT = re.compile(r"^([\d.]+)(B|KB|MB|GB|TB)/sec$")
_SYSCALL = re.compile(r"^\[\s*(\w+)\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s*$")
_CPU = re.compile(r"^([\d.]+)% (User|System) +Time\s*$|^([\d.]+)% CPU Utilization\s*$")
_READ_OPS = ("read", "readall")
_WRITE_OPS = ("write", "create", "append", "writeall", "writeall_fsync", "write_fsync", "create_fsync", "append_fsync")
# (direction, its data ops, the ops among them that seek at random when <direction>_random is on)
_DIRECTIONS = (("read", _READ_OPS, ("read",)), ("write", _WRITE_OPS, ("write", "write_fsync")))
_ALIGNED_IO_BYTES = 4096


def sniff(head: bytes, name: str) -> bool:
    return bool(_SNIFF.search(head))


def refuse(head: bytes, name: str) -> str | None:
    """FFSB profiles (all three syntaxes) are configuration files, not results."""
    if _SNIFF.search(head):
        return None
    text = head.decode("utf-8", errors="replace")
    if _PROFILE_SECTION.search(text) or (_OLD_PROFILE_SECTION.search(text) and _OLD_PROFILE_COUNT.search(text)):
        return (
            "this is an FFSB profile (the benchmark's configuration file), not FFSB results; upload the "
            "console output of the ffsb run instead (it starts with 'FFSB version ... started' and holds "
            "'Total Results')"
        )
    return None


@dataclass
class _Table:
    """One op table of the results: ``Total Results`` or one thread group's."""

    ops: dict[str, dict[str, float | None]] = field(default_factory=dict)
    trans_per_sec: float | None = None


@dataclass
class _Invocation:
    """What one ``FFSB version ... started`` block printed."""

    line: int
    version: str
    benchmark_time_s: int | None = None
    thread_groups: list[dict[str, Any]] = field(default_factory=list)
    filesystems: list[dict[str, Any]] = field(default_factory=list)
    started_at: str | None = None
    duration_s: float | None = None
    in_results: bool = False
    total: _Table | None = None
    group_tables: dict[str, _Table] = field(default_factory=dict)
    read_bytes_per_s: float | None = None
    write_bytes_per_s: float | None = None
    syscalls: dict[str, dict[str, float]] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    # Where key = value lines and op table rows go: a thread group or file system dict, a table.
    config_target: dict[str, Any] | None = None
    table: _Table | None = None

    @property
    def complete(self) -> bool:
        return self.total is not None and self.total.trans_per_sec is not None


def parse(source: Source) -> ResultSet:
    invocations, last_line = _read_invocations(source)
    if not invocations:
        raise ParseError("no 'FFSB version ... started' line; this does not look like FFSB output", line=1)
    complete = [inv for inv in invocations if inv.complete]
    warnings = _incomplete_warnings(invocations) + _cut_warnings(source, complete)
    if not invocations[-1].complete:
        warnings.append(
            f"{source.name}:{last_line}: the file ends inside the FFSB run started on line {invocations[-1].line}, "
            "before its results: it looks cut short, and that run's results are missing"
        )
    if not complete:
        raise ParseError(
            "no FFSB benchmark in this file has results ('Total Results' ending in 'N Transactions per "
            "Second'); the run did not finish or the output was cut",
            line=invocations[-1].line,
        )
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": complete[0].version},
        source=source.describe(),
        runs=_group_runs(complete),
        warnings=warnings,
    )


def _read_invocations(source: Source) -> tuple[list[_Invocation], int]:
    """Every ``FFSB version ... started`` block of the log, in order (lines before the first are ignored),
    and the number of the log's last line."""
    invocations: list[_Invocation] = []
    number = 0
    with source.open_text(errors="replace") as stream:
        for number, raw in enumerate(stream, 1):
            line = raw.rstrip("\n")
            started = _STARTED.match(line) if line.startswith("FFSB version") else None
            if started:
                invocations.append(_Invocation(line=number, version=started.group(1)))
            elif not invocations:
                continue
            elif invocations[-1].in_results:
                _read_result_line(invocations[-1], line, number)
            elif line[:1] in ("\t", " ") and invocations[-1].config_target is not None:
                _read_setting(invocations[-1].config_target, line, number)
            else:
                _read_config_line(invocations[-1], line, number)
    return invocations, number


def _incomplete_warnings(invocations: list[_Invocation]) -> list[str]:
    lines = [str(inv.line) for inv in invocations if not inv.complete]
    if not lines:
        return []
    return [
        f"{len(lines)} FFSB start(s) with a configuration echo but no results were skipped "
        f"(line {', '.join(lines)}): the benchmark did not run or its output is missing"
    ]


def _cut_warnings(source: Source, complete: list[_Invocation]) -> list[str]:
    """FFSB ends every run's results with its 'N% CPU Utilization' line: results without it were cut short."""
    return [
        f"{source.name}:{inv.line}: the FFSB run started on this line ends before its 'CPU Utilization' line "
        "(FFSB ends every run's results with it): the output looks cut short, and its throughput, system call "
        "latency or CPU figures are missing"
        for inv in complete
        if "cpu_pct" not in inv.cpu
    ]


def _read_config_line(inv: _Invocation, line: str, number: int) -> None:
    if benchmark_time := _BENCHMARK_TIME.match(line):
        inv.benchmark_time_s = _count(benchmark_time.group(1), number)
    elif line.startswith("ThreadGroup "):
        inv.config_target = {"op_weights": {}}
        inv.thread_groups.append(inv.config_target)
    elif line.startswith("FileSystem "):
        inv.config_target = {"location": line[len("FileSystem ") :].strip(), "fileset_weights": []}
        inv.filesystems.append(inv.config_target)
    elif line.startswith("Starting Actual Benchmark At:"):
        inv.started_at = _iso_time(line.split(":", 1)[1].strip())
    elif line.startswith("Results:"):
        inv.in_results = True


def _read_setting(target: dict[str, Any], line: str, number: int) -> None:
    """An indented line of a thread group or file system echo (one pattern tried per line: logs are long)."""
    if "->" in line:
        fileset = _FILESET_WEIGHT.match(line)
        if fileset and "fileset_weights" in target:
            weights = {"bytes": _count(fileset.group(1), number), "weight": _count(fileset.group(2), number)}
            target["fileset_weights"].append(weights)
    elif "=" not in line:
        return
    elif line.endswith("%)") and "op_weights" in target:
        weight = _OP_WEIGHT.match(line)
        if weight:
            target["op_weights"][weight.group(1)] = _count(weight.group(2), number)
    else:
        setting = _SETTING.match(line)
        if setting:
            target[setting.group(1).strip().replace(" ", "_")] = _setting_value(setting.group(2), number)


def _setting_value(text: str, number: int) -> bool | int | float | str | None:
    if text in ("on", "off"):
        return text == "on"
    if text.endswith("%"):
        return read_number(text[:-1], file=None, line=number, field="%")
    return _count(text, number) if re.fullmatch(r"-?\d+", text, re.ASCII) else text


def _count(text: str, number: int) -> int:
    """A whole number the log prints; one too large for any count means the log is damaged."""
    value = read_whole(text, file=None, line=number, negative=True)
    if value is None:  # every caller matched digits
        raise ParseError("expected a whole number, found ''", line=number)
    return value


def _iso_time(text: str) -> str | None:
    try:
        return datetime.strptime(text, "%a %b %d %H:%M:%S %Y").isoformat()
    except ValueError:
        return None


def _read_result_line(inv: _Invocation, line: str, number: int) -> None:
    stripped = line.strip()
    if duration := _DURATION.match(stripped):
        inv.duration_s = float(duration.group(1))
    elif stripped == "Total Results":
        inv.table = inv.total = _Table()
    elif stripped.startswith("ThreadGroup "):
        inv.table = inv.group_tables.setdefault(stripped.split()[1], _Table())
    elif inv.table is not None and ":" in stripped and not stripped.startswith("["):
        _read_op_row(inv.table, line, number)
    elif _TRANS_PER_SEC.match(stripped) and inv.table is not None:
        inv.table.trans_per_sec = float(stripped.split()[0])
        inv.table = None
    else:
        _read_summary_line(inv, stripped, number)


def _read_op_row(table: _Table, line: str, number: int) -> None:
    row = _OP_ROW.match(line)
    if not row:
        raise ParseError(
            "expected an FFSB op row 'name : transactions trans/sec %trans %op-weight [throughput]', "
            f"found {line.strip()!r}",
            line=number,
        )
    name, transactions, per_sec, trans_pct, weight_pct, throughput = row.groups()
    bytes_per_s = _bytes_per_s(throughput, number, name) if throughput else None
    table.ops[name] = {
        "transactions": _count(transactions, number),
        "trans_per_sec": float(per_sec),
        "trans_pct": float(trans_pct),
        "op_weight_pct": float(weight_pct),
        "mbps": None if bytes_per_s is None else bytes_per_s / MB,
    }


def _read_summary_line(inv: _Invocation, stripped: str, number: int) -> None:
    throughput = _THROUGHPUT_LINE.match(stripped)
    syscall = _SYSCALL.match(stripped)
    cpu = _CPU.match(stripped)
    if throughput:
        direction, value = throughput.groups()
        bytes_per_s = _bytes_per_s(value, number, f"{direction} Throughput")
        setattr(inv, f"{direction.lower()}_bytes_per_s", bytes_per_s)
    elif syscall:
        name, min_ms, avg_ms, max_ms, calls = syscall.groups()
        inv.syscalls[name] = {
            "min_ms": float(min_ms),
            "avg_ms": float(avg_ms),
            "max_ms": float(max_ms),
            "calls": _count(calls, number),
        }
    elif cpu:
        user_or_system = cpu.group(2)
        key = f"{user_or_system.lower()}_pct" if user_or_system else "cpu_pct"
        inv.cpu[key] = float(cpu.group(1) or cpu.group(3))


def _bytes_per_s(text: str, number: int, what: str) -> float | None:
    """FFSB's ``3.29MB/sec`` in bytes per second (binary units); ``NA`` is ``None``."""
    if text == "NA":
        return None
    match = _THROUGHPUT.match(text)
    if not match:
        raise ParseError(
            f"expected a throughput such as '3.29MB/sec', '765KB/sec' or 'NA', found {text!r}",
            line=number,
            field=what,
        )
    return size_in(float(match.group(1)), match.group(2))


def _total_threads(inv: _Invocation) -> int | None:
    counts = [group.get("num_threads", 0) for group in inv.thread_groups]
    for count in counts:
        if not isinstance(count, int) or count < 0:
            raise ParseError(f"num_threads = {count!r} is not a number of threads", field="num_threads")
    return sum(counts) or None


def _signature(inv: _Invocation) -> str:
    """The workload of an invocation without its thread counts or the file system's fill level."""
    groups = [{k: v for k, v in g.items() if k != "num_threads"} for g in inv.thread_groups]
    filesystems = [{k: v for k, v in fs.items() if k != "current_utilization"} for fs in inv.filesystems]
    return json.dumps([inv.benchmark_time_s, groups, filesystems], sort_keys=True)


def _group_runs(invocations: list[_Invocation]) -> list[Run]:
    runs: list[Run] = []
    previous_signature = None
    for inv in invocations:
        threads = _total_threads(inv)
        signature = _signature(inv)
        current = runs[-1] if runs else None
        if (
            current is None
            or signature != previous_signature
            or threads in {p.load.get("threads") for p in current.points}
        ):  # not a point more of the same sweep
            current = _new_run(inv, len(runs) + 1)
            runs.append(current)
        current.points.append(_point(inv))
        current.params["source_lines"].append(inv.line)
        previous_signature = signature
    return runs


def _new_run(inv: _Invocation, index: int) -> Run:
    workload = _workload(inv)
    label = _workload_label(workload)
    return Run(
        name=f"FFSB run {index} ({label})",
        description=f"FFSB {inv.version}, {_ops_sentence(inv)}; file set {_locations(inv)}",
        started_at=inv.started_at,
        workload=workload,
        params={
            "version": inv.version,
            "benchmark_time_s": inv.benchmark_time_s,
            "thread_groups": inv.thread_groups,
            "filesystems": inv.filesystems,
            "source_lines": [],
        },
    )


def _point(inv: _Invocation) -> Point:
    read_mbps = None if inv.read_bytes_per_s is None else inv.read_bytes_per_s / MB
    write_mbps = None if inv.write_bytes_per_s is None else inv.write_bytes_per_s / MB
    read_call = inv.syscalls.get("read")
    write_call = inv.syscalls.get("write")
    total = inv.total or _Table()  # only complete invocations are read, and they have their total
    metrics = {
        "ops": total.ops,
        "syscalls": inv.syscalls,
        "user_pct": inv.cpu.get("user_pct"),
        "system_pct": inv.cpu.get("system_pct"),
        "duration_s": inv.duration_s,
        "started_at": inv.started_at,
        "source_line": inv.line,
    }
    if inv.group_tables:
        metrics["thread_groups"] = {
            number: {"ops": table.ops, "trans_per_sec": table.trans_per_sec}
            for number, table in inv.group_tables.items()
        }
    return Point(
        load={"threads": _total_threads(inv)},
        iops=total.trans_per_sec,
        mbps=known_sum([read_mbps, write_mbps]),
        read_mbps=read_mbps,
        write_mbps=write_mbps,
        avg_response_ms=iops_weighted_ms((c["avg_ms"], c["calls"]) for c in (read_call, write_call) if c),
        avg_read_response_ms=read_call["avg_ms"] if read_call else None,
        avg_write_response_ms=write_call["avg_ms"] if write_call else None,
        max_response_ms=known_max(c["max_ms"] for c in (read_call, write_call) if c),
        cpu_pct=inv.cpu.get("cpu_pct"),
        metrics=metrics,
    )


def _weighted_ops(group: dict[str, Any], names: tuple[str, ...]) -> int:
    return sum(group["op_weights"].get(name, 0) for name in names)


def _workload(inv: _Invocation) -> Workload:
    """The signature the echo states: FFSB gives an op mix, not an I/O mix, so read % and random %
    are shares of the data ops' weight (x threads of their group), not of read/write calls; each
    direction's block size carries that direction's share. Only ``read`` follows ``read_random``
    and only ``write`` / ``write_fsync`` follow ``write_random``: whole-file reads and writes,
    creates and appends are sequential whatever those settings say."""
    shares, sizes = {"read": 0, "write": 0, "random": 0}, dict[int, int]()
    for group in inv.thread_groups:
        threads = group.get("num_threads", 0)
        for direction, names, random_names in _DIRECTIONS:
            weight = _weighted_ops(group, names) * threads
            if not weight:
                continue
            shares[direction] += weight
            if group.get(f"{direction}_random"):
                shares["random"] += _weighted_ops(group, random_names) * threads
            size = group.get(f"{direction}_blocksize")
            if isinstance(size, int) and size > 0:
                sizes[size] = sizes.get(size, 0) + weight
    total = shares["read"] + shares["write"]
    if not total:
        return Workload(alignment_bytes=_alignment_bytes(inv))
    return Workload(
        read_pct=100.0 * shares["read"] / total,
        random_pct=100.0 * shares["random"] / total,
        transfer_sizes=[TransferSize(bytes=size, pct=100.0 * sizes[size] / total) for size in sorted(sizes)],
        alignment_bytes=_alignment_bytes(inv),
    )


def _alignment_bytes(inv: _Invocation) -> int | None:
    """``alignedio = on`` puts every seek FFSB makes on a 4 KB boundary (``get_random_offset``);
    off, offsets are any byte, which is no alignment to state."""
    states = {fs.get("alignedio") for fs in inv.filesystems}
    return _ALIGNED_IO_BYTES if states == {True} else None


def _workload_label(workload: Workload) -> str:
    sizes = "/".join(_size_label(s.bytes) for s in workload.transfer_sizes) or "no data ops"
    if workload.random_pct is None:
        return sizes
    access = {0.0: "sequential", 100.0: "random"}.get(workload.random_pct, f"{workload.random_pct:.0f}% random")
    return f"{sizes} {access}"


def _size_label(size_bytes: int) -> str:
    count, prefix = binary_prefix(size_bytes, largest="M")
    return f"{count} {prefix}B"


def _ops_sentence(inv: _Invocation) -> str:
    weights: dict[str, int] = {}
    for group in inv.thread_groups:
        for name, weight in group["op_weights"].items():
            weights[name] = weights.get(name, 0) + weight
    used = [name for name, weight in weights.items() if weight]
    return f"{len(inv.thread_groups)} thread group(s), ops {', '.join(used) or 'none'}"


def _locations(inv: _Invocation) -> str:
    return ", ".join(fs["location"] for fs in inv.filesystems) or "unknown"
