"""Tables as text: columns padded for a terminal, CSV for a spreadsheet (a figure written as a number, text
neutralised so that no spreadsheet runs it as a formula), Markdown pipe tables and an HTML fragment (what a
user typed escaped as entities)."""

import csv
import io
import re
from collections.abc import Iterable

from django.utils.html import escape

from portal.analysis.tables import NumberFormat, Table, round_half_up
from portal.spreadsheets import spreadsheet_text


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
