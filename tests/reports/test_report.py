"""The white-paper report of IBM DS4500 vs IBM DS4400 (demo data, 20 ms), read back as its reader opens
it: the Word document with python-docx, the PDF as pdflatex compiled it.

Figures are checked against seed 000 (000_f52f16ce4c762121.txt): line 295 (with 140 drives the DS4500
achieves about 30,020 8K IOPS and the DS4400 26,640), line 108 (the DS4500's controller firmware,
05.40.06.00) and line 110 (18.2 GB 15K rpm drives)."""

import html
import io
import re
import subprocess
import zipfile

import pytest
from docx import Document

from portal.comparisons.filters import SideFilters
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import System
from portal.publishing.build import build_report, report_archive
from portal.publishing.content import ReportOptions, report_content
from portal.publishing.document import TableBlock
from tests.conftest import stored_once
from tests.samples import SEEDS_DIR

DS4500_PAPER = (SEEDS_DIR / "000_f52f16ce4c762121.txt").read_text(encoding="utf-8").splitlines()


def seed_line(number):
    return re.sub(r"</?b>", "", DS4500_PAPER[number - 1])


@pytest.fixture(scope="module")
def built_once(demo_loaded, django_db_blocker, tmp_path_factory):
    """The demo's DS4500 against its DS4400 at 20 ms as a report in every format, built once: the tests only read it."""
    with stored_once(django_db_blocker, tmp_path_factory):
        a, b = System.objects.get(name="IBM DS4500"), System.objects.get(name="IBM DS4400")
        result = comparison(a=a, b=b, query=ComparisonQuery(threshold_ms=20.0))
        return build_report([result], options=ReportOptions(author="Jane Engineer"))


@pytest.fixture
def built(built_once, demo):
    return built_once


def texts(document):
    return [paragraph.text for paragraph in document.paragraphs]


def table_cells(document):
    return [[cell.text for cell in row.cells] for table in document.tables for row in table.rows]


def test_the_word_document_has_the_papers_structure(built):
    document = Document(io.BytesIO(built.files["docx"]))
    styles = {paragraph.style.name for paragraph in document.paragraphs}
    assert {"Title", "Heading 1", "Heading 2", "Caption"} <= styles
    headings = [p.text for p in document.paragraphs if p.style.name == "Heading 1"]
    assert headings == [
        "Abstract",
        "Measurement tool and workloads",
        "Measurement environment",
        "Results",
        "Sizing",
        "Summary",
        "Appendix: provenance",
    ]
    captions = [p.text for p in document.paragraphs if p.style.name == "Caption"]
    figures = [caption for caption in captions if caption.startswith("Figure ")]
    tables = [caption for caption in captions if caption.startswith("Table ")]
    assert [caption.split(".")[0] for caption in figures] == ["Figure 1", "Figure 2", "Figure 3"]
    assert [caption.split(".")[0] for caption in tables] == [f"Table {n}" for n in range(1, len(tables) + 1)]
    assert len(document.inline_shapes) == 3  # the three workloads both systems ran, as PNG
    assert "Jane Engineer · " in texts(document)[1]


def test_the_ds4500_figures_are_the_papers_and_the_pages(built, client):
    document = Document(io.BytesIO(built.files["docx"]))
    ds4500, ds4400 = re.findall(r"approximately ([\d,]+) 8K IOPS", seed_line(295))
    pct = (int(ds4500.replace(",", "")) - int(ds4400.replace(",", ""))) / int(ds4400.replace(",", "")) * 100
    row = [
        "RAID-5, 140 drives, All Caches Disabled",
        ds4500,
        ds4400,
        f"{pct:.1f} %",
        "single figures",
        "published figure",
    ]
    assert row in table_cells(document)
    # The compare page shows the same three numbers for the same selection.
    page = client.get("/compare/?a=IBM+DS4500&b=IBM+DS4400&threshold_ms=20").content.decode()
    assert all(text in page for text in (ds4500, ds4400, f"{pct:.1f} %"))


