"""Every table of a comparison's bundle follows the comparison's basis: its threshold, the latency figure the
threshold applies to (the 99th percentile here) and its unit, says so in its caption and footnotes, marks a
lower bound "≥" and writes its figures as the compare page does; ``/export/table/`` honours ``latency`` and
every download refuses a parameter it does not take.

Two SSD sweeps from fio-plot (samples/fio-sweeps/, randread 4 KiB at iodepth 1 to 64), one drive each. From
each file's ``jobs[0].read``: the Intel D3-S4610 did 69,656.0 IOPS at iodepth 32 (``iops``; ``lat_ns.mean``
0.458 ms, ``clat_ns.percentile["99.000000"]`` 0.528 ms) and 69,511.1 IOPS at iodepth 64 (0.920 ms, p99
1.073 ms); the Samsung PM883 65,315.6 IOPS at iodepth 32 (p99 0.528 ms) and 65,341.9 at iodepth 64 (average
0.978 ms, p99 1.044 ms). Neither reaches a 1 ms average response time."""

import csv
import io
import json
import re
import zipfile

import pytest
from django.core.management import call_command
from docx import Document
from openpyxl import load_workbook

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import System
from portal.publishing.bundle import comparison_bundle
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import TableBlock
from tests.conftest import stored_once
from tests.samples import sample

DEVICES = {"Intel D3-S4610": "fioplot_intel-d3-s4610_randread", "Samsung PM883": "fioplot_samsung-pm883_randread"}
INTEL = "Intel D3-S4610"


@pytest.fixture(scope="module")
def ssds_stored(module_transaction, django_db_blocker, tmp_path_factory):
    """Both sweeps stored once for the module (the tests only read them)."""
    with stored_once(django_db_blocker, tmp_path_factory):
        for name, folder in DEVICES.items():
            call_command(
                "ingest",
                str(sample("fio-sweeps", folder)),
                "--system",
                name,
                "--config",
                "drive_count=1",
                "--config",
                "drive_type=SSD",
                stdout=io.StringIO(),
            )


@pytest.fixture
def ssds(ssds_stored, db, data_dir):
    return {name: System.objects.get(name=name) for name in DEVICES}


# The Intel's figure at a p99 of 1 ms: its iodepth 32 point (randread-32-1.json: 69,655.96 IOPS, clat p99
# 0.528 ms), the best at or under 1 ms; its iodepth 64 point, over it (1.073 ms), does less (69,511.09). Written
# 69,656.
INTEL_P99_1MS = 69655.955734


def _bundle(ssds, **basis):
    archive = comparison_bundle(a=ssds[INTEL], b=ssds["Samsung PM883"], query=ComparisonQuery(**basis), charts=False)
    return zipfile.ZipFile(io.BytesIO(archive))


def _texts(bundle):
    """Each text table file of the bundle by name, decoded."""
    return {
        name: bundle.read(name).decode("utf-8-sig")
        for name in bundle.namelist()
        if name.startswith("tables/") and not name.endswith((".xlsx", ".docx"))
    }


def _docx_text(bundle):
    document = Document(io.BytesIO(bundle.read("tables/tables.docx")))
    cells = [cell.text for table in document.tables for row in table.rows for cell in row.cells]
    return [paragraph.text for paragraph in document.paragraphs], cells


def test_every_table_of_a_p99_bundle_says_p99_and_writes_the_pages_figures(ssds):
    assert round(INTEL_P99_1MS, 2) == 69655.96
    bundle = _bundle(ssds, threshold_ms=1.0, latency="p99")
    texts = _texts(bundle)
    # Comparison, summary, side by side, and each system's white-paper table, in five text formats.
    assert len(texts) == 5 * 5
    for name, text in texts.items():
        flat = " ".join(text.replace("\\", "").split())
        assert "99th percentile response time of 1 ms" in flat, name
        assert "average response time" not in flat, name
    paragraphs, cells = _docx_text(bundle)
    basis_notes = [p for p in paragraphs if "99th percentile response time of 1 ms" in p]
    assert len(basis_notes) >= 5 and not any("average response time" in p for p in paragraphs)

    # The page writes 69,656 (whole IOPS); so does every table holding the figure, the white-paper table too.
    markdown = {name: text for name, text in texts.items() if name.endswith(".md")}
    comparison = next(text for name, text in markdown.items() if "compared-with" in name and "summary" not in name)
    whitepaper = next(text for name, text in markdown.items() if "intel" in name and "results" in name)
    assert "| 69,656 |" in comparison and "69,655.9" not in comparison
    assert "| 69,656 |" in whitepaper
    csv_whitepaper = next(
        text for name, text in texts.items() if "intel" in name and "results" in name and name.endswith(".csv")
    )
    assert next(row[:3] for row in csv.reader(io.StringIO(csv_whitepaper)) if row and row[0] == "1 SSD") == [
        "1 SSD",
        "Cache not stated",
        "69656",
    ]
    assert "69,656" in cells


def test_a_bundle_writes_one_unit_and_says_which(ssds):
    bundle = _bundle(ssds, threshold_ms=1.0, latency="p99")
    texts = _texts(bundle)
    paragraphs, cells = _docx_text(bundle)
    every = [*texts.values(), "\n".join(paragraphs), "\n".join(cells)]
    for text in every:
        assert "MBps" not in text and "2^20" not in text and "MiB" not in text
    whitepapers = [text for name, text in texts.items() if "results" in name and name.endswith(".csv")]
    assert len(whitepapers) == 2
    for text in whitepapers:
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[2][2:4] == ["I/Os", "MB/s"] and ["MB/s = 10^6 bytes/s."] in rows
    # 4 KiB reads: MB/s = IOPS x 4,096 / 10^6, to three significant digits as the page writes MB/s (285).
    assert round(INTEL_P99_1MS * 4096 / 1e6) == 285
    intel = next(text for name, text in texts.items() if "intel" in name and "results" in name and name.endswith(".md"))
    assert "| 69,656 | 285 |" in intel
    provenance = json.loads(bundle.read("provenance.json"))
    assert provenance["units"] == {"tables": "MB/s = 10^6 bytes/s"}


