"""The white-paper bundle is built by a Celery worker and followed on a progress page; a bundle built
already for the same selection and the same results is served at once, with no worker running.

Numbers are checked against seed 000 (000_f52f16ce4c762121.txt) line 295: with 140 drives the DS4500
achieves about 30,020 8K IOPS and the DS4400 26,640, about 13 % better (12.7 %)."""

import csv
import html
import io
import json
import re
import time
import zipfile

import pytest

from portal.models import System
from portal.publishing import bundle_jobs, export_views
from tests.conftest import wait_until
from tests.factories import ConfigFactory, PointFactory, RunFactory
from tests.samples import SEEDS_DIR

SELECTION = "a=IBM+DS4500&b=IBM+DS4400&raid_level=RAID-5&workload=Random+Reads+8K"
BUNDLE_URL = f"/export/bundle/?{SELECTION}"


def seed_000_line_295():
    """The DS4500's and the DS4400's 8K IOPS as the paper prints them ("30,020", "26,640")."""
    line = (SEEDS_DIR / "000_f52f16ce4c762121.txt").read_text(encoding="utf-8").splitlines()[294]
    return re.findall(r"approximately ([\d,]+) 8K IOPS", line)


def comparison_rows(archive):
    """The rows of the bundle's comparison table (its first table) as CSV cells."""
    (name,) = [n for n in archive.namelist() if re.fullmatch(r"tables/01-.*\.csv", n)]
    return list(csv.reader(io.StringIO(archive.read(name).decode("utf-8-sig"))))


def content(response):
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.django_db(transaction=True)
def test_a_worker_builds_the_bundle_and_the_same_selection_is_then_served_at_once(
    committed_demo, data_dir, celery_workers, client
):
    celery_workers.start()  # a prefork pool of two processes

    response = client.get(BUNDLE_URL)
    assert response.status_code == 302
    progress_url = response["Location"]
    page = client.get(progress_url).content.decode()
    assert "<h1>White-paper bundle: IBM DS4500 vs IBM DS4400</h1>" in page
    assert 'href="/compare/?a=IBM+DS4500&amp;b=IBM+DS4400&amp;raid_level=RAID-5&amp;workload=Random+Reads+8K"' in page
    status_url = f"{progress_url}status.json"
    seen = []

    def finished():
        status = client.get(status_url).json()
        seen.append(status["status"])
        return status if status["status"] in ("done", "failed") else None

    status = wait_until(finished, seconds=180, interval=0.2)
    assert status["status"] == "done", status
    assert status["progress"] == 1.0 and status["size_bytes"] > 10_000
    downloaded = client.get(status["download_url"])
    assert downloaded["Content-Disposition"] == 'attachment; filename="ibm-ds4500-vs-ibm-ds4400-white-paper.zip"'
    zipped = content(downloaded)
    archive = zipfile.ZipFile(io.BytesIO(zipped))
    ds4500, ds4400 = seed_000_line_295()
    ds4500, ds4400 = ds4500.replace(",", ""), ds4400.replace(",", "")  # numbers as numbers in CSV
    assert ["Random Reads 8K (IOPS)", "RAID-5, 140 drives, All Caches Disabled", ds4500, ds4400, "12.7"] in (
        comparison_rows(archive)
    )
    # The page's filters are the bundle's: RAID-5 and Random Reads 8K only.
    assert not any("RAID-10" in cell for row in comparison_rows(archive) for cell in row)
    provenance = json.loads(archive.read("provenance.json"))
    assert provenance["filters"] == {"raid_level": "RAID-5", "workload": "Random Reads 8K", "latency": "avg"}
    assert {"charts/random-reads-8k.svg", "charts/random-reads-8k.png", "tables/tables.docx"} <= set(archive.namelist())
    # The white-paper report of the same selection, in every format.
    assert {"report/report.docx", "report/report.pdf", "report/report.html"} <= set(archive.namelist())
    assert archive.read("report/report.pdf").startswith(b"%PDF")

    celery_workers.stop_all()
    again = client.get(BUNDLE_URL)
    assert again.status_code == 200 and again["Content-Type"] == "application/zip"
    assert content(again) == zipped, "served from the bundle built before, byte for byte, with no worker running"

    # A new run of one of the systems makes it another bundle: older results are never served.
    lab = ConfigFactory(system=System.objects.get(name="IBM DS4400"), raid_level="RAID-5", drive_count=140)
    PointFactory(run=RunFactory(config=lab, workload_name="Random Reads 8K"), iops=1.0, avg_response_ms=1.0)
    moved = client.get(BUNDLE_URL)
    assert moved.status_code == 302 and moved["Location"] != progress_url


