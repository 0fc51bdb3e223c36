"""What either DiskSpd output gives for one timespan (targets, directions, a measurement) and the
run, point and workload made of it."""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ...result import Point, Run, TransferSize, Workload
from ...units import MB

# The shared model: what either output gives for one timespan ---------------------------------


@dataclass
class _Target:
    """One target as the profile describes it."""

    path: str
    block_bytes: int | None = None
    write_pct: float | None = None
    random_pct: float | None = None
    outstanding_per_thread: int | None = None
    alignment_bytes: int | None = None  # of random offsets (-r<align>)
    interlocked: bool = False  # -si: the target's threads share one sequential stream
    settings: list[str] = field(default_factory=list)


@dataclass
class _Direction:
    ios: int
    bytes: int
    iops: float | None
    avg_ms: float | None = None


@dataclass
class _Measurement:
    """One measured timespan: totals, the (thread, target) pairs and the profile behind them."""

    seconds: float
    threads: int | None
    directions: dict[str, _Direction]  # "total" / "read" / "write"
    pairs: list[tuple[str, int]]  # (target path, I/O count) per thread and target
    targets: list[_Target]
    pool_outstanding_per_thread: int | None = None
    cpu_pct: float | None = None
    metrics: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)


def _run(
    measurement: _Measurement,
    *,
    timespan: int,
    several: bool,
    started_at: str | None,
    description: str,
    warnings: list[str],
    where: str,
) -> Run:
    paths = list(dict.fromkeys(path for path, _ in measurement.pairs)) or [t.path for t in measurement.targets]
    workload = _workload(measurement)
    point = _point(measurement, warnings, where)
    name = _title(workload, point.load) or ", ".join(paths) or "DiskSpd"
    if several:
        name += f" (timespan {timespan})"
    params = measurement.params if not paths else {**measurement.params, "target_paths": paths}
    return Run(
        name=name,
        description=description,
        started_at=started_at,
        workload=workload,
        params=params,
        points=[point],
    )


def _titles_told_apart(runs: list[Run]) -> None:
    """Runs of one file that do the same name their targets: "4K random 50 % read, ... on D:\\testfile.foo"."""
    titles = Counter(run.name for run in runs)
    for run in runs:
        paths = run.params.get("target_paths") or []
        if titles[run.name] > 1 and paths and run.name != ", ".join(paths):
            run.name += " on " + ", ".join(paths)


def _title(workload: Workload, load: dict) -> str:
    """What a run does, as engineers title a DiskSpd run: "4K random 50 % read, 2 threads x 32 outstanding"
    ('' when the profile states neither the block size nor the access). The target path is a detail of it."""
    sizes = [size.bytes for size in workload.transfer_sizes]
    size = _size_title(sizes[0]) if len(sizes) == 1 else ""
    access = _share_title(workload.random_pct, {100: "random", 0: "sequential"}, "random")
    direction = _share_title(workload.read_pct, {100: "read", 0: "write"}, "read")
    what = " ".join(part for part in (size, access, direction) if part)
    if not what:
        return ""
    threads, outstanding = load.get("threads"), load.get("outstanding_io")
    if threads and outstanding and outstanding % threads == 0:
        what += f", {threads} thread{'s' if threads != 1 else ''} x {outstanding // threads} outstanding"
    elif outstanding:
        what += f", {outstanding} outstanding"
    return what


def _share_title(pct: float | None, words: dict[int, str], of: str) -> str:
    """ "random", "sequential", "30 % random"; "read", "write", "50 % read" ('' when not stated)."""
    if pct is None:
        return ""
    return words.get(round(pct), f"{pct:.3g} % {of}") if pct == round(pct) else f"{pct:.3g} % {of}"


def _size_title(size_bytes: int) -> str:
    """4K, 64K, 1M as DiskSpd's ``-b`` writes block sizes; other sizes in bytes."""
    for suffix, factor in (("M", 1024 * 1024), ("K", 1024)):
        if size_bytes >= factor and size_bytes % factor == 0:
            return f"{size_bytes // factor}{suffix}"
    return f"{size_bytes} B"


