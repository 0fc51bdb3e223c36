"""Chart data for the pages and the exports: one description per chart, drawn as a Plotly figure or
written as CSV (pages, publishing and history import it; it imports none of them).

A :class:`Chart` holds plain series; :func:`plotly_json` draws it (greyscale-safe: every series
has its own dash style and marker symbol, not only its own colour) and :func:`csv_text` writes
the same numbers, so the CSV link under a chart always carries what the chart shows.

Plotly reads a few HTML tags in labels (``<b>``, ``<a href>``, ``<br>``): names and titles, which
hold what users typed or uploaded, are escaped when drawn, so they show as text. Hover texts are
built here with ``<br>`` between lines and escape their parts themselves.

What is charted is described beside this module: ``run`` (a run's curve and its throughput against load),
``system`` (a system's sweep), ``families`` (a system's transfer-size families) and ``comparison`` (the
compare page's charts); ``answers`` answers a chart's data at its address. A tool's own charts (a matrix's heat
maps) live with the tool, in ``portal/tools/``. The images written into files are rendered in
:mod:`portal.publishing.charts`.
"""

import functools
import io
import textwrap
from dataclasses import dataclass, field
from html import escape
from typing import TypeAlias

import plotly.graph_objects as go
import plotly.io as pio
from plotly.io.json import to_json_plotly

from portal import formatting
from portal.spreadsheets import SpreadsheetCsvWriter

