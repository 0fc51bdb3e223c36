"""elbencho results: the ``--csvfile`` CSV, the ``--resfile`` text and the ``--livecsv`` series.

Mapping: each benchmark phase (WRITE, READ, MKDIRS, ...) of one workload is a run; its points
are the invocations that differ only in load, so a thread or IO-depth sweep appended to one
file becomes a curve. ``load.threads`` is the total worker count (threads per host x hosts),
``load.outstanding_io`` that times the IO depth. The figures are elbencho's "last done"
column (all workers finished); the "first done" column is kept in ``metrics.first``. MiB/s
is converted to 10^6 bytes per second; latencies are microseconds in the CSV. Phases without
any figure (SYNC, DROPCACHES) are skipped with a warning.

A ``--livecsv`` file holds only progress samples, no final result: it is read as one run per
phase whose point is the average up to the last sample, with the samples in ``metrics.live``
and a warning saying so.
"""

import csv
import re
import shlex
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from ..errors import ParseError
from ..figures import known_max, known_sum
from ..latency import iops_weighted_ms
from ..numbers import Printed, read_number, size_or_none
from ..result import Point, ResultSet, Run, TransferSize, Workload
from ..source import Source
from ..units import MB, binary_prefix, convert_time, mib_to_mbps

FORMAT = "elbencho"
MAX_COUNT_DIGITS = 9  # threads or an IO depth beyond a billion are no elbencho run
TOOL = "elbencho"
READS = (
    "elbencho `--csvfile` CSV, `--resfile` text and `--livecsv` progress CSV: one run per phase, "
    "threads x hosts as load, 'last done' figures, MiB/s converted"
)

_RESULT_CSV = re.compile(rb"^(?:\xef\xbb\xbf)?ISO date,label,path type,[^\n]*,operation,")
_LIVE_CSV = re.compile(rb"^(?:\xef\xbb\xbf)?Label,Phase,RuntimeMS,Rank,")
_RESFILE = re.compile(rb"^OPERATION\s+RESULT TYPE\s+FIRST DONE\s+LAST DONE", re.MULTILINE)
_CSV_FIGURE = re.compile(r"^(rwmix read )?(.+?) \[(first|last|min|avg|max)\]$")
_CSV_BASES = {
    "time ms": "elapsed_ms",
    "entries/s": "entries_per_s",
    "IOPS": "iops",
    "MiB/s": "mib_per_s",
    "CPU%": "cpu_pct",
    "entries": "entries",
    "IOs": "ios",
    "MiB": "mib",
    "Ent lat us": "entry_latency_us",
    "IO lat us": "io_latency_us",
}
_RES_ROW = re.compile(r"^(\S+)?\s+(\S.*?)\s*:\s*(.*?)\s*$")
_RES_NAMES = {
    "elapsed ms": "elapsed_ms",
    "elapsed time": "elapsed_ms",
    "iops": "iops",
    "iops write": "iops",
    "iops read": "rwmix_read_iops",
    "throughput mib/s": "mib_per_s",
    "mib/s write": "mib_per_s",
    "mib/s read": "rwmix_read_mib_per_s",
    "throughput mb/s": "mb_per_s",
    "mb/s write": "mb_per_s",
    "mb/s read": "rwmix_read_mb_per_s",
    "total mib": "mib",
    "mib write": "mib",
    "mib read": "rwmix_read_mib",
    "ios total": "ios",
    "ios write": "ios",
    "ios read": "rwmix_read_ios",
    "cpu util %": "cpu_pct",
}
# Entry lines are named after the entry type: "Dirs/s", "Files/s read", "Files total".
_RES_ENTRY_RATE = re.compile(r"^\w+/s( write| read| total)?$")
_RES_ENTRY_COUNT = re.compile(r"^\w+ (total|write|read)$")
_RES_LATENCY = re.compile(r"min=(\S+)\s+avg=(\S+)\s+max=(\S+)")
_HUMAN_LATENCY = re.compile(r"^([\d.]+)(us|ms|s)$")
_HUMAN_ELAPSED = re.compile(r"^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:([\d.]+)s)?(?:(\d+)ms)?$")
# Every figure stands in its cell alone; an empty one where a figure belongs is damage.
_PRINTED = Printed(required=True)
_READ_PHASES = {"READ"}
_WRITE_PHASES = {"WRITE"}
# elbencho options that name the workload or the load, long and short spellings.
_OPTIONS = {
    "--threads": "threads",
    "-t": "threads",
    "--hosts": "hosts",
    "--block": "block",
    "-b": "block",
    "--size": "size",
    "-s": "size",
    "--iodepth": "iodepth",
    "--rwmixpct": "rwmixpct",
    "--label": "label",
}
# The phases elbencho runs for each option, long and short spellings (SYNC and DROPCACHE between them are
# not counted: they hold no results).
_PHASE_OPTIONS = {
    "--mkdirs": "MKDIRS",
    "-d": "MKDIRS",
    "--write": "WRITE",
    "-w": "WRITE",
    "--read": "READ",
    "-r": "READ",
    "--stat": "STAT",
    "--delfiles": "RMFILES",
    "-F": "RMFILES",
    "--deldirs": "RMDIRS",
    "-D": "RMDIRS",
}
# A --livecsv progress sample: runtime_ms, done_bytes, iops, mib_per_s, entries_per_s, active, cpu_pct.
_Sample = dict[str, float | None]
_FLAGS = {"--rand": "random", "--randalign": "random_aligned", "--direct": "direct", "--hostsfile": "hostsfile"}


