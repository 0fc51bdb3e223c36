"""A report written as DOCX, LaTeX (compiled to PDF by pdflatex), self-contained HTML and Markdown.

Tables and figures are numbered in the order they appear, the same in every format. Charts come as
PNG at print resolution (DOCX, HTML) and as PDF, a vector image (LaTeX), rendered together by
:func:`portal.exports.charts.render_charts`.
"""

import base64
import io
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from django.utils.html import escape

from portal.exports.formats import latex_escape, markdown_escape

from .document import Block, Box, Figure, Heading, Paragraph, Report, TableBlock

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument

LATEX_TIMEOUT_SECONDS = 60


class ReportUnavailable(RuntimeError):
    """A format cannot be written on this machine (no pdflatex); the message says why."""


def numbered(report: Report) -> Iterator[tuple[Block, str]]:
    """Each block with its label: "Table 3", "Figure 1" ('' for other blocks)."""
    tables = figures = 0
    for block in report.blocks:
        if isinstance(block, TableBlock):
            tables += 1
            yield block, f"Table {tables}"
        elif isinstance(block, Figure):
            figures += 1
            yield block, f"Figure {figures}"
        else:
            yield block, ""


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
    from docx.shared import Pt

    table = document.add_table(rows=1 + len(block.rows), cols=len(block.header))
    table.style = "Light Grid Accent 1"
    # Cells read row by row: Table.cell() reads every cell of the table at each call.
    word_rows = iter(table.rows)
    for word_cell, text in zip(next(word_rows).cells, block.header, strict=True):
        word_cell.text = text
    for row, word_row in zip(block.rows, word_rows, strict=True):
        for j, (cell, word_cell) in enumerate(zip(row, word_row.cells, strict=True)):
            paragraph = word_cell.paragraphs[0]
            paragraph.add_run(cell.text).font.size = Pt(8)
            if block.is_numeric(j):
                paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    for note in block.notes:
        document.add_paragraph().add_run(note).font.size = Pt(8)


# -- LaTeX and PDF ---------------------------------------------------------------------------------

LATEX_PREAMBLE = r"""\documentclass[11pt,a4paper]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{textcomp}
\usepackage[margin=2.2cm]{geometry}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{tabularx}
\usepackage{ragged2e}
\DeclareUnicodeCharacter{2013}{--}
\DeclareUnicodeCharacter{00B7}{\textperiodcentered}
"""


def render_latex(report: Report, chart_files: list[str]) -> str:
    """A LaTeX document (booktabs tables resized to the text width, charts as vector PDF files named by
    ``chart_files``)."""
    lines = [LATEX_PREAMBLE]
    lines.append(rf"\title{{{latex_escape(report.title)}}}")
    lines.append(rf"\author{{{latex_escape(report.author)}}}")
    lines.append(rf"\date{{{latex_escape(report.date)}}}")
    lines += [r"\begin{document}", r"\maketitle", r"\begin{abstract}", latex_escape(report.abstract), r"\end{abstract}"]
    charts = iter(chart_files)
    commands = {1: "section", 2: "subsection", 3: "subsubsection"}
    for block, _ in numbered(report):
        if isinstance(block, Heading):
            lines.append(rf"\{commands[block.level]}{{{latex_escape(block.text)}}}")
        elif isinstance(block, Paragraph):
            lines.append(latex_escape(block.text) + "\n")
        elif isinstance(block, Box):
            items = "\n".join(rf"\item {latex_escape(line)}" for line in block.lines)
            lines.append(
                rf"\par\noindent\fbox{{\parbox{{\dimexpr\linewidth-2\fboxsep-2\fboxrule}}{{\textbf{{{latex_escape(block.title)}}}"
                rf"\begin{{itemize}}{items}\end{{itemize}}}}}}\par"
            )
        elif isinstance(block, Figure):
            lines += [
                r"\begin{figure}[htbp]\centering",
                rf"\includegraphics[width=\linewidth]{{{next(charts)}}}",
                rf"\caption{{{latex_escape(block.caption)}}}",
                r"\end{figure}",
            ]
        elif isinstance(block, TableBlock):
            lines.append(_latex_table(block))
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


# A table with this many columns of figures is set at its natural width and shrunk to the text width
# (its text columns would be squeezed to nothing); others wrap their text columns to the text width.
SHRUNK_FROM_FIGURE_COLUMNS = 4


def _latex_table(block: TableBlock) -> str:
    """A booktabs table no wider than the text: text columns wrap (tabularx), or, for a table of many
    figures, the whole table is shrunk to the text width; figures right-aligned."""
    columns = range(len(block.header))
    figures = sum(block.is_numeric(j) for j in columns)
    if figures >= SHRUNK_FROM_FIGURE_COLUMNS:
        spec = "".join("r" if block.is_numeric(j) else "l" for j in columns)
        begin = [r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%", rf"\begin{{tabular}}{{{spec}}}"]
        end = r"\end{tabular}}"
    else:
        spec = "".join("r" if block.is_numeric(j) else r">{\RaggedRight\arraybackslash}X" for j in columns)
        begin, end = [rf"\begin{{tabularx}}{{\linewidth}}{{{spec}}}"], r"\end{tabularx}"
    body = [" & ".join(latex_escape(cell.text) for cell in row) + r" \\" for row in block.rows]
    notes = "".join(rf"\par\smallskip\footnotesize {latex_escape(note)}" for note in block.notes)
    return "\n".join(
        [
            r"\begin{table}[htbp]\centering\footnotesize",
            rf"\caption{{{latex_escape(block.caption)}}}",
            r"\setlength{\tabcolsep}{3pt}",
            *begin,
            r"\toprule",
            " & ".join(rf"\textbf{{{latex_escape(text)}}}" for text in block.header) + r" \\",
            r"\midrule",
            *body,
            r"\bottomrule",
            end,
            notes,
            r"\end{table}",
        ]
    )


def compile_pdf(latex: str, charts: dict[str, bytes]) -> bytes:
    """The PDF pdflatex makes of ``latex`` (one run: captions are numbered as they are met, nothing refers
    ahead), with the chart files beside it; :class:`ReportUnavailable` when pdflatex is not installed or fails."""
    pdflatex = shutil.which("pdflatex")
    if pdflatex is None:
        raise ReportUnavailable("pdflatex is not installed (make test-tools installs TeX Live), so no PDF is written")
    with tempfile.TemporaryDirectory(prefix="report-") as directory:
        folder = Path(directory)
        (folder / "report.tex").write_text(latex, encoding="utf-8")
        for name, content in charts.items():
            (folder / name).write_bytes(content)
        done = subprocess.run(
            [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "report.tex"],
            cwd=folder,
            capture_output=True,
            timeout=LATEX_TIMEOUT_SECONDS,
            check=False,
        )
        if done.returncode != 0:
            log = done.stdout.decode("utf-8", "replace")
            errors = [line for line in log.splitlines() if line.startswith("!")]
            raise ReportUnavailable(f"pdflatex could not compile the report: {'; '.join(errors[:3]) or 'see its log'}")
        return (folder / "report.pdf").read_bytes()


# -- HTML and Markdown -----------------------------------------------------------------------------

HTML_STYLE = """body{font-family:Georgia,serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.85rem}th,td{border-bottom:1px solid #999;padding:.2rem .5rem;
text-align:left;vertical-align:top}td.num{text-align:right}caption,figcaption{font-style:italic;text-align:left}
img{max-width:100%}.box{border:1px solid #333;padding:.5rem 1rem;margin:1rem 0}.note{font-size:.8rem}"""


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