def _point(m: _Measurement, warnings: list[str], where: str) -> Point:
    total, read, write = (m.directions.get(key) for key in ("total", "read", "write"))
    point = Point(cpu_pct=m.cpu_pct, metrics=m.metrics)
    point.load = {"outstanding_io": _outstanding(m, warnings, where), "threads": m.threads}
    point.iops, point.mbps, point.avg_response_ms = _figures(total, m.seconds)
    point.read_iops, point.read_mbps, point.avg_read_response_ms = _figures(read, m.seconds)
    point.write_iops, point.write_mbps, point.avg_write_response_ms = _figures(write, m.seconds)
    point.max_response_ms = (m.metrics.get("percentiles_ms") or {}).get("total", {}).get("100")
    return point


def _figures(direction: _Direction | None, seconds: float) -> tuple[float | None, float | None, float | None]:
    """(IOPS, decimal MB/s, mean latency ms); None for a direction that did no I/O."""
    if direction is None or not direction.ios:
        return None, None, None
    return direction.iops, direction.bytes / seconds / MB, direction.avg_ms


def _outstanding(m: _Measurement, warnings: list[str], where: str) -> int | None:
    """Outstanding I/Os: per-thread depth x threads, summed over the targets each thread drives."""
    if m.pool_outstanding_per_thread and m.threads:
        return m.pool_outstanding_per_thread * m.threads
    depths = {t.outstanding_per_thread for t in m.targets}
    if m.threads and len(m.pairs) < m.threads and len(depths) == 1 and None not in depths:
        # Every thread has a row of its own (one per target with -F): fewer rows than threads is a table
        # cut down by hand or by a harness; DiskSpd's own thread count is the load.
        depth = depths.pop()
        assert depth is not None
        warnings.append(
            f"{where}: the Total IO table lists {len(m.pairs)} of the {m.threads} threads DiskSpd counted "
            f"(its 'thread count'); outstanding I/Os are {m.threads} threads x {depth}, its figures the "
            "table's total: row"
        )
        return m.threads * depth
    by_path = {t.path.lower(): t for t in m.targets}
    total = 0
    for path, _ in m.pairs:
        target = by_path.get(path.lower()) or (m.targets[0] if len(m.targets) == 1 else None)
        if target is None or target.outstanding_per_thread is None:
            warnings.append(f"{where}: no queue depth for target {path!r}; outstanding I/Os left unknown")
            return None
        total += target.outstanding_per_thread
    return total or None


def _workload(m: _Measurement) -> Workload:
    """The workload of the targets, each weighted by the I/Os it did."""
    ios_by_path: dict[str, int] = {}
    for path, ios in m.pairs:
        ios_by_path[path.lower()] = ios_by_path.get(path.lower(), 0) + ios
    weights = [(t, ios_by_path.get(t.path.lower(), 0)) for t in m.targets]
    if not any(w for _, w in weights):
        weights = [(t, 1) for t in m.targets]
    total = sum(w for _, w in weights)
    if not total:
        return Workload()
    sizes: dict[int, float] = {}
    for target, weight in weights:
        if target.block_bytes:
            sizes[target.block_bytes] = sizes.get(target.block_bytes, 0.0) + 100.0 * weight / total
    return Workload(
        read_pct=_weighted(weights, total, lambda t: None if t.write_pct is None else 100 - t.write_pct),
        random_pct=_weighted(weights, total, lambda t: t.random_pct),
        transfer_sizes=[TransferSize(bytes=b, pct=round(p, 6)) for b, p in sorted(sizes.items())],
        alignment_bytes=_common_alignment(m.targets),
        streams=_interlocked_streams(m.targets),
    )


def _common_alignment(targets: list[_Target]) -> int | None:
    """The random-offset alignment the targets share; targets that differ state no one alignment."""
    alignments = {t.alignment_bytes for t in targets if t.random_pct}
    return alignments.pop() if len(alignments) == 1 else None


def _interlocked_streams(targets: list[_Target]) -> int | None:
    """``-si`` makes all threads of a target share one sequential stream: one stream per target.
    Without it each thread runs its own sequence, which is load (threads), not a stated stream count."""
    if targets and all(t.interlocked and not t.random_pct for t in targets):
        return len(targets)
    return None


def _weighted(
    weights: list[tuple[_Target, int]], total: int, value_of: Callable[[_Target], float | None]
) -> float | None:
    values = [(value, w) for t, w in weights if (value := value_of(t)) is not None]
    if len(values) < len(weights):
        return None
    return round(sum(v * w for v, w in values) / total, 6)
