"""A report written as LaTeX and compiled to PDF by pdflatex: longtables with their header repeated, tables
too wide for the text set landscape, charts as vector PDF.
"""

import itertools
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .document import Block, Box, Figure, Heading, Report, TableBlock
from .formats import DIGEST_BREAK_EVERY, latex_escape
from .render import ReportUnavailable, numbered

LATEX_TIMEOUT_SECONDS = 60


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
\setlength{\LTcapwidth}{\linewidth}
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
            chunks.append((_latex_heading(block, after), _is_landscape(after)))
        elif isinstance(block, Figure):
            chunks.append((_latex_figure(block, next(charts)), False))
        elif isinstance(block, TableBlock):
            chunks.append((_latex_table(block), _is_landscape(block)))
        elif isinstance(block, Box):
            chunks.append((_latex_box(block), False))
        else:
            chunks.append((latex_escape(block.text) + "\n", False))
    for landscape, group in itertools.groupby(chunks, key=lambda chunk: chunk[1]):
        texts = [text for text, _ in group]
        lines += [r"\begin{landscape}", *texts, r"\end{landscape}"] if landscape else texts
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


def _latex_heading(block: Heading, after: Block | None) -> str:
    commands = {1: "section", 2: "subsection", 3: "subsubsection"}
    keep = _KEEP_WITH_HEADING.get(type(after), KEEP_WITH_TEXT)
    return rf"\keepspace{{{keep}}}" + "\n" + rf"\{commands[block.level]}{{{latex_escape(block.text)}}}"


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


def _is_landscape(block: Block | None) -> bool:
    """Whether ``block`` is a table too wide for a portrait page even with its text wrapped."""
    return isinstance(block, TableBlock) and _column_widths(block, PORTRAIT_WIDTH_PT) is None


# The room a heading keeps on its page for what follows it: a chart (at the text width, 1890 x 1050 px,
# and its caption), else the first rows of a table or lines of text.
_KEEP_WITH_HEADING: dict[type, str] = {Figure: r"0.62\linewidth"}
KEEP_WITH_TEXT = r"6\baselineskip"


def _latex_box(block: Box) -> str:
    """A "lessons learned" box between two rules, free to break across pages however long it is."""
    items = "\n".join(rf"\item {latex_escape(line)}" for line in block.lines)
    return "\n".join(
        [
            r"\par\medskip\noindent\rule{\linewidth}{0.4pt}\par\nopagebreak",
            rf"\noindent\textbf{{{latex_escape(block.title)}}}\nopagebreak",
            rf"\begin{{itemize}}{items}\end{{itemize}}",
            r"\nopagebreak\noindent\rule{\linewidth}{0.4pt}\par\medskip",
        ]
    )


# Tables are set at 9 pt (\footnotesize of an 11 pt document) with 3 pt either side of a column, on an A4
# page less 2.2 cm margins: 470 pt of text width, 717 pt landscape; a little is kept spare for the
# estimates of the text's width.
TABLE_FONT_PT = 9.0
COLUMN_PADDING_PT = 6.0
PORTRAIT_WIDTH_PT = 462.0
LANDSCAPE_WIDTH_PT = 705.0


