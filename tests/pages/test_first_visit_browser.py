"""A new visitor's first page with ``make run``'s defaults (``manage.py serve``, DEBUG on): its static files
come compressed and cacheable, and a fresh browser draws the compare page's charts quickly."""

import html
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import uuid

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, database_url, wait_until
from tests.samples import REPO
from tests.test_serve import _free_port, _healthz

# Seed 000 (the demo data `serve` loads into an empty database): the DS4500 against the DS4400.
COMPARE = "/compare/?a=IBM+DS4500&b=IBM+DS4400"


@pytest.fixture
def served(transactional_db, settings, tmp_path):
    """``manage.py serve`` as ``make run`` starts it (DEBUG left at its default), on a free port."""
    from django.db import connection

    port = _free_port()
    env = {
        **{name: value for name, value in os.environ.items() if name not in {"DEBUG", "ARRAYBENCH_TESTING"}},
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": settings.REDIS_URL,
        "ARRAYBENCH_QUEUE": f"test-first-visit-{uuid.uuid4().hex[:8]}",
        "ARRAYBENCH_DATA_DIR": str(tmp_path),
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
    }
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve"], cwd=REPO, env=env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert wait_until(lambda: _healthz(port).get("database") == "ok", seconds=180, interval=0.5)
        yield f"http://127.0.0.1:{port}"
    finally:
        serve.send_signal(signal.SIGINT)
        serve.communicate(timeout=60)


def _warm_page(base):
    """The compare page, asked for as often as there are web workers and more (the server is warm, the
    browser fresh, as a visitor finds a running portal); its plotly.js address."""
    for _ in range(4):
        with urllib.request.urlopen(f"{base}{COMPARE}", timeout=30) as response:
            page = response.read().decode()
        for chart in re.findall(r'data-chart="([^"]+)"', page):
            urllib.request.urlopen(base + html.unescape(chart), timeout=30).read()
    start = page.index("/static/vendor/plotly/")
    return base + page[start : page.index('"', start)]


@pytest.mark.browser
def test_a_fresh_browser_draws_the_compare_page_quickly(served, monkeypatch):
    from playwright.sync_api import sync_playwright

    plotly = urllib.request.Request(_warm_page(served), headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(plotly, timeout=30) as response:
        headers, body = response.headers, response.read()
    assert headers["Content-Encoding"] == "gzip"
    assert "immutable" in headers["Cache-Control"] and "max-age=315360000" in headers["Cache-Control"]
    assert len(body) < 600_000, f"plotly.js comes gzipped ({len(body):,} bytes of its 1.5 MB)"

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context().new_page()  # a fresh profile: nothing cached
            started = time.perf_counter()
            page.goto(f"{served}{COMPARE}")
            charts = page.locator("[data-chart]")
            expect(charts.first).to_be_visible()
            for index in range(charts.count()):
                expect(charts.nth(index)).to_have_attribute("data-drawn", "true", timeout=30_000)
            seconds = time.perf_counter() - started
            drawn = charts.count()
        finally:
            browser.close()
    assert drawn >= 1
    print(f"\nfirst visit: the compare page and its {drawn} charts drawn in {seconds:.2f} s")
