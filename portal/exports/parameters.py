"""The parameters of the white-paper table downloads, read once for the exports and the API: which preset,
which comparison table, at which threshold."""

from collections.abc import Mapping, Sequence
from typing import Any

from portal.analysis.tables import Table
from portal.errors import ApplicationError
from portal.models import System
from portal.sizing.output import sizing_preset_tables

from . import presets
from .pivot_tables import pivot
from .stroke_tables import stroke
from .tool_tables import jetstress, orion

# The white-paper table presets of one system, and the tables of a comparison.
PRESETS = ("whitepaper", "pivot", "stroke", "jetstress", "orion", "sizing")
COMPARISON_TABLES = ("all", "comparison", "summary", "side_by_side")


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
    workloads = tuple(w.strip() for w in params.get("workloads", "").split(",") if w.strip()) or None
    raid_level = params.get("raid_level") or None
    if preset == "stroke":
        tables = stroke(system, raid_level=raid_level, threshold_ms=threshold_ms)
    elif preset == "jetstress":
        tables = [jetstress(system)]
    elif preset == "orion":
        tables = [orion(system)]
    elif preset == "sizing":
        tables = sizing_preset_tables(system, params)
    elif preset == "pivot":
        rows = tuple(params.get("rows", "drive_count,cache_setting").split(","))
        selection = presets.Selection(raid_level, workloads, params.get("source_table") or None)
        tables = [pivot(system, rows=rows, threshold_ms=threshold_ms, selection=selection)]
    else:
        selection = presets.default_selection(
            system, raid_level=raid_level, workloads=workloads, source_table=params.get("source_table") or None
        )
        tables = [presets.whitepaper(system, threshold_ms=threshold_ms, selection=selection)]
    return tables, preset
