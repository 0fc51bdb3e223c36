"""The normalised result types every parser returns, and the contract they are checked against.

Units are fixed whatever the tool printed: MB/s fields are 10^6 bytes per second, times are
milliseconds, sizes are bytes, percentages are 0-100. Unknown values are ``None``, never 0.
"""

import functools
import math
import re
from dataclasses import dataclass, field, fields, is_dataclass

MB = 1_000_000
MIB = 1024 * 1024

POINT_FIGURES = (
    "iops",
    "read_iops",
    "write_iops",
    "mbps",
    "read_mbps",
    "write_mbps",
    "avg_response_ms",
    "avg_read_response_ms",
    "avg_write_response_ms",
    "max_response_ms",
    "cpu_pct",
)
LOAD_ORDER_KEYS = ("outstanding_io", "threads", "large_outstanding", "small_outstanding")
VERDICTS = ("pass", "fail", None)


def mib_to_mbps(mib_per_s):
    """Binary MiB/s (2^20 bytes) to decimal MB/s (10^6 bytes); ``None`` stays ``None``."""
    return None if mib_per_s is None else mib_per_s * MIB / MB


@dataclass
class TransferSize:
    bytes: int
    pct: float


@dataclass
class Workload:
    read_pct: float | None = None
    random_pct: float | None = None
    transfer_sizes: list[TransferSize] = field(default_factory=list)
    # Where the tool states them: the boundary every I/O offset is a multiple of, and the number
    # of independent sequential streams (not threads or jobs, which are load).
    alignment_bytes: int | None = None
    streams: int | None = None


@dataclass
class Point:
    load: dict = field(default_factory=dict)
    iops: float | None = None
    read_iops: float | None = None
    write_iops: float | None = None
    mbps: float | None = None
    read_mbps: float | None = None
    write_mbps: float | None = None
    avg_response_ms: float | None = None
    avg_read_response_ms: float | None = None
    avg_write_response_ms: float | None = None
    max_response_ms: float | None = None
    cpu_pct: float | None = None
    metrics: dict = field(default_factory=dict)


@dataclass
class Run:
    name: str
    description: str = ""
    started_at: str | None = None
    workload: Workload = field(default_factory=Workload)
    verdict: str | None = None
    params: dict = field(default_factory=dict)
    points: list[Point] = field(default_factory=list)


@dataclass
class Volume:
    name: str
    array: str | None = None
    raid_level: str | None = None
    capacity_gb: float | None = None
    segment_kb: float | None = None
    read_cache: bool | None = None
    write_cache: bool | None = None
    write_cache_mirroring: bool | None = None
    prefetch: bool | None = None
    preferred_owner: str | None = None


@dataclass
class Array:
    name: str
    raid_level: str | None = None
    drive_count: int | None = None


@dataclass
class Drive:
    """One drive of an array profile: where it sits and what it is, as the profile prints it."""

    location: str
    tray: int | None = None
    drawer: int | None = None
    slot: int | None = None
    type: str | None = None  # HDD or SSD
    interface: str | None = None  # SAS, FC, SATA, ...
    capacity_gb: float | None = None  # raw capacity, binary GB
    speed_rpm: float | None = None
    firmware: str | None = None
    product_id: str | None = None
    manufacturer: str | None = None
    mode: str | None = None  # Assigned, Unassigned, Hot spare standby, ...
    array: str | None = None


@dataclass
class System:
    name: str | None = None
    vendor: str | None = None
    model: str | None = None
    controllers: int | None = None
    firmware: str | None = None
    cache_mb_per_controller: float | None = None
    drive_count: int | None = None
    arrays: list[Array] = field(default_factory=list)
    volumes: list[Volume] = field(default_factory=list)
    drives: list[Drive] = field(default_factory=list)
    details: dict = field(default_factory=dict)


@dataclass
class ResultSet:
    format: str
    tool: dict
    source: dict
    system: System | None = None
    runs: list[Run] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self):
        """The contract's dict form. Shallow: parsers' metric dicts and lists are handed over as they
        are (``dataclasses.asdict`` deep-copies every value, which dominates on large files)."""
        return _plain(self)


