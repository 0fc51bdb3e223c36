"""The report read with the standard library's HTML tokenizer, never rendered: its sections, label/value
fields and grids, with the line each was found on."""

import re
from html.parser import HTMLParser

from ...errors import ParseError
from ...source import Source

_CHUNK_CHARS = 1 << 16
# Tags that only format text inside a cell; any other tag in a cell is kept as literal text.
_TEXT_TAGS = {
    "a", "abbr", "b", "big", "br", "center", "code", "div", "em", "font", "i", "label", "nobr", "p",
    "small", "span", "strong", "sub", "sup", "tt", "u", "wbr",
}  # fmt: skip
_BLOCK_TAGS = {"br", "div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "body", "hr", "caption"}
# Section titles as _label_key gives them ("Transactional I/O Performance" -> "i o performance").
_MAIN_GRIDS = ("i o performance", "disk subsystem performance")
_SECTIONS = (
    "test summary",
    "database sizing and throughput",
    "jetstress system parameters",
    "database configuration",
    "i o performance",
    "disk subsystem performance",
    "background database maintenance i o performance",
    "log replication i o performance",
    "total i o performance",
    "host system performance",
    "test log",
)
_LONGEST_SECTION_TITLE = 60
# Fields that become the run's name, verdict, load or point figures rather than params.
_FIELDS_ELSEWHERE = (
    "overall_test_result",
    "test_description",
    "thread_count",
    "achieved_i_o_per_second",
    "target_i_o_per_second",
)
# A table cell (text, is_header); a label/value field (label, value, line, section); a grid (section,
# header line, header, rows of (line, cells)); a grid row by column (figures, or text where no figure).
_Cell = tuple[str, bool]
_Field = tuple[str, str, int, str | None]
_Grid = tuple[str | None, int, list[str], list[tuple[int, list[str]]]]
# What the report reader found, in order: ("text", text, line) outside tables, ("table", table).
_Item = tuple[str, "_Table"] | tuple[str, str, int]


def _label_key(text: str) -> str:
    """Words of a label, lower case, without 'Transactional' or a parenthesised unit."""
    text = re.sub(r"\([^)]*\)", " ", text.lower()).replace("transactional", " ")
    return " ".join(re.sub(r"[^a-z0-9%]+", " ", text).split())


def _snake(text: str) -> str:
    return _label_key(text).replace("%", "pct").replace(" ", "_")


class _Table:
    def __init__(self, line: int) -> None:
        self.line = line
        self.rows: list[tuple[int, list[_Cell]]] = []  # (line, cells)
        self.cell: tuple[list[str], bool] | None = None  # (parts, is_header) while inside a cell


class _ReportReader(HTMLParser):
    """Turns the report into a list of ``("text", text, line)`` and ``("table", table)`` items."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[_Item] = []
        self.scripts_outside_tables = 0
        self._tables: list[_Table] = []
        self._text: list[tuple[str, int]] = []
        self._raw_depth = 0  # inside <script>/<style> outside a cell
        self._pre = False
        # Where a cut report shows: the line of a table still open at the end, the closing </html>.
        self.unclosed_table_line: int | None = None
        self.ended = False

    def _cell(self) -> tuple[list[str], bool] | None:
        return self._tables[-1].cell if self._tables else None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        cell = self._cell()
        if cell is not None and tag not in ("td", "th", "tr", "table"):
            self._cell_tag(cell, tag, self.get_starttag_text() or "")
            return
        if tag in ("script", "style"):
            self._raw_depth += 1
            if tag == "script":
                self.scripts_outside_tables += 1
        elif tag == "table":
            self._flush_text()
            self._tables.append(_Table(self.getpos()[0]))
        elif tag == "tr" and self._tables:
            self._close_cell()
            self._tables[-1].rows.append((self.getpos()[0], []))
        elif tag in ("td", "th") and self._tables:
            self._open_cell(tag)
        elif tag in _BLOCK_TAGS:
            self._flush_text()
            self._pre = self._pre or tag == "pre"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        cell = self._cell()
        if cell is not None:
            self._cell_tag(cell, tag, self.get_starttag_text() or "")
        elif tag in _BLOCK_TAGS:
            self._flush_text()

    def handle_endtag(self, tag: str) -> None:
        cell = self._cell()
        if cell is not None and tag not in ("td", "th", "tr", "table"):
            if tag not in _TEXT_TAGS:
                cell[0].append(f"</{tag}>")
            return
        if tag in ("script", "style"):
            self._raw_depth = max(0, self._raw_depth - 1)
        elif tag == "html":
            self.ended = True
        elif tag == "table" and self._tables:
            self._close_cell()
            self.items.append(("table", self._tables.pop()))
        elif tag in ("td", "th", "tr"):
            self._close_cell()
        elif tag in _BLOCK_TAGS:
            self._flush_text()
            self._pre = self._pre and tag != "pre"

    def handle_data(self, data: str) -> None:
        cell = self._cell()
        if cell is not None:
            cell[0].append(data)
        elif not self._raw_depth and not self._tables:
            self._text.append((data, self.getpos()[0]))

    def close(self) -> None:
        super().close()
        if self._tables:
            self.unclosed_table_line = self._tables[0].line
        while self._tables:
            self._close_cell()
            self.items.append(("table", self._tables.pop()))
        self._flush_text()

    def _cell_tag(self, cell: tuple[list[str], bool], tag: str, raw: str) -> None:
        if tag == "br":
            cell[0].append(" ")
        elif tag not in _TEXT_TAGS:
            cell[0].append(raw)

    def _open_cell(self, tag: str) -> None:
        self._close_cell()
        table = self._tables[-1]
        if not table.rows:
            table.rows.append((self.getpos()[0], []))
        table.cell = ([], tag == "th")

    def _close_cell(self) -> None:
        table = self._tables[-1] if self._tables else None
        if table is None or table.cell is None:
            return
        parts, is_header = table.cell
        table.rows[-1][1].append((" ".join("".join(parts).split()), is_header))
        table.cell = None

    def _flush_text(self) -> None:
        if not self._text:
            return
        line = self._text[0][1]
        text = "".join(data for data, _ in self._text)
        self._text = []
        pieces = text.splitlines() if self._pre else [text]
        for piece in pieces:
            if piece.strip():
                self.items.append(("text", " ".join(piece.split()), line))


def _read_items(source: Source) -> _ReportReader:
    reader = _ReportReader()
    with source.open_text() as stream:
        for chunk in iter(lambda: stream.read(_CHUNK_CHARS), ""):
            reader.feed(chunk)
    reader.close()
    if reader.unclosed_table_line is not None:
        raise ParseError(
            f"the report stops inside the table that starts on line {reader.unclosed_table_line}: the file is "
            "cut short; save the complete report Jetstress wrote",
            line=reader.getpos()[0],
        )
    return reader


def _cut_short_warning(name: str, reader: _ReportReader) -> list[str]:
    """A report that ends outside a table but before </html> lost its last sections (often the test log)."""
    if reader.ended:
        return []
    line = reader.getpos()[0]
    return [
        f"{name}:{line}: the report stops at line {line} without its closing </html>: it may be cut short, and "
        "the sections after that line (often the test log) are missing"
    ]


def _section_of(text: str) -> str | None:
    if len(text) > _LONGEST_SECTION_TITLE:
        return None
    key = _label_key(text)
    return key if key in _SECTIONS else None


class _Report:
    """The report's content: label/value fields per section, grids per section, the test log."""

    def __init__(self) -> None:
        self.fields: dict[str, _Field] = {}  # label key -> (label, value, line, section)
        self.sections: dict[str, dict[str, str]] = {}  # section -> {label: value}
        self.grids: list[_Grid] = []  # (section, line, header, rows[(line, cells)])
        self.test_log: list[str] = []
        self.warnings: list[str] = []


def _collect(items: list[_Item]) -> _Report:
    report = _Report()
    section = None
    for item in items:
        if len(item) == 3:  # ("text", text, line)
            title = _section_of(item[1])
            if title:
                section = title
            elif section == "test log":
                report.test_log.append(item[1])
        else:
            section = _collect_table(item[1], section, report)
    return report


def _collect_table(table: _Table, section: str | None, report: _Report) -> str | None:
    grid: tuple[int, list[str], list[tuple[int, list[str]]]] | None = None  # header line, header, rows
    for line, cells in table.rows:
        texts = [text for text, _ in cells]
        filled = [text for text in texts if text]
        if not filled:
            continue
        if len(filled) == 1 and _section_of(filled[0]):
            _finish_grid(report, section, grid)
            grid = None
            section = _section_of(filled[0])
        elif section == "test log":
            report.test_log.append(" ".join(filled))
        elif grid is None and (len(cells) >= 3 or (len(cells) == 2 and all(h for _, h in cells))):
            grid = (line, texts, [])
        elif grid is not None:
            grid[2].append((line, texts))
        elif len(cells) == 2:
            _add_field(report, section, texts, line)
        else:
            report.warnings.append(f"line {line}: table row not read: {' | '.join(texts)!r}")
    _finish_grid(report, section, grid)
    return section


def _finish_grid(
    report: _Report, section: str | None, grid: tuple[int, list[str], list[tuple[int, list[str]]]] | None
) -> None:
    if grid is not None:
        report.grids.append((section, *grid))


def _add_field(report: _Report, section: str | None, texts: list[str], line: int) -> None:
    label, value = texts
    report.sections.setdefault(section or "report", {})[label] = value
    report.fields.setdefault(_label_key(label), (label, value, line, section))


def _field(report: _Report, *keys: str) -> _Field | None:
    for key in keys:
        if key in report.fields:
            return report.fields[key]
    return None