def sniff(head: bytes, name: str) -> bool:
    return bool(_RESULT_CSV.match(head) or _LIVE_CSV.match(head) or _RESFILE.search(head))


@dataclass
class _Phase:
    """One benchmark phase in a common vocabulary, whichever file it came from."""

    operation: str
    line: int
    last: dict = field(default_factory=dict)
    first: dict = field(default_factory=dict)
    latency_us: dict = field(default_factory=dict)
    setup: dict = field(default_factory=dict)


def parse(source: Source) -> ResultSet:
    head = source.head()
    warnings: list[str] = []
    if _LIVE_CSV.match(head):
        runs = _live_runs(source, warnings)
        version = None
    else:
        phases = _csv_phases(source) if _RESULT_CSV.match(head) else _resfile_phases(source, warnings)
        runs = _runs(phases, warnings)
        warnings.extend(_missing_phases(source.name, phases))
        version = next((p.setup["version"] for p in phases if p.setup.get("version")), None)
    if not runs:
        raise ParseError("no benchmark phase with results (IOPS, throughput or entries per second) in this file")
    return ResultSet(
        format=FORMAT, tool={"name": TOOL, "version": version}, source=source.describe(), runs=runs, warnings=warnings
    )


def _missing_phases(name: str, phases: list[_Phase]) -> list[str]:
    """The phases each command line asks for that the file does not hold: elbencho writes a row (a block)
    for every phase it runs, so a file without them ends before them."""
    warnings = []
    for command, group in groupby(phases, key=lambda phase: phase.setup.get("command")):
        held = list(group)
        asked = dict.fromkeys(_PHASE_OPTIONS[word] for word in _words(command or "") if word in _PHASE_OPTIONS)
        missing = [phase for phase in asked if phase not in {held_phase.operation for held_phase in held}]
        if missing:
            warnings.append(
                f"{name}:{held[-1].line}: the command line of the {held[0].operation} phase (line {held[0].line}) "
                f"asks for the {', '.join(missing)} phase{'s' if len(missing) > 1 else ''} too, which the file does "
                "not hold after this line: it looks cut short (or elbencho stopped), and their results are missing"
            )
    return warnings


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


# --- the --csvfile result CSV ---------------------------------------------------------------


