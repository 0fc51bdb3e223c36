"""Comparison charts as SVG and PNG: Plotly figures rendered by kaleido, which drives a local Chromium.

Rendering needs the ``kaleido`` package and a Chromium or Chrome binary (Debian's ``/usr/bin/chromium``
is found without configuration). When either is missing :class:`ChartUnavailable` says so, and
callers ship the chart's data as CSV instead.
"""

import io
from html import escape

import plotly.graph_objects as go

from portal.exports.formats import SpreadsheetCsvWriter

CHART_FORMATS = {"svg": "image/svg+xml", "png": "image/png"}


class ChartUnavailable(RuntimeError):
    """The chart cannot be rendered to an image on this machine; the message says why."""


def comparison_figure(result, workload):
    """Grouped bars: A and B (adjusted by k when k != 1) per matched configuration of one workload."""
    unit = "IOPS" if workload.metric == "iops" else "MB/s"
    # Plotly reads a few HTML tags in labels; names typed by users are shown as text.
    labels = [escape(row.label) for row in workload.rows]
    b_name = result.b.name + (f" x {result.adjust_b:g}" if result.adjust_b != 1 else "")
    figure = go.Figure(
        [
            go.Bar(name=escape(result.a.name), x=labels, y=[row.a_value for row in workload.rows]),
            go.Bar(name=escape(b_name), x=labels, y=[row.b_value * result.adjust_b for row in workload.rows]),
        ]
    )
    figure.update_layout(
        title=escape(f"{workload.workload}: {unit} at {result.threshold_ms:g} ms"),
        barmode="group",
        yaxis_title=unit,
        template="simple_white",
        width=900,
        height=500,
    )
    return figure


def chart_data_csv(result, workload) -> bytes:
    out = io.StringIO()
    writer = SpreadsheetCsvWriter(out, lineterminator="\r\n")
    unit = "IOPS" if workload.metric == "iops" else "MB/s"
    writer.writerow(["Configuration", f"{result.a.name} {unit}", f"{result.b.name} {unit} x {result.adjust_b:g}"])
    writer.writerows([row.label, row.a_value, row.b_value * result.adjust_b] for row in workload.rows)
    return out.getvalue().encode("utf-8-sig")


def render_chart(figure, image_format: str) -> bytes:
    """The figure as SVG or PNG bytes, or :class:`ChartUnavailable`."""
    if image_format not in CHART_FORMATS:
        raise ValueError(f"unknown chart format {image_format!r}; choose one of {', '.join(CHART_FORMATS)}")
    try:
        import kaleido  # noqa: F401  (plotly imports it lazily; a clear message beats its own)
    except ImportError:
        raise ChartUnavailable("kaleido is not installed, so charts cannot be rendered to images") from None
    try:
        return figure.to_image(format=image_format)
    except Exception as error:  # kaleido raises several types when Chromium cannot start
        raise ChartUnavailable(f"Chromium could not render the chart: {error}") from error