# Okabe-Ito colours (distinguishable with colour-blindness), backed by dashes and symbols for greyscale.
COLOURS = ("#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "cross", "star", "triangle-down")
# Above this many points a series is drawn with WebGL.
SCATTERGL_POINTS = 1000
# Titles longer than this are broken into lines: Plotly does not wrap them.
TITLE_CHARACTERS = 60
MARKER_SIZE = 9
# Every chart is drawn in this plotly template.
TEMPLATE = "simple_white"


@dataclass
class Series:
    name: str
    x: list
    y: list
    hover: list = field(default_factory=list)
    mode: str = "lines+markers"
    style: int = 0
    group: str = ""
    dash: str | None = None
    # A colour of its own (index into COLOURS) when the colour says something the style does not:
    # which system a curve belongs to.
    colour: int | None = None
    # A marker that must stand out from the points under it (the value read at the threshold).
    highlight: bool = False


def threshold_line(threshold_ms: float, *, right: float, style: int = 0, dash: str | None = None) -> Series:
    """The threshold as a horizontal line across a response-time chart, from 0 to ``right`` throughput."""
    return Series(
        f"threshold {formatting.threshold(threshold_ms)}",
        [0, right],
        [threshold_ms, threshold_ms],
        mode="lines",
        style=style,
        dash=dash,
    )


@dataclass
class Chart:
    title: str
    x_title: str
    y_title: str
    series: list
    x_log: bool = False
    # (value, label) pairs: ticks at the values measured, labelled in the reader's units ("8 KB").
    x_ticks: list = field(default_factory=list)
    # (x, y, text): a labelled arrow pointing at a point of the chart.
    callouts: list = field(default_factory=list)
    # (low, high) of the y axis where the chart is drawn around a value (a threshold far under the curves' top).
    y_range: tuple[float, float] | None = None


@dataclass
class Bars:
    """One bar per system for each category (a configuration), with an error bar where given."""

    name: str
    values: list
    colour: int
    errors: list = field(default_factory=list)
    # Text written above each bar (a system's improvement over the baseline, "≥" before a lower bound).
    notes: list = field(default_factory=list)
    # Per bar: True where its figure is a lower bound (the curve never reaches the threshold); drawn hatched.
    bounds: list = field(default_factory=list)


# Said under a chart drawing a lower bound: what the hatching and the "≥" mean.
LOWER_BOUND_NOTE = "Hatched, ≥: the curve never reaches the threshold; the bar is a lower bound (its best point)."


@dataclass
class BarChart:
    title: str
    x_title: str
    y_title: str
    categories: list
    bars: list
    # Text above each category (the improvement of A over B).
    notes: list = field(default_factory=list)


@dataclass
class Heatmap:
    title: str
    x_title: str
    y_title: str
    x: list
    y: list
    z: list
    value_title: str


# Every kind of chart the portal draws.
AnyChart: TypeAlias = Chart | BarChart | Heatmap


def plotly_json(chart: AnyChart) -> str:
    """The chart as Plotly figure JSON (a string; plotly's encoder handles every number type): the same
    figure as :func:`plotly_figure`'s, its template added as JSON read once (validated into each figure
    again, the template took longer than the chart itself)."""
    figure = _figure(chart).to_plotly_json()
    figure["layout"]["template"] = _template_json()
    return to_json_plotly(figure)


@functools.cache
def _template_json() -> dict:
    return pio.templates[TEMPLATE].to_plotly_json()


def plotly_figure(chart: AnyChart) -> go.Figure:
    """The chart as a Plotly figure, every name and title escaped."""
    return _figure(chart).update_layout(template=TEMPLATE)


def _figure(chart: AnyChart) -> go.Figure:
    """The chart as a Plotly figure without its template."""
    if isinstance(chart, Heatmap):
        return _heatmap_figure(chart)
    if isinstance(chart, BarChart):
        return _bar_figure(chart)
    figure = go.Figure()
    for series in chart.series:
        figure.add_trace(_trace(series))
    xaxis: dict[str, object] = {
        "title": {"text": label_text(chart.x_title)},
        "type": "log" if chart.x_log else "linear",
    }
    yaxis: dict[str, object] = {"title": {"text": label_text(chart.y_title)}}
    if chart.y_range is not None:
        yaxis["range"] = list(chart.y_range)
    if chart.x_ticks:
        xaxis.update(tickvals=[value for value, _ in chart.x_ticks], ticktext=[label for _, label in chart.x_ticks])
    if _single_point(chart):
        # Plotly centres a lone point on an axis of its own width (-1 to 1 at zero): start both axes at zero.
        yaxis["rangemode"] = "tozero"
        if not chart.x_log:
            xaxis["rangemode"] = "tozero"
    title, lines = _title(chart.title)
    figure.update_layout(
        title=title,
        xaxis=xaxis,
        yaxis=yaxis,
        hovermode="closest",
        legend={"orientation": "h", "y": -0.2},
        margin={"t": 30 + 22 * lines, "l": 70, "r": 20},
        annotations=[_callout(x, y, text) for x, y, text in chart.callouts],
    )
    return figure


def _single_point(chart) -> bool:
    """Whether the chart's points (lines such as a threshold aside) are one point at most."""
    points = {
        (x, y) for series in chart.series if "markers" in series.mode for x, y in zip(series.x, series.y, strict=False)
    }
    return len(points) <= 1


def label_text(text: object) -> str:
    """A name or title drawn as text: Plotly would read the HTML tags in it."""
    return escape(str(text), quote=False)


def _title(text) -> tuple[str, int]:
    """The title escaped and broken into lines Plotly can show; and how many lines it has."""
    lines = textwrap.wrap(str(text), TITLE_CHARACTERS) or [""]
    return "<br>".join(label_text(line) for line in lines), len(lines)


def _callout(x, y, text) -> dict:
    return {
        "x": x,
        "y": y,
        "text": label_text(text),
        "showarrow": True,
        "arrowhead": 2,
        "arrowwidth": 1.5,
        "ax": -60,
        "ay": -40,
        "bgcolor": "rgba(255, 255, 255, 0.85)",
        "bordercolor": "#000000",
        "borderpad": 3,
    }


def _trace(series):
    trace = go.Scattergl if len(series.x) > SCATTERGL_POINTS else go.Scatter
    return trace(
        x=series.x,
        y=series.y,
        name=label_text(series.name),
        mode=series.mode,
        legendgroup=series.group or None,
        text=series.hover or None,
        hovertemplate="%{text}<extra>%{fullData.name}</extra>" if series.hover else None,
        line={
            "color": COLOURS[_colour(series) % len(COLOURS)],
            "dash": series.dash or DASHES[series.style % len(DASHES)],
        },
        marker={
            "symbol": SYMBOLS[series.style % len(SYMBOLS)],
            "size": 2 * MARKER_SIZE if series.highlight else MARKER_SIZE,
            "color": COLOURS[_colour(series) % len(COLOURS)],
            "line": {"width": 2, "color": "#000000"} if series.highlight else {"width": 0},
        },
    )


def _colour(series):
    return series.style if series.colour is None else series.colour


def _bar_figure(chart):
    figure = go.Figure()
    categories = [label_text(category) for category in chart.categories]
    for bars in chart.bars:
        errors = {"type": "data", "array": bars.errors, "visible": True} if any(bars.errors) else None
        figure.add_trace(
            go.Bar(
                x=categories,
                y=bars.values,
                name=label_text(bars.name),
                marker=_bar_marker(bars),
                error_y=errors,
                text=[label_text(note) for note in bars.notes] or None,
                textposition="outside" if bars.notes else None,
                cliponaxis=False,
                hovertemplate="%{x}<br>%{y:,.1f}<extra>%{fullData.name}</extra>",
            )
        )
    tops = [
        max((b.values[i] or 0) + (b.errors[i] if b.errors else 0) for b in chart.bars)
        for i in range(len(chart.categories))
    ]
    bounded = any(any(bars.bounds) for bars in chart.bars)
    # The improvement above a category clears the text written above its bars.
    note_shift = 34 if any(any(bars.notes) for bars in chart.bars) else 14
    title, lines = _title(chart.title)
    if bounded:
        # Said under the title, read before the bars: what the hatching and the "≥" mean.
        note, note_lines = _title(LOWER_BOUND_NOTE)
        title, lines = f"{title}<br>{note}", lines + note_lines
    figure.update_layout(
        title=title,
        barmode="group",
        xaxis={"title": {"text": label_text(chart.x_title)}, "type": "category"},
        yaxis={"title": {"text": label_text(chart.y_title)}},
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 40 + 22 * lines, "l": 70, "r": 20},
        annotations=[
            {"x": category, "y": top, "text": label_text(note), "showarrow": False, "yshift": note_shift}
            for category, top, note in zip(categories, tops, chart.notes, strict=False)
            if note
        ],
    )
    return figure