def _csv_phases(source: Source) -> list[_Phase]:
    phases: list[_Phase] = []
    with source.open_text() as stream:
        header = None
        for number, text in enumerate(stream, start=1):
            if not text.strip():
                continue
            if header is None:
                header = next(csv.reader([text.strip()]))
                continue
            cells = _csv_cells(text.rstrip("\r\n"), header, number)
            phases.append(_csv_phase(dict(zip(header, cells, strict=True)), number))
    return phases


def _csv_cells(text: str, header: list[str], number: int) -> list[str]:
    """Split a row; the last column, the command line, is quoted by elbencho but not escaped.

    elbencho replaces commas in the command line by spaces, so every comma before it is a
    column separator and the rest of the line is the command.
    """
    cells = next(csv.reader([text])) if header[-1] != "command" else text.split(",", len(header) - 1)
    if len(cells) != len(header):
        raise ParseError(f"expected {len(header)} columns as in the header, found {len(cells)}", line=number)
    return [cell.strip() for cell in cells]


def _csv_phase(row: dict[str, str], number: int) -> _Phase:
    phase = _Phase(operation=row.get("operation", "").strip() or "?", line=number)
    for column, value in row.items():
        figure = _CSV_FIGURE.match(column)
        if not figure or not value:
            continue
        base = _CSV_BASES.get(figure.group(2))
        if base is None:
            continue
        name = ("rwmix_read_" if figure.group(1) else "") + base
        number_value = _number(value, number, column)
        if figure.group(3) in ("first", "last"):
            getattr(phase, figure.group(3))[name] = number_value
        else:
            phase.latency_us.setdefault(name, {})[figure.group(3)] = number_value
    phase.setup = _csv_setup(row, number)
    return phase


def _csv_setup(row: dict[str, str], number: int) -> dict[str, Any]:
    setup = _command_setup(row.get("command", ""), number)
    for column, key in (("threads", "threads"), ("hosts", "hosts"), ("block size", "block"), ("file size", "size")):
        if row.get(column):
            setup[key] = int(_number(row[column], number, column))
    setup["iodepth"] = int(_number(row["IO depth"], number, "IO depth")) if row.get("IO depth") else None
    setup["random"] = row.get("random") == "1" if row.get("random") else setup.get("random")
    if row.get("random aligned"):
        setup["random_aligned"] = row["random aligned"] == "1"
    setup["direct"] = row.get("direct IO") == "1" if row.get("direct IO") else setup.get("direct")
    setup["label"] = row.get("label") or setup.get("label")
    setup["path_type"] = row.get("path type") or None
    setup["started_at"] = row.get("ISO date") or None
    setup["version"] = row.get("version") or None
    return setup


# --- the --resfile text ---------------------------------------------------------------------


def _resfile_phases(source: Source, warnings: list[str]) -> list[_Phase]:
    phases: list[_Phase] = []
    setup: dict[str, Any] = {}
    current: _Phase | None = None
    number = 0
    with source.open_text() as stream:
        for number, text in enumerate(stream, start=1):
            line = text.rstrip()
            if line.startswith("ISO DATE:"):
                setup = {"started_at": line.partition(":")[2].strip()}
            elif line.startswith("COMMAND LINE:"):
                setup |= _command_setup(line.partition(":")[2], number)
            elif line.startswith("---"):
                current = None
            elif line.startswith(("OPERATION", "=====")) or not line.strip():
                continue
            else:
                current = _resfile_row(line, number, setup, current, phases)
    if current is not None:
        # elbencho closes every phase's block with a '---' line.
        warnings.append(
            f"{source.name}:{number}: the {current.operation} phase (line {current.line}) has no closing '---' "
            "line: the file looks cut short here, and the phase's results after this line are missing"
        )
    if phases and "threads" not in phases[0].setup:
        warnings.append("no COMMAND LINE before the results: the thread count and block size are unknown")
    return phases


