"""How a report's LaTeX will fall on the page, estimated before pdflatex runs: each table column's width on a
portrait or a landscape A4 page (from Computer Modern's character widths), the height of a table, a box, a
chart or a heading, so that a table too wide for the page is set landscape, a short table is kept whole and a
heading stays on the page of what it opens."""

import math
import re

from .document import Block, Box, Figure, Heading, Paragraph, TableBlock
from .formats_latex import DIGEST_BREAK_EVERY


def is_landscape(block: Block | None) -> bool:
    """Whether ``block`` is a table too wide for a portrait page even with its text wrapped."""
    return isinstance(block, TableBlock) and _column_widths(block, PORTRAIT_WIDTH_PT) is None


# The room a heading keeps on its page for what follows it: the heading itself (its font and the space
# around it) and a chart (at the text width, 1890 x 1050 px, and its caption), a table kept whole or its
# caption, header and first rows, a box kept whole, the next heading with what it keeps, or lines of text.
HEADING_PT = {1: 50.0, 2: 38.0, 3: 32.0}
FIGURE_PT = 0.62 * 470.0
# The body's 11 pt text on 13.6 pt lines, some 85 characters to a line.
_TEXT_LINE_PT, _TEXT_CHARS_PER_LINE = 13.6, 85
TEXT_PT = 6 * _TEXT_LINE_PT
# Never more than most of a landscape page's text height (A4's width less both margins): a heading is not
# moved to a page of its own.
KEEP_AT_MOST_PT = 0.8 * (595.28 - 2 * 62.36)


def room_after_heading_pt(block: Heading, following: list[Block]) -> float:
    return HEADING_PT[block.level] + _opening_pt(following)


def _opening_pt(following: list[Block]) -> float:
    """The height of what opens a section, kept on its heading's page: a chart, a table kept whole (else its
    first rows), a box kept whole, a heading with what opens its own section, a sentence introducing one of
    these with it, else the first lines of text."""
    after = following[0] if following else None
    if isinstance(after, Heading):
        return HEADING_PT[after.level] + _opening_pt(following[1:])
    if isinstance(after, Figure):
        return FIGURE_PT
    if isinstance(after, TableBlock):
        return _table_height_pt(after, rows=min(len(after.rows), _kept_rows(after)))
    if isinstance(after, Box):
        height = box_height_pt(after)
        return height if height <= BOX_WHOLE_AT_MOST_PT else TEXT_PT
    if isinstance(after, Paragraph) and isinstance(following[1] if len(following) > 1 else None, Figure | TableBlock):
        lines = math.ceil(len(after.text) / _TEXT_CHARS_PER_LINE)
        return lines * _TEXT_LINE_PT + _opening_pt(following[1:])
    return TEXT_PT


# A box is kept whole up to most of a portrait page's text height (A4 less both margins).
BOX_WHOLE_AT_MOST_PT = 0.85 * (841.89 - 2 * 62.36)
# The box's text: 11 pt on 13.6 pt lines, an item indented 25 pt of the 470 pt text width (a character is
# taken as 0.5 em, a little generous), 7 pt between items; its title, rules and the space around it 64 pt.
_BOX_LINE_PT, _BOX_CHARS_PER_LINE, _BOX_ITEM_SEP_PT, _BOX_FRAME_PT = 13.6, 80, 7.0, 64.0


def box_height_pt(block: Box) -> float:
    """An upper estimate of the box's height on the page."""
    lines = sum(max(1, math.ceil(len(line) / _BOX_CHARS_PER_LINE)) for line in block.lines)
    return _BOX_FRAME_PT + lines * _BOX_LINE_PT + len(block.lines) * _BOX_ITEM_SEP_PT


# Tables are set at 9 pt (\footnotesize of an 11 pt document) with 3 pt either side of a column, on an A4
# page less 2.2 cm margins: 470 pt of text width, 717 pt landscape; a little is kept spare for the
# estimates of the text's width.
TABLE_FONT_PT = 9.0
COLUMN_PADDING_PT = 6.0
PORTRAIT_WIDTH_PT = 462.0
LANDSCAPE_WIDTH_PT = 705.0


def table_widths(block: TableBlock) -> list[float]:
    """Each column's width: on a portrait page, else on a landscape one, else its longest word."""
    return _column_widths(block, PORTRAIT_WIDTH_PT) or _column_widths(block, LANDSCAPE_WIDTH_PT) or _narrowest(block)


# A table of up to this many rows, taking up to half a page, is never broken across pages (it moves to the
# next page whole); a longer one never leaves its first row alone at the foot of a page or its last alone at
# the head of the next.
KEEP_WHOLE_ROWS = 12
KEEP_WHOLE_AT_MOST_PT = 0.5 * (841.89 - 2 * 62.36)


def kept_whole(block: TableBlock) -> bool:
    """Whether the table is never broken across pages: a few rows, in less than half a page (twelve rows of
    wrapped cells, a provenance table's, may take most of one: they break with the header repeated)."""
    rows = len(block.rows)
    return rows <= KEEP_WHOLE_ROWS and _table_height_pt(block, rows=rows) <= KEEP_WHOLE_AT_MOST_PT