def _bar_marker(bars: Bars) -> dict:
    """A bar's fill: the system's colour, hatched where its figure is a lower bound."""
    colour = COLOURS[bars.colour % len(COLOURS)]
    if not any(bars.bounds):
        return {"color": colour}
    shapes = ["/" if bound else "" for bound in bars.bounds]
    return {"color": colour, "pattern": {"shape": shapes, "fillmode": "overlay", "fgcolor": "white", "solidity": 0.4}}


def _heatmap_figure(heatmap):
    figure = go.Figure(
        go.Heatmap(
            x=heatmap.x,
            y=heatmap.y,
            z=heatmap.z,
            colorscale="Greys",
            reversescale=True,
            colorbar={"title": {"text": label_text(heatmap.value_title)}},
            texttemplate="%{z:.4~g}",
            hovertemplate=f"{heatmap.x_title} %{{x}}<br>{heatmap.y_title} %{{y}}<br>%{{z}}<extra></extra>",
        )
    )
    title, lines = _title(heatmap.title)
    figure.update_layout(
        title=title,
        xaxis={"title": {"text": heatmap.x_title}, "type": "category"},
        yaxis={"title": {"text": heatmap.y_title}, "type": "category"},
        margin={"t": 30 + 22 * lines},
    )
    return figure


def csv_text(chart: AnyChart) -> str:
    """The chart's numbers as CSV: one row per plotted point."""
    out = io.StringIO()
    writer = SpreadsheetCsvWriter(out)
    if isinstance(chart, BarChart):
        # A column of the text written over a series' bars ("+12.7 %" against the baseline, "≥ 65,342" for a
        # lower bound) only where some bar of it has one.
        noted = [bars for bars in chart.bars if any(bars.notes)]
        header = [chart.x_title, *(bars.name for bars in chart.bars), *(f"{bars.name}: over its bar" for bars in noted)]
        writer.writerow([*header, "note"])
        for index, category in enumerate(chart.categories):
            note = chart.notes[index] if index < len(chart.notes) else ""
            values = [bars.values[index] for bars in chart.bars]
            writer.writerow([category, *values, *(bars.notes[index] for bars in noted), note])
        return out.getvalue()
    if isinstance(chart, Heatmap):
        writer.writerow([chart.y_title, chart.x_title, chart.value_title])
        for y, row in zip(chart.y, chart.z, strict=True):
            writer.writerows([y, x, value] for x, value in zip(chart.x, row, strict=True))
        return out.getvalue()
    writer.writerow(["series", chart.x_title, chart.y_title])
    for series in chart.series:
        writer.writerows([series.name, x, y] for x, y in zip(series.x, series.y, strict=True))
    return out.getvalue()