def _resfile_row(line: str, number: int, setup: dict[str, Any], current: _Phase | None, phases: list[_Phase]) -> _Phase:
    row = _RES_ROW.match(line)
    if row is None:
        raise ParseError("expected 'RESULT TYPE : FIRST LAST' (e.g. 'IOPS : 3486 3514')", line=number)
    operation, label, values = row.groups()
    if operation:
        current = _Phase(operation=operation, line=number, setup=dict(setup))
        phases.append(current)
    if current is None:
        raise ParseError(f"result {label!r} outside a phase: expected a phase name such as WRITE first", line=number)
    _resfile_value(current, label.lower(), values, number)
    return current


def _resfile_value(phase: _Phase, label: str, values: str, number: int) -> None:
    latency = _RES_LATENCY.search(values)
    if latency:
        name = _resfile_latency_name(label)
        statistics = zip(("min", "avg", "max"), latency.groups(), strict=True)
        phase.latency_us[name] = {key: _human_latency_us(text, number) for key, text in statistics}
        return
    parts = values.split()
    if len(parts) != 2:
        phase.last.setdefault("other", {})[label] = values
        return
    figure = _resfile_name(label)
    if figure == "other":
        phase.last.setdefault("other", {})[label] = values
    elif figure == "elapsed_ms" and label == "elapsed time":
        phase.first[figure], phase.last[figure] = (_human_elapsed_ms(part, number) for part in parts)
    elif figure:
        phase.first[figure], phase.last[figure] = (_number(part, number, label) for part in parts)


def _resfile_name(label: str) -> str | None:
    """The common name of a resfile result line; None for totals elbencho sums from its parts."""
    if label in _RES_NAMES:
        return _RES_NAMES[label]
    if label in ("iops total", "mib/s total", "mb/s total"):
        return None
    rate = _RES_ENTRY_RATE.match(label)
    if rate:
        return {None: "entries_per_s", " write": "entries_per_s", " read": "rwmix_read_entries_per_s"}.get(
            rate.group(1)
        )
    count = _RES_ENTRY_COUNT.match(label)
    if count:
        return {"total": "entries", "write": "entries", "read": "rwmix_read_entries"}[count.group(1)]
    return "other" if not label.endswith(" total") else None


def _resfile_latency_name(label: str) -> str:
    base = "io_latency_us" if label.startswith("io") else "entry_latency_us"
    return f"rwmix_read_{base}" if " rd " in f" {label} " else base


# --- the --livecsv progress samples ---------------------------------------------------------


def _live_runs(source: Source, warnings: list[str]) -> list[Run]:
    phases: dict[tuple[str, str], tuple[int, list[_Sample]]] = {}
    other_rows = 0
    with source.open_text() as stream:
        reader = csv.DictReader(stream)
        for row in reader:
            if (row.get("Rank") or "").strip() != "Total" or (row.get("MixType") or "").strip():
                other_rows += 1
                continue
            key = ((row.get("Label") or "").strip(), (row.get("Phase") or "").strip())
            sample = _live_sample(row, reader.line_num) | {"line": reader.line_num}
            phases.setdefault(key, (reader.line_num, []))[1].append(sample)
    if other_rows:
        warnings.append(f"{other_rows} per-worker or read-mix rows of the live statistics were not read")
    runs = [_live_run(source.name, key, line, samples, warnings) for key, (line, samples) in phases.items()]
    return runs


def _live_sample(row: dict[str, str | None], number: int) -> _Sample:
    def figure(column: str) -> float | None:
        value = (row.get(column) or "").strip()
        return _number(value, number, column) if value else None

    return {
        "runtime_ms": figure("RuntimeMS"),
        "done_bytes": figure("DoneBytes"),
        "iops": figure("IOPS"),
        "mib_per_s": figure("MiB/s"),
        "entries_per_s": figure("Entries/s"),
        "active": figure("Active"),
        "cpu_pct": figure("CPU"),
    }


