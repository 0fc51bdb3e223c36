"""The report of two firmware versions of one array, made from the fio sample as the history tests make
versions (tests/history/conftest.py: three replicates a version, the sample's IOPS times a level): the
history page and the compare page link it, and the Word document reads as one system's two versions,
its numbers the compare page's."""

import html
import io
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from docx import Document

from portal.comparisons.filters import SideFilters
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.history.selectors import system_series
from portal.publishing.build import build_report
from portal.publishing.content import ReportOptions
from portal.publishing.document import TableBlock
from tests.factories import SystemFactory
from tests.history.conftest import SAMPLE_IOPS, upload_version
from tests.reports.test_report import PAGE_ROW

OLD, NEW = "07.15.07.00", "07.30.12.00"
QUERY = {"a": "IBM DS5020", "b": "IBM DS5020", "a_firmware": NEW, "b_firmware": OLD, "threshold_ms": "20"}


@pytest.fixture
def versions(engineer, lab):
    """The DS5020 under two firmware versions: the newer one 20 % lower (levels 1.0 and 0.8 of the sample)."""
    system = SystemFactory(name="IBM DS5020", model="DS5020", team=lab, published=False, firmware=OLD)
    for day, (firmware, level) in enumerate(((OLD, 1.0), (NEW, 0.8))):
        upload_version(system, firmware, level, engineer, day=day)
    return system


def _signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_history_and_compare_pages_link_the_report_of_two_versions(versions, engineer):
    client = _signed_in(engineer)
    (entry,) = system_series(system_id=versions.id)
    history = client.get(f"/systems/{versions.id}/history/", {"config": entry.config.id, "series": entry.series})
    text = history.content.decode()
    assert f"report against {OLD}</a>" in text
    link = _report_link(text)
    assert link.startswith("/reports/new/?a=IBM+DS5020&b=IBM+DS5020&a_firmware=07.30.12.00&b_firmware=07.15.07.00")
    compose = client.get(link).content.decode()
    assert f"<h1>Report: IBM DS5020: firmware {NEW} vs {OLD}</h1>" in compose
    page = client.get("/compare/", QUERY).content.decode()
    from_compare = _report_link(page)
    assert parse_qs(urlsplit(from_compare).query)["a_firmware"] == [NEW]
    assert f"<h1>Report: IBM DS5020: firmware {NEW} vs {OLD}</h1>" in client.get(from_compare).content.decode()


def _report_link(page: str) -> str:
    return html.unescape(page.split('class="report-link" href="')[1].split('"')[0])


def test_the_word_document_of_two_versions_reads_as_one_systems(versions, engineer):
    result = comparison(
        a=versions,
        b=versions,
        query=ComparisonQuery(threshold_ms=20.0, a_side=SideFilters(firmware=NEW), b_side=SideFilters(firmware=OLD)),
    )
    built = build_report([result], options=ReportOptions())
    assert built.notes == [] and built.files["pdf"].startswith(b"%PDF")
    document = Document(io.BytesIO(built.files["docx"]))
    texts = [p.text for p in document.paragraphs]
    assert texts[0] == f"IBM DS5020: firmware {NEW} vs {OLD}"
    captions = [p.text for p in document.paragraphs if p.style.name == "Caption"]
    environment = [caption for caption in captions if "Measurement environment" in caption]
    assert environment == ["Table 2. Measurement environment of IBM DS5020"]  # once, for both versions
    cells = [[cell.text for cell in row.cells] for table in document.tables for row in table.rows]
    assert ["Firmware", f"{NEW} (A); {OLD} (B)"] in cells
    (workload,) = [w.workload for w in result.workloads if w.rows]
    assert [p.text for p in document.paragraphs if p.style.name == "Heading 2"][0] == workload
    figures = [caption for caption in captions if caption.startswith("Figure ")]
    assert figures == [
        f"Figure 1. {workload} at 20 ms: IBM DS5020 firmware {NEW} (A) and IBM DS5020 firmware {OLD} (B)"
    ]
    assert len(document.inline_shapes) == 1
    # The results row: A three runs at 0.8 x (1, 1.01, 0.99) of the sample's IOPS, B at 1 x. The
    # sample's one point is under 20 ms: both figures are lower bounds, marked as the page marks them, and no
    # difference is stated between them ("–", as the sentence below says).
    (row,) = [row[:4] for row in cells if row[0] == "RAID-5, 16 drives"]
    assert row == ["RAID-5, 16 drives", f"≥ {0.8 * SAMPLE_IOPS:,.0f}", f"≥ {SAMPLE_IOPS:,.0f}", "–"]
    header = next(row for row in cells if row[0] == "Configuration")
    assert header[1:3] == [f"A: IBM DS5020 firmware {NEW}", f"B: IBM DS5020 firmware {OLD}"]
    page = _signed_in(engineer).get("/compare/", QUERY).content.decode()
    page_rows = [[html.unescape(cell).strip() for cell in found] for found in PAGE_ROW.findall(page)]
    assert page_rows == [row]
    summary = "\n".join(texts)
    # The page's sentence of the workload (single fio points: lower bounds at 20 ms), each side named with its
    # firmware: what is known, no difference between lower bounds.
    new, old = f"IBM DS5020 firmware {NEW}", f"IBM DS5020 firmware {OLD}"
    known = (
        f"Neither {new} nor {old} reaches 20 ms on average for RAID-5 {workload} (RAID-5, 16 drives): {new} at least"
        f" {0.8 * SAMPLE_IOPS:,.0f} IOPS, {old} at least {SAMPLE_IOPS:,.0f} IOPS; no difference is stated."
    )
    assert known in texts
    assert known in summary and "20 % worse" not in summary and "20.0 % worse" not in summary


