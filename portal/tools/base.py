"""What a tool's portal side provides: the interface the registry reads, as a typed protocol.

The registry types its tools as :class:`ToolPortal`, so mypy checks each registered package against it.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from portal.analysis.tables import Table
from portal.charts import AnyChart
from portal.models import Point, Run, System


@dataclass(frozen=True)
class ViewOptions:
    """What the run page's query asks of its tool view: the IOPS a Jetstress mailbox needs (the page's form)."""

    iops_per_mailbox: float


@dataclass(frozen=True)
class ToolTable:
    """A table preset the tool's papers print. ``build`` tables a system's runs of the tool (their points
    prefetched); ``runs_named`` names those runs where a system has none ("DS5020 has no Jetstress runs")."""

    runs_named: str
    build: Callable[[System, list[Run]], Table]


class ToolPortal(Protocol):
    """A tool's portal side: the runs it applies to, the run page's view of them, their charts and tables."""

    TOOL: str  # the format module's TOOL (``ingest/formats/``): the runs stored under it get this view
    TEMPLATE: str  # the run page's section of the tool, under templates/pages/tools/
    CHARTS: Mapping[str, Callable[[Run], AnyChart]]  # charts it adds to a run, by their name in the chart URL
    TABLES: Mapping[str, ToolTable]  # table presets, by their name in ``table/`` and ``manage.py table``

    def run_view(self, run: Run, points: list[Point], options: ViewOptions) -> dict[str, Any]:
        """The context of ``TEMPLATE`` for ``run`` (``points`` in their order), the template's name under
        ``"template"``."""
        ...