@pytest.fixture
def no_worker(monkeypatch):
    """Tasks are recorded instead of sent: the test plays the worker."""
    sent = []
    monkeypatch.setattr(export_views.bundle_task, "delay", lambda key: sent.append(key))
    return sent


def _key(response):
    return re.fullmatch(r"/export/bundles/([0-9a-f]{64})/", response["Location"])[1]


def test_a_failed_build_says_why_on_the_page_and_asking_again_starts_it_again(
    demo, data_dir, no_worker, client, monkeypatch
):
    key = _key(client.get(BUNDLE_URL))
    assert no_worker == [key]
    assert client.get(f"/export/bundles/{key}/status.json").json()["status"] == "queued"
    assert client.get(BUNDLE_URL)["Location"] == f"/export/bundles/{key}/"
    assert no_worker == [key], "a queued bundle is not sent twice"

    def broken(**kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(bundle_jobs, "comparison_bundle", broken)
    assert bundle_jobs.bundle_build(key) == "failed"
    status = client.get(f"/export/bundles/{key}/status.json").json()
    assert status["status"] == "failed"
    assert re.fullmatch(
        r"The bundle could not be built because of an internal error \(RuntimeError, reference [0-9a-f]{12} "
        r"in the worker's log\)\.",
        status["error"],
    )
    page = client.get(f"/export/bundles/{key}/").content.decode()
    assert html.escape(status["error"]) in page and f'<a href="/export/bundle/?{html.escape(SELECTION)}">' in page
    assert client.get(f"/export/bundles/{key}/download/").status_code == 404

    assert client.get(BUNDLE_URL)["Location"] == f"/export/bundles/{key}/"
    assert no_worker == [key, key], "asking again after a failure starts a new build"
    assert client.get(f"/export/bundles/{key}/status.json").json()["status"] == "queued"


def test_a_build_whose_worker_died_and_one_no_worker_takes_are_reported(demo, data_dir, no_worker, client):
    key = _key(client.get(BUNDLE_URL))
    state_path = bundle_jobs.bundles_dir() / f"{key}.json"
    state = json.loads(state_path.read_text())
    state_path.write_text(json.dumps({**state, "heartbeat_at": time.time() - 40}))
    note = client.get(f"/export/bundles/{key}/status.json").json()
    assert note["status"] == "queued"
    assert re.fullmatch(r"No worker has started on it after 4\d s: is a Celery worker running\?", note["note"])

    state_path.write_text(json.dumps({**state, "status": "building", "heartbeat_at": time.time() - 90}))
    stopped = client.get(f"/export/bundles/{key}/status.json").json()
    assert stopped["status"] == "failed" and stopped["error"].startswith("The worker building it stopped 9")
    client.get(BUNDLE_URL)
    assert no_worker == [key, key]


def test_bad_selections_and_unknown_bundles_are_refused(demo, data_dir, no_worker, client):
    response = client.get("/export/bundle/?a=IBM+DS4500&b=IBM+DS4400&threshold_ms=soon")
    assert response.status_code == 400 and "the threshold must be a number of milliseconds" in response.content.decode()
    assert client.get("/export/bundle/?a=IBM+DS4500&b=Nobody").status_code == 404
    missing = "0" * 64
    assert client.get(f"/export/bundles/{missing}/").status_code == 404
    assert client.get(f"/export/bundles/{missing}/status.json").json()["status"] == "missing"
    assert no_worker == []
