"""The run page's ORION view: the matrix's maxima and the Oracle sizing class, and its heat maps."""

from typing import Any

from portal.models import Point, Run

from ..base import ViewOptions
from .charts import ORION_FIGURES, orion_points
from .summary import orion_summary

TEMPLATE = "pages/tools/orion.html"


def run_view(run: Run, points: list[Point], options: ViewOptions) -> dict[str, Any]:
    """The summary of the run's matrix, and its heat maps where it has more than one cell."""
    cells = orion_points(run)
    return {
        "template": TEMPLATE,
        "summary": orion_summary(cells),
        "heatmaps": list(ORION_FIGURES) if len(cells) > 1 else [],
        "cells": len(cells),
    }
