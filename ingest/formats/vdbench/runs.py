"""An RD's run and point: its workload from the figures and ``For loops``, its average line's
figures in contract units, its interval lines as a time series."""

import re
from typing import Any, TypeVar

from ...figures import known_max, measured_read_pct
from ...numbers import size_or_none
from ...result import Point, Run, TransferSize, Workload
from ...units import mib_to_mbps
from .columns import _INFINITY, _Figures, _Interval
from .reader import _Definition

_UNNAMED = re.compile(r"[^a-z0-9%]+")
# The run definitions vdbench adds to prepare a test, not to measure one: ``format_for_<rd>`` creates
# an FSD's files (``format=yes``), ``SD_format`` writes a raw SD over (``formatsd=yes``).
_PREPARATION_RD = re.compile(r"^(?:format_for_|SD_format$)", re.IGNORECASE)
_REQUESTED_RATE = re.compile(r"(?:I/O rate: |fwdrate=)(\d+(?:\.\d+)?)(?![\d.%])")
# For-loop parameters that set the load (a point); the others change the workload (a run).
_LOAD_LOOPS = {"threads", "iorate", "fwdrate"}
_POINT_FIELDS = {
    "rate",
    "read_rate",
    "write_rate",
    "read_pct",
    "mib_per_s",
    "read_mib_per_s",
    "write_mib_per_s",
    "resp_ms",
    "read_resp_ms",
    "write_resp_ms",
    "max_resp_ms",
    "cpu_pct",
    "threads",
}
_T = TypeVar("_T")


def _average(definition: _Definition) -> _Figures:
    """The figures of a definition's ``avg_`` line ({} for one cut short, which is no complete run)."""
    return definition.average or {}


def _run_and_point(definition: _Definition) -> tuple[tuple[object, ...], Run, Point]:
    values = _average(definition)
    workload, measured = _workload(values, definition.loops)
    name = " ".join([definition.name] + [f"{k}={v}" for k, v in definition.loops.items() if k not in _LOAD_LOOPS])
    workload.name = definition.name
    run = Run(
        name=name,
        description=definition.description,
        started_at=definition.started_at,
        workload=workload,
        phase="preparation" if _PREPARATION_RD.match(definition.name) else "measurement",
        params={"rd": definition.name} | {f"for_{k}": v for k, v in definition.loops.items() if k not in _LOAD_LOOPS},
    )
    if measured:
        run.params["measured_workload"] = measured
    # Flatfile rows carry the requested workload; runs of one name with another workload stay apart.
    key = (name, values.get("requested_bytes"), values.get("requested_read_pct"), values.get("requested_random_pct"))
    return key, run, _point(definition, values)


def _workload(values: _Figures, loops: dict[str, str]) -> tuple[Workload, list[str]]:
    """What the RD asked for (its ``For loops`` values, the flatfile's requested columns); where the
    report states neither, the measured read % and average transfer size of the ``avg_`` line,
    named in the run's ``measured_workload`` (an average of a size distribution is no size issued)."""
    read_pct = _first_known(_operation_read_pct(loops), _loop_number(loops.get("rdpct")))
    read_pct = _first_known(read_pct, values.get("requested_read_pct"))
    random_pct = _first_known(_random_pct(loops.get("seekpct")), _fileio_random_pct(loops.get("fileio")))
    random_pct = _first_known(random_pct, values.get("requested_random_pct"))
    sizes = _xfersizes(loops.get("xfersize"))
    if not sizes and (requested_bytes := values.get("requested_bytes")):
        sizes = [TransferSize(bytes=int(requested_bytes), pct=100.0)]
    measured: list[str] = []
    if read_pct is None and (read_pct := _read_pct(values)) is not None:
        measured.append("read_pct")
    # A stated xfersize that is no mix (a range) leaves the sizes unknown: the average is no size issued.
    if not sizes and "xfersize" not in loops and (bytes_per_io := values.get("bytes_per_io")):
        sizes = [TransferSize(bytes=int(bytes_per_io), pct=100.0)]
        measured.append("transfer_sizes")
    workload = Workload(
        read_pct=read_pct,
        random_pct=random_pct,
        transfer_sizes=sizes,
        alignment_bytes=size_or_none(loops.get("align")),
        streams=_streams(loops.get("streams")),
    )
    return workload, measured


def _streams(text: str | None) -> int | None:
    """A WD's ``streams=n``: n independent sequential streams; a ``(min,max)`` range is no one count."""
    count = _loop_number(text)
    return int(count) if count and count.is_integer() and count >= 1 else None


def _operation_read_pct(loops: dict[str, str]) -> float | None:
    """An FWD's ``operation=read`` / ``write`` is all reads or all writes."""
    return {"read": 100.0, "write": 0.0}.get((loops.get("operation") or "").lower())


