"""The white-paper bundle and report of seed 000's DS4500 against the DS4400 on the demo data, cold and warm
chart cache; the report and one chart image with an empty chart cache rendered by the process's browser kept
open, against the same with a browser started for them (as every render did before it was kept open)."""

import io
import shutil
import statistics
import time
from functools import partial

from tests.bench.servers import SMALL

BUNDLE_GOAL_S = 5.0
REPORT_GOAL_S = 10.0
CHART_GOAL_S = 2.0


def _bundle_seconds(a, b) -> float:
    from portal.publishing.bundle import comparison_bundle

    start = time.perf_counter()
    comparison_bundle(a=a, b=b)
    return time.perf_counter() - start


def _cold_seconds(a, b) -> float:
    """A bundle with an empty chart cache: every chart image is rendered."""
    from portal.publishing.charts import chart_cache_dir

    shutil.rmtree(chart_cache_dir(), ignore_errors=True)
    return _bundle_seconds(a, b)


def _report_seconds(a, b, *, cold: bool) -> float:
    """The report in every format (DOCX, PDF through pdflatex, HTML, Markdown), from reading the comparison on."""
    from portal.comparisons.selectors import comparison
    from portal.publishing.build import build_report
    from portal.publishing.charts import chart_cache_dir
    from portal.publishing.content import ReportOptions

    if cold:
        shutil.rmtree(chart_cache_dir(), ignore_errors=True)
    start = time.perf_counter()
    built = build_report([comparison(a=a, b=b)], options=ReportOptions())
    seconds = time.perf_counter() - start
    if built.notes:
        raise RuntimeError(f"the report was not built whole: {'; '.join(built.notes)}")
    return seconds


def _chart_seconds(a, b) -> float:
    """The compare page's PNG of the first workload (the chart download) with an empty chart cache."""
    from portal.comparisons.selectors import comparison
    from portal.publishing.charts import chart_cache_dir, comparison_figure, render_chart

    shutil.rmtree(chart_cache_dir(), ignore_errors=True)
    result = comparison(a=a, b=b)
    start = time.perf_counter()
    render_chart(comparison_figure(result, result.workloads[0]), "png")
    return time.perf_counter() - start


def _browser_started(seconds, a, b) -> float:
    """``seconds(a, b)`` with the process's chart browser closed first: one started for this render alone."""
    from portal.publishing.chart_browser import CHART_BROWSER

    CHART_BROWSER.close()
    return seconds(a, b)


def _kept_open(report, a, b, *, repeat: int) -> None:
    """The report and a chart, empty chart cache, by the browser kept open against one started for each,
    measured in turn (kept, started, kept, started ...); the ratio is the median of the pairs' ratios."""
    for goal, seconds, target in (
        (
            "white-paper report (DOCX, PDF, HTML), cold chart cache, browser kept open",
            partial(_report_seconds, cold=True),
            REPORT_GOAL_S,
        ),
        ("a chart image (PNG, 1890 x 1050), cold chart cache, browser kept open", _chart_seconds, CHART_GOAL_S),
    ):
        pairs = [(seconds(a, b), _browser_started(seconds, a, b)) for _ in range(repeat)]
        kept, started = (statistics.median(pair[i] for pair in pairs) for i in (0, 1))
        ratio = statistics.median(k / s for k, s in pairs)
        detail = f"{ratio:.2f} x the {started:.1f} s with a browser started for it"
        report.add(goal, f"{kept:.1f} s", f"<= {target:g} s", kept <= target, detail)


def bench_bundle(report, server, *, repeat: int) -> None:
    from django.core.management import call_command

    from portal.models import System

    server.use(SMALL)
    call_command("loaddemo", stdout=io.StringIO())
    a, b = System.objects.get(name="IBM DS4500"), System.objects.get(name="IBM DS4400")
    cold = statistics.median(_cold_seconds(a, b) for _ in range(repeat))
    warm = statistics.median(_bundle_seconds(a, b) for _ in range(repeat))
    for label, seconds in (("cold chart cache", cold), ("warm chart cache", warm)):
        met = seconds <= BUNDLE_GOAL_S
        report.add(f"white-paper bundle, {label}", f"{seconds:.1f} s", f"<= {BUNDLE_GOAL_S:g} s", met)
    for label, is_cold in (("cold chart cache", True), ("warm chart cache", False)):
        seconds = statistics.median(_report_seconds(a, b, cold=is_cold) for _ in range(repeat))
        met = seconds <= REPORT_GOAL_S
        report.add(f"white-paper report (DOCX, PDF, HTML), {label}", f"{seconds:.1f} s", f"<= {REPORT_GOAL_S:g} s", met)
    _kept_open(report, a, b, repeat=repeat)
