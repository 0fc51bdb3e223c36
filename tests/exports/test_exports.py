"""White-paper exports against the seed papers: seed 000 Table 1 (000_f52f16ce4c762121.txt, lines 139-152)
cell for cell in every format, Tables 2 and 4, the DS4500/DS4400 comparison, seed 001's Jetstress and
ORION figures, escaping of names users type, and the bundle's provenance."""

import csv
import hashlib
import html
import io
import json
import re
import shutil
import subprocess
import zipfile
from importlib.util import find_spec

import pytest
from django.core.management import call_command

from portal.analysis.tables import Column, ColumnGroup, NumberFormat, Row, Table
from portal.models import Point, Run, System
from portal.publishing import presets
from portal.publishing.comparison_tables import comparison_tables
from portal.publishing.formats import FORMATS, export
from portal.publishing.stroke_tables import stroke
from portal.publishing.tool_tables import tool_table
from portal.results import workloads
from tests.ingesting import store_file
from tests.samples import SEEDS_DIR, sample

DS4500_PAPER = SEEDS_DIR / "000_f52f16ce4c762121.txt"
OLTP = "OLTP 4K,OLTP 8K,OLTP 16K,OLTP 32K,OLTP 64K"
TABLE_1_URL = f"/export/table/?system=IBM+DS4500&preset=whitepaper&raid_level=RAID-5&workloads={OLTP}"


def seed_lines(first, last):
    """Seed 000 lines ``first``..``last`` (counted from 1) as cells: tab-separated, bold tags dropped."""
    lines = DS4500_PAPER.read_text(encoding="utf-8").splitlines()[first - 1 : last]
    return [re.sub(r"</?b>", "", line).split("\t") for line in lines]


def as_csv_numbers(rows):
    """Seed rows as a CSV export writes them: a figure as a number, without thousands separators ("11360")."""
    return [
        [cell.replace(",", "") if re.fullmatch(r"[\d,]+(?:\.\d+)?", cell) else cell for cell in row] for row in rows
    ]


# Seed 000 Table 1: the two header lines and ten body lines (139-150), the footnote on line 152.
TABLE_1 = seed_lines(139, 150)
TABLE_1_FOOTNOTE = seed_lines(152, 152)[0][0].replace("\\*", "*")


