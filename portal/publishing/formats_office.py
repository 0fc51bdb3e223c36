"""Tables as office documents: an XLSX workbook (a sheet per table, figures kept numbers with Excel's number
formats, a lower bound's "≥" in the format, text typed so that it never runs as a formula) and a DOCX of
Word tables."""

import io
import re
from typing import TYPE_CHECKING

from portal.analysis.tables import NumberFormat, Table
from portal.spreadsheets import starts_formula

from .formats_text import printed_value

if TYPE_CHECKING:  # openpyxl is imported when a workbook is written
    from openpyxl.cell.cell import Cell
    from openpyxl.worksheet.worksheet import Worksheet


def excel_number_format(number_format: NumberFormat, value: float = 0.0, *, mark: str = "") -> str:
    """Excel's format for a cell holding ``value``: separators from ``group_from`` on (a conditional
    section); trimmed decimals print with "General", which the rounded value makes exact; a bound with its
    ``mark`` ("≥ ", "≤ ") in front, the cell still a number."""
    decimals = number_format.decimals_of(value)
    if number_format.significant is not None and isinstance(printed_value(value, number_format), int):
        decimals = 0  # 20.04 to three digits is 20, printed without its zero
    found = _excel_number_format(number_format, decimals)
    if not mark:
        return found
    # A conditional format's sections each take the mark, after the section's condition ("[>=10000]").
    return ";".join(_CONDITION.sub(rf'\1"{mark}"', section, count=1) for section in found.split(";"))


_CONDITION = re.compile(r"^((?:\[[^\]]*\])*)")


def _excel_number_format(number_format: NumberFormat, decimals_count: int) -> str:
    if decimals_count and number_format.trim_zeros and number_format.significant is None:
        return "General"
    decimals = "." + "0" * decimals_count if decimals_count else ""
    if number_format.group_from is None:
        return "0" + decimals
    if number_format.group_from <= 1_000:
        return "#,##0" + decimals
    return (
        f"[>={number_format.group_from:g}]#,##0{decimals};[<=-{number_format.group_from:g}]-#,##0{decimals};0{decimals}"
    )


def render_xlsx(tables: list[Table]) -> bytes:
    """One sheet per table: title, merged bold group headers, bold labels, numbers with formats, footnotes."""
    from openpyxl import Workbook

    workbook = Workbook()
    workbook.remove(workbook.active)
    for index, table in enumerate(tables, start=1):
        _xlsx_sheet(workbook.create_sheet(sheet_title(table.title, index)), table)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


# Words a cut sheet name must not end on: a number (a title cut after "at 2" reads as 2 ms), a sign, a
# word that leads to the next.
DANGLING = re.compile(r"^(?:[\d.,]+|[<>=@&+-]+|at|of|and|or|in|on|to|for|with|by|the|a|an|vs)$", re.IGNORECASE)


def sheet_title(title: str, index: int) -> str:
    """Excel refuses []:*?/\\ in sheet names and more than 31 characters; the index keeps names unique. A
    longer title is cut at a word, dropping a number or a word that leads on at the cut."""
    cleaned = re.sub(r"[\[\]:*?/\\]", " ", title)
    words = f"{index} {cleaned}".split()
    if len(" ".join(words)) <= 31:
        return " ".join(words)
    while len(" ".join(words)) > 31 - 1:  # room for the ellipsis
        words.pop()
    while len(words) > 1 and DANGLING.match(words[-1]):
        words.pop()
    return " ".join(words)[:30] + "…"