def test_the_reports_tables_name_the_workload_and_leave_out_what_the_uploads_do_not_state(versions):
    """The sample's fio job is named "FIOJOB" (``jobs[0].jobname``), a name nobody reads: the white-paper table
    heads its columns by the workload, as every other table and heading of the report names it, in IOPS. The
    uploads state the RAID level and drive count (RAID-5, 16 drives) but no drive type, model, speed or size:
    no "Drives" row, and a sentence names what is not stated."""
    result = comparison(
        a=versions,
        b=versions,
        query=ComparisonQuery(threshold_ms=20.0, a_side=SideFilters(firmware=NEW), b_side=SideFilters(firmware=OLD)),
    )
    built = build_report([result], options=ReportOptions())
    document = Document(io.BytesIO(built.files["docx"]))
    cells = [[cell.text for cell in row.cells] for table in document.tables for row in table.rows]
    header = next(row for row in cells if row[:2] == ["Drives", "Cache setting"])
    assert header[2:] == ["4 KiB random read IOPS", "4 KiB random read MB/s"]
    every = "\n".join([*(p.text for p in document.paragraphs), *("\t".join(row) for row in cells)])
    assert "FIOJOB" not in every and "fiojob" not in every.lower()
    environment = {row[0]: row[1] for row in cells if len(row) == 2}
    assert environment["RAID levels and drive counts tested"] == "RAID-5: 16 drives"
    assert "Drives" not in environment and "drives" not in environment.values()
    assert "not stated" not in environment.values()
    assert (
        "The uploads of IBM DS5020 do not state its cache per controller, host interfaces, drives, segment sizes,"
        " cache settings or host." in [p.text for p in document.paragraphs]
    )
    assert "FIOJOB" not in built.files["md"].decode() and "FIOJOB" not in built.files["html"].decode()


def test_each_versions_figures_stand_in_a_table_of_their_own(versions):
    """The runs compared are one system's under two versions: each version's white-paper table holds its own
    three runs' mean (A at 0.8 x the sample's IOPS, B at 1 x; lower bounds, the sample's point under 20 ms),
    never the mean of all six runs (0.9 x)."""
    result = comparison(
        a=versions,
        b=versions,
        query=ComparisonQuery(threshold_ms=20.0, a_side=SideFilters(firmware=NEW), b_side=SideFilters(firmware=OLD)),
    )
    built = build_report([result], options=ReportOptions())
    tables = {
        block.key: block
        for block in built.report.blocks
        if isinstance(block, TableBlock) and block.key.endswith("figures table")
    }
    assert sorted(tables) == [
        f"IBM DS5020 RAID-5 firmware {OLD} figures table",
        f"IBM DS5020 RAID-5 firmware {NEW} figures table",
    ]
    for firmware, level in ((NEW, 0.8), (OLD, 1.0)):
        table = tables[f"IBM DS5020 RAID-5 firmware {firmware} figures table"]
        assert table.caption.endswith(f"(firmware {firmware})")
        (row,) = table.rows
        column = table.header.index("4 KiB random read IOPS")
        assert row[column].text == f"≥ {level * SAMPLE_IOPS:,.0f}"
    every = "\n".join(cell.text for table in tables.values() for row in table.rows for cell in row)
    assert f"{0.9 * SAMPLE_IOPS:,.0f}" not in every
