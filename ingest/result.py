"""The normalised result types every parser returns, and the contract they are checked against.

Units are fixed whatever the tool printed: MB/s fields are 10^6 bytes per second, times are
milliseconds, sizes are bytes, percentages are 0-100. Unknown values are ``None``, never 0.
"""

import functools
import math
import re
import types
from dataclasses import MISSING, Field, dataclass, field, fields, is_dataclass
from typing import Any, get_args, get_origin, get_type_hints

from .units import MB as MB
from .units import MIB as MIB
from .units import mib_to_mbps as mib_to_mbps

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
# The highest CPU % a point may state: 100 per processor, up to 1,024 processors.
MAX_CPU_PCT = 100 * 1024


def _figure(*, minimum: float | None = 0, maximum: float | None = None, positive: bool = False) -> Any:
    """A dataclass field of a figure (default ``None``) with the bounds the contract checks it
    against; :func:`validate` and :func:`json_schema` both read them from the field."""
    bounds = {"minimum": minimum, "maximum": maximum, "positive": positive}
    return field(default=None, metadata={"bounds": bounds})


def _percent() -> Any:
    return _figure(minimum=0, maximum=100)


@dataclass
class TransferSize:
    """One transfer size of a run's mix: its bytes and its share of the I/Os (%)."""

    bytes: int = field(metadata={"bounds": {"minimum": None, "maximum": None, "positive": True}})
    pct: float = field(metadata={"bounds": {"minimum": 0, "maximum": 100, "positive": False}})


@dataclass
class Workload:
    """What a run did, whatever it is named: read %, random %, transfer-size mix, alignment, streams."""

    read_pct: float | None = _percent()
    random_pct: float | None = _percent()
    transfer_sizes: list[TransferSize] = field(default_factory=list)
    # Where the tool states them: the boundary every I/O offset is a multiple of, and the number
    # of independent sequential streams (not threads or jobs, which are load).
    alignment_bytes: int | None = _figure(minimum=None, positive=True)
    streams: int | None = _figure(minimum=None, positive=True)


@dataclass
class Point:
    """One load level of a run: its load, IOPS, MB/s (10^6 bytes/s), response times (ms), CPU %."""

    load: dict = field(default_factory=dict)
    iops: float | None = _figure()
    read_iops: float | None = _figure()
    write_iops: float | None = _figure()
    mbps: float | None = _figure()
    read_mbps: float | None = _figure()
    write_mbps: float | None = _figure()
    avg_response_ms: float | None = _figure()
    avg_read_response_ms: float | None = _figure()
    avg_write_response_ms: float | None = _figure()
    max_response_ms: float | None = _figure()
    cpu_pct: float | None = _figure(maximum=MAX_CPU_PCT)
    metrics: dict = field(default_factory=dict)


@dataclass
class Run:
    """One measured experiment: its name, workload, parameters, verdict and points in load order."""

    name: str = field(metadata={"schema": {"pattern": r"\S"}})
    description: str = ""
    started_at: str | None = None
    workload: Workload = field(default_factory=Workload)
    verdict: str | None = field(default=None, metadata={"schema": {"enum": list(VERDICTS)}})
    params: dict = field(default_factory=dict)
    # In increasing load order: the registry sorts them (see ``registry._finish``).
    points: list[Point] = field(default_factory=list, metadata={"schema": {"minItems": 1}})


@dataclass
class Volume:
    """A logical drive (volume) of an array profile, with its segment size (KB) and cache settings."""

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
    """An array (volume group, disk pool) of an array profile."""

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
    capacity_gb: float | None = _figure()  # raw capacity, binary GB
    speed_rpm: float | None = _figure()
    firmware: str | None = None
    product_id: str | None = None
    manufacturer: str | None = None
    mode: str | None = None  # Assigned, Unassigned, Hot spare standby, ...
    array: str | None = None


@dataclass
class System:
    """The storage system an array profile describes: controllers, cache, arrays, volumes, drives."""

    name: str | None = None
    vendor: str | None = None
    model: str | None = None
    controllers: int | None = _figure()
    firmware: str | None = None
    cache_mb_per_controller: float | None = _figure()
    drive_count: int | None = _figure()
    arrays: list[Array] = field(default_factory=list)
    volumes: list[Volume] = field(default_factory=list)
    drives: list[Drive] = field(default_factory=list)
    details: dict = field(default_factory=dict)


_TOOL_SCHEMA = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": {"type": "string", "minLength": 1}, "version": {"type": ["string", "null"]}},
}
_SOURCE_SCHEMA = {
    "type": "object",
    "required": ["name", "sha256"],
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    },
}