def _xlsx_sheet(sheet, table: Table) -> None:
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    bold, width = Font(bold=True), table.row_header_width
    xlsx_text(sheet, 1, 1, table.title).font = Font(bold=True, size=12)
    header, labels = table.header_rows()
    for column, text in enumerate(header[:width] + [""] * len(table.columns), start=1):
        xlsx_text(sheet, 2, column, text).font = bold
    for first, count, label in table.column_group_spans():
        cell = xlsx_text(sheet, 2, width + first + 1, label)
        cell.font, cell.alignment = bold, Alignment(horizontal="center")
        if count > 1:
            sheet.merge_cells(start_row=2, start_column=width + first + 1, end_row=2, end_column=width + first + count)
    for column, text in enumerate(labels, start=1):
        cell = xlsx_text(sheet, 3, column, text)
        cell.font, cell.alignment = bold, Alignment(horizontal="left" if column <= width else "right")
    _xlsx_body(sheet, table, first_row=4)
    last = 4 + len(table.rows)
    for offset, footnote in enumerate(table.footnotes, start=1):
        xlsx_text(sheet, last + offset, 1, footnote).font = Font(italic=True)
    for column in range(1, width + len(table.columns) + 1):
        texts = [line[column - 1] for line in table.text_grid()]
        sheet.column_dimensions[get_column_letter(column)].width = max(8, max(len(t) for t in texts) + 2)
    sheet.freeze_panes = sheet.cell(row=4, column=width + 1)


def xlsx_text(sheet: "Worksheet", row: int, column: int, text: str) -> "Cell":
    """A text cell that stays text: openpyxl stores a string beginning with "=" as a formula, so a would-be
    formula is typed as a string and given Excel's quote prefix (kept as text when the cell is edited)."""
    cell = sheet.cell(row=row, column=column, value=text or None)
    if text and starts_formula(text):
        cell.data_type = "s"
        cell.quotePrefix = True
    return cell


def _xlsx_body(sheet, table: Table, *, first_row: int) -> None:
    from openpyxl.styles import Alignment, Font

    width = table.row_header_width
    for i, row in enumerate(table.rows):
        for level, text in enumerate(row.headers):
            xlsx_text(sheet, first_row + i, level + 1, text).font = Font(bold=level < width - 1)
        for j, value in enumerate(row.cells):
            number_format = table.cell_format(i, j)
            if value is None:
                cell = xlsx_text(sheet, first_row + i, width + j + 1, number_format.na_text)
                cell.alignment = Alignment(horizontal="right")
            else:
                cell = sheet.cell(row=first_row + i, column=width + j + 1)
                cell.value = printed_value(value, number_format)
                cell.number_format = excel_number_format(number_format, value, mark=table.bound_mark(i, j))
    for level in range(width - 1):
        for start, count, _ in table.row_header_spans(level):
            if count > 1:
                sheet.merge_cells(
                    start_row=first_row + start, start_column=level + 1,
                    end_row=first_row + start + count - 1, end_column=level + 1,
                )  # fmt: skip
                sheet.cell(row=first_row + start, column=level + 1).alignment = Alignment(vertical="top")


def render_docx(tables: list[Table]) -> bytes:
    """A Word table per table: caption above ("Caption" style), merged bold group headers, footnotes below."""
    from docx import Document
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Pt

    document = Document()
    for table in tables:
        document.add_paragraph(table.title, style="Caption")
        grid = table.text_grid()
        word = document.add_table(rows=len(grid), cols=len(grid[0]), style="Table Grid")
        # Merged before the text goes in: merging joins the cells' paragraphs, empty ones included.
        for first, count, _ in table.column_group_spans():
            if count > 1:
                start = table.row_header_width + first
                word.cell(0, start).merge(word.cell(0, start + count - 1))
        # A row's cells read row by row: Table.cell() reads every cell of the table at each call.
        for i, (line, row) in enumerate(zip(grid, word.rows, strict=True)):
            for j, (text, cell) in enumerate(zip(line, row.cells, strict=True)):
                paragraph = cell.paragraphs[0]
                run = paragraph.add_run(text)
                run.bold = i < 2 or j < table.row_header_width - 1
                run.font.size = Pt(8)
                if j >= table.row_header_width:
                    paragraph.alignment = WD_ALIGN_PARAGRAPH.CENTER if i == 0 else WD_ALIGN_PARAGRAPH.RIGHT
        for footnote in table.footnotes:
            document.add_paragraph().add_run(footnote).font.size = Pt(8)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
