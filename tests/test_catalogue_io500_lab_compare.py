"""A lab's own IO500 results (its upload of ``result_summary.txt``) compared with a catalogue's IO500 submission,
and two labs' uploads with each other: phase against phase and the score, each figure as measured or as
published (no response time: never "at 20 ms", whatever the threshold), the catalogue's side cited. The lab
uploads sc25 Core42's result_summary.txt; the catalogue holds sc23 Aurora's submission (its result.txt)."""

import csv
import html
import io
import re

import pytest

from portal.comparisons.selectors import comparison
from portal.models import Run, System, Upload
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import Figure, Paragraph, TableBlock
from tests.ingesting import store_file
from tests.samples import sample
from tests.test_catalogue_io500 import AURORA, AURORA_NAME, build_clone, catalogue_import

pytestmark = pytest.mark.django_db

LAB = "Lab DAOS"
PAIR = {"a": LAB, "b": AURORA_NAME}
# ior-easy-write: Core42's "[RESULT] ior-easy-write 977.733176 GiB/s" (line 2), Aurora's result.txt "score =
# 1313.924246"; 977.733176 / 1313.924246 = 0.744132: 25.6 % lower. As MB/s (x 1,073.741824): 1,049,833 and
# 1,410,815.
EASY_WRITE = (
    f"{LAB}'s ior-easy-write is 25.6 % lower than {AURORA_NAME}'s, the IO500 phase figures as measured / as "
    "published (no response time): 977.733176 GiB/s against 1,313.924246 GiB/s"
)
# Core42's "[SCORE ] Bandwidth 247.898880 GiB/s : IOPS 1793.031711 kiops : TOTAL 666.701247" (line 16), Aurora's
# [SCORE] SCORE = 2885.570524, BW = 734.502697, MD = 11336.265046: 666.701247 / 2885.570524 = 0.231047 (76.9 %
# lower), 247.89888 / 734.502697 = 0.337506 (66.2 %), 1793.031711 / 11336.265046 = 0.158168 (84.2 %).
SCORE = (
    f"{LAB}'s IO500 score is 76.9 % lower than {AURORA_NAME}'s, as measured / as published (no response time): "
    "666.701247 against 2,885.570524; bandwidth sub-score 247.89888 GiB/s against 734.502697 GiB/s (66.2 % lower); "
    "metadata sub-score 1,793.031711 kIOPS against 11,336.265046 kIOPS (84.2 % lower)"
)


@pytest.fixture
def commit(tmp_path, data_dir):
    root = tmp_path / "submission-data"
    commit = build_clone(root)
    catalogue_import(root)
    upload = store_file(sample("io500", "sc25-core42-daos-result_summary.txt"), new_system={"name": LAB})
    assert upload.status == Upload.Status.DONE, upload.error
    return commit


def page_text(client, query):
    body = client.get("/compare/", query).content.decode()
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


@pytest.mark.parametrize("reading", [{}, {"threshold_ms": 5}])
def test_the_page_compares_the_labs_upload_as_measured_with_the_submission_as_published(
    client, admin_user, commit, reading
):
    client.force_login(admin_user)
    text = page_text(client, {**PAIR, **reading})
    assert EASY_WRITE in text and SCORE in text
    assert "Figures as measured / as published, with no response time: no threshold applies" in text
    assert "ior-easy-write as measured / as published (no response time) (MB/s" in text
    assert "No figure of A" not in text and " ms" not in text
    # the lab's figure is its own, uncited; the catalogue's cites its file and commit
    assert f"{LAB}: the IO500 phase figure as measured, 977.733176 GiB/s; {AURORA_NAME}:" in text
    assert (
        f"{AURORA_NAME}: the IO500 phase figure as published, 1,313.924246 GiB/s, IO500/submission-data, "
        f"{AURORA}/result.txt, commit {commit}"
    ) in text


