"""A lab's own IO500 run (its upload of ``result_summary.txt``) on the run page, the system page, the curve chart
and the several-systems tables: each figure as measured, with no response time, the same at any threshold, never
"at 20 ms"; a fio run with no response times keeps its "No value at 20 ms". The lab uploads sc25 Core42's
result_summary.txt; for the several-systems table two more labs upload sc23 Aurora's and 2018 GCP DDN's."""

import csv
import html
import io
import re

import pytest

from portal.models import Run, Upload
from tests.factories import ConfigFactory, PointFactory, RunFactory
from tests.ingesting import store_file
from tests.samples import sample
from tests.test_catalogue_io500 import AURORA_NAME, build_clone, catalogue_import

pytestmark = pytest.mark.django_db

LAB = "Lab DAOS"
# Core42's "[RESULT] ior-easy-write 977.733176 GiB/s : time 405.810 seconds" (line 2), in MB/s: 977.733176 x
# 1,073.741824 = 1,049,833.0.
EASY_WRITE = "1,049,833 MB/s: the IO500 phase figure as measured, with no response time (the same at any threshold)."


def text_of(body: bytes) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body.decode())))


def upload(name, lab):
    stored = store_file(sample("io500", name), new_system={"name": lab})
    assert stored.status == Upload.Status.DONE, stored.error
    return Run.objects.get(config__system__name=lab, workload_name="ior-easy-write")


@pytest.fixture
def easy_write(data_dir):
    return upload("sc25-core42-daos-result_summary.txt", LAB)


@pytest.mark.parametrize("threshold_ms", [None, 5, 0.5])
def test_the_run_page_states_the_phase_figure_as_measured_at_any_threshold(
    client, admin_user, easy_write, threshold_ms
):
    client.force_login(admin_user)
    query = {} if threshold_ms is None else {"threshold_ms": threshold_ms}
    text = text_of(client.get(f"/runs/{easy_write.id}/", query).content)
    assert EASY_WRITE in text
    assert "The figure, with no response time" in text
    assert "no response times were measured" not in text and "No value" not in text
    assert "Throughput at the threshold" not in text


def test_the_curve_chart_marks_the_figure_as_measured_not_at_the_threshold(client, admin_user, easy_write):
    client.force_login(admin_user)
    chart = client.get(f"/runs/{easy_write.id}/charts/curve.json").json()
    (marker,) = [series for series in chart["data"] if series.get("mode") == "markers"]
    assert marker["name"] == "1,049,833 MB/s, the IO500 phase figure as measured (no response time)"
    assert marker["text"] == [EASY_WRITE]
    assert marker["x"] == [pytest.approx(977.733176 * 1073.741824)]


def test_the_system_page_shows_each_figure_as_measured(client, admin_user, easy_write):
    client.force_login(admin_user)
    text = text_of(client.get(f"/systems/{easy_write.config.system_id}/", {"threshold_ms": 5}).content)
    runs = text[text.index("Runs by workload") :]
    assert runs.startswith("Runs by workload, as measured (no response time) ")
    assert " ms" not in runs and "no response times" not in runs
    row = f"#{easy_write.id} not stated IO500 measured (uploaded file) 1,049,833 MB/s"
    assert f"{row} – as measured, with no response time (the same at any threshold)" in runs
    # "[RESULT] mdtest-easy-write 2464.338709 kIOPS" (line 3): 2,464,339 metadata operations per second
    mdtest = Run.objects.get(config__system__name=LAB, workload_name="mdtest-easy-write")
    assert f"#{mdtest.id} not stated IO500 measured (uploaded file) 2,464,339 metadata ops/s – as measured" in runs


