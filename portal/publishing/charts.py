"""Comparison charts as SVG and PNG: Plotly figures rendered by kaleido, which drives a local Chromium.

Rendering needs the ``kaleido`` package and a Chromium or Chrome binary (Debian's ``/usr/bin/chromium``
is found without configuration). When either is missing :class:`ChartUnavailable` says so, and
callers ship the chart's data as CSV instead.

Starting Chromium takes seconds, so it is started once per process and kept open
(:mod:`portal.publishing.chart_browser`): the images asked for together, and every later one, are rendered
by the same browser. Every image is kept in a content-addressed cache under ``DATA_DIR/chart-cache``: the
same figure in the same format is rendered once, and served from the cache byte for byte afterwards.
"""

import hashlib
import io
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import plotly
import plotly.graph_objects as go
import plotly.io as pio
from django.conf import settings

from portal.charts import plotly_figure
from portal.charts.comparison import ChartUnit, compare_chart
from portal.comparisons.selectors import Comparison, WorkloadComparison
from portal.spreadsheets import SpreadsheetCsvWriter

from .chart_browser import CHART_BROWSER

logger = logging.getLogger(__name__)

CHART_FORMATS = {"svg": "image/svg+xml", "png": "image/png"}
# The formats a chart can be rendered in: the downloads' and PDF, the vector image LaTeX includes.
IMAGE_FORMATS = {**CHART_FORMATS, "pdf": "application/pdf"}
# Least recently used images are removed beyond this size (a bundle's nine images, SVG, print PNG and PDF
# of three workloads, weigh about 650 KB).
CHART_CACHE_MAX_BYTES = 64 * 1024 * 1024

ChartRequest = tuple[go.Figure, str]
# Exported charts are drawn this size and a PNG's pixels multiplied by PRINT_SCALE: 1,890 px wide,
# 300 dpi over the 6.3 in a report's Word document gives them (an A4 page's text width).
EXPORT_WIDTH_PX, EXPORT_HEIGHT_PX = 900, 500
PRINT_SCALE = 2.1
# Text sizes in the exported chart's pixels, legible where it is printed at the text width: 900 px over a
# Word page's 6.3 in (453.6 pt) is 0.504 pt a pixel, over the report PDF's 470 pt 0.523; so 16 px is 8.1 pt
# at least (tick labels, legend, the figures over the bars), 17 px axis titles 8.6 pt, a 19 px title 9.6 pt.
PRINT_FONT_PX, PRINT_AXIS_TITLE_PX, PRINT_TITLE_PX = 16, 17, 19


class ChartUnavailable(RuntimeError):
    """The chart cannot be rendered to an image on this machine; the message says why."""


def comparison_figure(result: Comparison, workload: WorkloadComparison, *, unit: ChartUnit | None = None) -> go.Figure:
    """The compare page's chart of one workload, as the page draws it (both systems' curves overlaid
    where both have curves, else grouped bars with the improvement above each configuration; the page's
    colours), at the size every export draws it; throughput in ``unit``, else in the page's figure."""
    chart = compare_chart(workload, a_name=result.a_side, b_name=result.b_side, threshold_ms=result.threshold_ms,
                          latency=result.latency, unit=unit)  # fmt: skip
    return for_print(plotly_figure(chart))


def for_print(figure: go.Figure) -> go.Figure:
    """``figure`` at the size every export draws it, its text legible at the printed size."""
    axis_title = {"title": {"font": {"size": PRINT_AXIS_TITLE_PX}}}
    # Room above the plot for each line of the title at its print size, clear of the top tick label.
    lines = (figure.layout.title.text or "").count("<br>") + 1
    title_top_px, line_px = 22, round(1.3 * PRINT_TITLE_PX)
    figure.update_layout(margin={"t": title_top_px + line_px * lines + PRINT_FONT_PX})
    return figure.update_layout(
        width=EXPORT_WIDTH_PX,
        height=EXPORT_HEIGHT_PX,
        font={"size": PRINT_FONT_PX},
        title={
            "font": {"size": PRINT_TITLE_PX},
            "yref": "container",
            "y": 1 - title_top_px / EXPORT_HEIGHT_PX,
            "yanchor": "top",
        },
        xaxis=axis_title,
        yaxis=axis_title,
        # Text over a bar is never shrunk to fit below the legible size.
        uniformtext={"minsize": PRINT_FONT_PX, "mode": "show"},
    )


