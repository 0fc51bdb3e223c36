"""The normalised result types every parser returns (checked against ``ingest.contract``), and
their JSON Schema.

Units are fixed whatever the tool printed: MB/s fields are 10^6 bytes per second, times are
milliseconds, sizes are bytes, percentages are 0-100. Unknown values are ``None``, never 0.
"""

import functools
import types
from dataclasses import MISSING, Field, dataclass, field, fields, is_dataclass
from itertools import chain, islice
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
# What a run is for: a measurement, or a step that prepares one (vdbench's format, a fill) or warms up.
PHASES = ("measurement", "preparation", "warm-up")
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
    """What a run did, whatever it is named: read %, random %, transfer-size mix, alignment, streams.

    ``name`` is the tool's own name of the workload (Iometer's access specification, fio's job
    name, vdbench's run definition), shown to people; it is no part of what the workload is: two
    runs that did the same I/O are one workload whatever they are named."""

    name: str | None = field(default=None, metadata={"schema": {"pattern": r"\S"}})
    read_pct: float | None = _percent()
    random_pct: float | None = _percent()
    transfer_sizes: list[TransferSize] = field(default_factory=list)
    # Where the tool states them: the boundary every I/O offset is a multiple of, and the number
    # of independent sequential streams (not threads or jobs, which are load).
    alignment_bytes: int | None = _figure(minimum=None, positive=True)
    streams: int | None = _figure(minimum=None, positive=True)


# A table of an Iometer point's metrics: its column names, then a row of values per worker, target or
# processor (``ingest.formats.iometer``).
_ROWS_SCHEMA = {
    "type": "object",
    "properties": {
        "columns": {"type": "array", "items": {"type": "string"}},
        "rows": {"type": "array", "items": {"type": "array"}},
    },
    "required": ["columns", "rows"],
    "additionalProperties": False,
}
_METRICS_SCHEMA = {
    "description": (
        "The tool's further figures, as its parser names them. Iometer's per-worker, per-target and "
        "per-processor figures are tables (columns, then rows of values), its latency histogram one array "
        "per bin attribute (bin names, low and high bounds in ms, high null for the last bin, I/O counts)."
    ),
    "properties": {
        "workers": _ROWS_SCHEMA,
        "targets": _ROWS_SCHEMA,
        "processors": _ROWS_SCHEMA,
        "latency_histogram": {
            "type": "object",
            "properties": {
                "bins": {"type": "array", "items": {"type": "string"}},
                "low_ms": {"type": "array", "items": {"type": "number"}},
                "high_ms": {"type": "array", "items": {"type": ["number", "null"]}},
                "counts": {"type": "array", "items": {"type": ["number", "null"]}},
            },
            "required": ["bins", "low_ms", "high_ms", "counts"],
            "additionalProperties": False,
        },
    },
}


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
    metrics: dict = field(default_factory=dict, metadata={"schema": _METRICS_SCHEMA})


@dataclass
class Run:
    """One measured experiment: its name, workload, parameters, verdict and points in load order."""

    name: str = field(metadata={"schema": {"pattern": r"\S"}})
    description: str = ""
    started_at: str | None = None
    workload: Workload = field(default_factory=Workload)
    verdict: str | None = field(default=None, metadata={"schema": {"enum": list(VERDICTS)}})
    phase: str = field(default="measurement", metadata={"schema": {"enum": list(PHASES)}})
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
        return _plain(self, take=False)

    def take_dict(self) -> dict:
        """``to_dict`` made of the result objects' own attribute dicts rather than copies of them, for
        a result set read once and then dropped (as the registry reads a parser's): it spares a copy
        of every run, workload and point. The objects are spent: each holds the dict form of its
        fields afterwards. An object met twice (one workload of two runs) is copied for each."""
        return _plain(self, take=True)


@functools.cache
def _field_layout(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A dataclass's field names and, of them, those whose type holds result types (a dataclass or a
    list of them), which ``_plain`` converts; ``None`` for other types. Looked up once per class."""
    if not is_dataclass(cls):
        return None
    hints = get_type_hints(cls)
    names = tuple(item.name for item in fields(cls))
    return names, tuple(name for name in names if _holds_result_types(hints[name]))


def _holds_result_types(annotation: Any) -> bool:
    if is_dataclass(annotation):
        return True
    return any(_holds_result_types(option) for option in get_args(annotation))


def _plain(value: object, *, take: bool) -> Any:
    if type(value) is list and value and is_dataclass(value[0]):
        return _plain_list(value, take=take)
    if _field_layout(type(value)) is None:  # type: ignore[arg-type]  # mypy takes no class for Hashable
        return value
    return _plain_list([value], take=take)[0]


def _plain_list(items: list, *, take: bool) -> list[dict[str, Any]]:
    """Result objects of one type in dict form, each level converted at once for all of them (every
    run's points together). A dataclass's ``__dict__`` holds its fields in their order: copied at C
    speed (``take``: taken as it is when no object comes twice), then its result-type fields
    converted. Objects of mixed types or with anything else set on them are read field by field."""
    cls = type(items[0])
    layout = _field_layout(cls)  # type: ignore[arg-type]  # mypy takes no class for Hashable
    if layout is None or not set(map(type, items)) <= {cls}:
        return [_plain(item, take=take) for item in items]
    names, nested = layout
    if take and len(set(map(id, items))) == len(items):
        out = [item.__dict__ for item in items]
    else:
        out = [dict(item.__dict__) for item in items]
    if not set(map(len, out)) <= {len(names)}:
        out = [{name: getattr(item, name) for name in names} for item in items]
    for name in nested:
        _plain_field(out, name, take=take)
    return out


def _plain_field(forms: list[dict[str, Any]], name: str, *, take: bool) -> None:
    """Convert one result-type field of ``forms`` in place: all its objects, or all its lists'
    objects, in one call."""
    holders = [form for form in forms if form[name] is not None]
    values = [form[name] for form in holders]
    kinds = set(map(type, values))
    if kinds == {list}:
        flat = _plain(list(chain.from_iterable(values)), take=take)
        if set(map(len, values)) == {1}:  # one object a list (a run's one point, its one transfer size)
            for form, item in zip(holders, flat, strict=True):
                form[name] = [item]
            return
        converted = iter(flat)
        for form, value in zip(holders, values, strict=True):
            form[name] = list(islice(converted, len(value)))
    elif values and list not in kinds:
        for form, value in zip(holders, _plain(values, take=take), strict=True):
            form[name] = value
    else:
        for form, value in zip(holders, values, strict=True):
            form[name] = _plain(value, take=take)


def point_load_key(point: dict) -> tuple:
    """Sort key giving the increasing load order of a point (dict form)."""
    load = point.get("load") or {}
    return tuple(load.get(key) or 0 for key in LOAD_ORDER_KEYS)


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