def _kept_rows(block: TableBlock) -> int:
    """How many of the table's first rows stand on one page: all of a table kept whole, else the first two."""
    return len(block.rows) if kept_whole(block) else 2


# A table's lines are 11 pt apart (\footnotesize), its rows 3 pt more where they are set apart (\arraystretch);
# its caption, rules and the space around it 64 pt.
_TABLE_LINE_PT, _TABLE_ROW_PT, _TABLE_FRAME_PT = 11.0, 3.0, 64.0


def _table_height_pt(block: TableBlock, *, rows: int) -> float:
    """An upper estimate of the height of the table's caption, header and first ``rows`` rows, each row as
    many lines as its most wrapped cell."""
    header, *lines = _row_lines(block)
    spaced = _TABLE_ROW_PT if rows_spaced(block) else 0.0
    return _TABLE_FRAME_PT + (header + sum(lines[:rows])) * _TABLE_LINE_PT + (rows + 1) * spaced


def _row_lines(block: TableBlock) -> list[int]:
    """How many lines the header and each row take, as many as the most wrapped cell (an upper estimate)."""
    widths = table_widths(block)

    def lines(texts: tuple[str, ...], *, bold: bool) -> int:
        return max(
            max(1, math.ceil(_text_width_pt(text, bold=bold) / width)) if width else 1
            for text, width in zip(texts, widths, strict=True)
        )

    return [
        lines(block.header, bold=True),
        *(lines(tuple(cell.text for cell in row), bold=False) for row in block.rows),
    ]


def rows_spaced(block: TableBlock) -> bool:
    """Whether the table's rows are set a little apart: where a row wraps, so that its lines read as one."""
    return any(lines > 1 for lines in _row_lines(block)[1:])


def _column_widths(block: TableBlock, available_pt: float) -> list[float] | None:
    """Each column's width (less its padding) in points: its widest cell where the table fits
    ``available_pt`` so, else its longest word and a share of what is left, the cells' text before the
    headers' (a header wraps onto a few lines before a cell does); None when even the longest words do not
    fit."""
    naturals, narrowest = _natural(block), _narrowest(block)
    room = available_pt - COLUMN_PADDING_PT * len(naturals)
    if sum(naturals) <= room:
        return naturals
    if sum(narrowest) > room:
        return None
    cells = [max(low, cell) for low, cell in zip(narrowest, _widest_cells(block), strict=True)]
    widths = _grown(narrowest, cells, room)
    return _grown(widths, naturals, room) if sum(cells) < room else widths


def _grown(widths: list[float], wanted: list[float], room: float) -> list[float]:
    """``widths`` grown towards ``wanted`` with what is left of ``room``: first, whole, the columns that need
    least, the rest shared by the others in proportion to what they lack."""
    widths, spare = list(widths), room - sum(widths)
    lacking = sorted(range(len(widths)), key=lambda j: wanted[j] - widths[j])
    while lacking and wanted[lacking[0]] - widths[lacking[0]] <= spare / len(lacking):
        column = lacking.pop(0)
        spare -= wanted[column] - widths[column]
        widths[column] = wanted[column]
    lack = sum(wanted[j] - widths[j] for j in lacking)
    grown = [spare * (wanted[j] - widths[j]) / lack if j in lacking else 0.0 for j in range(len(widths))]
    return [width + more for width, more in zip(widths, grown, strict=True)]


# A header is set on up to this many lines before a cell below it wraps.
HEADER_LINES = 2


def _widest_cells(block: TableBlock) -> list[float]:
    """Each column's widest cell, and its header set on :data:`HEADER_LINES` lines."""
    return [
        max(
            _text_width_pt(block.header[j], bold=True) / HEADER_LINES,
            *(_text_width_pt(row[j].text, bold=False) for row in block.rows),
        )
        for j in range(len(block.header))
    ]


def _column_texts(block: TableBlock, column: int) -> list[tuple[str, bool]]:
    """The texts of ``column``: its header (bold) and its cells."""
    return [(block.header[column], True), *((row[column].text, False) for row in block.rows)]


def _natural(block: TableBlock) -> list[float]:
    return [
        max(_text_width_pt(text, bold=bold) for text, bold in _column_texts(block, j)) for j in range(len(block.header))
    ]


# A cell of up to this many characters is never wrapped ("60 HDDs", "8 drives", "run 238").
SHORT_CELL_CHARS = 10


def _narrowest(block: TableBlock) -> list[float]:
    """Each column's longest word (a figure or a short cell whole, never wrapped; a sha256 by its 16-digit
    parts, a file name at its underscores)."""
    widths = []
    for j in range(len(block.header)):
        words = [(word, bold) for text, bold in _column_texts(block, j) for word in _words(text)]
        words += [
            (row[j].text, False) for row in block.rows if block.is_numeric(j) or len(row[j].text) <= SHORT_CELL_CHARS
        ]
        widths.append(max((_text_width_pt(word, bold=bold) for word, bold in words), default=0.0))
    return widths


def _words(text: str) -> list[str]:
    words = []
    for word in text.split():
        if re.fullmatch("[0-9a-f]{64}", word):
            words += [word[i : i + DIGEST_BREAK_EVERY] for i in range(0, len(word), DIGEST_BREAK_EVERY)]
        else:
            words += [part for part in re.split("(?<=_)", word) if part]
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
