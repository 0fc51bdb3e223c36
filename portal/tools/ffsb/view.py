"""The run page's FFSB view: the figures of each operation of each point."""

from typing import Any

from portal.models import Point, Run

from ..base import ViewOptions

TEMPLATE = "pages/tools/ffsb.html"


def run_view(run: Run, points: list[Point], options: ViewOptions) -> dict[str, Any]:
    """One row per operation of each point (metrics["ops"]: {operation: {...figures}} or a list)."""
    rows = []
    for point in points:
        ops = (point.metrics or {}).get("ops") or {}
        items = ops.items() if isinstance(ops, dict) else ((op.get("name", "?"), op) for op in ops)
        for name, figures in items:
            figures = figures if isinstance(figures, dict) else {"value": figures}
            rows.append({"seq": point.seq, "op": name, "figures": sorted(figures.items())})
    return {"template": TEMPLATE, "rows": rows}
