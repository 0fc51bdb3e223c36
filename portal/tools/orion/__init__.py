"""Oracle ORION: its matrix's maxima and the Oracle sizing class (the run page), a heat map of each figure
over the matrix (the run's charts), seed 001's Oracle table (the ``orion`` preset)."""

from collections.abc import Callable, Mapping
from functools import partial

from ingest.formats.orion import TOOL
from portal.charts import AnyChart
from portal.models import Run

from ..base import ToolTable
from .charts import ORION_FIGURES, orion_heatmap
from .tables import orion_table
from .view import TEMPLATE, run_view

__all__ = ["CHARTS", "TABLES", "TEMPLATE", "TOOL", "run_view"]

CHARTS: Mapping[str, Callable[[Run], AnyChart]] = {
    figure: partial(orion_heatmap, figure=figure) for figure in ORION_FIGURES
}
TABLES: Mapping[str, ToolTable] = {"orion": ToolTable("ORION", orion_table)}
