"""A report written as DOCX, self-contained HTML and Markdown (LaTeX: :mod:`portal.publishing.latex`, its PDF:
:mod:`portal.publishing.latex_compile`).

Tables and figures are numbered in the order they appear, the same in every format. Charts come as
PNG at print resolution (DOCX, HTML) and as PDF, a vector image (LaTeX), rendered together by
:func:`portal.publishing.charts.render_charts`.
"""

import base64
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING

from django.utils.html import escape

from .document import Block, Box, Figure, Heading, Paragraph, Report, TableBlock
from .formats_text import markdown_escape

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument


class ReportUnavailable(RuntimeError):
    """A format cannot be written on this machine (no pdflatex); the message says why."""


def numbered(report: Report) -> Iterator[tuple[Block, str]]:
    """Each block printed with its label: "Table 3", "Figure 1" ('' for other blocks); a table without
    rows is left out, and so is a heading with nothing under it before the next heading of its level or
    above."""
    tables = figures = 0
    for block in _with_content(report.blocks):
        if isinstance(block, TableBlock):
            tables += 1
            yield block, f"Table {tables}"
        elif isinstance(block, Figure):
            figures += 1
            yield block, f"Figure {figures}"
        else:
            yield block, ""


def _with_content(blocks: list[Block]) -> list[Block]:
    blocks = [block for block in blocks if not isinstance(block, TableBlock) or block.rows]
    kept: list[Block] = []
    for index, block in enumerate(blocks):
        if isinstance(block, Heading):
            section = _section_of(blocks[index + 1 :], level=block.level)
            if all(isinstance(under, Heading) for under in section):
                continue
        kept.append(block)
    return kept


def _section_of(blocks: list[Block], *, level: int) -> list[Block]:
    """The blocks before the first heading of ``level`` or above (1 is above 2)."""
    for index, block in enumerate(blocks):
        if isinstance(block, Heading) and block.level <= level:
            return blocks[:index]
    return blocks


# -- DOCX ------------------------------------------------------------------------------------------


