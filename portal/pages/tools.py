"""The run page's tool views: Jetstress sizing, ORION maxima, FFSB operations, Iometer breakdown, MLPerf Storage
accelerators and utilisation."""

from typing import Any

from ingest.formats import ffsb, iometer, jetstress, mlperf_storage, orion
from portal.analysis.sizing import jetstress_sizing, orion_summary
from portal.charts.run import ORION_FIGURES, orion_points
from portal.models import Point, Run


def tool_view(run: Run, points: list[Point], *, iops_per_mailbox: float) -> dict[str, Any] | None:
    """The template name and context of the run's tool view, or None when the tool has none."""
    if run.tool == jetstress.TOOL:
        return _jetstress(run, points, iops_per_mailbox)
    if run.tool == orion.TOOL:
        return _orion(run)
    if run.tool == ffsb.TOOL:
        return _ffsb(points)
    if run.tool == iometer.TOOL:
        return _iometer(points)
    if run.tool == mlperf_storage.TOOL:
        return _mlperf_storage(run, points)
    return None


def _jetstress(run, points, iops_per_mailbox):
    achieved = next((p for p in reversed(points) if p.iops is not None), None)
    if achieved is None:
        return {"template": "pages/tools/jetstress.html", "achieved": None}
    params, metrics = run.params or {}, achieved.metrics or {}
    log_write_ms = metrics.get("log_write_latency_ms", metrics.get("log_write_response_ms"))
    sizing = jetstress_sizing(
        achieved_iops=achieved.iops,
        db_read_ms=achieved.avg_read_response_ms,
        log_write_ms=log_write_ms,
        iops_per_mailbox=iops_per_mailbox,
        db_read_goal_ms=params.get("db_read_limit_ms") or 20.0,
        log_write_goal_ms=params.get("log_write_limit_ms") or 5.0,
    )
    return {
        "template": "pages/tools/jetstress.html",
        "achieved": achieved,
        "target_iops": metrics.get("target_iops", params.get("target_iops")),
        "sizing": sizing,
        "verdict": run.get_verdict_display() if run.verdict else "not stated",
    }


def _orion(run):
    cells = orion_points(run)
    return {
        "template": "pages/tools/orion.html",
        "summary": orion_summary(cells),
        "heatmaps": list(ORION_FIGURES) if len(cells) > 1 else [],
        "cells": len(cells),
    }


def _ffsb(points):
    """One row per operation of each point (metrics["ops"]: {operation: {...figures}} or a list)."""
    rows = []
    for point in points:
        ops = (point.metrics or {}).get("ops") or {}
        items = ops.items() if isinstance(ops, dict) else ((op.get("name", "?"), op) for op in ops)
        for name, figures in items:
            figures = figures if isinstance(figures, dict) else {"value": figures}
            rows.append({"seq": point.seq, "op": name, "figures": sorted(figures.items())})
    return {"template": "pages/tools/ffsb.html", "rows": rows}


def _iometer(points):
    """Per-worker and per-target rows of each point, and the latency histogram's bins that counted
    I/Os when the file has one. Iometer points store them as arrays (``ingest.formats.iometer``):
    a column list and rows, and the histogram's bin names beside its counts."""
    sections = []
    for point in points:
        metrics = point.metrics or {}
        workers, targets = _named_rows(metrics.get("workers")), _named_rows(metrics.get("targets"))
        stored = metrics.get("latency_histogram") or {}
        counts = zip(stored.get("bins") or [], stored.get("counts") or [], strict=False)
        histogram = [{"bin": name, "count": count} for name, count in counts if count]
        if workers or targets or histogram:
            sections.append({"point": point, "workers": workers, "targets": targets, "histogram": histogram})
    return {"template": "pages/tools/iometer.html", "sections": sections}


def _named_rows(table: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The rows of one of an Iometer point's ``{"columns": [...], "rows": [[...], ...]}`` arrays, each
    as a dict of its columns."""
    if not table:
        return []
    columns = table["columns"]
    return [dict(zip(columns, row, strict=True)) for row in table["rows"]]


def _mlperf_storage(run: Run, points: list[Point]) -> dict[str, Any]:
    """The figures people compare of an MLPerf Storage run: the simulated accelerators it kept busy enough,
    its throughput per accelerator and the accelerator utilisation (AU) against the benchmark's rule; and
    its benchmark runs and epochs (``ingest.formats.mlperf_storage`` stores them as arrays)."""
    point = points[0] if points else None
    metrics = (point.metrics or {}) if point is not None else {}
    params = run.params or {}
    return {
        "template": "pages/tools/mlperf_storage.html",
        "point": point,
        "accelerators": (point.load or {}).get("accelerators") if point is not None else None,
        "accelerator": params.get("accelerator"),
        "metrics": metrics,
        "au_pct": metrics.get("au_pct", metrics.get("au_pct_lowest")),
        "au_lowest": "au_pct" not in metrics and metrics.get("au_pct_lowest") is not None,
        "au_threshold_pct": params.get("au_threshold_pct"),
        "rule_met": {"pass": "met", "fail": "not met"}.get(run.verdict, ""),
        "runs": _named_rows(metrics.get("runs")),
        "au_runs": _named_rows(metrics.get("au_runs")),
        "epochs": _named_rows(metrics.get("epochs")),
    }