def _live_run(name: str, key: tuple[str, str], line: int, samples: list[_Sample], warnings: list[str]) -> Run:
    label, phase = key
    last = samples[-1]
    # A live CSV has no end line nor final result: a copy cut after any sample looks whole.
    warnings.append(
        f"{name}:{last['line']}: {phase} (line {line}) comes from live statistics: its figures are averages up to "
        f"the last sample (line {last['line']}) at {last['runtime_ms'] or 0:.0f} ms, not elbencho's final result "
        "(see the --csvfile or --resfile); a live CSV states no end, so later samples are missing if it was cut"
    )
    elapsed_s = convert_time(last["runtime_ms"] or 0, "ms", "s")
    active = max((s["active"] for s in samples if s["active"] is not None), default=None)
    point = Point(
        load={"threads": int(active)} if active else {},
        iops=_time_weighted_mean(samples, "iops"),
        mbps=last["done_bytes"] / elapsed_s / MB if elapsed_s and last["done_bytes"] is not None else None,
        cpu_pct=_time_weighted_mean(samples, "cpu_pct"),
        metrics={"live": {key: [s[key] for s in samples] for key in samples[0] if key not in ("done_bytes", "line")}},
    )
    point.metrics["live"]["mbps"] = [mib_to_mbps(v) for v in point.metrics["live"].pop("mib_per_s")]
    return Run(
        name=" ".join(filter(None, [label, phase])),
        description="elbencho live statistics (--livecsv)",
        workload=Workload(read_pct=_phase_read_pct(phase, None)),
        params={"operation": phase, "source": "livecsv"},
        points=[point],
    )


def _time_weighted_mean(samples: list[_Sample], key: str) -> float | None:
    """Mean of per-interval rates weighted by interval length: the average since the phase began."""
    total, weight, previous_ms = 0.0, 0.0, 0.0
    for sample in samples:
        value, runtime_ms = sample[key], sample["runtime_ms"]
        if value is None or runtime_ms is None:
            return None
        interval_ms = runtime_ms - previous_ms
        total += value * interval_ms
        weight += interval_ms
        previous_ms = runtime_ms
    return total / weight if weight > 0 else None


# --- phases to runs and points --------------------------------------------------------------


def _runs(phases: list[_Phase], warnings: list[str]) -> list[Run]:
    runs: dict[tuple[object, ...], Run] = {}
    skipped: list[str] = []
    for phase in phases:
        if not any(key in phase.last for key in ("iops", "mib_per_s", "mb_per_s", "entries_per_s")):
            skipped.append(f"{phase.operation} (line {phase.line})")
            continue
        name, workload = _run_identity(phase)
        key = (name, repr(workload), phase.setup.get("size"), phase.setup.get("direct"), phase.setup.get("path_type"))
        run = runs.get(key)
        if run is None:
            run = runs[key] = Run(
                name=name,
                description=phase.setup.get("command", ""),
                started_at=phase.setup.get("started_at"),
                workload=workload,
                params=_run_params(phase),
            )
        run.points.append(_point(phase))
    if skipped:
        warnings.append("phases without results skipped: " + ", ".join(skipped))
    return list(runs.values())


def _run_identity(phase: _Phase) -> tuple[str, Workload]:
    setup = phase.setup
    moves_data = any(key in phase.last for key in ("iops", "mib_per_s", "mb_per_s"))
    block = setup.get("block") if moves_data else None
    random = setup.get("random")
    workload = Workload(
        read_pct=_phase_read_pct(phase.operation, _rwmix_read_pct(phase)),
        random_pct=(100.0 if random else 0.0) if moves_data and random is not None else None,
        transfer_sizes=[TransferSize(bytes=block, pct=100.0)] if block else [],
        # --randalign puts random offsets on block-size boundaries; without it they are any byte.
        alignment_bytes=block if random and setup.get("random_aligned") else None,
    )
    name = " ".join(filter(None, [setup.get("label"), phase.operation, _human_size(block) if block else None]))
    return name, workload


