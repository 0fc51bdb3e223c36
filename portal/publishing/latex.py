"""A report written as LaTeX for pdflatex: longtables with their header repeated, tables too wide for the text
set landscape, charts as vector PDF. Where things fall on the page is estimated in
:mod:`portal.publishing.latex_layout`; the PDF is compiled by :mod:`portal.publishing.latex_compile`.
"""

import itertools

from .document import Block, Box, Figure, Heading, Report, TableBlock
from .formats_latex import latex_escape
from .latex_layout import (
    BOX_WHOLE_AT_MOST_PT,
    KEEP_AT_MOST_PT,
    box_height_pt,
    is_landscape,
    kept_whole,
    room_after_heading_pt,
    rows_spaced,
    table_widths,
)
from .render import numbered

LATEX_PREAMBLE = r"""\documentclass[11pt,a4paper]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{textcomp}
% Latin Modern: outline fonts whose text (ligatures too) pdftotext and a reader's copy read back.
\IfFileExists{lmodern.sty}{\usepackage{lmodern}}{}
\usepackage[margin=2.2cm]{geometry}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{array}
\usepackage{longtable}
\usepackage{float}
\usepackage{pdflscape}
\usepackage{ragged2e}
\DeclareUnicodeCharacter{2013}{--}
\DeclareUnicodeCharacter{00B7}{\textperiodcentered}
% A table's caption as wide as the text (\linewidth is the page's only from \begin{document} on).
\AtBeginDocument{\setlength{\LTcapwidth}{\linewidth}}
% Paragraphs apart, not indented: a sentence after a table or chart starts at the margin.
\setlength{\parindent}{0pt}
\setlength{\parskip}{4pt plus 1pt}
% A page break before what follows unless #1 of the page is left (needspace's way): a heading is never
% left alone at the foot of a page, away from its chart or table.
\makeatletter
\newcommand{\keepspace}[1]{\par\begingroup\setlength{\dimen@}{#1}\vskip\z@\@plus\dimen@\penalty-100
\vskip\z@\@plus-\dimen@\vskip\dimen@\penalty9999\vskip-\dimen@\vskip\z@skip\endgroup}
\makeatother
"""


def render_latex(report: Report, chart_files: list[str]) -> str:
    """A LaTeX document laid out for print: each chart (a vector PDF named by ``chart_files``) and table
    where its section has it, tables as booktabs longtables that break across pages with their header
    repeated, at 9 pt, landscape when too wide for the page; headings with nothing under them left out."""
    lines = [LATEX_PREAMBLE]
    lines.append(rf"\title{{{latex_escape(report.title)}}}")
    lines.append(rf"\author{{{latex_escape(report.author)}}}")
    lines.append(rf"\date{{{latex_escape(report.date)}}}")
    lines += [r"\begin{document}", r"\maketitle", r"\begin{abstract}", latex_escape(report.abstract), r"\end{abstract}"]
    charts = iter(chart_files)
    blocks = [block for block, _ in numbered(report)]
    # Each block's LaTeX, and whether it is set on a landscape page: a wide table, and the headings just
    # before it, which go with it.
    chunks: list[tuple[str, bool]] = []
    for index, block in enumerate(blocks):
        after = blocks[index + 1] if index + 1 < len(blocks) else None
        if isinstance(block, Heading):
            under = index > 0 and isinstance(blocks[index - 1], Heading)
            chunks.append((_latex_heading(block, blocks[index + 1 :], under=under), is_landscape(after)))
        elif isinstance(block, Figure):
            chunks.append((_latex_figure(block, next(charts)), False))
        elif isinstance(block, TableBlock):
            chunks.append((_latex_table(block), is_landscape(block)))
        elif isinstance(block, Box):
            chunks.append((_latex_box(block), False))
        else:
            chunks.append((latex_escape(block.text) + "\n", False))
    for landscape, group in itertools.groupby(chunks, key=lambda chunk: chunk[1]):
        texts = [text for text, _ in group]
        lines += [r"\begin{landscape}", *texts, r"\end{landscape}"] if landscape else texts
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


def _latex_heading(block: Heading, following: list[Block], *, under: bool) -> str:
    """The heading, after a page break where what must stand with it on its page does not fit
    (:func:`room_after_heading_pt`). One just ``under`` another heading offers no break of its own: the heading
    above kept the room for both, and a break there would leave it alone at the foot of a page."""
    commands = {1: "section", 2: "subsection", 3: "subsubsection"}
    heading = rf"\{commands[block.level]}{{{latex_escape(block.text)}}}"
    if under:
        return heading
    room = min(room_after_heading_pt(block, following), KEEP_AT_MOST_PT)
    return rf"\keepspace{{{room:.0f}pt}}" + "\n" + heading