def csv_rows(content):
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def test_table_command_csv_is_seed_000_table_1(demo):
    out = io.StringIO()
    call_command("table", "IBM DS4500", "--layout", "whitepaper", "--format", "csv", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == ["Table 1. IBM DS4500 RAID-5 results"]
    assert rows[1:13] == as_csv_numbers(TABLE_1)
    assert rows[14] == [TABLE_1_FOOTNOTE]
    assert rows[6][2] == "11360" and rows[6][3] == "44"  # 60 HDDs, Write Cache Enabled, OLTP 4K


def test_view_with_raid_level_and_workloads_gives_table_1(demo, client):
    response = client.get(TABLE_1_URL + "&format=csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="ibm-ds4500-whitepaper.csv"'
    assert csv_rows(response.content)[1:13] == as_csv_numbers(TABLE_1)


def test_table_4_prints_na_and_half_mbps(demo):
    """Seed 000 Table 4 (lines 266-275): N/A where the paper has N/A, 3.5 MBps, 42,555 I/Os."""
    system = System.objects.get(name="IBM DS4500")
    table = presets.whitepaper(system, selection=presets.default_selection(system, source_table="Table 4"))
    grid = table.text_grid()
    assert grid[2][2:] == ["8670", "33.5", "8365", "65", "898", "3.5", "890", "6.5"]  # line 266
    assert grid[3][1:] == ["Write Cache Enabled", "N/A", "N/A", "N/A", "N/A", "1100", "4", "460", "3.5"]  # line 267
    assert grid[8][2] == "42,555"  # line 272


def test_xlsx_holds_numbers_merged_headers_and_footnote(demo, client):
    from openpyxl import load_workbook

    response = client.get(TABLE_1_URL + "&format=xlsx")
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    sheet = load_workbook(io.BytesIO(response.content)).worksheets[0]
    assert sheet["A1"].value == "IBM DS4500 RAID-5 results" and sheet["A1"].font.bold
    merged = {str(r) for r in sheet.merged_cells.ranges}
    assert {"C2:D2", "E2:F2", "G2:H2", "I2:J2", "K2:L2"} <= merged  # OLTP 4K ... 64K over I/Os, MBps
    assert "A4:A5" in merged  # "20 HDDs" over its two cache settings
    assert sheet["C2"].value == "OLTP 4K" and sheet["C2"].font.bold and sheet["C3"].value == "I/Os"
    for row, line in zip(sheet.iter_rows(min_row=4, max_row=13, min_col=3, max_col=12), TABLE_1[2:], strict=True):
        for cell, printed in zip(row, line[2:], strict=True):
            assert isinstance(cell.value, int | float), cell.coordinate
            assert cell.value == float(printed.replace(",", "")), cell.coordinate
    assert sheet["C7"].value == 11360 and sheet["C7"].number_format.startswith("[>=10000]#,##0")
    assert sheet["A15"].value == TABLE_1_FOOTNOTE


def test_docx_has_caption_cells_and_footnote(demo, client):
    from docx import Document

    response = client.get(TABLE_1_URL + "&format=docx")
    document = Document(io.BytesIO(response.content))
    assert document.paragraphs[0].text == "IBM DS4500 RAID-5 results"
    assert document.paragraphs[0].style.name == "Caption"
    word = document.tables[0]
    rows = [[cell.text for cell in row.cells] for row in word.rows]
    # A merged group header repeats in every grid cell it covers.
    assert rows[0] == ["Workload", "", *[w for w in OLTP.split(",") for _ in range(2)]]
    assert rows[1:] == TABLE_1[1:]
    # The paper's footnote, then the unit its MBps are in.
    assert [p.text for p in document.paragraphs[-2:]] == [TABLE_1_FOOTNOTE, "MBps = 2^20 bytes/s."]


def test_markdown_and_html_have_the_same_cells(demo, client):
    markdown = client.get(TABLE_1_URL + "&format=markdown").content.decode()
    pipe_rows = [line[2:-2].split(" | ") for line in markdown.splitlines() if line.startswith("|")]
    del pipe_rows[1]  # the alignment line
    assert [[cell.replace("**", "") for cell in row] for row in pipe_rows] == TABLE_1

    fragment = client.get(TABLE_1_URL + "&format=html").content.decode()
    body = re.search(r"<tbody>(.*)</tbody>", fragment, re.S)[1]
    cells = [[html.unescape(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr)] for tr in body.split("</tr>")]
    assert [row for row in cells if row] == TABLE_1[2:]
    assert '<th colspan="2" scope="colgroup">OLTP 4K</th>' in fragment
    assert f"<p><small>{TABLE_1_FOOTNOTE}</small></p>" in fragment


LATEX_DOCUMENT = "\\documentclass{{article}}\\usepackage{{booktabs,graphicx}}\\begin{{document}}\n{}\\end{{document}}\n"


def compiled_log(latex, folder):
    """pdflatex's log of ``latex`` in an article (the text 345 pt wide), or the failure."""
    source = folder / "table.tex"
    source.write_text(LATEX_DOCUMENT.format(latex))
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", source.name], cwd=folder, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]
    return (folder / "table.log").read_text(errors="replace")


def test_latex_comparison_tables_fit_the_text_width(demo, tmp_path):
    """The comparison, summary and side-by-side tables were 228 pt and 423 pt wider than an article's text."""
    a, b = System.objects.get(name="IBM DS4500"), System.objects.get(name="IBM DS4400")
    latex = export(comparison_tables(a=a, b=b, threshold_ms=20), "latex").decode()
    # Each measured first: shrunk by at most a quarter, else turned sideways.
    assert latex.count(r"\setbox0\hbox{%") == latex.count(r"\ifdim\wd0>1.25\linewidth") == 3
    log = compiled_log(latex, tmp_path)
    assert "Overfull \\hbox" not in log
    # The comparison table, 1.66 times the text width, is set sideways: its 30,020 reads upwards; the
    # performance table (the third), which fits, across.
    boxes = subprocess.run(["pdftotext", "-bbox", "table.pdf", "-"], cwd=tmp_path, capture_output=True, check=True)
    found = re.findall(
        r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">30,020<', boxes.stdout.decode()
    )
    upwards = [float(y1) - float(y0) > float(x1) - float(x0) for x0, y0, x1, y1 in found]
    assert upwards[0] and not upwards[-1]


def test_latex_is_booktabs_and_compiles(demo, tmp_path):
    system = System.objects.get(name="IBM DS4500")
    latex = export([presets.whitepaper(system)], "latex").decode()
    assert r"\toprule" in latex and r"\midrule" in latex and r"\bottomrule" in latex
    assert r"\begin{tabular}{llrrrrrrrrrr}" in latex
    assert r"Workload &  & \multicolumn{2}{c}{OLTP 4K} & \multicolumn{2}{c}{OLTP 8K}" in latex
    assert r"\cmidrule(lr){3-4} \cmidrule(lr){5-6}" in latex
    assert r" & Write Cache Enabled & 11,360 & 44 & 10,960 & 85 & 9885 & 154 & 5525 & 172 & 3150 & 196 \\" in latex
    assert shutil.which("pdflatex"), "pdflatex is missing: `make test-tools` installs Debian's TeX Live"
    source = tmp_path / "table.tex"
    source.write_text(LATEX_DOCUMENT.format(latex))
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", source.name], cwd=tmp_path, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]
    assert (tmp_path / "table.pdf").stat().st_size > 1000


NAME = "Lab <A&B> 100%_x"
WORKLOAD = "Mix <1> & 5%_r"


@pytest.fixture
def odd_names(db):
    """A system and workload named with characters every format must escape, one measured figure."""
    system = System.objects.create(name=NAME, published=True)
    config = workloads.config_for(system=system, labels={"raid_level": "RAID-5", "drive_count": 8})
    run = Run.objects.create(config=config, name=WORKLOAD, tool="fio", workload_name=WORKLOAD)
    Point.objects.create(run=run, seq=0, iops=1000, mbps=4.096, avg_response_ms=20)
    return system


def test_names_are_escaped_in_every_format(odd_names):
    tables = [presets.whitepaper(odd_names)]
    texts = {name: export(tables, name) for name in FORMATS}
    assert NAME in texts["csv"].decode("utf-8-sig") and WORKLOAD in texts["text"].decode()
    assert "Lab &lt;A&amp;B&gt; 100%\\_x" in texts["markdown"].decode()
    assert "Mix &lt;1&gt; &amp; 5%\\_r" in texts["markdown"].decode()
    assert r"Lab \textless{}A\&B\textgreater{} 100\%\_x" in texts["latex"].decode()
    assert r"\multicolumn{2}{c}{Mix \textless{}1\textgreater{} \& 5\%\_r}" in texts["latex"].decode()
    fragment = texts["html"].decode()
    assert "Lab &lt;A&amp;B&gt; 100%_x" in fragment and "Mix &lt;1&gt; &amp; 5%_r" in fragment
    assert "<A&B>" not in fragment and "<1>" not in fragment
    for name in ("markdown", "latex"):
        assert "<A&B>" not in texts[name].decode()

    from docx import Document
    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(texts["xlsx"])).worksheets[0]
    assert sheet["A1"].value == f"{NAME} RAID-5 results" and sheet["C2"].value == WORKLOAD
    assert sheet["C4"].value == 1000 and sheet["D4"].value == 3.9  # 4.096 MB/s = 3.9 MBps (2^20)
    document = Document(io.BytesIO(texts["docx"]))
    assert document.paragraphs[0].text == f"{NAME} RAID-5 results"
    assert document.tables[0].cell(0, 2).text == WORKLOAD


def test_stroke_preset_is_seed_000_table_2(demo):
    """Seed 000 Table 2, line 168: RAID-5 OLTP 4K, 8K, and 16K 0.88 0.80 0.74 0.72 0.66 0.65."""
    system = System.objects.get(name="IBM DS4500")
    raid5, raid10 = stroke(system)
    assert raid5.text_grid()[1] == ["", "15%", "30%", "45%", "60%", "75%", "90%"]
    assert raid5.text_grid()[2] == ["RAID-5 OLTP 4K, 8K, and 16K", "0.88", "0.80", "0.74", "0.72", "0.66", "0.65"]
    # Seed 000 Table 6, line 335.
    assert raid10.text_grid()[2] == ["RAID-10 OLTP 4K, 8K, and 16K", "0.95", "0.82", "0.80", "0.72", "0.72", "0.67"]


def test_stroke_preset_from_runs_that_differ_in_stroke(db):
    system = System.objects.create(name="Stroke lab", published=True)
    for stroke_pct, iops in ((8, 14320), (45, 10597)):
        config = workloads.config_for(
            system=system, labels={"raid_level": "RAID-5", "drive_count": 100, "stroke_pct": stroke_pct}
        )
        run = Run.objects.create(config=config, name="r", tool="Iometer", workload_name="OLTP 8K")
        Point.objects.create(run=run, seq=0, iops=iops, avg_response_ms=20)
    (table,) = stroke(system)
    assert table.text_grid()[2] == ["RAID-5 OLTP 8K, 100 drives", "0.74"]


def test_comparison_tables_pin_the_ds4500_paper(demo, client):
    """Seed 000: 30,020 vs 26,640 8K random-read I/Os with 140 RAID-5 drives, about 13 % (12.7 %)."""
    response = client.get("/export/comparison/?a=IBM+DS4500&b=IBM+DS4400&threshold_ms=20&format=csv")
    rows = csv_rows(response.content)
    # RAID-10 first (seed 000: 30,060 vs 26,700, 12.6 %), then RAID-5 under the same workload.
    first = rows.index(["Random Reads 8K (IOPS)", "RAID-10, 140 drives, All Caches Disabled", "30060", "26700", "12.6"])
    assert rows[first + 1] == ["", "RAID-5, 140 drives, All Caches Disabled", "30020", "26640", "12.7"]
    assert [
        "IBM DS4500 performs 12.7 % better than IBM DS4400 for RAID-5 Random Reads 8K"
        " (All Caches Disabled against cache setting not stated)"
    ] in rows


def test_side_by_side_is_seed_002_table_1(demo):
    """Seed 002 Table 1, line 87: Random Reads IOPs, Any, 13,800 (EVA4100, 56 drives), 26,000 (EVA4400, 96)."""
    a, b = System.objects.get(name="HP EVA4100"), System.objects.get(name="HP EVA4400")
    side_by_side = comparison_tables(a=a, b=b, threshold_ms=30)[2]
    grid = side_by_side.text_grid()
    assert grid[1] == ["Workload", "RAID level", "HP EVA4100 (56 drives)", "HP EVA4400 (96 drives)"]
    assert ["EVA Random Reads IOPS", "Any", "13,800", "26,000"] in grid


def test_jetstress_and_orion_summaries_pin_seed_001(demo):
    """Seed 001 lines 103-105: 4,127 IOPS over 32 drives, 129 per drive, 8,254 mailboxes; lines 117-120:
    3,580 small IOPS, 224 per drive, 5.44 ms, between a low and a medium transaction system."""
    system = System.objects.get(name="IBM DS5020")
    jetstress_grid = tool_table(system, preset="jetstress").text_grid()
    assert any(row[2:6] == ["4,127", "32", "129", "8,254"] for row in jetstress_grid)
    orion_grid = tool_table(system, preset="orion").text_grid()
    assert any(row[1:] == ["low", "3,580", "224", "468", "5.44"] for row in orion_grid)


def test_bad_parameters_answer_400_with_a_sentence(demo, client):
    # An unknown system is not found (as a private one is, for those who may not read it).
    response = client.get("/export/table/?system=IBM+DS4501")
    assert response.status_code == 404 and "no system named 'IBM DS4501'" in response.content.decode()
    assert "'IBM DS4500'" in response.content.decode()
    response = client.get("/export/table/?system=IBM+DS4500&format=pdf")
    assert response.status_code == 400 and "'format' must be one of" in response.content.decode()
    response = client.get("/export/bundle/?a=IBM+DS4500&b=IBM+DS4400&threshold_ms=soon")
    assert response.status_code == 400
    assert response.content.decode() == "Threshold (ms): the threshold must be a number of milliseconds, such as 20."
    response = client.get("/export/table/?system=IBM+DS4500&preset=pivot&rows=drive_count")
    assert response.status_code == 400 and response.content.decode().startswith("rows must be two of drive_count")


def test_bundle_lists_every_contributing_upload(db, client, data_dir, monkeypatch):
    path = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
    measured = System.objects.create(name="Lab array", published=True)
    upload = store_file(
        path, system=measured, labels={"raid_level": "RAID-5", "drive_count": 8, "workload_name": "Random Reads 4K"}
    )
    assert upload.status == "done", upload.error
    reference = System.objects.create(name="Reference array", published=True)
    config = workloads.config_for(system=reference, labels={"raid_level": "RAID-5", "drive_count": 8})
    run = Run.objects.create(config=config, name="r", tool="Iometer", workload_name="Random Reads 4K")
    Point.objects.create(run=run, seq=0, iops=100, avg_response_ms=1)

    archive = zipfile.ZipFile(
        io.BytesIO(built_bundle(client, monkeypatch, "a=Lab+array&b=Reference+array&threshold_ms=20&adjust_b=1.05"))
    )
    provenance = json.loads(archive.read("provenance.json"))
    assert provenance["uploads"] == [
        {
            "id": upload.id,
            "original_name": "fioplot_fio-3.34_randread-1-1.json",
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "size_bytes": path.stat().st_size,
            "format": "fio",
            "parser_version": upload.parser_version,
            "uploaded_at": upload.created_at.isoformat(),
        }
    ]
    assert provenance["threshold_ms"] == 20 and provenance["adjust_b"] == 1.05
    assert {r["upload"] for r in provenance["runs"]} == {upload.id, None}
    names = set(archive.namelist())
    assert {"tables/tables.xlsx", "tables/tables.docx", "charts/random-reads-4k.csv"} <= names
    for extension in ("csv", "md", "tex", "html", "txt"):
        assert f"tables/01-lab-array-compared-with-reference-array.{extension}" in names
    if find_spec("kaleido"):
        assert archive.read("charts/random-reads-4k.svg").startswith(b"<svg")
        assert archive.read("charts/random-reads-4k.png").startswith(b"\x89PNG")
    else:
        assert "kaleido is not installed" in provenance["charts"][0]


def built_bundle(client, monkeypatch, query):
    """The bundle the link ``/export/bundle/?query`` leads to, built in this process as a worker would."""
    from portal.publishing import bundle_jobs
    from portal.publishing import export_views as views

    sent = []
    monkeypatch.setattr(views.bundle_task, "delay", sent.append)  # the test plays the worker
    response = client.get(f"/export/bundle/?{query}")
    assert response.status_code == 302, response.content
    (key,) = sent
    assert bundle_jobs.bundle_build(key) == "done"
    download = client.get(client.get(f"{response['Location']}status.json").json()["download_url"])
    assert download["Content-Type"] == "application/zip"
    return b"".join(download.streaming_content)


def test_summary_table_exports_without_data_columns():
    table = Table("Summary", (("",), ("Summary",)), (), (Row(("A is 13 % better",), ()),))
    assert csv_rows(export([table], "csv")) == [["Summary"], [""], ["Summary"], ["A is 13 % better"]]
    grouped = Table("T", (("",), ("",)), (ColumnGroup("G", (Column("x", NumberFormat()),)),), (Row(("r",), (1,)),))
    assert "<td>1</td>" in export([grouped], "html").decode()


def test_an_ssd_systems_white_paper_table_counts_ssds(db, data_dir):
    # The shared fio sample was run on a Samsung PM833 SSD (its file name); labelled as 8 SSDs in RAID-5.
    path = sample("fio", "fioplot_fio-3.14_samsungpm833_randread-1-1.json")
    lab = System.objects.create(name="SSD array", published=True)
    labels = {"raid_level": "RAID-5", "drive_count": 8, "drive_type": "SSD", "read_cache": False, "write_cache": False}
    upload = store_file(path, system=lab, labels=labels)
    assert upload.status == "done", upload.error
    out = io.StringIO()
    call_command("table", "SSD array", "--layout", "whitepaper", "--format", "csv", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[3][:2] == ["8 SSDs", "All Caches Disabled"], rows
    assert "HDD" not in out.getvalue()


def test_a_configuration_both_have_is_a_cache_setting_choice_as_on_the_page(demo, client):
    """Both arrays were measured with 140 RAID-10 drives for File Server; the DS4400's cache setting is not
    stated, so the page offers the DS4500's two settings to choose from: no note says only one has it."""
    query = "a=IBM+DS4500&b=IBM+DS4400&threshold_ms=20"
    notes = [row[0] for row in csv_rows(client.get(f"/export/comparison/?{query}&table=comparison").content) if row]
    sentence = (
        "B's RAID-10, 140 drives could match A's 'All Caches Disabled' or 'Write Cache Enabled': "
        "choose a cache setting to compare them"
    )
    assert f"File Server: {sentence}." in notes
    assert not [note for note in notes if note.startswith("File Server: only") and "140 drives" in note]
    assert sentence in html.unescape(client.get(f"/compare/?{query}").content.decode())