@dataclass
class ResultSet:
    """What one file (or files read together) holds: the tool, the file, the system, the runs."""

    format: str = field(metadata={"schema": {"minLength": 1}})
    tool: dict = field(metadata={"schema": _TOOL_SCHEMA})
    source: dict = field(metadata={"schema": _SOURCE_SCHEMA})
    system: System | None = None
    runs: list[Run] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
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


def point_load_key(point: dict) -> tuple:
    """Sort key giving the increasing load order of a point (dict form)."""
    load = point.get("load") or {}
    return tuple(load.get(key) or 0 for key in LOAD_ORDER_KEYS)


class ContractError(ValueError):
    """Parser output that does not follow the result contract: a parser bug, or a damaged file
    whose impossible figures (negative, infinite) the parser did not catch itself."""

    def __init__(self, problems: list[str]) -> None:
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


def _bounds(cls: type) -> tuple[tuple[str, float | None, float | None, bool], ...]:
    """The bounded figures of a result type: (name, minimum, maximum, positive whole number)."""
    found = []
    for item in fields(cls):
        if "bounds" in item.metadata:
            bounds = item.metadata["bounds"]
            found.append((item.name, bounds["minimum"], bounds["maximum"], bounds["positive"]))
    return tuple(found)


def _check_figures(values: dict, bounds: tuple, where: str, errors: list[str]) -> None:
    if bounds is _POINT_BOUNDS and _POINT_FIGURES_PLAIN and _plain_point_figures(values):
        return
    for name, minimum, maximum, positive in bounds:
        value = values.get(name)
        if not positive:
            _number_or_none(value, f"{where}.{name}", errors, minimum=minimum, maximum=maximum)
        elif value is not None and (isinstance(value, bool) or not isinstance(value, int) or value <= 0):
            errors.append(f"{where}.{name}: expected a positive whole number or null, got {value!r}")


_WORKLOAD_BOUNDS = _bounds(Workload)
_POINT_BOUNDS = _bounds(Point)
# ``_plain_point_figures`` holds while every point figure has a minimum of 0 and is no count.
_POINT_FIGURES_PLAIN = all(minimum == 0 and not positive for _name, minimum, _maximum, positive in _POINT_BOUNDS)
_POINT_FIGURE_NAMES = tuple(name for name, *_rest in _POINT_BOUNDS)
_POINT_MAXIMA = tuple((name, maximum) for name, _minimum, maximum, _positive in _POINT_BOUNDS if maximum is not None)
_FIGURE_TYPES = frozenset((int, float))


def _plain_point_figures(point: dict) -> bool:
    """Whether a point's figures are all within their bounds, checked in one pass over them (the
    clean case, a point in every few lines of a large file); False sends them to the check that
    names each problem."""
    present = [value for value in map(point.get, _POINT_FIGURE_NAMES) if value is not None]
    if not present:
        return True
    try:
        # NaN fails ``>=`` when min() returns it and makes the sum NaN otherwise.
        if not _FIGURE_TYPES.issuperset(map(type, present)) or not min(present) >= 0 or not sum(present) < math.inf:
            return False
    except OverflowError:  # an int too large for a float
        return False
    return all(point.get(name) is None or point[name] <= maximum for name, maximum in _POINT_MAXIMA)


_DRIVE_BOUNDS = _bounds(Drive)
_SYSTEM_BOUNDS = _bounds(System)


def _validate_workload(workload, where, errors):
    if not isinstance(workload, dict):
        errors.append(f"{where}: expected an object")
        return
    _check_figures(workload, _WORKLOAD_BOUNDS, where, errors)
    for i, size in enumerate(workload.get("transfer_sizes") or []):
        if not isinstance(size.get("bytes"), int) or size["bytes"] <= 0:
            errors.append(f"{where}.transfer_sizes[{i}].bytes: expected a positive whole number")
        _number_or_none(size.get("pct"), f"{where}.transfer_sizes[{i}].pct", errors, minimum=0, maximum=100)


def _validate_point(point, where, errors, metrics_checked):
    if not isinstance(point.get("load"), dict):
        errors.append(f"{where}.load: expected an object")
    _check_figures(point, _POINT_BOUNDS, where, errors)
    if not isinstance(point.get("metrics", {}), dict):
        errors.append(f"{where}.metrics: expected an object")
    _finite_everywhere(point.get("load"), f"{where}.load", errors)
    if not metrics_checked:
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


