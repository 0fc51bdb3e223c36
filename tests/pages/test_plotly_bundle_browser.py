"""The plotly.js the pages load (static/vendor/plotly, built by vendor/plotly/build.mjs) draws every chart the
portal makes: it is the plotly.js version the Python figures are made for, it registers each trace type
the charts use and no other, and a real Chromium draws a heatmap and a WebGL scatter with it. A page's chart
JSON is the figure the exports draw."""

import json

import plotly
import pytest
from django.contrib.staticfiles import finders
from playwright.sync_api import expect

from ingest.formats import orion
from portal import charts
from portal.models import Run
from tests.factories import ConfigFactory, PointFactory, RunFactory

# The trace types of portal/charts/: curves (scattergl past SCATTERGL_POINTS points), bars, heatmaps.
CHART_TRACE_TYPES = ["bar", "heatmap", "scatter", "scattergl"]
BUNDLE = "vendor/plotly/plotly.min.js"


def test_the_pages_plotly_js_is_the_version_the_python_figures_are_made_for():
    bundle = finders.find(BUNDLE)
    assert bundle is not None, f"static/{BUNDLE} is missing"
    with open(bundle, encoding="utf-8") as source:
        header = source.read(300)
    # The Python package's own plotly.min.js names its version in the same header.
    assert f" v{plotly.offline.get_plotlyjs_version()}\n" in header
    assert "Licensed under the MIT license" in header


def _one_chart_of_each_kind() -> list[charts.AnyChart]:
    curve = charts.Series("measured", [1, 2, 3], [1.0, 2.0, 3.0], hover=["a", "b", "c"])
    many = charts.Series("measured", list(range(1001)), [float(x) for x in range(1001)])
    return [
        charts.Chart("a curve", "IOPS", "ms", [curve, charts.threshold_line(2.5, right=3)], callouts=[(2, 2.0, "2")]),
        charts.Chart("a curve of 1,001 points", "IOPS", "ms", [many]),
        charts.BarChart("bars", "configuration", "IOPS", ["RAID-5"], [charts.Bars("A", [100.0], 1, errors=[5.0])]),
        charts.Heatmap("a grid", "small", "large", [1, 2], [0], [[5.42, 6.0]], "ms"),
    ]


def test_the_charts_use_only_the_trace_types_listed_here():
    drawn = {trace.type for chart in _one_chart_of_each_kind() for trace in charts.plotly_figure(chart).data}
    assert sorted(drawn) == CHART_TRACE_TYPES


def test_a_pages_chart_is_the_figure_the_exports_draw_white_template_included():
    for chart in _one_chart_of_each_kind():
        page = json.loads(charts.plotly_json(chart))
        assert page == json.loads(charts.plotly_figure(chart).to_json())
        assert page["layout"]["template"]["layout"]["plot_bgcolor"] == "white"


@pytest.mark.browser
def test_the_served_plotly_js_registers_the_charts_trace_types_and_draws_a_heatmap(
    committed_demo, live_server, browser_page
):
    page, problems = browser_page.page, browser_page.problems
    # Seed 001_22c77edb183857dc.txt, ORION summary: Minimum Small Latency=5.42 @ Small=1 and Large=0 (line 247).
    run = Run.objects.get(tool=orion.TOOL, workload_name="ORION small random 8K", config__drive_count=None)
    page.goto(f"{live_server.url}/runs/{run.id}/")
    latency = page.locator("[data-chart*='/charts/small-latency.json']")
    expect(latency).to_have_attribute("data-drawn", "true", timeout=20_000)

    assert sorted(page.evaluate("Object.keys(Plotly.PlotSchema.get().traces)")) == CHART_TRACE_TYPES
    assert latency.evaluate("e => e._fullData.map(trace => trace.type)") == ["heatmap"]
    expect(latency.locator("g.hm image")).to_have_count(1)
    expect(latency.locator("g.hm text", has_text="5.42")).to_have_count(1)
    assert problems == []


@pytest.mark.browser
def test_a_curve_of_more_than_a_thousand_points_is_drawn_with_webgl(transactional_db, live_server, browser_page):
    page, problems = browser_page.page, browser_page.problems
    run = RunFactory(config=ConfigFactory(), name="A long sweep, 1,001 points")
    run.points.bulk_create(
        PointFactory.build(run=run, seq=n, outstanding_io=n + 1, iops=10.0 * (n + 1), avg_response_ms=0.01 * (n + 1))
        for n in range(1001)
    )
    page.goto(f"{live_server.url}/runs/{run.id}/")
    curve = page.locator("[data-chart*='/charts/curve.json']")
    expect(curve).to_have_attribute("data-drawn", "true", timeout=30_000)

    measured = curve.evaluate("e => e._fullData.filter(t => t.type === 'scattergl').map(t => t._length)")
    assert measured == [1001]
    assert curve.locator("canvas.gl-canvas-context").count() == 1
    assert problems == []
