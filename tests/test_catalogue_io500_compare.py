"""Two IO500 submissions of the catalogue compared on the compare page, in the API and in the exports: phase
against phase, the score by the score and both sub-scores, each figure as IO500 published it (no response
time: never "at 20 ms", whatever the threshold), with its unit and the file it was read from. Figures are
those of the samples' lines (sc23 Aurora's result.txt, sc25 Core42's result_summary.txt)."""

import csv
import html
import io
import re

import openpyxl
import pytest

from portal.comparisons.selectors import comparison
from portal.models import Run, System
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import Figure, Paragraph, TableBlock
from tests.test_catalogue_io500 import AURORA, AURORA_NAME, CORE42, CORE42_NAME, build_clone, catalogue_import

pytestmark = pytest.mark.django_db

PAIR = {"a": AURORA_NAME, "b": CORE42_NAME}
# ior-easy-write: Aurora's result.txt "score = 1313.924246", Core42's "[RESULT] ior-easy-write 977.733176 GiB/s";
# 1313.924246 / 977.733176 = 1.34385: 34.4 % higher. As MB/s (x 1,073.741824): 1,410,815 and 1,049,833.
EASY_WRITE = (
    f"{AURORA_NAME}'s ior-easy-write is 34.4 % higher than {CORE42_NAME}'s, the IO500 phase figures as published "
    "(no response time): 1,313.924246 GiB/s against 977.733176 GiB/s"
)
# Aurora's [SCORE] SCORE = 2885.570524, BW = 734.502697, MD = 11336.265046; Core42's "[SCORE ] Bandwidth 247.898880
# GiB/s : IOPS 1793.031711 kiops : TOTAL 666.701247": 2885.570524 / 666.701247 = 4.32813 (332.8 % higher),
# 734.502697 / 247.89888 = 2.96291 (196.3 %), 11336.265046 / 1793.031711 = 6.32240 (532.2 %).
SCORE = (
    f"{AURORA_NAME}'s IO500 score is 332.8 % higher than {CORE42_NAME}'s, as published (no response time): "
    "2,885.570524 against 666.701247; bandwidth sub-score 734.502697 GiB/s against 247.89888 GiB/s (196.3 % higher); "
    "metadata sub-score 11,336.265046 kIOPS against 1,793.031711 kIOPS (532.2 % higher)"
)


@pytest.fixture
def commit(tmp_path):
    root = tmp_path / "submission-data"
    commit = build_clone(root)
    catalogue_import(root)
    return commit


def page_text(client, **params):
    body = client.get("/compare/", {**PAIR, **params}).content.decode()
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


@pytest.mark.parametrize("threshold_ms", [None, 5])
def test_the_page_compares_phases_and_the_score_as_published_never_at_a_threshold(client, commit, threshold_ms):
    text = page_text(client, **({"threshold_ms": threshold_ms} if threshold_ms else {}))
    assert EASY_WRITE in text and SCORE in text
    assert "ior-easy-write as published (no response time) (MB/s" in text
    assert "Figures as published, with no response time: no threshold applies" in text
    assert " ms" not in text  # no threshold, default or chosen, is said
    # the row's notes cite each side's file and the commit
    assert (
        f"{AURORA_NAME}: the IO500 phase figure as published, 1,313.924246 GiB/s, IO500/submission-data, "
        f"{AURORA}/result.txt, commit {commit}"
    ) in text
    assert f"{CORE42}/result_summary.txt, commit {commit}" in text


def test_the_page_offers_no_drive_count_sizing_for_io500_figures(client, commit):
    """IO500 states no drive count and no response time: no phase or score is sized by drive count."""
    body = client.get("/compare/", PAIR).content.decode()
    assert body.count('<section class="workload"') > 0
    assert "Which needs fewer drives" not in body
    assert "/sizing/" not in body


def test_the_api_states_the_same_figures_sentences_and_citations(client, commit):
    body = client.get("/api/v1/compare/", PAIR, HTTP_ACCEPT="application/json").json()
    workloads = {workload["workload"]: workload for workload in body["comparisons"][0]["workloads"]}
    easy_write = workloads["ior-easy-write"]
    assert easy_write["as_published"] == "as published (no response time)"
    assert easy_write["summaries"] == [EASY_WRITE]
    [row] = easy_write["rows"]
    # 1313.924246 GiB/s and 977.733176 GiB/s in MB/s (x 1,073.741824)
    assert row["a"]["value"] == pytest.approx(1410815.4165, abs=0.01)
    assert row["b"]["value"] == pytest.approx(1049833.0038, abs=0.01)
    assert row["improvement_pct"] == pytest.approx(34.385, abs=0.001)
    assert f"{CORE42_NAME}: the IO500 phase figure as published, 977.733176 GiB/s" in row["notes"][1]
    assert workloads["IO500 score"]["summaries"] == [SCORE]
    # mdtest-easy-write: Aurora's result.txt "score = 8252.636649" (kIOPS), Core42's 2464.338709 kIOPS
    mdtest = workloads["mdtest-easy-write"]
    assert (mdtest["rows"][0]["a"]["value"], mdtest["rows"][0]["b"]["value"]) == pytest.approx(
        (8252636.649, 2464338.709)
    )
    assert "8,252.636649 kIOPS against 2,464.338709 kIOPS" in mdtest["summaries"][0]