# Values ``_plain`` hands over as they are; checking the type first spares a call per field.
_LEAF_TYPES = frozenset((str, int, float, bool, dict, type(None)))


@functools.cache
def _field_names(cls):
    """A dataclass's field names, ``None`` for other types: looked up once per class, not per value."""
    return tuple(f.name for f in fields(cls)) if is_dataclass(cls) else None


def _plain(value):
    names = _field_names(type(value))
    if names is not None:
        out = {}
        for name in names:
            item = getattr(value, name)
            out[name] = item if type(item) in _LEAF_TYPES else _plain(item)
        return out
    if isinstance(value, list) and value and is_dataclass(value[0]):
        return [_plain(item) for item in value]
    return value


def point_load_key(point):
    """Sort key giving the increasing load order of a point (dict form)."""
    load = point.get("load") or {}
    return tuple(load.get(key) or 0 for key in LOAD_ORDER_KEYS)


class ContractError(ValueError):
    """Parser output that does not follow the result contract: a parser bug, or a damaged file
    whose impossible figures (negative, infinite) the parser did not catch itself."""

    def __init__(self, problems):
        super().__init__("; ".join(problems[:10]))
        self.problems = problems


def _number_or_none(value, where, errors, *, minimum=None, maximum=None):
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        errors.append(f"{where}: expected a number or null, got {value!r}")
        return
    if math.isinf(value):
        errors.append(f"{where}: infinite value {value}")
    elif minimum is not None and value < minimum:
        errors.append(f"{where}: {value} is below {minimum}")
    elif maximum is not None and value > maximum:
        errors.append(f"{where}: {value} is above {maximum}")


def _validate_workload(workload, where, errors):
    if not isinstance(workload, dict):
        errors.append(f"{where}: expected an object")
        return
    _number_or_none(workload.get("read_pct"), f"{where}.read_pct", errors, minimum=0, maximum=100)
    _number_or_none(workload.get("random_pct"), f"{where}.random_pct", errors, minimum=0, maximum=100)
    for i, size in enumerate(workload.get("transfer_sizes") or []):
        if not isinstance(size.get("bytes"), int) or size["bytes"] <= 0:
            errors.append(f"{where}.transfer_sizes[{i}].bytes: expected a positive whole number")
        _number_or_none(size.get("pct"), f"{where}.transfer_sizes[{i}].pct", errors, minimum=0, maximum=100)
    for name in ("alignment_bytes", "streams"):
        value = workload.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            errors.append(f"{where}.{name}: expected a positive whole number or null, got {value!r}")


def _validate_point(point, where, errors):
    if not isinstance(point.get("load"), dict):
        errors.append(f"{where}.load: expected an object")
    for name in POINT_FIGURES:
        _number_or_none(point.get(name), f"{where}.{name}", errors, minimum=0)
    _number_or_none(point.get("cpu_pct"), f"{where}.cpu_pct", errors, maximum=100 * 1024)
    if not isinstance(point.get("metrics", {}), dict):
        errors.append(f"{where}.metrics: expected an object")
    _finite_everywhere(point.get("load"), f"{where}.load", errors)
    _finite_everywhere(point.get("metrics"), f"{where}.metrics", errors)


def _finite_everywhere(value, where, errors):
    """Stored as JSON in PostgreSQL, which has no NaN or infinity: every number must be finite."""
    if _all_finite(value):
        return
    _locate_infinite(value, where, errors)


_PLAIN_TYPES = (str, int, bool, type(None))


def _all_finite(value):
    """Whether every float in ``value`` (nested dicts, lists, tuples) is finite, without naming
    places: the clean case, millions of values in a large file, in one cheap pass. Anything
    unusual (a float subclass) answers False, and the exact walk decides."""
    stack = [[value]]
    while stack:
        item = stack.pop()
        for member in item.values() if type(item) is dict else item:
            kind = type(member)
            if kind is float:
                if member - member != 0.0:  # NaN and infinities give NaN
                    return False
            elif kind is dict or kind is list or kind is tuple:
                stack.append(member)
            elif kind not in _PLAIN_TYPES:
                return False
    return True