def test_the_api_states_each_sides_figure_in_mb_s_and_kiops_as_the_files_do(client, admin_user, commit):
    client.force_login(admin_user)
    body = client.get("/api/v1/compare/", PAIR, HTTP_ACCEPT="application/json").json()
    workloads = {workload["workload"]: workload for workload in body["comparisons"][0]["workloads"]}
    easy_write = workloads["ior-easy-write"]
    assert easy_write["as_published"] == "as measured / as published (no response time)"
    assert easy_write["summaries"] == [EASY_WRITE]
    [row] = easy_write["rows"]
    # 977.733176 and 1313.924246 GiB/s in MB/s (x 1,073.741824); (977.733176 - 1313.924246) / 1313.924246
    assert row["a"]["value"] == pytest.approx(1049833.0038, abs=0.01)
    assert row["b"]["value"] == pytest.approx(1410815.4165, abs=0.01)
    assert row["improvement_pct"] == pytest.approx(-25.5868, abs=0.001)
    assert (row["a"]["status_text"], row["b"]["status_text"]) == ("measured point", "published figure")
    assert workloads["IO500 score"]["summaries"] == [SCORE]
    # mdtest-easy-write: Core42's line 3, 2464.338709 kIOPS; Aurora's result.txt "score = 8252.636649"
    mdtest = workloads["mdtest-easy-write"]
    assert (mdtest["rows"][0]["a"]["value"], mdtest["rows"][0]["b"]["value"]) == pytest.approx(
        (2464338.709, 8252636.649)
    )
    assert mdtest["rates"] == []  # compared in the table, not as rates without a counterpart
    # Core42's unscored ior-rnd4K-easy-read (line 15) has no counterpart in Aurora's submission
    assert "ior-rnd4K-easy-read" in body["comparisons"][0]["only_a_workloads"]


def test_the_csv_export_states_the_lab_figures_as_measured(client, admin_user, commit):
    client.force_login(admin_user)
    exported = client.get("/export/comparison/", {**PAIR, "format": "csv", "table": "comparison"})
    text = exported.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1][2] == "As measured / as published (no response time)"
    found = {row[0]: row for row in rows if row}
    assert found["ior-easy-write (MB/s)"][2:] == ["1049833", "1410815", "-25.6"]
    # 2464.338709 and 8252.636649 kIOPS as operations per second; (2464.338709 - 8252.636649) / 8252.636649
    assert found["mdtest-easy-write (metadata ops/s)"][2:] == ["2464339", "8252637", "-70.1"]
    assert "Figures as measured / as published, with no response time: no threshold applies." in text
    assert f"{AURORA}/result.txt, commit {commit}" in text
    assert "20 ms" not in text


def test_two_labs_uploads_compare_as_measured(client, admin_user, commit):
    upload = store_file(sample("io500", "sc23-aurora-daos-result_summary.txt"), new_system={"name": "Lab Aurora"})
    assert upload.status == Upload.Status.DONE, upload.error
    client.force_login(admin_user)
    query = {"a": LAB, "b": "Lab Aurora", "threshold_ms": 5}
    body = client.get("/api/v1/compare/", query, HTTP_ACCEPT="application/json").json()
    workloads = {workload["workload"]: workload for workload in body["comparisons"][0]["workloads"]}
    # Aurora's result_summary.txt line 2: ior-easy-write 1313.924246 GiB/s
    assert workloads["ior-easy-write"]["summaries"] == [
        f"{LAB}'s ior-easy-write is 25.6 % lower than Lab Aurora's, the IO500 phase figures as measured (no "
        "response time): 977.733176 GiB/s against 1,313.924246 GiB/s"
    ]
    [row] = workloads["ior-easy-write"]["rows"]
    assert row["notes"] == [
        f"{LAB}: the IO500 phase figure as measured, 977.733176 GiB/s",
        "Lab Aurora: the IO500 phase figure as measured, 1,313.924246 GiB/s",
    ]
    text = page_text(client, query)
    assert "Figures as measured, with no response time: no threshold applies" in text and " ms" not in text


def test_a_measured_fio_run_beside_the_io500_upload_is_still_read_at_the_threshold(client, admin_user, commit):
    lab = System.objects.get(name=LAB)
    fio = sample("fio", "fio-3.26-windowsaio-vc.json")
    store_file(fio, system=lab)
    # the same figures in a file of its own (a byte more: the same file is stored once)
    store_file(stream=io.BytesIO(fio.read_bytes() + b"\n"), name=fio.name, new_system={"name": "Fio box"})
    fio_run = Run.objects.get(config__system=lab, tool="fio")
    assert fio_run.points.get().avg_response_ms is not None
    client.force_login(admin_user)
    query = {"a": LAB, "b": "Fio box", "threshold_ms": 5}
    body = client.get("/api/v1/compare/", query, HTTP_ACCEPT="application/json").json()
    [workload] = body["comparisons"][0]["workloads"]
    # The same file on both sides, read at 5 ms: its one point ("iops" : 2167.231601, "lat_ns" mean 459323 ns,
    # 0.459 ms) is under 5 ms, a lower bound on each side, whose improvement is not stated
    assert workload["as_published"] == ""
    [row] = workload["rows"]
    assert (row["a"]["status"], row["b"]["status"]) == ("not_reached", "not_reached")
    assert row["a"]["value"] == row["b"]["value"] == pytest.approx(2167.231601)
    assert row["improvement_pct"] is None