def chart_data_csv(result: Comparison, workload: WorkloadComparison) -> bytes:
    out = io.StringIO()
    writer = SpreadsheetCsvWriter(out, lineterminator="\r\n")
    unit = workload.unit
    writer.writerow(["Configuration", f"{result.a_side} {unit}", f"{result.b_side} {unit} x {result.adjust_b:g}"])
    writer.writerows([row.label, row.a_value, row.b_value * result.adjust_b] for row in workload.rows)
    return out.getvalue().encode("utf-8-sig")


def render_chart(figure: go.Figure, image_format: str) -> bytes:
    """The figure as SVG or PNG bytes (at print resolution), or :class:`ChartUnavailable`."""
    return render_charts([(figure, image_format)], scale=PRINT_SCALE)[0]


def render_charts(requests: Sequence[ChartRequest], *, scale: float | None = None) -> list[bytes]:
    """Images for (figure, format) pairs, in their order: cached ones read back, the others rendered in
    one browser session and cached. ``scale`` multiplies a PNG's pixels (3 for print) and is plotly's
    default when None. :class:`ChartUnavailable` when any must be rendered and cannot be."""
    for _, image_format in requests:
        if image_format not in IMAGE_FORMATS:
            raise ValueError(f"unknown chart format {image_format!r}; choose one of {', '.join(IMAGE_FORMATS)}")
    keys = [chart_cache_key(figure, image_format, scale=scale) for figure, image_format in requests]
    images = {key: _cached(key) for key in keys}
    missing = {key: request for key, request in zip(keys, requests, strict=True) if images[key] is None}
    if missing:
        rendered = _render_in_one_session(list(missing.values()), scale=scale)
        for key, image in zip(missing, rendered, strict=True):
            _store(key, image)
            images[key] = image
        _trim_cache()
    return [cast(bytes, images[key]) for key in keys]  # every missing one was rendered above


def chart_cache_key(figure: go.Figure, image_format: str, *, scale: float | None = None) -> str:
    """sha256 of what decides the image: the figure's JSON, the format, the scale when one is asked for,
    and plotly's version (whose plotly.js draws it)."""
    material = f"{image_format}\n{plotly.__version__}\n{figure.to_json()}"
    if scale is not None:
        material = f"scale {scale:g}\n{material}"
    return f"{hashlib.sha256(material.encode()).hexdigest()}.{image_format}"


def chart_cache_dir() -> Path:
    return Path(settings.DATA_DIR) / "chart-cache"


def _cached(key: str) -> bytes | None:
    path = chart_cache_dir() / key
    try:
        image = path.read_bytes()
        path.touch()  # recently used images are the last to be trimmed
    except FileNotFoundError:  # not rendered yet, or trimmed by another worker
        return None
    return image


def _store(key: str, image: bytes) -> None:
    directory = chart_cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    # Written aside and renamed, so a worker reading the same key never sees half an image.
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".partial-")
    with os.fdopen(handle, "wb") as out:
        out.write(image)
    os.replace(temporary, directory / key)


def _trim_cache() -> None:
    """Remove the least recently used images until the cache is within :data:`CHART_CACHE_MAX_BYTES`."""
    entries = []
    for path in chart_cache_dir().iterdir():
        if path.name.startswith(".partial-"):
            continue  # another worker is writing it
        try:
            stat = path.stat()
        except FileNotFoundError:  # trimmed by another worker meanwhile
            continue
        entries.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= CHART_CACHE_MAX_BYTES:
            break
        path.unlink(missing_ok=True)
        total -= size


def _render_in_one_session(requests: Sequence[ChartRequest], *, scale: float | None = None) -> list[bytes]:
    try:
        import kaleido  # noqa: F401  (imported here so a missing package gives a clear message)
    except ImportError:
        logger.warning("kaleido is not installed: charts are not rendered to images")
        raise ChartUnavailable("kaleido is not installed, so charts cannot be rendered to images") from None
    jobs = [(figure.to_dict(), _opts(figure, fmt, scale)) for figure, fmt in requests]
    try:
        return CHART_BROWSER.render(jobs)
    except Exception as error:  # kaleido raises several types when Chromium cannot start
        logger.warning("Chromium could not render %d chart(s)", len(requests), exc_info=True)
        raise ChartUnavailable(f"Chromium could not render the chart: {error}") from error


def _opts(figure: go.Figure, image_format: str, scale: float | None = None) -> dict:
    """The size plotly's own ``to_image`` would use: the figure's, else plotly's defaults."""
    return {
        "format": image_format,
        "width": figure.layout.width or pio.defaults.default_width,
        "height": figure.layout.height or pio.defaults.default_height,
        "scale": pio.defaults.default_scale if scale is None else scale,
    }
