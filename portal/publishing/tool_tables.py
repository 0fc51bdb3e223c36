"""The tools' own summaries as table presets (seed 001's Exchange and Oracle figures): a system's runs of the
tool, tabled by the tool's home (``portal/tools/<tool>/tables.py``)."""

from portal.analysis.tables import Table
from portal.models import System
from portal.results.selectors import runs_filtered, runs_with_points
from portal.tools.registry import TABLES

from .presets import PresetError

# The tools' table presets, in the registry's order.
TOOL_PRESETS = tuple(TABLES)


def tool_table(system: System, *, preset: str) -> Table:
    """The table ``preset`` (one of ``TOOL_PRESETS``) of ``system``'s runs of its tool."""
    tool, table = TABLES[preset]
    runs = list(runs_with_points(runs=runs_filtered(system=system, tool=tool.TOOL)))
    if not runs:
        raise PresetError(f"{system.name} has no {table.runs_named} runs")
    return table.build(system, runs)