def test_the_system_page_of_a_catalogue_submission_shows_each_figure_as_published(client, admin_user, tmp_path):
    root = tmp_path / "submission-data"
    build_clone(root)
    catalogue_import(root)
    run = Run.objects.get(config__system__name=AURORA_NAME, workload_name="ior-easy-write")
    client.force_login(admin_user)
    text = text_of(client.get(f"/systems/{run.config.system_id}/", {"threshold_ms": 5}).content)
    runs = text[text.index("Runs by workload") :]
    assert runs.startswith("Runs by workload, as published (no response time) ")
    assert " ms" not in runs
    # Aurora's result.txt ior-easy-write "score = 1313.924246" GiB/s x 1,073.741824 = 1,410,815.4 MB/s
    row = f"#{run.id} not stated IO500 published (typed in from a paper) 1,410,815 MB/s"
    assert f"{row} – as published, with no response time (the same at any threshold)" in runs


def test_the_api_gives_the_figure_as_measured_at_any_threshold(client, admin_user, easy_write):
    client.force_login(admin_user)
    for threshold_ms in (20, 0.5):
        body = client.get(f"/api/v1/runs/{easy_write.id}/threshold/", {"threshold_ms": threshold_ms}).json()
        assert body["value"] == pytest.approx(977.733176 * 1073.741824)
        assert (body["status"], body["status_text"]) == ("measured", "measured point")


def test_the_several_systems_tables_state_the_figures_as_measured(client, admin_user, easy_write):
    upload("sc23-aurora-daos-result_summary.txt", "Lab Aurora")
    upload("2018-gcp-ddn-lustre-result_summary.txt", "Lab GCP")
    client.force_login(admin_user)
    query = {"a": ["Lab Aurora", "Lab GCP"], "b": LAB, "threshold_ms": 5}
    text = text_of(client.get("/compare/", query).content)
    against = f"Each system against {LAB} with the figures as measured, with no response time (no threshold applies)"
    assert against in text
    assert " ms" not in text
    exported = client.get("/export/comparison/", {**query, "format": "csv"}).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(exported)))
    assert rows[1][2] == "As measured (no response time)"
    found = {row[0]: row for row in rows if row}
    # ior-easy-write in MB/s (GiB/s x 1,073.741824): Core42's 977.733176 (line 2), Aurora's "[RESULT] ior-easy-write
    # 1313.924246 GiB/s" (line 2) 1,410,815, GCP's "ior_easy_write 13.978 GB/s" (line 1) 15,009; 1313.924246 /
    # 977.733176 = 1.343849 (+34.4 %), 13.978 / 977.733176 = 0.014296 (-98.6 %).
    assert found["ior-easy-write (MB/s)"][2:] == ["1049833", "1410815", "15009", "34.4", "-98.6"]
    # the score, not its metadata sub-score: Core42's "[SCORE ] ... TOTAL 666.701247" (line 16), Aurora's "TOTAL
    # 2885.570524" (line 15), GCP's "TOTAL 12.8704" (line 13); 2885.570524 / 666.701247 = 4.328132 (+332.8 %),
    # 12.8704 / 666.701247 = 0.019305 (-98.1 %)
    assert found["IO500 score (score)"][2:] == ["666.701247", "2885.570524", "12.8704", "332.8", "-98.1"]
    assert "666.701247 2,885.570524 (332.8 %) 12.8704 (-98.1 %)" in text
    assert "Figures as measured, with no response time: no threshold applies; MB/s = 10^6 bytes/s." in exported
    assert " ms" not in exported


def test_a_fio_run_with_no_response_times_still_says_no_value_at_the_threshold(client, admin_user):
    config = ConfigFactory()
    run = RunFactory(config=config, tool="fio", origin=Run.Origin.MEASURED, name="seq write", workload_name="seq")
    PointFactory(run=run, seq=0, mbps=1200.0, iops=None, avg_response_ms=None)
    client.force_login(admin_user)
    text = text_of(client.get(f"/runs/{run.id}/").content)
    assert "No value at 20 ms: no response times were measured" in text
    assert "Throughput at the threshold" in text and "as measured" not in text