def _validate_run(run, where, errors, metrics_checked):
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
        _validate_point(point, f"{where}.points[{i}]", errors, metrics_checked)
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
        _check_figures(drive, _DRIVE_BOUNDS, f"system.drives[{i}]", errors)


def validate(result: dict, *, metrics_checked: bool = False) -> list[str]:
    """Check a result set (dict form) against the contract; return a list of problems.

    ``metrics_checked``: the points' metrics hold only numbers their parser checked as it read them
    (finite, as :mod:`ingest.numbers` reads them), so they are not walked again; a large file holds
    millions of them. Everything else is checked whatever the parser says."""
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
        _check_figures(system, _SYSTEM_BOUNDS, "system", errors)
        _finite_everywhere(system.get("details"), "system.details", errors)
        _validate_drives(system.get("drives"), errors)
    for i, run in enumerate(result["runs"]):
        _validate_run(run, f"runs[{i}]", errors, metrics_checked)
    if system is None and not result["runs"]:
        errors.append("runs: a result set with no system holds no runs")
    if not all(isinstance(w, str) for w in result["warnings"]):
        errors.append("warnings: expected a list of sentences")
    return errors


def check(result: dict, *, metrics_checked: bool = False) -> dict:
    """Raise :class:`ContractError` listing every problem when ``result`` breaks the contract
    (``metrics_checked`` as :func:`validate` takes it)."""
    errors = validate(result, metrics_checked=metrics_checked)
    if errors:
        raise ContractError(errors)
    return result


_PROBLEM_PLACE = re.compile(r"^runs\[(\d+)\](?:\.points\[(\d+)\])?\.?([^:]*): (.*)$")


def problem_sentence(result: dict, problem: str) -> str:
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


JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_JSON_TYPES: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object"}


@functools.cache
def json_schema() -> dict:
    """The result contract (a :class:`ResultSet` in dict form) as a JSON Schema, draft 2020-12.

    Generated from the result types above: each dataclass is an object holding exactly its fields,
    typed by their annotations, with the bounds :func:`validate` checks (``_figure`` metadata) and
    the constraints in each field's ``schema`` metadata. What JSON Schema cannot state is left to
    :func:`validate`: numbers are finite, points in increasing load order, a result set with no
    system has runs. Shared by reference: copy it before changing it.
    """
    definitions: dict[str, dict] = {}
    _object_schema(ResultSet, definitions)
    return {
        "$schema": JSON_SCHEMA_DIALECT,
        "title": "ArrayBench result set",
        "description": (__doc__ or "").strip().splitlines()[0],
        "$ref": "#/$defs/ResultSet",
        "$defs": definitions,
    }


def _object_schema(cls: type, definitions: dict[str, dict]) -> dict:
    if cls.__name__ not in definitions:
        definitions[cls.__name__] = {}  # placed first: a type may refer to itself
        hints = get_type_hints(cls)
        properties = {item.name: _field_schema(item, hints[item.name], definitions) for item in fields(cls)}
        definitions[cls.__name__] = {
            "type": "object",
            "description": (cls.__doc__ or cls.__name__).strip().splitlines()[0],
            "properties": properties,
            "required": [item.name for item in fields(cls)],
            "additionalProperties": False,
        }
    return {"$ref": f"#/$defs/{cls.__name__}"}


def _field_schema(item: Field, annotation: Any, definitions: dict[str, dict]) -> dict:
    schema = _type_schema(annotation, definitions)
    bounds = item.metadata.get("bounds")
    if bounds:
        if bounds["positive"]:
            schema["exclusiveMinimum"] = 0
        if bounds["minimum"] is not None:
            schema["minimum"] = bounds["minimum"]
        if bounds["maximum"] is not None:
            schema["maximum"] = bounds["maximum"]
    schema.update(item.metadata.get("schema", {}))
    if item.default is not MISSING and item.default is not None and not isinstance(item.default, Field):
        schema["default"] = item.default
    return schema


def _type_schema(annotation: Any, definitions: dict[str, dict]) -> dict:
    if annotation is type(None):
        return {"type": "null"}
    if annotation in _JSON_TYPES:
        return {"type": _JSON_TYPES[annotation]}
    if is_dataclass(annotation) and isinstance(annotation, type):
        return _object_schema(annotation, definitions)
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        return {"type": "array", "items": _type_schema(item, definitions)}
    if isinstance(annotation, types.UnionType):
        options = [_type_schema(option, definitions) for option in get_args(annotation)]
        if all(set(option) == {"type"} for option in options):
            return {"type": [option["type"] for option in options]}
        return {"anyOf": options}
    raise TypeError(f"no JSON Schema for {annotation!r}")