def test_lower_bounds_are_marked_in_every_format_of_the_bundle(ssds):
    # At a p99 of 2 ms neither sweep reaches the threshold: each figure is its best point, a lower bound.
    bundle = _bundle(ssds, threshold_ms=2.0, latency="p99")
    texts = _texts(bundle)
    # LaTeX writes the mark as math, which every font has.
    marks = {"csv": "≥", "md": "≥", "txt": "≥", "html": "≥", "tex": r"\ensuremath{\geq}"}
    for name, text in texts.items():
        if "summary" in name:
            continue
        samsung_only = "samsung" in name and "results" in name
        figures = ["≥ 65,342"] if samsung_only else ["≥ 69,656", "≥ 65,342"] if "results" not in name else ["≥ 69,656"]
        for figure in figures:
            assert figure.replace("≥", marks[name.rsplit(".", 1)[1]]) in text, name
        assert "≥: a lower bound, the threshold was not reached" in text.replace(marks["tex"], "≥"), name
    _, cells = _docx_text(bundle)
    assert "≥ 69,656" in cells and "≥ 65,342" in cells
    sheets = load_workbook(io.BytesIO(bundle.read("tables/tables.xlsx"))).worksheets
    bounded = [
        (cell.value, cell.number_format)
        for sheet in sheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, int | float) and "≥" in cell.number_format
    ]
    # Kept a number, the mark in its format: A and B in the comparison and the side-by-side tables, and the
    # IOPS of each white-paper table.
    assert (69656, '"≥ "#,##0') in bounded and (65342, '"≥ "#,##0') in bounded


@pytest.mark.parametrize(
    ("latency", "expected"),
    [
        # The papers' average: the Intel never reaches 1 ms (0.920 ms at iodepth 64), its best point is a bound.
        ({}, ("≥ 69,656", "an average response time of 1 ms")),
        ({"latency": "p99"}, ("69,656", "a 99th percentile response time of 1 ms")),
    ],
)
@pytest.mark.parametrize("preset", ["whitepaper", "pivot"])
def test_the_table_download_honours_latency(ssds, client, latency, expected, preset):
    query = {"system": INTEL, "preset": preset, "threshold_ms": "1", "format": "markdown", **latency}
    response = client.get("/export/table/", query)
    assert response.status_code == 200
    text = response.content.decode()
    figure, words = expected
    assert f"| {figure} |" in text
    assert f"*Results correspond to {words}." in text.replace("\\*", "*")


@pytest.mark.parametrize(
    ("url", "query", "named"),
    [
        ("/export/table/", {"system": INTEL, "latenc": "p99"}, "latenc"),
        ("/export/table/", {"system": INTEL, "preset": "jetstress", "latency": "p99"}, "latency"),
        ("/export/table/", {"system": INTEL, "threshold_ms": ["1", "2"]}, "threshold_ms"),
        ("/export/comparison/", {"a": INTEL, "b": "Samsung PM883", "percentile": "99"}, "percentile"),
        ("/export/chart/", {"a": INTEL, "b": "Samsung PM883", "label": "x", "unit": "MiB/s"}, "unit"),
        ("/export/bundle/", {"a": INTEL, "b": "Samsung PM883", "mbps_unit": "MiB/s"}, "mbps_unit"),
    ],
)
def test_a_parameter_a_download_does_not_take_is_refused_by_name(ssds, client, url, query, named):
    response = client.get(url, query)
    assert response.status_code == 400
    message = response.content.decode()
    assert re.search(rf"'{re.escape(named)}'", message), message
    assert "takes" in message or "give it once" in message


def test_the_reports_tables_follow_the_comparison_and_mark_lower_bounds(ssds):
    result = comparison(a=ssds[INTEL], b=ssds["Samsung PM883"], query=ComparisonQuery(threshold_ms=2.0, latency="p99"))
    report = report_content([result], options=ReportOptions(), draw=False)
    tables = [block for block in report.blocks if isinstance(block, TableBlock)]
    compared = next(table for table in tables if table.key == "4 KiB random read table")
    assert compared.caption == "4 KiB random read at 2 ms, 99th percentile (IOPS)"
    ((_, a, b, *_),) = compared.rows
    assert (a.text, b.text) == ("≥ 69,656", "≥ 65,342")
    figures = [table for table in tables if table.key.endswith("figures table")]
    assert len(figures) == 2
    for table in figures:
        assert "*Results correspond to a 99th percentile response time of 2 ms." in table.notes
        assert "MB/s = 10^6 bytes/s." in table.notes and not any("MBps" in label for label in table.header)
    intel = next(table for table in figures if table.key.startswith(INTEL))
    assert [cell.text for cell in intel.rows[0][2:]] == ["≥ 69,656", "≥ 285"]


def test_a_lower_bound_stays_a_number_in_excel_with_its_mark_after_the_papers_condition(ssds, client):
    query = {"system": INTEL, "preset": "whitepaper", "threshold_ms": "1", "format": "xlsx"}
    sheet = load_workbook(io.BytesIO(client.get("/export/table/", query).content)).worksheets[0]
    (cell,) = [cell for row in sheet.iter_rows() for cell in row if cell.value == 69656]
    # The paper's print groups thousands from 10,000 on (a condition first in each section), then the mark.
    assert cell.number_format == '[>=10000]"≥ "#,##0;[<=-10000]"≥ "-#,##0;"≥ "0'