def _latex_figure(block: Figure, chart_file: str) -> str:
    """The chart where its section has it ([H]), at the text width."""
    return "\n".join(
        [
            r"\begin{figure}[H]\centering",
            rf"\includegraphics[width=\linewidth]{{{chart_file}}}",
            rf"\caption{{{latex_escape(block.caption)}}}",
            r"\end{figure}",
        ]
    )


def _latex_box(block: Box) -> str:
    """A "lessons learned" or "not compared" box between two rules, kept whole on one page (a minipage); one
    too long for a page breaks between its sentences, its rules kept with its first and last."""
    items = "\n".join(rf"\item {latex_escape(line)}" for line in block.lines)
    title = rf"\noindent\textbf{{{latex_escape(block.title)}}}\par"
    top = [r"\noindent\rule{\linewidth}{0.4pt}\par\nopagebreak", title]
    body = [rf"\begin{{itemize}}{items}\end{{itemize}}", r"\nopagebreak\noindent\rule{\linewidth}{0.4pt}"]
    if box_height_pt(block) > BOX_WHOLE_AT_MOST_PT:
        return "\n".join([r"\par\medskip", *top, "\\nopagebreak", *body, r"\par\medskip"])
    return "\n".join([r"\par\medskip\noindent\begin{minipage}{\linewidth}", *top, *body, r"\end{minipage}\par\medskip"])


def _latex_table(block: TableBlock) -> str:
    """A booktabs longtable: it breaks across pages, its caption and header on the first, its header again
    on the next with "continued"; each column as wide as its text, text columns wrapping where the page
    is narrower; a table too wide for the page even then is set landscape; never shrunk."""
    widths = table_widths(block)
    whole = kept_whole(block)
    spec = "".join(
        (r">{\raggedleft\arraybackslash}" if block.is_numeric(j) else r">{\RaggedRight\arraybackslash}")
        + f"p{{{width:.1f}pt}}"
        for j, width in enumerate(widths)
    )
    count = len(block.header)
    header = " & ".join(rf"\textbf{{{latex_escape(text)}}}" for text in block.header) + r" \\"
    body = [
        " & ".join(_latex_cell(cell.text) for cell in row) + _row_end(index, len(block.rows), whole=whole)
        for index, row in enumerate(block.rows)
    ]
    notes = [rf"{latex_escape(note)}\par" for note in block.notes]
    table = [
        # No word hyphenated in a table (a column is as wide as its longest word): a header or a name wraps
        # between words. Rows a little apart where one wraps, so that its lines read as one row.
        r"\begingroup\footnotesize\setlength{\tabcolsep}{3pt}\setlength{\LTpost}{2pt}\hyphenpenalty=10000",
        *([r"\renewcommand{\arraystretch}{1.2}"] if rows_spaced(block) else []),
        rf"\begin{{longtable}}{{{spec}}}",
        rf"\caption{{{latex_escape(block.caption)}}}\\",
        r"\toprule",
        header,
        r"\midrule",
        r"\endfirsthead",
        rf"\multicolumn{{{count}}}{{l}}{{\itshape Table \thetable{{}}, continued}} \\",
        r"\toprule",
        header,
        r"\midrule",
        r"\endhead",
        r"\midrule",
        rf"\multicolumn{{{count}}}{{r}}{{\itshape continued on the next page}} \\",
        r"\endfoot",
        r"\bottomrule",
        r"\endlastfoot",
        *body,
        r"\end{longtable}",
        *notes,
        r"\endgroup\medskip",
    ]
    return "\n".join(table)


def _latex_cell(text: str) -> str:
    """A cell's text, free to break after an underscore (a file name as long as the column is wide)."""
    return latex_escape(text).replace(r"\_", r"\_\allowbreak{}")


def _row_end(index: int, count: int, *, whole: bool) -> str:
    """The end of row ``index`` of ``count``: ``\\*`` (no page break after it) where a break would split a
    table kept ``whole`` or leave a row alone, else ``\\``."""
    keep = whole or index == 0 or index == count - 2
    return r" \\*" if keep else r" \\"