def _latex_table(block: TableBlock) -> str:
    """A booktabs longtable: it breaks across pages, its caption and header on the first, its header again
    on the next with "continued"; each column as wide as its text, text columns wrapping where the page
    is narrower; a table too wide for the page even then is set landscape; never shrunk."""
    widths = _column_widths(block, PORTRAIT_WIDTH_PT) or _column_widths(block, LANDSCAPE_WIDTH_PT) or _narrowest(block)
    spec = "".join(
        (r">{\raggedleft\arraybackslash}" if block.is_numeric(j) else r">{\RaggedRight\arraybackslash}")
        + f"p{{{width:.1f}pt}}"
        for j, width in enumerate(widths)
    )
    count = len(block.header)
    header = " & ".join(rf"\textbf{{{latex_escape(text)}}}" for text in block.header) + r" \\"
    body = [
        " & ".join(latex_escape(cell.text) for cell in row) + _row_end(index, len(block.rows))
        for index, row in enumerate(block.rows)
    ]
    notes = [rf"{latex_escape(note)}\par" for note in block.notes]
    table = [
        r"\begingroup\footnotesize\setlength{\tabcolsep}{3pt}\setlength{\LTpost}{2pt}",
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


# A table of up to this many rows is never broken across pages (it moves to the next page whole); a longer
# one never leaves its first row alone at the foot of a page or its last alone at the head of the next.
KEEP_WHOLE_ROWS = 12


def _row_end(index: int, count: int) -> str:
    """The end of row ``index`` of ``count``: ``\\*`` (no page break after it) where a break would leave a
    short table split or a row alone, else ``\\``."""
    keep = count <= KEEP_WHOLE_ROWS or index == 0 or index == count - 2
    return r" \\*" if keep else r" \\"


def _column_widths(block: TableBlock, available_pt: float) -> list[float] | None:
    """Each column's width (less its padding) in points: its widest cell where the table fits
    ``available_pt`` so, else its longest word and a share of what is left; None when even the longest
    words do not fit."""
    naturals, narrowest = _natural(block), _narrowest(block)
    room = available_pt - COLUMN_PADDING_PT * len(naturals)
    if sum(naturals) <= room:
        return naturals
    if sum(narrowest) > room:
        return None
    # Each column starts at its longest word; what is left goes first, whole, to the columns that need
    # least to reach their widest cell, the rest shared by the others in proportion to what they lack.
    widths, spare = list(narrowest), room - sum(narrowest)
    lacking = sorted(range(len(widths)), key=lambda j: naturals[j] - narrowest[j])
    while lacking and naturals[lacking[0]] - narrowest[lacking[0]] <= spare / len(lacking):
        column = lacking.pop(0)
        spare -= naturals[column] - narrowest[column]
        widths[column] = naturals[column]
    lack = sum(naturals[j] - narrowest[j] for j in lacking)
    for column in lacking:
        widths[column] += spare * (naturals[column] - narrowest[column]) / lack
    return widths


def _column_texts(block: TableBlock, column: int) -> list[tuple[str, bool]]:
    """The texts of ``column``: its header (bold) and its cells."""
    return [(block.header[column], True), *((row[column].text, False) for row in block.rows)]


def _natural(block: TableBlock) -> list[float]:
    return [
        max(_text_width_pt(text, bold=bold) for text, bold in _column_texts(block, j)) for j in range(len(block.header))
    ]


def _narrowest(block: TableBlock) -> list[float]:
    """Each column's longest word (a figure whole, never wrapped; a sha256 by its 16-digit parts)."""
    widths = []
    for j in range(len(block.header)):
        words = [(word, bold) for text, bold in _column_texts(block, j) for word in _words(text)]
        if block.is_numeric(j):
            words += [(row[j].text, False) for row in block.rows]
        widths.append(max((_text_width_pt(word, bold=bold) for word, bold in words), default=0.0))
    return widths


def _words(text: str) -> list[str]:
    words = []
    for word in text.split():
        step = DIGEST_BREAK_EVERY if re.fullmatch("[0-9a-f]{64}", word) else len(word) or 1
        words += [word[i : i + step] for i in range(0, len(word), step)]
    return words


# Widths of Computer Modern's characters in em, a little generous; what is not listed is taken as wide
# as an "M".
_NARROW_EM, _NARROW = 0.32, set("ijlt.,;:'!|()[]/ ")
_MIDDLE_EM, _MIDDLE = 0.56, set("abcdeghknopqrsuvxyz0123456789fr-$%*+=?")
_CAPITAL_EM, _WIDE_EM = 0.85, 1.1


def _char_em(char: str) -> float:
    if char in _NARROW:
        return _NARROW_EM
    if char in _MIDDLE:
        return _MIDDLE_EM
    return _CAPITAL_EM if char.isupper() and char not in "MW" else _WIDE_EM


def _text_width_pt(text: str, *, bold: bool) -> float:
    """An upper estimate of ``text``'s width at the table's font; a sha256 is set fixed-width."""
    if re.fullmatch("[0-9a-f]{16,64}", text):
        return len(text) * 0.53 * TABLE_FONT_PT
    ems = sum(
        _NARROW_EM
        if char in _NARROW
        else _MIDDLE_EM
        if char in _MIDDLE
        else _CAPITAL_EM
        if char.isupper()
        else _WIDE_EM
        for char in text
    )
    return ems * TABLE_FONT_PT * (1.15 if bold else 1.0)


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