def _rwmix_read_pct(phase: _Phase) -> float | None:
    """``--rwmixpct``; without it (no command line) the measured share of a mixed phase's reads,
    named in the run's ``measured_workload``."""
    if phase.setup.get("rwmixpct") is not None:
        return float(phase.setup["rwmixpct"])
    return _measured_rwmix_read_pct(phase)


def _measured_rwmix_read_pct(phase: _Phase) -> float | None:
    reads, writes = phase.last.get("rwmix_read_iops"), phase.last.get("iops")
    return 100.0 * reads / (reads + writes) if reads is not None and writes else None


def _phase_read_pct(operation: str, rwmix_read_pct: float | None) -> float | None:
    if rwmix_read_pct is not None:
        return rwmix_read_pct
    if operation in _READ_PHASES:
        return 100.0
    return 0.0 if operation in _WRITE_PHASES else None


def _run_params(phase: _Phase) -> dict[str, Any]:
    setup = phase.setup
    keys = ("operation", "path_type", "size", "direct", "random", "label", "hostsfile")
    params = {"operation": phase.operation} | {k: setup[k] for k in keys[1:] if setup.get(k) is not None}
    if "size" in params:
        params["file_size_bytes"] = params.pop("size")
    if setup.get("rwmixpct") is None and _measured_rwmix_read_pct(phase) is not None:
        params["measured_workload"] = ["read_pct"]
    return params


def _point(phase: _Phase) -> Point:
    last, setup = phase.last, phase.setup
    threads = _total_threads(setup)
    load = {"threads": threads} if threads else {}
    if threads and setup.get("iodepth"):
        load["outstanding_io"] = threads * setup["iodepth"]
    write_iops, read_iops = _directions(phase.operation, last.get("iops"), last.get("rwmix_read_iops"))
    write_mbps, read_mbps = _directions(phase.operation, _mbps(last), _mbps(last, "rwmix_read_"))
    write_ms = _latency_ms(phase, "io_latency_us", "avg")
    read_ms = _latency_ms(phase, "rwmix_read_io_latency_us", "avg")
    if phase.operation in _READ_PHASES:
        write_ms, read_ms = None, write_ms
    entry_ms = _latency_ms(phase, "entry_latency_us", "avg")
    return Point(
        load=load,
        iops=known_sum([read_iops, write_iops]),
        read_iops=read_iops,
        write_iops=write_iops,
        mbps=known_sum([read_mbps, write_mbps]),
        read_mbps=read_mbps,
        write_mbps=write_mbps,
        avg_response_ms=iops_weighted_ms([(read_ms, read_iops), (write_ms, write_iops)]) or entry_ms,
        avg_read_response_ms=read_ms,
        avg_write_response_ms=write_ms,
        max_response_ms=_max_latency_ms(phase),
        cpu_pct=last.get("cpu_pct"),
        metrics=_metrics(phase, threads),
    )


def _directions(operation: str, main: float | None, rwmix_read: float | None) -> tuple[float | None, float | None]:
    """(write, read) figures: a phase's own figure belongs to its direction; rwmix adds reads."""
    if main is None and rwmix_read is None:
        return None, None
    if operation in _READ_PHASES:
        return 0.0, main
    if operation in _WRITE_PHASES:
        return main, rwmix_read if rwmix_read is not None else 0.0
    return None, None


def _mbps(figures: dict[str, Any], prefix: str = "") -> float | None:
    if figures.get(f"{prefix}mb_per_s") is not None:
        return figures[f"{prefix}mb_per_s"]
    return mib_to_mbps(figures.get(f"{prefix}mib_per_s"))


def _total_threads(setup: dict[str, Any]) -> int | None:
    if setup.get("threads") is None or setup.get("hostsfile"):
        return None
    return setup["threads"] * (setup.get("hosts") or 1)


