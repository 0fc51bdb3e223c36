"""The pages that draw charts run under the Content-Security-Policy without one console error."""

import pytest
from playwright.sync_api import expect

from portal.models import Run, System
from tests.pages.test_browser import add_sweep


@pytest.mark.browser
def test_chart_pages_draw_under_the_policy(committed_demo, live_server, browser_page):
    page, problems = browser_page.page, browser_page.problems
    system = System.objects.get(name="IBM DS4500")
    add_sweep(system, 1.0)
    run_id = Run.objects.get(config__system=system, workload_name="OLTP 8K sweep").id
    for path in (f"/runs/{run_id}/", f"/systems/{system.id}/"):
        response = page.goto(f"{live_server.url}{path}")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        charts = page.locator("[data-chart]")
        expect(charts.first).to_have_attribute("data-drawn", "true", timeout=20_000)
        for index in range(charts.count()):
            expect(charts.nth(index)).to_have_attribute("data-drawn", "true", timeout=20_000)
        # Hovering makes plotly add its hover label and styles, which a stricter policy would refuse.
        charts.first.hover()
    assert problems == []
