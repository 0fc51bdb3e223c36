"""The sizing table preset (``/export/table/?preset=sizing``, ``GET /api/v1/tables/sizing/``) prints the
sizing page's figures: CSV, Excel and LaTeX against the page, drive count by drive count.

Seed 000 is 000_f52f16ce4c762121.txt; its Table 1 RAID-5 OLTP 8K column, All Caches Disabled, reads
3,000 / 8,880 / 14,320 / 15,025 / 15,040 IOPS at 20 / 60 / 100 / 140 / 180 drives (20 ms), in the demo data.
"""

import csv
import io
import re

import openpyxl
import pytest
from django.test import Client

QUESTION = {"workload": "OLTP 8K", "raid_level": "RAID-5", "cache": "All Caches Disabled", "target": "12000"}
PAPER_IOPS = {20: 3000, 60: 8880, 100: 14_320, 140: 15_025, 180: 15_040}
ROW = re.compile(
    r'<tr><th scope="row" class="num">(\d+)</th><td class="num">([^<]*)</td>'
    r'<td class="num">([^<]*)</td><td class="num">([^<]*)</td></tr>'
)


@pytest.fixture
def ds4500(demo):
    return demo["IBM DS4500"]


def page_rows(system):
    """Drive count: (figure at the threshold, predicted from the others, error) as the sizing page prints them."""
    page = Client().get(f"/systems/{system.id}/sizing/", QUESTION).content.decode()
    return {int(drives): (measured, predicted, error) for drives, measured, predicted, error in ROW.findall(page)}


def export(params):
    response = Client().get("/export/table/", {"system": "IBM DS4500", "preset": "sizing", **QUESTION, **params})
    assert response.status_code == 200, response.content
    return response


def csv_rows(text):
    return {int(row[0]): row[1:] for row in csv.reader(io.StringIO(text)) if row and row[0].isdigit()}


def as_page(number, unit):
    """A CSV or Excel number as the page writes it: whole IOPS with separators, one-decimal percentages."""
    if number in ("–", None):
        return "–"
    return f"{round(float(number)):,} IOPS" if unit == "IOPS" else f"{float(number):g} %"


def test_the_csv_prints_the_pages_figures(ds4500):
    page = page_rows(ds4500)
    assert [page[n][0] for n in PAPER_IOPS] == [f"{iops:,} IOPS" for iops in PAPER_IOPS.values()]
    text = export({"format": "csv"}).content.decode("utf-8-sig")
    rows = csv_rows(text)
    assert sorted(rows) == sorted(PAPER_IOPS)
    for drives, (measured, _model, predicted, error) in rows.items():
        assert int(measured) == PAPER_IOPS[drives]
        assert (as_page(measured, "IOPS"), as_page(predicted, "IOPS"), as_page(error, "%")) == page[drives]
    # The answer beneath the table is the page's sentence.
    page_text = Client().get(f"/systems/{ds4500.id}/sizing/", QUESTION).content.decode()
    sentence = next(line for line in text.splitlines() if "12,000 IOPS at 20 ms needs" in line).strip('"')
    assert sentence in page_text


def test_the_excel_workbook_and_the_api_give_the_same_numbers(ds4500):
    page = page_rows(ds4500)
    workbook = openpyxl.load_workbook(io.BytesIO(export({"format": "xlsx"}).content))
    cells = [row for sheet in workbook.worksheets for row in sheet.iter_rows(values_only=True)]
    rows = {int(row[0]): row[1:5] for row in cells if row and str(row[0]).isdigit()}
    for drives, (measured, _model, predicted, error) in rows.items():
        assert measured == PAPER_IOPS[drives]
        assert (as_page(measured, "IOPS"), as_page(predicted, "IOPS"), as_page(error, "%")) == page[drives]
    api = Client().get("/api/v1/tables/sizing/", {"system": "IBM DS4500", **QUESTION, "format": "csv"})
    assert api.status_code == 200
    assert csv_rows(api.content.decode("utf-8-sig")) == csv_rows(export({"format": "csv"}).content.decode("utf-8-sig"))


def test_the_latex_table_prints_the_pages_figures(ds4500):
    page = page_rows(ds4500)
    latex = export({"format": "latex"}).content.decode()
    hundred = next(line for line in latex.splitlines() if line.startswith("100 & "))
    drives, measured, _model, predicted, error = (cell.strip(" \\") for cell in hundred.split("&"))
    assert (f"{measured} IOPS", f"{predicted} IOPS", f"{error} %") == page[100]
    assert measured == "14,320"


def test_a_sizing_export_without_a_workload_names_it(ds4500):
    response = Client().get("/export/table/", {"system": "IBM DS4500", "preset": "sizing"})
    assert response.status_code == 400
    assert response.content.decode() == "Workload: This field is required."
    response = Client().get(
        "/export/table/", {"system": "IBM DS4500", "preset": "sizing", "workload": "No such workload"}
    )
    assert response.status_code == 404
    assert "IBM DS4500 has no sizing answer to export for these choices." in response.content.decode()
