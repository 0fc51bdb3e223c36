"""Chart images: one browser kept open by the process for every chart, a content-addressed cache, and CSV
when no browser starts.

Rendering is real (kaleido and Chromium); the only stand-in counts how many browsers are started.
"""

import io
import json
import os
import shutil
import zipfile

import kaleido
import pytest

from portal.publishing import charts
from portal.publishing.bundle import comparison_bundle
from portal.publishing.chart_browser import CHART_BROWSER

CHARTS = ("random-reads-8k", "streaming-reads-64k", "streaming-writes-64k")


@pytest.fixture
def ds4500_vs_ds4400(demo):
    return demo["IBM DS4500"], demo["IBM DS4400"]


@pytest.fixture
def chart_cache(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    return tmp_path / "chart-cache"


@pytest.fixture
def no_browser_open():
    """The process's chart browser closed, as in a worker that has rendered no chart yet."""
    CHART_BROWSER.close()


@pytest.fixture
def browser_starts(no_browser_open, monkeypatch):
    """How many browsers were started: kaleido's own ``open``, wrapped to count its calls."""
    starts = []
    real_open = kaleido.Kaleido.open

    async def counted_open(browser):
        starts.append(browser)
        return await real_open(browser)

    monkeypatch.setattr(kaleido.Kaleido, "open", counted_open)
    return starts


def images(bundle: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(bundle))
    return {
        name: archive.read(name)
        for name in archive.namelist()
        if name.startswith("charts/") and name.endswith((".svg", ".png"))
    }


def test_a_bundles_images_and_its_reports_come_from_one_browser_and_a_second_bundle_starts_none(
    ds4500_vs_ds4400, chart_cache, browser_starts, monkeypatch
):
    # A stale image of an earlier figure, larger than the cache may hold: trimmed when new images arrive.
    monkeypatch.setattr(charts, "CHART_CACHE_MAX_BYTES", 2 * 1024 * 1024)
    chart_cache.mkdir()
    stale = chart_cache / f"{'0' * 64}.png"
    stale.write_bytes(b"\0" * 3 * 1024 * 1024)
    os.utime(stale, (0, 0))

    first = images(comparison_bundle(a=ds4500_vs_ds4400[0], b=ds4500_vs_ds4400[1]))
    assert len(browser_starts) == 1
    assert sorted(first) == sorted(f"charts/{name}.{ext}" for name in CHARTS for ext in ("svg", "png"))
    assert all(first[f"charts/{name}.svg"].startswith(b"<svg") for name in CHARTS)
    assert all(first[f"charts/{name}.png"].startswith(b"\x89PNG") for name in CHARTS)
    assert not stale.exists()
    # SVG, PNG and the PDF the report's LaTeX includes, for each of the three workloads.
    assert len(list(chart_cache.iterdir())) == 9

    second = images(comparison_bundle(a=ds4500_vs_ds4400[0], b=ds4500_vs_ds4400[1]))
    assert len(browser_starts) == 1
    assert second == first


def test_the_chart_export_is_served_from_the_same_cache(ds4500_vs_ds4400, chart_cache, browser_starts, client):
    bundled = images(comparison_bundle(a=ds4500_vs_ds4400[0], b=ds4500_vs_ds4400[1]))
    query = {"a": "IBM DS4500", "b": "IBM DS4400", "label": "Random Reads 8K", "format": "png"}
    response = client.get("/export/chart/", query)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert response.content == bundled["charts/random-reads-8k.png"]
    assert len(browser_starts) == 1


def test_the_cache_key_changes_when_the_figure_or_format_changes():
    def figure(iops):
        return charts.go.Figure([charts.go.Bar(name="IBM DS4500", x=["RAID-5"], y=[iops])])

    key = charts.chart_cache_key(figure(30020), "svg")
    assert charts.chart_cache_key(figure(30020), "svg") == key
    assert charts.chart_cache_key(figure(30021), "svg") != key
    assert charts.chart_cache_key(figure(30020), "png") != key
    changed = figure(30020).update_layout(title="Random Reads 8K: IOPS at 30 ms")
    assert charts.chart_cache_key(changed, "svg") != key


def test_the_browser_is_kept_open_for_the_next_charts_and_started_again_when_it_dies(
    ds4500_vs_ds4400, chart_cache, browser_starts
):
    first = images(comparison_bundle(a=ds4500_vs_ds4400[0], b=ds4500_vs_ds4400[1]))
    assert len(browser_starts) == 1 and CHART_BROWSER.is_open
    # Every image rendered again (an empty cache): by the browser kept open, none started.
    shutil.rmtree(chart_cache)
    second = images(comparison_bundle(a=ds4500_vs_ds4400[0], b=ds4500_vs_ds4400[1]))
    assert len(browser_starts) == 1 and len(list(chart_cache.iterdir())) == 9
    assert all(second[name].startswith(first[name][:4]) for name in first)
    # Chromium killed under the process: the next charts start a browser again and are rendered whole.
    browser_starts[0].subprocess.kill()
    shutil.rmtree(chart_cache)
    third = images(comparison_bundle(a=ds4500_vs_ds4400[0], b=ds4500_vs_ds4400[1]))
    assert len(browser_starts) == 2 and sorted(third) == sorted(first)
    assert all(third[f"charts/{name}.png"].startswith(b"\x89PNG") for name in CHARTS)


def test_without_a_browser_the_bundle_ships_chart_data_and_says_so(
    ds4500_vs_ds4400, chart_cache, no_browser_open, monkeypatch
):
    monkeypatch.setenv("BROWSER_PATH", "/nonexistent/chromium")
    archive = zipfile.ZipFile(io.BytesIO(comparison_bundle(a=ds4500_vs_ds4400[0], b=ds4500_vs_ds4400[1])))
    names = archive.namelist()
    assert [name for name in names if name.startswith("charts/")] == [f"charts/{name}.csv" for name in CHARTS]
    notes = json.loads(archive.read("provenance.json"))["charts"]
    assert len(notes) == 3 and notes[0].startswith("Random Reads 8K: Chromium could not render the chart")
    assert notes[0].endswith("the chart's data is in charts/random-reads-8k.csv")
    assert not chart_cache.exists()