def render_docx(report: Report, images: list[bytes]) -> bytes:
    """Word styles the author can restyle (Title, Heading 1-3, Caption, Intense Quote for the boxes, a
    "Light Grid Accent 1" table style); captions numbered by SEQ fields, which Word renumbers."""
    from docx import Document
    from docx.shared import Inches

    document = Document()
    document.add_paragraph(report.title, style="Title")
    document.add_paragraph(" · ".join(part for part in (report.author, report.date) if part), style="Subtitle")
    document.add_heading("Abstract", level=1)
    document.add_paragraph(report.abstract)
    pictures = iter(images)
    for block, label in numbered(report):
        if isinstance(block, Heading):
            document.add_heading(block.text, level=block.level)
        elif isinstance(block, Paragraph):
            document.add_paragraph(block.text)
        elif isinstance(block, Box):
            document.add_paragraph(block.title, style="Intense Quote")
            for line in block.lines:
                document.add_paragraph(line, style="List Bullet")
        elif isinstance(block, Figure):
            document.add_picture(io.BytesIO(next(pictures)), width=Inches(6.3))
            _docx_caption(document, label, block.caption)
        elif isinstance(block, TableBlock):
            _docx_caption(document, label, block.caption)
            _docx_table(document, block)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _docx_caption(document: "DocxDocument", label: str, caption: str) -> None:
    """ "Figure 1. caption" in the Caption style, the number a SEQ field (Word's own caption numbering,
    renumbered when the author moves a figure) holding the number it has here."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    kind, number = label.split(" ")
    paragraph = document.add_paragraph(style="Caption")
    paragraph.add_run(f"{kind} ")
    for part in ("begin", f" SEQ {kind} \\* ARABIC ", "separate", number, "end"):
        run = paragraph.add_run()
        if part in ("begin", "separate", "end"):
            mark = OxmlElement("w:fldChar")
            mark.set(qn("w:fldCharType"), part)
            run._r.append(mark)
        elif part.startswith(" SEQ"):
            instruction = OxmlElement("w:instrText")
            instruction.set(qn("xml:space"), "preserve")
            instruction.text = part
            run._r.append(instruction)
        else:
            run.text = part
    paragraph.add_run(f". {caption}")


def _docx_table(document: "DocxDocument", block: TableBlock) -> None:
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Pt

    table = document.add_table(rows=1 + len(block.rows), cols=len(block.header))
    table.style = "Light Grid Accent 1"
    # Cells read row by row: Table.cell() reads every cell of the table at each call.
    word_rows = iter(table.rows)
    header_row = next(word_rows)
    for word_cell, text in zip(header_row.cells, block.header, strict=True):
        word_cell.text = text
    # The header row repeated at the top of each page the table runs onto.
    repeat = OxmlElement("w:tblHeader")
    repeat.set(qn("w:val"), "true")
    header_row._tr.get_or_add_trPr().append(repeat)
    for row, word_row in zip(block.rows, word_rows, strict=True):
        for j, (cell, word_cell) in enumerate(zip(row, word_row.cells, strict=True)):
            paragraph = word_cell.paragraphs[0]
            paragraph.add_run(cell.text).font.size = Pt(8)
            if block.is_numeric(j):
                paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    for note in block.notes:
        document.add_paragraph().add_run(note).font.size = Pt(8)


# -- LaTeX and PDF ---------------------------------------------------------------------------------


HTML_STYLE = """body{font-family:Georgia,serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.85rem}th,td{border-bottom:1px solid #999;padding:.2rem .5rem;
text-align:left;vertical-align:top}td.num{text-align:right}caption,figcaption{font-style:italic;text-align:left}
img{max-width:100%}.box{border:1px solid #333;padding:.5rem 1rem;margin:1rem 0}.note{font-size:.8rem}
@media print{body{max-width:none;margin:0}thead{display:table-header-group}tr,figure,img{break-inside:avoid}
h2,h3,h4,caption{break-after:avoid}table{font-size:9pt}}"""


def render_html(report: Report, images: list[bytes]) -> bytes:
    """One file: the style inline, the charts as PNG data addresses."""
    parts = [
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(report.title)}</title>',
        f"<style>{HTML_STYLE}</style></head><body>",
        f"<h1>{escape(report.title)}</h1>",
        f"<p>{escape(' · '.join(part for part in (report.author, report.date) if part))}</p>",
        f"<h2>Abstract</h2><p>{escape(report.abstract)}</p>",
    ]
    pictures = iter(images)
    for block, label in numbered(report):
        parts.append(_html_block(block, label, pictures))
    parts.append("</body></html>")
    return "\n".join(parts).encode()


def _html_block(block: Block, label: str, pictures: Iterator[bytes]) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level + 1}>{escape(block.text)}</h{block.level + 1}>"
    if isinstance(block, Paragraph):
        return f"<p>{escape(block.text)}</p>"
    if isinstance(block, Box):
        items = "".join(f"<li>{escape(line)}</li>" for line in block.lines)
        return f'<aside class="box"><strong>{escape(block.title)}</strong><ul>{items}</ul></aside>'
    if isinstance(block, Figure):
        data = base64.b64encode(next(pictures)).decode()
        return (
            f'<figure><img alt="{escape(block.caption)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{label}. {escape(block.caption)}</figcaption></figure>"
        )
    head = "".join(f"<th>{escape(text)}</th>" for text in block.header)
    body = "".join(
        "<tr>" + "".join(_html_cell(block, j, cell.text) for j, cell in enumerate(row)) + "</tr>" for row in block.rows
    )
    notes = "".join(f'<p class="note">{escape(note)}</p>' for note in block.notes)
    caption = f"<caption>{label}. {escape(block.caption)}</caption>"
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}"


def _html_cell(block: TableBlock, column: int, text: str) -> str:
    return f'<td class="num">{escape(text)}</td>' if block.is_numeric(column) else f"<td>{escape(text)}</td>"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def render_markdown(report: Report, chart_files: list[str]) -> bytes:
    """The same text as Markdown, the charts referred to by file name."""
    lines = [
        f"# {markdown_escape(report.title)}",
        "",
        markdown_escape(" · ".join(p for p in (report.author, report.date) if p)),
    ]
    lines += ["", "## Abstract", "", markdown_escape(report.abstract)]
    charts = iter(chart_files)
    for block, label in numbered(report):
        lines.append("")
        lines += _markdown_block(block, label, charts)
    return ("\n".join(lines) + "\n").encode()


def _markdown_block(block: Block, label: str, charts: Iterator[str]) -> list[str]:
    if isinstance(block, Heading):
        return [f"{'#' * (block.level + 1)} {markdown_escape(block.text)}"]
    if isinstance(block, Paragraph):
        return [markdown_escape(block.text)]
    if isinstance(block, Box):
        return [f"> **{markdown_escape(block.title)}**", ">", *(f"> - {markdown_escape(line)}" for line in block.lines)]
    if isinstance(block, Figure):
        return [
            f"![{markdown_escape(block.caption)}]({next(charts)})",
            "",
            f"*{label}. {markdown_escape(block.caption)}*",
        ]
    return [
        f"*{label}. {markdown_escape(block.caption)}*",
        "",
        _row([markdown_escape(text) for text in block.header]),
        _row(["--:" if block.is_numeric(j) else ":--" for j in range(len(block.header))]),
        *(_row([markdown_escape(cell.text) for cell in cells]) for cells in block.rows),
        *([""] + [markdown_escape(note) for note in block.notes] if block.notes else []),
    ]
