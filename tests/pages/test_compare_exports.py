"""The compare page opens from a system's page without an error, and offers every export of what it shows."""

import html
import io
import re
import subprocess
import zipfile

from docx import Document
from openpyxl import load_workbook

from portal.models import System
from tests.exports.test_exports import built_bundle

QUERY = {"a": "IBM DS4500", "b": "IBM DS4400", "raid_level": "RAID-5", "workload": "Random Reads 8K"}


def test_the_system_pages_compare_link_opens_the_page_with_that_system_chosen(demo, client):
    ds4500 = System.objects.get(name="IBM DS4500")
    page = client.get(f"/systems/{ds4500.id}/").content.decode()
    link = html.unescape(
        re.search(r'<a href="(/compare/\?a=[^"]+)">Compare IBM DS4500 with another system</a>', page)[1]
    )
    response = client.get(link)
    assert response.status_code == 200
    opened = response.content.decode()
    assert "Choose the system to compare with." in opened
    assert 'name="a" value="IBM DS4500" list="system-choices"' in opened
    assert "This field is required" not in opened


def _links(page, pattern):
    return [html.unescape(href) for href in re.findall(pattern, page)]


def test_every_export_link_on_the_compare_page_downloads_a_file_that_opens(
    demo, client, tmp_path, data_dir, monkeypatch
):
    page = client.get("/compare/", QUERY).content.decode()
    tables = _links(page, r'href="(/export/comparison/\?[^"]+)"')
    formats = {re.search(r"format=(\w+)", link)[1]: link for link in tables}
    assert set(formats) == {"csv", "xlsx", "docx", "markdown", "latex", "html"}
    # Seed 000 line 295: 30,020 vs 26,640 8K IOPS at 140 HDDs, RAID-5: +12.7 %. Every export carries the page's
    # filters (RAID-5, Random Reads 8K), so it shows the same rows.
    csv_text = client.get(formats["csv"]).content.decode()
    assert "Random Reads 8K IOPS,RAID-5,30020,26640" in csv_text and "RAID-10" not in csv_text
    workbook = load_workbook(io.BytesIO(client.get(formats["xlsx"]).content))
    assert any(30020 in row for sheet in workbook for row in sheet.iter_rows(values_only=True))
    document = Document(io.BytesIO(client.get(formats["docx"]).content))
    assert any("30,020" in cell.text for table in document.tables for row in table.rows for cell in row.cells)
    latex = client.get(formats["latex"]).content.decode()
    source = tmp_path / "comparison.tex"
    source.write_text(
        "\\documentclass{article}\\usepackage{booktabs,graphicx}\\begin{document}\n" + latex + "\\end{document}\n"
    )
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", source.name], cwd=tmp_path, capture_output=True)
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]
    assert "<table" in client.get(formats["html"]).content.decode()
    assert "30,020" in client.get(formats["markdown"]).content.decode()

    (bundle,) = _links(page, r'href="/export/bundle/\?([^"]+)"')
    assert "tables/tables.xlsx" in zipfile.ZipFile(io.BytesIO(built_bundle(client, monkeypatch, bundle))).namelist()
    charts = _links(page, r'href="(/export/chart/\?[^"]+)"')
    assert sorted(re.search(r"format=(\w+)", link)[1] for link in charts) == ["png", "svg"]