def _fileio_random_pct(fileio: str | None) -> float | None:
    """``fileio=random`` / ``sequential`` (also ``(random,shared)``) of an FWD."""
    kind = (fileio or "").strip("()").split(",")[0].strip().lower()
    return {"random": 100.0, "sequential": 0.0, "seq": 0.0}.get(kind)


def _xfersizes(text: str | None) -> list[TransferSize]:
    """``4k`` or a distribution ``(4k,50,64k,50)`` as transfer sizes; a ``(min,max,align)`` range,
    or anything else, states no mix."""
    if not text:
        return []
    size = size_or_none(text)
    if size:
        return [TransferSize(bytes=size, pct=100.0)]
    items = [item.strip() for item in text.strip("()").split(",")]
    if len(items) < 2 or len(items) % 2:
        return []
    read = [(size_or_none(items[i]), _loop_number(items[i + 1])) for i in range(0, len(items), 2)]
    pairs = [(size, pct) for size, pct in read if size and pct is not None and 0 < pct <= 100]
    if len(pairs) != len(read):
        return []
    if abs(sum(pct for _, pct in pairs) - 100) > 0.01:
        return []
    mix: dict[int, float] = {}
    for size, pct in pairs:
        mix[size] = mix.get(size, 0.0) + pct
    return [TransferSize(bytes=size, pct=pct) for size, pct in sorted(mix.items())]


def _read_pct(values: _Figures) -> float | None:
    if values.get("read_pct") is not None:
        return values["read_pct"]
    return measured_read_pct(values.get("read_rate"), values.get("write_rate"))


def _direction_rates(values: _Figures) -> tuple[float | None, float | None]:
    """Read and write IOPS: given by the FSD layouts, from the read percentage for SD."""
    if values.get("read_rate") is not None:
        return values["read_rate"], values.get("write_rate")
    rate, read_pct = values.get("rate"), values.get("read_pct")
    if rate is None or read_pct is None:
        return None, None
    read_iops = rate * read_pct / 100
    return read_iops, rate - read_iops


def _point(definition: _Definition, values: _Figures) -> Point:
    read_iops, write_iops = _direction_rates(values)
    load: dict[str, float] = {}
    threads = _loop_number(definition.loops.get("threads")) or values.get("threads")
    if threads:
        load["threads"] = int(threads)
    target_iops = _requested_rate(definition)
    if target_iops:
        load["target_iops"] = target_iops
    metrics: dict[str, Any] = {k: v for k, v in values.items() if k not in _POINT_FIELDS and v is not None}
    metrics["average"] = definition.average_label
    metrics |= {f"{kind}_row": row for kind, row in definition.statistics.items()}
    if definition.intervals:
        metrics["intervals"] = _interval_series(definition.intervals)
    return Point(
        load=load,
        iops=values.get("rate"),
        read_iops=read_iops,
        write_iops=write_iops,
        mbps=mib_to_mbps(values.get("mib_per_s")),
        read_mbps=mib_to_mbps(values.get("read_mib_per_s")),
        write_mbps=mib_to_mbps(values.get("write_mib_per_s")),
        avg_response_ms=values.get("resp_ms"),
        avg_read_response_ms=values.get("read_resp_ms") if read_iops else None,
        avg_write_response_ms=values.get("write_resp_ms") if write_iops else None,
        max_response_ms=values.get("max_resp_ms")
        if values.get("max_resp_ms") is not None
        else known_max([values.get("read_max_resp_ms"), values.get("write_max_resp_ms")]),
        cpu_pct=values.get("cpu_pct"),
        metrics=metrics,
    )


def _first_known(*values: _T | None) -> _T | None:
    return next((value for value in values if value is not None), None)


def _interval_series(intervals: list[_Interval]) -> dict[str, list]:
    numbers, iops, mbps, response_ms = (list(column) for column in zip(*intervals, strict=True))
    return {"interval": numbers, "iops": iops, "mbps": mbps, "avg_response_ms": response_ms}


def _requested_rate(definition: _Definition) -> float | None:
    """The I/O rate the RD asked for (``iorate=``, ``fwdrate=``, 'I/O rate: 100'); None for max or curve."""
    loops = definition.loops
    stated = _REQUESTED_RATE.search(definition.description)
    return _loop_number(loops.get("iorate") or loops.get("fwdrate") or (stated and stated.group(1)))


def _loop_number(text: str | None) -> float | None:
    """A parameter's number; None for text, and for a value too large to count threads or bytes by."""
    try:
        number = float(text) if text is not None else None
    except ValueError:
        return None
    return number if number is None or abs(number) < _INFINITY else None


def _random_pct(seekpct: str | None) -> float | None:
    if seekpct is None:
        return None
    named = {"seq": 0.0, "sequential": 0.0, "eof": 0.0, "random": 100.0, "rand": 100.0}
    return named.get(seekpct.lower(), _loop_number(seekpct))