def test_the_csv_and_excel_exports_state_the_figures_as_published(client, commit):
    exported = client.get("/export/comparison/", {**PAIR, "format": "csv", "table": "comparison"})
    rows = list(csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert rows[1][2] == "As published (no response time)"
    found = {row[0]: row for row in rows if row and row[0].startswith("ior-easy-write")}
    assert found["ior-easy-write (MB/s)"][2:] == ["1410815", "1049833", "34.4"]
    text = exported.content.decode("utf-8-sig")
    assert "20 ms" not in text
    assert "Figures as published, with no response time: no threshold applies." in text
    assert f"{AURORA}/result.txt, commit {commit}" in text
    workbook = openpyxl.load_workbook(
        io.BytesIO(client.get("/export/comparison/", {**PAIR, "format": "xlsx", "table": "summary"}).content)
    )
    cells = [cell for sheet in workbook.worksheets for row in sheet.iter_rows(values_only=True) for cell in row]
    assert SCORE in cells and EASY_WRITE in cells
    assert not any("20 ms" in str(cell) for cell in cells)


def test_the_run_page_reads_a_phase_as_published_at_any_threshold(client, commit):
    run = Run.objects.get(config__system__name=AURORA_NAME, name="ior-easy-write")
    for threshold_ms in (20, 5):
        text = html.unescape(client.get(f"/runs/{run.id}/", {"threshold_ms": threshold_ms}).content.decode())
        assert "1,410,815 MB/s: the IO500 phase figure as published, with no response time" in text
        assert f"1,410,815 MB/s at {threshold_ms} ms" not in text


def test_b_adjusted_and_the_score_paired_by_hand_say_what_the_table_says(client, commit):
    # B x 1.5: 2885.570524 / (666.701247 x 1.5) = 2.88542: 188.5 % higher; 734.502697 / 371.84832 = 1.97528: 97.5 %;
    # 11336.265046 / 2689.5475665 = 4.21493: 321.5 %
    body = client.get(
        "/api/v1/compare/",
        {**PAIR, "adjust_b": 1.5, "pair": "IO500 score | IO500 score"},
        HTTP_ACCEPT="application/json",
    ).json()
    [workload] = body["comparisons"][0]["workloads"]
    assert workload["workload"] == "IO500 score vs IO500 score"
    assert workload["as_published"] == "as published (no response time)"
    assert workload["summaries"] == [
        f"{AURORA_NAME}'s IO500 score is 188.5 % higher than {CORE42_NAME}'s, as published (no response time): "
        "2,885.570524 against 666.701247; bandwidth sub-score 734.502697 GiB/s against 247.89888 GiB/s "
        "(97.5 % higher); metadata sub-score 11,336.265046 kIOPS against 1,793.031711 kIOPS (321.5 % higher) "
        "(B's figures multiplied by 1.5)"
    ]
    # the table's row: the score, B x 1.5 (188.5 %), never the metadata sub-score's 321.5 %
    [row] = workload["rows"]
    assert (row["a"]["value"], row["b"]["value"]) == pytest.approx((2885.570524, 666.701247))
    assert row["improvement_pct"] == pytest.approx(188.542, abs=0.001)


def test_the_report_captions_and_rule_say_as_published(commit):
    a, b = (System.objects.get(name=name) for name in (AURORA_NAME, CORE42_NAME))
    report = report_content([comparison(a=a, b=b)], options=ReportOptions(), draw=False)
    captions = [block.caption for block in report.blocks if isinstance(block, (Figure, TableBlock))]
    assert "ior-easy-write as published (no response time) (MB/s)" in captions
    assert f"IO500 score as published (no response time): {AURORA_NAME} (A) and {CORE42_NAME} (B)" in captions
    # the score's table: Aurora's "SCORE = 2885.570524" against Core42's "TOTAL 666.701247", headed "score"
    [score] = [block for block in report.blocks if isinstance(block, TableBlock) and block.key == "IO500 score table"]
    assert score.caption == "IO500 score as published (no response time) (score)"
    assert [cell.text for cell in score.rows[0][1:4]] == ["2,885.570524", "666.701247", "332.8 %"]
    assert not [caption for caption in captions if " at 20 ms" in caption]
    said = [block.text for block in report.blocks if isinstance(block, Paragraph)]
    assert any(text.startswith("Each figure is the one IO500 published") for text in said)
    assert "Figures as published, with no response time: no threshold applies." in report.abstract