def _locate_infinite(value, where, errors):
    if isinstance(value, float) and not math.isfinite(value):
        errors.append(f"{where}: {value} is not a finite number")
    elif isinstance(value, dict):
        for key, item in value.items():
            _locate_infinite(item, f"{where}.{key}", errors)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _locate_infinite(item, f"{where}[{i}]", errors)


def _validate_run(run, where, errors):
    if not isinstance(run.get("name"), str) or not run["name"].strip():
        errors.append(f"{where}.name: expected a non-empty name")
    if run.get("verdict") not in VERDICTS:
        errors.append(f"{where}.verdict: expected 'pass', 'fail' or null, got {run.get('verdict')!r}")
    _validate_workload(run.get("workload"), f"{where}.workload", errors)
    _finite_everywhere(run.get("params"), f"{where}.params", errors)
    points = run.get("points")
    if not isinstance(points, list):
        errors.append(f"{where}.points: expected a list")
        return
    if not points:
        errors.append(f"{where}.points: a run has at least one point")
    for i, point in enumerate(points):
        _validate_point(point, f"{where}.points[{i}]", errors)
    keys = [point_load_key(p) for p in points if isinstance(p.get("load"), dict)]
    if keys != sorted(keys):
        errors.append(f"{where}.points: not in increasing load order")


def _validate_drives(drives, errors):
    if drives is None:
        return
    if not isinstance(drives, list):
        errors.append("system.drives: expected a list")
        return
    for i, drive in enumerate(drives):
        for name in ("capacity_gb", "speed_rpm"):
            _number_or_none(drive.get(name), f"system.drives[{i}].{name}", errors, minimum=0)


def validate(result):
    """Check a result set (dict form) against the contract; return a list of problems."""
    errors = []
    for key in ("format", "tool", "source", "runs", "warnings"):
        if key not in result:
            errors.append(f"{key}: missing")
    if errors:
        return errors
    if not result["tool"].get("name"):
        errors.append("tool.name: missing")
    if not result["source"].get("name") or len(result["source"].get("sha256") or "") != 64:
        errors.append("source: expected name and a sha256 of 64 hex digits")
    system = result.get("system")
    if system is not None:
        _number_or_none(system.get("controllers"), "system.controllers", errors, minimum=0)
        _number_or_none(system.get("drive_count"), "system.drive_count", errors, minimum=0)
        _number_or_none(system.get("cache_mb_per_controller"), "system.cache_mb_per_controller", errors, minimum=0)
        _finite_everywhere(system.get("details"), "system.details", errors)
        _validate_drives(system.get("drives"), errors)
    for i, run in enumerate(result["runs"]):
        _validate_run(run, f"runs[{i}]", errors)
    if system is None and not result["runs"]:
        errors.append("runs: a result set with no system holds no runs")
    if not all(isinstance(w, str) for w in result["warnings"]):
        errors.append("warnings: expected a list of sentences")
    return errors


def check(result):
    """Raise :class:`ContractError` listing every problem when ``result`` breaks the contract."""
    errors = validate(result)
    if errors:
        raise ContractError(errors)
    return result


_PROBLEM_PLACE = re.compile(r"^runs\[(\d+)\](?:\.points\[(\d+)\])?\.?([^:]*): (.*)$")


def problem_sentence(result, problem):
    """One contract problem as a user reads it: the run by name and the point by number
    (``runs[0].points[2].iops: ...`` becomes ``run 'seq read', point 3: iops ...``)."""
    match = _PROBLEM_PLACE.match(problem)
    if not match:
        return f"{problem}; the file may be damaged"
    run_index, point_index, field_name, detail = match.groups()
    run = result["runs"][int(run_index)]
    place = f"run {run.get('name')!r}"
    if field_name == "points" and not run.get("points"):
        return f"{place} holds no measured point; the file may be cut short or miss the tables holding its figures"
    if point_index is not None:
        place += f", point {int(point_index) + 1}"
    return f"{place}: {field_name}: {detail}; a measured figure cannot be that, so the file may be damaged"
