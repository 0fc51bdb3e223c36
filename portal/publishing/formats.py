"""Exporters: one function per format from a list of tables (:class:`portal.analysis.tables.Table`) to bytes.

Every format prints the cells of ``Table.text_grid()`` (XLSX keeps the numbers as numbers, a lower
bound with its "≥" in the cell's number format; CSV writes a lower bound as its printed text) and
escapes what a user typed (system names, workloads): HTML and Markdown entities, LaTeX specials,
and in CSV and XLSX any text a spreadsheet program would run as a formula.
"""

import csv
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.html import escape

from portal.analysis.tables import NumberFormat, Table, round_half_up
from portal.spreadsheets import csv_cell, spreadsheet_text, starts_formula

if TYPE_CHECKING:  # openpyxl is imported when a workbook is written
    from openpyxl.cell.cell import Cell
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = ["FORMATS", "csv_cell", "spreadsheet_text", "starts_formula"]


@dataclass(frozen=True)
class Format:
    name: str
    extension: str
    content_type: str
    render: Callable[[list[Table]], bytes]
    binary: bool = False


def render_csv(tables: list[Table]) -> bytes:
    """Title line, the two header lines, the body and the footnotes; a blank line between tables."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for index, table in enumerate(tables):
        if index:
            writer.writerow([])
        writer.writerow([spreadsheet_text(table.title)])
        writer.writerows(_csv_lines(table))
        if table.footnotes:
            writer.writerow([])
            writer.writerows([spreadsheet_text(footnote)] for footnote in table.footnotes)
    # A byte-order mark so that spreadsheet programs read the names as UTF-8.
    return out.getvalue().encode("utf-8-sig")


def _csv_lines(table: Table) -> list[list[object]]:
    """The printed grid, every text cell neutralised; a figure is written as a number, rounded as the
    table prints it but without thousands separators, so a spreadsheet reads it as a number (30020, -12.5);
    a lower bound as the table prints it ("≥ 69,656"), which no spreadsheet takes for the figure itself."""
    width = table.row_header_width
    lines: list[list[object]] = [[spreadsheet_text(cell) for cell in line] for line in table.header_rows()]
    for i, (row, printed) in enumerate(zip(table.rows, table.body_rows(), strict=True)):
        numbers: list[object] = [
            printed_value(value, table.cell_format(i, j))
            if value is not None and not table.bound_mark(i, j)
            else spreadsheet_text(text)
            for j, (value, text) in enumerate(zip(row.cells, printed[width:], strict=True))
        ]
        lines.append([*(spreadsheet_text(cell) for cell in printed[:width]), *numbers])
    return lines


def render_text(tables: list[Table]) -> bytes:
    """Columns padded to their widest cell: for a terminal."""
    blocks = []
    for table in tables:
        grid = table.text_grid()
        widths = [max(len(line[i]) for line in grid) for i in range(len(grid[0]))]
        lines = ["  ".join(cell.ljust(w) if i < table.row_header_width else cell.rjust(w)
                           for i, (cell, w) in enumerate(zip(line, widths, strict=True))).rstrip()
                 for line in grid]  # fmt: skip
        blocks.append("\n".join([table.title, *lines, *([""] + list(table.footnotes) if table.footnotes else [])]))
    return ("\n\n".join(blocks) + "\n").encode()


MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]|~])")


def markdown_escape(text: str) -> str:
    """Entities for ``&``, ``<`` and ``>`` (Markdown passes HTML through), backslashes for Markdown's own marks;
    quotes stay quotes ("Little's law", not "Little&#x27;s law"): outside a tag they are text."""
    entities = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return MARKDOWN_SPECIALS.sub(r"\\\1", entities)


def render_markdown(tables: list[Table]) -> bytes:
    """A pipe table per table: the group headers as its header line, the column labels as its first row (bold)."""
    blocks = []
    for table in tables:
        header, labels, *body = [[markdown_escape(cell) for cell in line] for line in table.text_grid()]
        lines = [f"**{markdown_escape(table.title)}**", "", _pipe_row(header)]
        lines.append(_pipe_row([":--" if i < table.row_header_width else "--:" for i in range(len(header))]))
        lines.append(_pipe_row([f"**{cell}**" if cell else "" for cell in labels]))
        lines.extend(_pipe_row(line) for line in body)
        lines.extend(["", *(markdown_escape(f) for f in table.footnotes)] if table.footnotes else [])
        blocks.append("\n".join(lines))
    return ("\n\n".join(blocks) + "\n").encode()


def _pipe_row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    # Marks pdflatex's utf8 input does not know, as any LaTeX document can print them.
    "≥": r"\ensuremath{\geq}",
    "≤": r"\ensuremath{\leq}",
    "×": r"\ensuremath{\times}",
    "±": r"\ensuremath{\pm}",
    "µ": r"\textmu{}",
    "μ": r"\textmu{}",
    "–": "--",
    "—": "---",
    "·": r"\textperiodcentered{}",
}

# Notation the portal writes in its plain text, typeset as math or broken to fit: powers ("10^6",
# "2^20"), formulas of single letters and numbers ("(A - B x k) / (B x k) x 100") and sha256 digests
# (64 hex digits, set fixed-width with a break allowed every 16). The LaTeX is made of the matched
# digits, letters and operators only, so no text, whoever typed it, becomes a LaTeX command.
_OPERAND = r"\(*(?<![\w.])(?:[A-Za-z]|\d+(?:\.\d+)?)(?![\w.])\)*"
LATEX_NOTATION = re.compile(
    rf"(?P<power>(?<![\w.])(?P<base>\d+)\^(?P<exponent>\d+)(?![\w.]))"
    rf"|(?P<formula>{_OPERAND}(?: (?:[-+/x×]) {_OPERAND})+)"
    r"|(?P<digest>(?<![0-9A-Za-z])[0-9a-f]{64}(?![0-9A-Za-z]))"
)
DIGEST_BREAK_EVERY = 16


def latex_escape(text: str) -> str:
    """``text`` as LaTeX prints it: specials escaped, the portal's notation (:data:`LATEX_NOTATION`)
    typeset as math."""
    parts, start = [], 0
    for found in LATEX_NOTATION.finditer(text):
        notation = _latex_notation(found)
        if notation is not None:
            parts += [_latex_plain(text[start : found.start()]), notation]
            start = found.end()
    parts.append(_latex_plain(text[start:]))
    return "".join(parts)


def _latex_plain(text: str) -> str:
    return "".join(LATEX_SPECIALS.get(char, char) for char in text)


def _latex_notation(found: re.Match[str]) -> str | None:
    """The LaTeX of a notation; None for a formula that only looks like one (no multiplication, no
    letter, or unbalanced parentheses), which is printed as text."""
    if found["power"]:
        return f"${found['base']}^{{{found['exponent']}}}$"
    if found["digest"]:
        digest = found["digest"]
        chunks = [digest[i : i + DIGEST_BREAK_EVERY] for i in range(0, len(digest), DIGEST_BREAK_EVERY)]
        return r"\texttt{" + r"\allowbreak{}".join(chunks) + "}"
    formula = found["formula"]
    operators = re.findall(r" ([-+/x×]) ", formula)
    if not {"x", "×"} & set(operators) or not re.search("[A-Za-z]", formula.replace(" x ", " ")):
        return None
    if formula.count("(") != formula.count(")"):
        return None
    return "$" + formula.replace(" x ", r" \times ").replace(" × ", r" \times ") + "$"


def render_latex(tables: list[Table]) -> bytes:
    """``table`` floats with booktabs rules and ``\\cmidrule`` under each column group, each shrunk to the
    text width when it is wider by no more than a quarter, else turned sideways (never enlarged); needs
    ``\\usepackage{booktabs,graphicx}``."""
    return ("\n\n".join(_latex_table(table) for table in tables) + "\n").encode()


def _latex_table(table: Table) -> str:
    width = table.row_header_width
    header, labels, *body = [[latex_escape(cell) for cell in line] for line in table.text_grid()]
    groups = [
        rf"\multicolumn{{{count}}}{{c}}{{{latex_escape(label)}}}" for _, count, label in table.column_group_spans()
    ]
    rules = " ".join(
        rf"\cmidrule(lr){{{width + first + 1}-{width + first + count}}}"
        for first, count, _ in table.column_group_spans()
    )
    lines = [
        "% requires \\usepackage{booktabs,graphicx}",
        r"\begin{table}[htbp]",
        r"\centering",
        rf"\caption{{{latex_escape(table.title)}}}",
        r"\setbox0\hbox{%",
        rf"\begin{{tabular}}{{{'l' * width}{'r' * len(table.columns)}}}",
        r"\toprule",
        " & ".join(header[:width] + groups) + r" \\",
    ]
    lines.extend([rules] if rules else [])
    lines.append(" & ".join(labels) + r" \\")
    lines.append(r"\midrule")
    lines.extend(" & ".join(line) + r" \\" for line in body)
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}}%")
    # The tabular's own width when it fits; shrunk to the text width when it is wider by no more than a
    # quarter (8 pt of a 10 pt text); wider still, turned sideways and shrunk to the text height if need be.
    lines.append(r"\ifdim\wd0>1.25\linewidth")
    lines.append(r"\rotatebox{90}{\resizebox{\ifdim\width>\textheight\textheight\else\width\fi}{!}{\box0}}%")
    lines.append(r"\else\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{\box0}\fi")
    lines.extend(rf"\par\smallskip\footnotesize {latex_escape(footnote)}" for footnote in table.footnotes)
    lines.append(r"\end{table}")
    return "\n".join(lines)


def render_html(tables: list[Table]) -> bytes:
    """A fragment to paste into a document: ``<table>`` with caption, merged group headers, footnotes."""
    return ("\n".join(_html_table(table) for table in tables) + "\n").encode()


def _html_table(table: Table) -> str:
    width = table.row_header_width
    header, labels, *body = table.text_grid()
    groups = "".join(
        f'<th colspan="{count}" scope="colgroup">{escape(label)}</th>' for _, count, label in table.column_group_spans()
    )
    head = "".join(f"<th>{escape(cell)}</th>" for cell in header[:width]) + groups
    second = "".join(f'<th scope="col">{escape(cell)}</th>' for cell in labels)
    rows = "\n".join(
        "<tr>"
        + "".join(f'<th scope="row">{escape(cell)}</th>' for cell in line[:width])
        + "".join(f"<td>{escape(cell)}</td>" for cell in line[width:])
        + "</tr>"
        for line in body
    )
    notes = "".join(f"<p><small>{escape(footnote)}</small></p>" for footnote in table.footnotes)
    return (
        f'<table class="whitepaper-table">\n<caption>{escape(table.title)}</caption>\n'
        f"<thead>\n<tr>{head}</tr>\n<tr>{second}</tr>\n</thead>\n<tbody>\n{rows}\n</tbody>\n</table>\n{notes}"
    )


def printed_value(value: float, number_format: NumberFormat) -> float | int:
    """The number as the table prints it (rounded half up to the column's decimals), kept a number."""
    decimals = number_format.decimals_of(value)
    rounded = round_half_up(value, decimals)
    whole = decimals == 0 or (number_format.trim_zeros and rounded == rounded.to_integral_value())
    return int(rounded) if whole else float(rounded)


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


FORMATS = {
    f.name: f
    for f in (
        Format("text", "txt", "text/plain; charset=utf-8", render_text),
        Format("csv", "csv", "text/csv; charset=utf-8", render_csv),
        Format("markdown", "md", "text/markdown; charset=utf-8", render_markdown),
        Format("latex", "tex", "application/x-tex; charset=utf-8", render_latex),
        Format("html", "html", "text/html; charset=utf-8", render_html),
        Format("xlsx", "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", render_xlsx, True),
        Format(
            "docx", "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", render_docx, True
        ),
    )
}


def export(tables: list[Table], format_name: str) -> bytes:
    try:
        exporter = FORMATS[format_name]
    except KeyError:
        raise ValueError(f"unknown format {format_name!r}; choose one of {', '.join(FORMATS)}") from None
    return exporter.render(tables)
