"""MLPerf Storage: the simulated accelerators, throughput per accelerator and utilisation, the benchmark runs
and epochs (the run page)."""

from collections.abc import Callable, Mapping

from ingest.formats.mlperf_storage import TOOL
from portal.charts import AnyChart
from portal.models import Run

from ..base import ToolTable
from .view import TEMPLATE, run_view

__all__ = ["CHARTS", "TABLES", "TEMPLATE", "TOOL", "run_view"]

CHARTS: Mapping[str, Callable[[Run], AnyChart]] = {}
TABLES: Mapping[str, ToolTable] = {}
