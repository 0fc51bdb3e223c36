"""The tools with a portal side of their own, and what the pages and the exports read of them.

A tool is a package under ``portal/tools/`` providing what :class:`~portal.tools.base.ToolPortal` states
(``TOOL``, ``TEMPLATE``, ``CHARTS``, ``TABLES``, ``run_view``). docs/contributing.md, "A tool's portal side",
lists the steps.
"""

from collections.abc import Callable
from typing import Any

from portal.charts import AnyChart
from portal.models import Point, Run

from . import ffsb, iometer, jetstress, mlperf_storage, orion
from .base import ToolPortal, ToolTable, ViewOptions

TOOL_PORTALS: tuple[ToolPortal, ...] = (jetstress, orion, ffsb, iometer, mlperf_storage)
BY_TOOL: dict[str, ToolPortal] = {tool.TOOL: tool for tool in TOOL_PORTALS}
# The charts the tools add to a run (ORION's heat maps), by their name in the run's chart URL.
RUN_CHARTS: dict[str, Callable[[Run], AnyChart]] = {
    name: chart for tool in TOOL_PORTALS for name, chart in tool.CHARTS.items()
}
# The table presets the tools' papers print, by name, with the tool whose runs they table.
TABLES: dict[str, tuple[ToolPortal, ToolTable]] = {
    name: (tool, table) for tool in TOOL_PORTALS for name, table in tool.TABLES.items()
}


def tool_view(run: Run, points: list[Point], options: ViewOptions) -> dict[str, Any] | None:
    """The template name (``"template"``) and context of the run's tool view, or None when its tool has none."""
    tool = BY_TOOL.get(run.tool)
    return None if tool is None else tool.run_view(run, points, options)
