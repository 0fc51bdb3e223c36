"""The parameters of the white-paper table downloads, read once for the exports and the API: which preset,
which comparison table, at which threshold and latency, and which parameters each download takes (any
other is refused, naming it, never ignored)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.http import QueryDict

from portal.analysis.tables import Table
from portal.comparisons.query import PARAMETERS
from portal.errors import ApplicationError
from portal.models import System
from portal.results.selectors import LATENCIES
from portal.sizing.output import sizing_preset_tables

from . import presets
from .pivot_tables import pivot
from .stroke_tables import stroke
from .tool_tables import TOOL_PRESETS, tool_table

# The white-paper table presets of one system, and the tables of a comparison.
PRESETS = ("whitepaper", "pivot", "stroke", *TOOL_PRESETS, "sizing")
COMPARISON_TABLES = ("all", "comparison", "summary", "side_by_side")

# The parameters of each system preset of ``table/`` (the API's tables endpoint takes the same).
SYSTEM_PRESET_PARAMETERS = {
    "whitepaper": ("system", "raid_level", "workloads", "source_table", "threshold_ms", "latency"),
    "pivot": ("system", "raid_level", "workloads", "source_table", "threshold_ms", "latency", "rows"),
    "stroke": ("system", "raid_level", "threshold_ms", "latency"),
    **dict.fromkeys(TOOL_PRESETS, ("system",)),
    "sizing": ("system", "workload", "raid_level", "cache", "target", "drives", "threshold_ms"),
}
# The compare page's parameters, which every download of a comparison takes.
COMPARISON_PARAMETERS = tuple(PARAMETERS)
# The parameters of each download of ``/export/``, besides ``format``.
DOWNLOAD_PARAMETERS = {
    "comparison": (*COMPARISON_PARAMETERS, "table"),
    "chart": (*COMPARISON_PARAMETERS, "label"),
    "bundle": COMPARISON_PARAMETERS,
}


def parameters_taken(params: QueryDict, *, allowed: Iterable[str], repeatable: Iterable[str] = ("a",)) -> None:
    """Refuse (400) a parameter a download does not take, or a single-valued one given twice, naming it and
    what the download takes: a misspelt or unsupported option is never silently ignored."""
    allowed = sorted({*allowed, "format"})
    for name in params:
        if name not in allowed:
            raise ApplicationError(
                f"'{name}' is not a parameter of this download; it takes {', '.join(allowed)}", field=name
            )
        if name not in repeatable and len(params.getlist(name)) > 1:
            raise ApplicationError(f"'{name}' is given {len(params.getlist(name))} times; give it once", field=name)


def table_parameters_taken(params: QueryDict) -> None:
    """The parameters of ``table/``: those of the preset asked for (an unknown preset is refused by name)."""
    preset = choice(params, "preset", PRESETS, "whitepaper")
    parameters_taken(params, allowed=("preset", *SYSTEM_PRESET_PARAMETERS[preset]), repeatable=())


def number(params: Mapping[str, Any], name: str, default: float, *, positive: bool = True) -> float:
    """``params[name]`` as a number, ``default`` when not given; a value to correct raises :class:`ApplicationError`."""
    text = params.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ApplicationError(f"'{name}' must be a number, got {text!r}", field=name) from None
    if positive and not value > 0:
        raise ApplicationError(f"'{name}' must be greater than 0, got {text}", field=name)
    return value


def choice(params: Mapping[str, Any], name: str, choices: Sequence[str], default: str) -> str:
    """``params[name]``, one of ``choices`` (``default`` when not given)."""
    value = params.get(name, default)
    if value not in choices:
        raise ApplicationError(f"'{name}' must be one of {', '.join(choices)}; got {value!r}", field=name)
    return value


def system_tables(system: System, params: Mapping[str, Any]) -> tuple[list[Table], str]:
    """One system's tables of the preset ``params`` name, read from the parameters of ``table/``
    (the API reads the same ones); returns (tables, preset)."""
    preset = choice(params, "preset", PRESETS, "whitepaper")
    threshold_ms = number(params, "threshold_ms", 20.0)
    latency = choice(params, "latency", tuple(LATENCIES), "avg")
    workloads = tuple(w.strip() for w in params.get("workloads", "").split(",") if w.strip()) or None
    raid_level = params.get("raid_level") or None
    if preset == "stroke":
        tables = stroke(system, raid_level=raid_level, threshold_ms=threshold_ms, latency=latency)
    elif preset in TOOL_PRESETS:
        tables = [tool_table(system, preset=preset)]
    elif preset == "sizing":
        tables = sizing_preset_tables(system, params)
    elif preset == "pivot":
        rows = tuple(params.get("rows", "drive_count,cache_setting").split(","))
        selection = presets.Selection(raid_level, workloads, params.get("source_table") or None)
        tables = [pivot(system, rows=rows, threshold_ms=threshold_ms, latency=latency, selection=selection)]
    else:
        selection = presets.default_selection(
            system, raid_level=raid_level, workloads=workloads, source_table=params.get("source_table") or None
        )
        tables = [presets.whitepaper(system, threshold_ms=threshold_ms, latency=latency, selection=selection)]
    return tables, preset