PAGE_ROW = re.compile(
    r'<tr><th scope="row">([^<]+)</th><td class="num">([^<]+)</td><td class="num">([^<]+)</td>\s*'
    r'<td class="num pct">([^<]+)</td>'
)


def test_every_results_row_is_the_compare_pages(built, client):
    """Each results table's configuration, A, B and improvement cells, against the page's rows (same order)."""
    page = client.get("/compare/?a=IBM+DS4500&b=IBM+DS4400&threshold_ms=20").content.decode()
    page_rows = [[html.unescape(cell).strip() for cell in row] for row in PAGE_ROW.findall(page)]
    document = Document(io.BytesIO(built.files["docx"]))
    results = [
        [cell.text for cell in row.cells][:4]
        for table in document.tables
        if table.rows[0].cells[0].text == "Configuration"
        for row in list(table.rows)[1:]
    ]
    assert len(results) == len(page_rows) == 6  # two RAID levels of each of three workloads
    assert results == page_rows


def test_the_environment_and_the_compared_figures_come_from_the_paper(built):
    document = Document(io.BytesIO(built.files["docx"]))
    cells = table_cells(document)
    firmware = re.search(r"Appware version ([\d.]+)", seed_line(108)).group(1)
    assert ["Firmware", firmware] in cells
    assert ["Drives", "HDD, 15,000 rpm, 18.2 GB"] in cells  # seed line 110: 18.2GB, 15K rpm drives
    assert "18.2GB, 15K rpm drives" in seed_line(110)
    # Each system's figures tables hold the runs compared (line 295: RAID-5, 140 HDDs, Random Reads 8K).
    assert "30,020 8K IOPS" in seed_line(295) and "26,640 8K IOPS" in seed_line(295)
    printed = [row[:3] for row in cells]
    assert ["140 HDDs", "All Caches Disabled", "30,020"] in printed
    assert ["140 HDDs", "Cache not stated", "26,640"] in printed


def test_each_header_of_the_figures_table_says_what_its_column_holds(built):
    """The Markdown report's table of the DS4500's RAID-5 runs compared: on one header line the first two
    columns are named for what they hold, each figure column for its workload and unit."""
    lines = built.files["md"].decode().splitlines()
    caption = next(i for i, line in enumerate(lines) if "IBM DS4500 RAID-5 results" in line)
    header = next(line for line in lines[caption:] if line.startswith("| "))
    workloads = ["Random Reads 8K", "Streaming Reads 64K", "Streaming Writes 64K"]
    figures = [f"{workload} {unit}" for workload in workloads for unit in ("IOPS", "MB/s")]
    assert header == "| " + " | ".join(["Drives", "Cache setting", *figures]) + " |"


def _environment_of(document, name):
    (table,) = [table for table in document.tables if table.rows[0].cells[-1].text == name]
    return {row.cells[0].text: row.cells[1].text for row in table.rows[1:]}


def test_the_environment_lists_what_was_measured_and_each_firmware(built):
    document = Document(io.BytesIO(built.files["docx"]))
    ds4500, ds4400 = _environment_of(document, "IBM DS4500"), _environment_of(document, "IBM DS4400")
    # Seed 000 lines 195, 205, 353, 363: the DS4400's streaming runs used "version 5.0 firmware"; lines 295
    # and 446 (Random Reads 8K) say nothing of its firmware.
    assert all("version 5.0 firmware" in seed_line(n) for n in (195, 205, 353, 363))
    assert ds4400["Firmware"] == "not stated (Random Reads 8K); 5.0 (Streaming Reads 64K, Streaming Writes 64K)"
    # One description per drive: the streaming runs' 10K rpm HDDs (line 195), not also "HDD" for the runs
    # that state only the drive type.
    assert ds4400["Drives"] == "HDD, 10,000 rpm"
    # Every drive count measured in the reported workloads, paired or not: Table 1 (lines 139-150) 20 to
    # 180 HDDs; the DS4400's 58 (lines 205, 363), 96 (353), 108 (195) and 140 (295, 446).
    assert ds4500["RAID levels and drive counts tested"] == (
        "RAID-10: 20, 60, 100, 140, 180 drives; RAID-5: 20, 60, 100, 140, 180 drives"
    )
    assert ds4400["RAID levels and drive counts tested"] == "RAID-10: 58, 96, 140 drives; RAID-5: 58, 108, 140 drives"
    # Every cache setting compared: the DS4400's streaming writes with write cache enabled (lines 205, 363).
    assert ds4400["Cache settings"] == "Write Cache Enabled; not stated for the others"
    assert ds4500["Cache settings"] == "All Caches Disabled; not stated for the others"