def _latency_ms(phase: _Phase, name: str, statistic: str) -> float | None:
    value = phase.latency_us.get(name, {}).get(statistic)
    return convert_time(value, "us") if value is not None else None


def _max_latency_ms(phase: _Phase) -> float | None:
    names = (
        ("io_latency_us", "rwmix_read_io_latency_us") if "io_latency_us" in phase.latency_us else ("entry_latency_us",)
    )
    return known_max(_latency_ms(phase, name, "max") for name in names)


def _metrics(phase: _Phase, threads: int | None) -> dict[str, Any]:
    metrics = {key: value for key, value in phase.last.items() if key not in ("iops", "mib_per_s", "mb_per_s")}
    metrics.pop("cpu_pct", None)
    first = dict(phase.first)
    if "mib_per_s" in first:
        first["mbps"] = mib_to_mbps(first.pop("mib_per_s"))
    metrics["first"] = first
    for name, statistics in phase.latency_us.items():
        metrics[name.replace("_us", "_ms")] = {k: convert_time(v, "us") for k, v in statistics.items()}
    metrics |= {k: phase.setup[k] for k in ("hosts", "iodepth") if phase.setup.get(k) is not None}
    if phase.setup.get("threads") is not None:
        metrics["threads_per_host"] = phase.setup["threads"]
    return metrics


# --- values ---------------------------------------------------------------------------------


def _command_setup(command: str, number: int) -> dict[str, Any]:
    """Workload and load options from an elbencho command line (quoted words, as elbencho logs it)."""
    words = _words(command)
    # elbencho's defaults when an option is not given: IO depth 1, sequential, buffered.
    setup: dict[str, Any] = {"command": command.strip(), "iodepth": 1, "random": False, "direct": False}
    for index, word in enumerate(words):
        option, has_value, inline = word.partition("=")
        if option in _FLAGS:
            setup[_FLAGS[option]] = True
        key = _OPTIONS.get(option)
        if key is None:
            continue
        value = inline if has_value else (words[index + 1] if index + 1 < len(words) else "")
        setup[key] = _option_value(key, value, number)
    return setup


def _option_value(key: str, value: str, number: int) -> int | str | None:
    if key == "hosts":
        return len([host for host in re.split(r"[,\s]+", value) if host])
    if key in ("block", "size"):
        return size_or_none(value)
    if key in ("threads", "iodepth", "rwmixpct"):
        if not value.isdigit():
            return None
        if len(value) > MAX_COUNT_DIGITS or (key == "rwmixpct" and int(value) > 100):
            shown = value if len(value) <= 20 else f"{value[:20]}...({len(value)} digits)"
            kind = "a percentage" if key == "rwmixpct" else "a plausible count"
            raise ParseError(f"the command line's --{key} {shown} is not {kind}", line=number, field=key)
        return int(value)
    return value


def _human_size(size_bytes: int) -> str:
    count, prefix = binary_prefix(size_bytes, largest="G")
    return f"{count}{prefix.lower()}" if prefix else str(size_bytes)


def _human_latency_us(text: str, number: int) -> float:
    match = _HUMAN_LATENCY.match(text)
    if match is None:
        raise ParseError(f"latency {text!r} is not like '455us', '4.55ms' or '1.20s'", line=number)
    return convert_time(float(match.group(1)), match.group(2), "us")


def _human_elapsed_ms(text: str, number: int) -> float:
    match = _HUMAN_ELAPSED.match(text)
    if match is None or not any(match.groups()):
        raise ParseError(f"elapsed time {text!r} is not like '45.248s' or '2m3.456s'", line=number)
    hours, minutes, seconds, milliseconds = (float(g) if g else 0.0 for g in match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds


def _number(text: str, number: int, column: str) -> float:
    value = read_number(text, file=None, line=number, field=column, printed=_PRINTED)
    if value is None:  # an empty cell is refused (``required``), so there is always a figure
        raise ParseError(f"{column!r} has no figure", line=number, field=column)
    return value