def test_the_score_paired_by_hand_and_the_report_say_as_measured_and_as_published(client, admin_user, commit):
    client.force_login(admin_user)
    body = client.get(
        "/api/v1/compare/", {**PAIR, "pair": "IO500 score | IO500 score"}, HTTP_ACCEPT="application/json"
    ).json()
    [workload] = body["comparisons"][0]["workloads"]
    assert workload["as_published"] == "as measured / as published (no response time)"
    assert workload["summaries"] == [SCORE]
    # the table's row: the scores, Core42's "TOTAL 666.701247" (line 16) and Aurora's "SCORE = 2885.570524",
    # headed by their own unit; (666.701247 - 2885.570524) / 2885.570524 = -76.895 %
    [row] = workload["rows"]
    assert (row["a"]["value"], row["b"]["value"]) == pytest.approx((666.701247, 2885.570524))
    assert [figure["value"] for figure in (*row["a"]["figures"], *row["b"]["figures"])] == pytest.approx(
        [666.701247, 2885.570524]
    )
    assert row["improvement_pct"] == pytest.approx(-76.895, abs=0.001)
    assert row["notes"][0] == (
        "the table's figure is the IO500 score; the score and its sub-scores are compared in the summary"
    )
    assert workload["figure"] == {
        "kind": "io500_score",
        "words": "IO500 score (geometric mean of the bandwidth and metadata sub-scores)",
        "unit": "score",
        "at_threshold": True,
    }
    lab, aurora = System.objects.get(name=LAB), System.objects.get(name=AURORA_NAME)
    report = report_content([comparison(a=lab, b=aurora)], options=ReportOptions(), draw=False)
    captions = [block.caption for block in report.blocks if isinstance(block, (Figure, TableBlock))]
    assert "ior-easy-write as measured / as published (no response time) (MB/s)" in captions
    said = [block.text for block in report.blocks if isinstance(block, Paragraph)]
    assert any(text.startswith("Each figure is the one IO500 measured or published") for text in said)
    assert "Figures as measured / as published, with no response time: no threshold applies." in report.abstract


def test_the_chart_of_a_metadata_phase_is_drawn_in_metadata_operations_not_iops(client, admin_user, commit):
    client.force_login(admin_user)
    chart = client.get("/compare/chart.json", {**PAIR, "label": "mdtest-easy-write"}).json()
    # Core42's "[RESULT] mdtest-easy-write 2464.339... kIOPS": a metadata rate, its axis named by its unit.
    assert chart["layout"]["yaxis"]["title"]["text"] == "metadata ops/s"
    bandwidth = client.get("/compare/chart.json", {**PAIR, "label": "ior-easy-write"}).json()
    assert bandwidth["layout"]["yaxis"]["title"]["text"].startswith("MB/s")


def test_the_score_row_bar_and_export_cell_hold_the_score_not_a_sub_score(client, admin_user, commit):
    client.force_login(admin_user)
    # Core42's "TOTAL 666.701247" (line 16) against Aurora's "SCORE = 2885.570524": 76.9 % lower; the metadata
    # sub-scores (84.2 % lower) stay in the summary only
    text = page_text(client, PAIR)
    assert "IO500 score as measured / as published (no response time) (score)" in text
    assert " 666.701247 2,885.570524 -76.9 % " in text
    chart = client.get("/compare/chart.json", {**PAIR, "label": "IO500 score"}).json()
    assert chart["layout"]["yaxis"]["title"]["text"] == "score"
    bars = [series for series in chart["data"] if series.get("type") == "bar"]
    assert [bar["y"] for bar in bars] == [[pytest.approx(666.701247)], [pytest.approx(2885.570524)]]
    exported = client.get("/export/comparison/", {**PAIR, "format": "csv", "table": "comparison"})
    found = {row[0]: row for row in csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))) if row}
    assert found["IO500 score (score)"][2:] == ["666.701247", "2885.570524", "-76.9"]