def test_the_summary_states_the_range_of_improvement(built):
    document = Document(io.BytesIO(built.files["docx"]))
    summary = "\n".join(texts(document))
    # A range per workload and RAID level, never one over every workload: seed 000 line 295, 30,020 against
    # 26,640 IOPS (+12.7 %, the table's one decimal), the DS4500's 140 drives with All Caches Disabled
    # against the DS4400's, whose cache setting the paper does not state.
    assert "for the workloads compared" not in summary
    assert (
        "IBM DS4500 performs 12.7 % better than IBM DS4400 for RAID-5 Random Reads 8K"
        " (All Caches Disabled against cache setting not stated)." in summary
    )
    # Seed 000 line 371, RAID-10 Streaming Writes 64K: 518 against 148 MBps, 60 drives against the DS4400's 58
    # with write cache enabled.
    assert (
        "Best case of IBM DS4500 against IBM DS4400: Streaming Writes 64K, RAID-10, 60 vs 58 drives, Write Cache"
        " Enabled (60 against 58 drives; cache setting not stated against Write Cache Enabled; 15,000 against 10,000"
        " rpm; firmware 05.40.06.00 against 5.0): +250.0 %." in summary
    )


def test_the_latex_fits_the_page(built, tmp_path):
    """Compiled again here to read pdflatex's log: no table or line is wider than the text."""
    (tmp_path / "report.tex").write_bytes(built.files["tex"])
    for name, image in built.charts.items():
        (tmp_path / name).write_bytes(image)
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "report.tex"], cwd=tmp_path, capture_output=True)
    assert done.returncode == 0
    log = (tmp_path / "report.log").read_text(errors="replace")
    assert "Overfull \\hbox" not in log
    assert built.files["tex"].count(b"\\includegraphics[width=\\linewidth]{chart-") == 3  # vector charts (PDF)


def test_the_pdf_compiles_and_every_format_has_the_figure(built):
    assert built.notes == []
    assert built.files["pdf"].startswith(b"%PDF")
    assert rb"\usepackage{booktabs}" in built.files["tex"] and rb"\toprule" in built.files["tex"]
    html = built.files["html"].decode()
    assert html.count("data:image/png;base64,") == 3 and "<script" not in html
    assert "30,020" in html and "30,020" in built.files["md"].decode()
    archive = zipfile.ZipFile(io.BytesIO(report_archive(built, stem="report")))
    assert {"report.docx", "report.pdf", "report.html", "chart-1.pdf", "chart-3.png"} <= set(archive.namelist())


def test_the_file_server_runs_of_the_ds4400_ran_the_ds4500s_firmware(demo):
    # Seed 000 lines 244 and 400: "The DS4400 was measured using the same hardware and software as the DS4500
    # for this comparison"; line 108: the DS4500's controllers ran Appware 05.40.06.00.
    assert "same hardware and software as the DS4500" in seed_line(244) and "05.40.06.00" in seed_line(108)
    a, b = System.objects.get(name="IBM DS4500"), System.objects.get(name="IBM DS4400")
    result = comparison(
        a=a,
        b=b,
        query=ComparisonQuery(
            threshold_ms=20.0, workload="File Server", a_side=SideFilters(cache="All Caches Disabled")
        ),
    )
    report = report_content([result], options=ReportOptions(), draw=False)
    (ds4400,) = [block for block in report.blocks if isinstance(block, TableBlock) and block.header[-1] == b.name]
    rows = {row[0].text: row[1].text for row in ds4400.rows}
    assert rows["Firmware"] == "05.40.06.00 (File Server)"
    assert rows["Drives"] == "HDD, 15,000 rpm, 18.2 GB"
