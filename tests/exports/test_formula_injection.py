"""Exports never hand a spreadsheet program a formula typed by a user (OWASP CSV injection): text
beginning with =, +, -, @, tab or carriage return is neutralised in CSV and XLSX; numbers stay numbers."""

import csv
import io
import zipfile

import pytest
from openpyxl import load_workbook

from portal.analysis.tables import Column, ColumnGroup, NumberFormat, Row, Table
from portal.charts import Chart, Series, csv_text
from portal.publishing.charts import chart_data_csv
from portal.publishing.formats import export, spreadsheet_text

# The OWASP CSV-injection payloads, as system, workload and label names and notes.
PAYLOADS = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(1+1)", "\t=1+1", "\r=1+1"]


def payload_table() -> Table:
    """Every kind of text cell holds a payload; one data column holds -12.5 and a missing figure."""
    return Table(
        title=PAYLOADS[0],
        corner=((PAYLOADS[1],), (PAYLOADS[2],)),
        column_groups=(ColumnGroup(PAYLOADS[3], (Column(PAYLOADS[4], NumberFormat(decimals=1)),)),),
        rows=(Row((PAYLOADS[5],), (-12.5,)), Row(('=HYPERLINK("http://x")',), (None,))),
        footnotes=("-note from a user",),
    )


def csv_cells(content: bytes) -> list[str]:
    return [cell for line in csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")) for cell in line]


@pytest.mark.parametrize("payload", [*PAYLOADS, "-1-1", "+12.7 % =1", "-A1", "@A1"])
def test_spreadsheet_text_prefixes_every_owasp_payload(payload):
    assert spreadsheet_text(payload) == "'" + payload


@pytest.mark.parametrize("text", ["IBM DS4500", "-12.5", "+12.7 %", "-1,234", "RAID-5"])
def test_plain_names_and_signed_numbers_are_left_as_they_are(text):
    assert spreadsheet_text(text) == text


def test_csv_neutralises_every_text_cell_and_keeps_the_number():
    cells = csv_cells(export([payload_table()], "csv"))
    for payload in PAYLOADS:
        assert "'" + payload in cells
    assert '\'=HYPERLINK("http://x")' in cells and "'-note from a user" in cells
    assert "-12.5" in cells  # a measured number is printed as a number, not as text
    formulas = [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r")) and cell != "-12.5"]
    assert formulas == []


def test_xlsx_keeps_payloads_as_text_and_numbers_as_numbers():
    content = export([payload_table()], "xlsx")
    sheet = load_workbook(io.BytesIO(content)).worksheets[0]
    texts = {cell.value: cell for line in sheet.iter_rows() for cell in line if isinstance(cell.value, str)}
    for payload in PAYLOADS:
        assert texts[payload].data_type == "s" and texts[payload].quotePrefix, payload
    assert sheet["B4"].value == -12.5 and sheet["B4"].data_type == "n"
    # No cell of the workbook is a formula.
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert "<f>" not in archive.read("xl/worksheets/sheet1.xml").decode()


def test_chart_data_csv_neutralises_series_names_and_keeps_numbers():
    series = Series(name="@SUM(1+1)", x=[1, 2], y=[-12.5, 3.0])
    chart = Chart(title="t", x_title="load", y_title="IOPS", series=[series])
    rows = list(csv.reader(io.StringIO(csv_text(chart))))
    assert rows[1] == ["'@SUM(1+1)", "1", "-12.5"]


def test_comparison_chart_csv_neutralises_configuration_labels():
    class Comparison:
        # Each side as the comparison names it: a system's name, with its firmware when one was chosen.
        a_side = b_side = "=cmd|' /C calc'!A0"
        adjust_b = 1.0

    class Workload:
        metric = "iops"
        unit = "IOPS"
        rows = [type("RowOf", (), {"label": "+1+1", "a_value": -12.5, "b_value": 2.0})()]

    rows = list(csv.reader(io.StringIO(chart_data_csv(Comparison(), Workload()).decode("utf-8-sig"))))
    assert rows[0][1].startswith("'=cmd") and rows[1] == ["'+1+1", "-12.5", "2.0"]
