"""Phases to runs and points: a run per phase of one workload, a point per load."""

from typing import Any

from ...figures import known_max, known_sum
from ...latency import iops_weighted_ms
from ...result import Point, Run, TransferSize, Workload
from ...units import binary_prefix, convert_time, mib_to_mbps
from ..mdtest.operations import FIGURE as METADATA_FIGURE
from .phases import _Phase

_READ_PHASES = {"READ"}
_WRITE_PHASES = {"WRITE"}
_DATA_FIGURES = ("iops", "mib_per_s", "mb_per_s")


# --- phases to runs and points --------------------------------------------------------------


def _runs(phases: list[_Phase], warnings: list[str]) -> list[Run]:
    runs: dict[tuple[object, ...], Run] = {}
    skipped: list[str] = []
    for phase in phases:
        if not any(key in phase.last for key in (*_DATA_FIGURES, "entries_per_s")):
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
    moves_data = _moves_data(phase)
    block = setup.get("block") if moves_data else None
    if block and setup.get("size") and setup["size"] < block:
        block = setup["size"]  # a file smaller than a block is written and read in one I/O of its size
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
    if not _moves_data(phase):
        params["figure"] = METADATA_FIGURE
    return params


def _moves_data(phase: _Phase) -> bool:
    """Whether a phase reads or writes data (IOPS or MiB/s); MKDIRS, STAT, RMFILES and RMDIRS count only
    entries (directories or files created, stated or deleted) per second: metadata operations."""
    return any(key in phase.last for key in _DATA_FIGURES)


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
    # A metadata phase's rate is its entries/s, as mdtest's are its operations per second.
    entries_per_s = None if _moves_data(phase) else last.get("entries_per_s")
    return Point(
        load=load,
        iops=known_sum([read_iops, write_iops]) if entries_per_s is None else entries_per_s,
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
    metrics = {key: value for key, value in phase.last.items() if key not in _DATA_FIGURES}
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


def _human_size(size_bytes: int) -> str:
    count, prefix = binary_prefix(size_bytes, largest="G")
    return f"{count}{prefix.lower()}" if prefix else str(size_bytes)
