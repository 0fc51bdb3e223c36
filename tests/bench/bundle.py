"""The white-paper bundle and report of seed 000's DS4500 against the DS4400 on the demo data, cold and warm
chart cache."""

import io
import shutil
import statistics
import time

from tests.bench.servers import SMALL

BUNDLE_GOAL_S = 5.0
REPORT_GOAL_S = 10.0


def _bundle_seconds(a, b) -> float:
    from portal.exports.bundle import comparison_bundle

    start = time.perf_counter()
    comparison_bundle(a=a, b=b)
    return time.perf_counter() - start


def _cold_seconds(a, b) -> float:
    """A bundle with an empty chart cache: every chart image is rendered."""
    from portal.exports.charts import chart_cache_dir

    shutil.rmtree(chart_cache_dir(), ignore_errors=True)
    return _bundle_seconds(a, b)


def _report_seconds(a, b, *, cold: bool) -> float:
    """The report in every format (DOCX, PDF through pdflatex, HTML, Markdown), from reading the comparison on."""
    from portal.comparisons.selectors import comparison
    from portal.exports.charts import chart_cache_dir
    from portal.reports.build import build_report
    from portal.reports.content import ReportOptions

    if cold:
        shutil.rmtree(chart_cache_dir(), ignore_errors=True)
    start = time.perf_counter()
    built = build_report([comparison(a=a, b=b)], options=ReportOptions())
    seconds = time.perf_counter() - start
    if built.notes:
        raise RuntimeError(f"the report was not built whole: {'; '.join(built.notes)}")
    return seconds


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
