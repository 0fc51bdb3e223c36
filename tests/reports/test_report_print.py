"""The report PDF read as its reader reads it: every page rendered (pdftoppm) and its text read back
(pdftotext), for the demo report (IBM DS4500 vs IBM DS4400 at 20 ms), three fio systems and the
two firmware versions of one array: every provenance row, caption and heading is there; nothing is past
the margins, no line too wide for its box, no table below 8 pt; no heading alone at a page's foot, each
framed box whole on one page, no figure or run wrapped and no word hyphenated in a table.

The page is A4 (595 x 842 pt) with 2.2 cm (62.4 pt) margins, as the report's LaTeX sets it."""

import io
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from docx import Document

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison, multi_comparison
from portal.models import System
from portal.publishing.build import BuiltReport, build_report
from portal.publishing.content import ReportOptions
from portal.publishing.document import Block, Box, Cell, Figure, Heading, Paragraph, Report, TableBlock
from portal.publishing.formats_latex import latex_escape
from portal.publishing.latex import render_latex
from portal.publishing.latex_compile import compile_pdf
from portal.publishing.render import numbered
from tests.reports.test_report_kinds import FILES, uploaded

MARGIN_PT = 62.36  # 2.2 cm
# Slack for a glyph's box reaching past the line it is set on (an ascender, an italic's overhang).
SLACK_PT = 2.0
# The last line of a page sits on the text area's bottom and its depth may reach \maxdepth below it (half
# of \topskip: 5.5 pt in an 11 pt article), as on any page LaTeX sets.
MAX_DEPTH_PT = 5.5
# pdftotext's box of a Latin Modern word is 0.875 of its font size: the 11 pt body text's boxes are
# 9.6 pt tall, the 9 pt tables' 7.9 pt.
BOX_PER_FONT_PT = 0.875
SMALLEST_TABLE_FONT_PT = 8.0
# A chart is printed at the text width: A4's 595.28 pt less both margins.
TEXT_WIDTH_PT = 595.28 - 2 * MARGIN_PT
# pdftotext's box of a chart's word (Chromium's sans-serif, Liberation Sans here) is 1.1 of its font size:
# plotly's 12 px tick labels in a 900 px chart printed at 470 pt (6.27 pt) read back 6.94 pt tall.
CHART_BOX_PER_FONT_PT = 1.1
SMALLEST_CHART_FONT_PT = 8.0
# A heading's words read back taller than the body's (9.6 pt): a section's 14.4 pt, a subsection's 12 pt.
HEADING_BOX_PT = 10.0
# A box's rules run the text width; read at 72 dpi (a pixel a point), without anti-aliasing.
RULE_SHARE_OF_TEXT_WIDTH = 0.95
# A box's rule lies within this far above its title's words or below its last line's.
RULE_NEAR_PT = 30.0


@dataclass
class Word:
    page: int
    x_min: float
    y_min: float
    x_max: float
    y_max: float
    text: str


@dataclass
class ReadBack:
    text: str  # every page's text, as one line of words
    words: list[Word]
    pages: list[tuple[float, float]]  # each page's width and height as read (landscape pages turned)
    log: str  # pdflatex's
    latex: str
    rules: list[list[float]]  # each page's full-width rules: how far down the page (pt), as rendered


@dataclass
class Line:
    page: int
    y_min: float
    y_max: float
    words: list[Word]

    @property
    def text(self) -> str:
        return " ".join(word.text for word in self.words)


def read_back(built: BuiltReport, folder: Path) -> ReadBack:
    """The report's PDF compiled again from its .tex and charts (to keep pdflatex's log), its text and word
    boxes read by pdftotext, and every page rendered to PNG by pdftoppm."""
    folder.mkdir()
    latex = built.files["tex"].decode()
    (folder / "report.tex").write_text(latex)
    for name, image in built.charts.items():
        (folder / name).write_bytes(image)
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "report.tex"], cwd=folder, capture_output=True)
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-2000:]
    log = (folder / "report.log").read_text(errors="replace")
    text = subprocess.run(["pdftotext", "report.pdf", "-"], cwd=folder, capture_output=True, check=True).stdout
    boxes = subprocess.run(["pdftotext", "-bbox", "report.pdf", "-"], cwd=folder, capture_output=True, check=True)
    words, pages = _words(boxes.stdout.decode())
    subprocess.run(["pdftoppm", "-r", "50", "-png", "report.pdf", "page"], cwd=folder, check=True)
    rendered = sorted(folder.glob("page-*.png"))
    assert len(rendered) == len(pages) and all(png.stat().st_size > 1000 for png in rendered)
    grey = ["pdftoppm", "-r", "72", "-gray", "-aaVector", "no", "report.pdf", "grey"]
    subprocess.run(grey, cwd=folder, check=True)
    rules = [_full_width_rules(pgm.read_bytes()) for pgm in sorted(folder.glob("grey-*.pgm"))]
    assert len(rules) == len(pages)
    return ReadBack(" ".join(text.decode().split()), words, pages, log, latex, rules)


def _full_width_rules(pgm: bytes) -> list[float]:
    """How far down a page (pt, the page rendered at 72 dpi) each dark line across the text width lies."""
    magic, width, height, _depth, pixels = pgm.split(maxsplit=4)
    assert magic == b"P5"
    width, height = int(width), int(height)
    needed = RULE_SHARE_OF_TEXT_WIDTH * (width - 2 * MARGIN_PT)
    return [
        float(y)
        for y in range(height)
        if sum(1 for value in pixels[y * width : (y + 1) * width] if value < 128) >= needed
    ]


def _lines(words: list[Word]) -> list[Line]:
    """The words of each page in lines, as pdftotext reads them: a word on the line of the one before it."""
    lines: list[Line] = []
    for word in words:
        last = lines[-1] if lines else None
        if last and last.page == word.page and abs(last.y_max - word.y_max) < 1.0:
            last.words.append(word)
            last.y_min, last.y_max = min(last.y_min, word.y_min), max(last.y_max, word.y_max)
        else:
            lines.append(Line(word.page, word.y_min, word.y_max, [word]))
    return lines


def _words(bbox_html: str) -> tuple[list[Word], list[tuple[float, float]]]:
    words, pages = [], []
    for number, page in enumerate(bbox_html.split("<page ")[1:], start=1):
        width, height = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', page).groups())
        found = [
            Word(number, *(float(v) for v in box), html_text)
            for *box, html_text in re.findall(
                r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', page
            )
        ]
        # A landscape page is read turned: its words' boxes lie in the turned page.
        turned = any(word.x_max > width for word in found)
        pages.append((height, width) if turned else (width, height))
        words += found
    return words, pages


def flat(text: str) -> str:
    """Text as compared with the PDF's: no spaces or hyphens (lines wrap and words break anywhere), plain
    apostrophes."""
    return re.sub(r"[\s\-‐]", "", text.replace("’", "'"))


def assert_read_as_printed(report: Report, read: ReadBack, *, compared: bool = True) -> None:
    """Every heading and caption printed, every provenance row (none where nothing is ``compared``), no
    overfull line, nothing past the margins, the tables at 8 pt or more."""
    pdf = flat(read.text)
    labelled = list(numbered(report))
    blocks = [block for block, _ in labelled]
    headings = [block.text for block in blocks if isinstance(block, Heading)]
    captions = [block.caption for block in blocks if isinstance(block, TableBlock | Figure)]
    assert headings and (captions or not compared)  # a report comparing nothing may have no table
    for text in headings + captions:
        assert flat(text) in pdf, text
    assert "Overfull \\hbox" not in read.log
    _assert_words_within_the_text_area(read)
    _assert_no_heading_alone_at_a_page_foot(read, [block for block in blocks if isinstance(block, Heading)])
    for box in (block for block in blocks if isinstance(block, Box)):
        _assert_box_whole_on_a_page(read, box)
    _assert_sections_open_with_their_table_or_chart(read, labelled)
    _assert_captions_wrap_at_the_text_width(read, labelled)
    provenance = [block for block in blocks if isinstance(block, TableBlock) and block.key == "Provenance table"]
    assert len(provenance) == (1 if compared else 0)
    # A row's run and value, each printed in its cell (pdftotext may read a row's wrapped cells in any order:
    # the words are looked for in order, on one line or wrapped onto the next).
    # A figure ("≥ 10,103 IOPS") and a run ("run 238") are never wrapped.
    for row in provenance[0].rows if compared else ():
        _figure, _system, value, run, _source = (cell.text for cell in row)
        assert _on_one_line(read, run) and _on_one_line(read, value), row
    _assert_no_word_hyphenated_in_a_table(read, [block for block in blocks if isinstance(block, TableBlock)])
    if compared:
        _assert_tables_at_8_pt_or_more(read, provenance[0])


def _heading_lines(read: ReadBack, heading: Heading) -> list[Line]:
    """The lines printing ``heading`` with its number ("3.1 Random Reads 8K"), set larger than the text."""
    wanted = re.compile(r"\d+(\.\d+)*" + re.escape(flat(heading.text)))
    return [
        line
        for line in _lines(read.words)
        if wanted.fullmatch(flat(line.text)) and min(w.y_max - w.y_min for w in line.words) > HEADING_BOX_PT
    ]


def _assert_no_heading_alone_at_a_page_foot(read: ReadBack, headings: list[Heading]) -> None:
    """Under every heading, on its page, a line of what it heads (the page number, the foot, is none)."""
    lines = _lines(read.words)
    for heading in headings:
        (printed,) = _heading_lines(read, heading)
        under = [
            line
            for line in lines
            if line.page == printed.page and line.y_min > printed.y_max and line.text != str(line.page)
        ]
        assert under, f"{heading.text!r} stands alone at the foot of page {printed.page}"


def _assert_sections_open_with_their_table_or_chart(read: ReadBack, labelled: list[tuple[Block, str]]) -> None:
    """A table or chart opening a section (under its heading, or after one sentence introducing it) has its
    caption on the heading's page."""
    lines = _lines(read.words)
    for index, (block, _label) in enumerate(labelled):
        if not isinstance(block, Heading):
            continue
        opening = labelled[index + 1 : index + 3]
        if opening and isinstance(opening[0][0], Paragraph):
            opening = opening[1:]
        if not opening or not isinstance(opening[0][0], TableBlock | Figure):
            continue
        (heading,) = _heading_lines(read, block)
        label = opening[0][1]
        caption = next(line for line in lines if line.text.startswith(f"{label}:"))
        assert caption.page == heading.page, (
            f"{label} on page {caption.page}, its heading {block.text!r} on {heading.page}"
        )


def _assert_captions_wrap_at_the_text_width(read: ReadBack, labelled: list[tuple[Block, str]]) -> None:
    """A caption too long for one line fills the text width before it wraps."""
    lines = _lines(read.words)
    for block, label in labelled:
        if not isinstance(block, TableBlock | Figure):
            continue
        first = next(line for line in lines if line.text.startswith(f"{label}:"))
        if flat(block.caption) not in flat(first.text):
            width = first.words[-1].x_max - first.words[0].x_min
            assert width > 0.9 * TEXT_WIDTH_PT, f"{label}'s caption wraps {width:.0f} pt wide, not at the text width"


def _assert_box_whole_on_a_page(read: ReadBack, box: Box) -> None:
    """The box's title, its sentences and both its rules (just above the title, just below the last line)
    on one page."""
    lines = _lines(read.words)
    starts = [i for i, line in enumerate(lines) if flat(line.text) == flat(box.title)]
    assert starts, box.title
    start = starts[0]
    wanted, read_so_far, end = flat(" ".join(box.lines)), "", None
    for index in range(start + 1, len(lines)):
        read_so_far += flat(lines[index].text.replace("•", ""))
        if len(read_so_far) >= len(wanted):
            end = index
            break
    assert end is not None and read_so_far.startswith(wanted), box.title
    title, last = lines[start], lines[end]
    assert title.page == last.page, f"the box {box.title!r} runs from page {title.page} onto page {last.page}"
    rules = read.rules[title.page - 1]
    assert any(title.y_min - RULE_NEAR_PT < y < title.y_min for y in rules), f"no rule above {box.title!r}"
    assert any(last.y_max < y < last.y_max + RULE_NEAR_PT for y in rules), (
        f"no rule under the box {box.title!r} on page {last.page}"
    )


def _on_one_line(read: ReadBack, text: str) -> bool:
    """Whether ``text`` is read whole on one line of a page."""
    return any(f" {text} " in f" {line.text} " for line in _lines(read.words))


def _assert_no_word_hyphenated_in_a_table(read: ReadBack, tables: list[TableBlock]) -> None:
    """No word of a table's header or cells broken by a hyphen at the end of a line ("ran-" "dom"): a
    column is as wide as its longest word. A hyphen the text has ("RAID-10", "randread-1-1") may end a line."""
    table_words = {
        word
        for table in tables
        for text in (*table.header, *(cell.text for row in table.rows for cell in row))
        for word in re.findall("[A-Za-z]+", text)
    }
    small = [word for word in read.words if word.y_max - word.y_min < HEADING_BOX_PT - 1.0]
    for word in small:
        part = word.text[:-1]
        if word.text.endswith("-") and part.isalpha() and part not in table_words:
            broken = [whole for whole in table_words if whole.startswith(part)]
            assert not broken, f"{word.text!r} on page {word.page}: a table's word broken ({broken[0]!r})"


def _next_in_cell(previous: Word, word: Word) -> bool:
    """Whether ``word`` may follow ``previous`` in a cell: on its line to its right, or a line or two below."""
    same_line = abs(word.y_max - previous.y_max) < 1.0 and word.x_min > previous.x_min
    below = 0 < word.y_max - previous.y_max < 25
    return word.page == previous.page and (same_line or below)


def _assert_words_within_the_text_area(read: ReadBack) -> None:
    """Every word inside the margins; the page number (the foot, below the text) inside the page."""
    for word in read.words:
        width, height = read.pages[word.page - 1]
        if word.text == str(word.page):
            assert word.x_min >= 0 and word.x_max <= width and word.y_min >= 0 and word.y_max <= height, word
            continue
        assert word.x_min >= MARGIN_PT - SLACK_PT and word.x_max <= width - MARGIN_PT + SLACK_PT, word
        assert word.y_min >= MARGIN_PT - SLACK_PT and word.y_max <= height - MARGIN_PT + MAX_DEPTH_PT, word


def _assert_tables_at_8_pt_or_more(read: ReadBack, provenance: TableBlock) -> None:
    """No table is scaled or set in a tiny font, and the provenance rows' words are 8 pt or more."""
    assert not re.search(r"\\(resizebox|scalebox|tiny|scriptsize)\b", read.latex)
    runs = {cell.text.split()[1] for row in provenance.rows for cell in row if cell.text.startswith("run ")}
    words = read.words
    boxes = [
        word
        for i, word in enumerate(words)
        if word.text in runs
        and any(before.text == "run" and _next_in_cell(before, word) for before in words[max(0, i - 8) : i])
    ]
    assert {word.text for word in boxes} == runs
    assert min(word.y_max - word.y_min for word in boxes) >= SMALLEST_TABLE_FONT_PT * BOX_PER_FONT_PT


def assert_chart_text_legible(built: BuiltReport, folder: Path) -> None:
    """Every word of every chart (title, axis titles, tick labels, legend, the figures over the bars) is
    8 pt or more where the chart is printed, at the text width. The vector chart the PDF includes is read
    by pdftotext at its own size and scaled to the printed width (a word set upright: its box's height)."""
    charts = {name: image for name, image in built.charts.items() if name.endswith(".pdf")}
    assert charts
    folder.mkdir()
    for name, image in charts.items():
        (folder / name).write_bytes(image)
        boxes = subprocess.run(["pdftotext", "-bbox", name, "-"], cwd=folder, capture_output=True, check=True)
        words, ((width, _),) = _words(boxes.stdout.decode())
        scale = TEXT_WIDTH_PT / width
        upright = [word for word in words if word.x_max - word.x_min > 0.5 * (word.y_max - word.y_min)]
        assert {"Configuration"} <= {word.text for word in upright}, name
        smallest = min(upright, key=lambda word: word.y_max - word.y_min)
        printed = (smallest.y_max - smallest.y_min) * scale / CHART_BOX_PER_FONT_PT
        assert printed >= SMALLEST_CHART_FONT_PT, (name, smallest, printed)


def test_the_demo_report_reads_as_printed(demo, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    a, b = System.objects.get(name="IBM DS4500"), System.objects.get(name="IBM DS4400")
    built = build_report([comparison(a=a, b=b, query=ComparisonQuery(threshold_ms=20.0))], options=ReportOptions())
    read = read_back(built, tmp_path / "pdf")
    assert_read_as_printed(built.report, read)
    # Seed 000 (000_f52f16ce4c762121.txt) gives both systems six configurations of the three workloads
    # compared (RAID-5 and RAID-10 each): twelve figures in the provenance, each found above.
    assert len(re.findall(r"\brun \d+\b", read.text)) == 12
    # The "each system's figures" tables hold the runs compared: 8 columns (drives, cache setting, I/Os and MB/s
    # of the three workloads compared), set on the portrait page.
    assert r"\begin{landscape}" not in read.latex and all(width < height for width, height in read.pages)
    assert r"$10^{6}$ bytes per second" in read.latex and r"$(A - B \times k) / (B \times k) \times 100$" in read.latex
    assert "MB/s = 106 bytes per second" in read.text  # the exponent set raised, as math
    assert_chart_text_legible(built, tmp_path / "charts")
    # The workload not compared (File Server: DS4400's RAID-10 and RAID-5 at 140 drives state no cache setting,
    # DS4500 ran both 'All Caches Disabled' and 'Write Cache Enabled' there) is said in the report's own words,
    # in every format: nothing points at the compare page's controls.
    said = (
        "No configuration of A (IBM DS4500) pairs with one of B (IBM DS4400) by RAID level, drive count and cache"
        " setting, so none is compared.",
        "B's RAID-10, 140 drives could match A's 'All Caches Disabled' or 'Write Cache Enabled': B states no cache"
        " setting for it, so it is compared with neither.",
    )
    docx = " ".join(paragraph.text for paragraph in Document(io.BytesIO(built.files["docx"])).paragraphs)
    for sentence in said:
        assert flat(sentence) in flat(read.text) and sentence in docx, sentence
    for text in (read.text, docx, built.files["html"].decode(), built.files["md"].decode()):
        assert "choose" not in text and "above to compare" not in text
    # Word and the HTML printed: each table's header row repeated on every page it runs onto.
    document = Document(io.BytesIO(built.files["docx"]))
    assert len(document.tables) == len([block for block, _ in numbered(built.report) if isinstance(block, TableBlock)])
    assert all(table.rows[0]._tr.xpath("./w:trPr/w:tblHeader[@w:val='true']") for table in document.tables)
    assert "thead{display:table-header-group}" in built.files["html"].decode()


def test_three_fio_systems_at_1_ms_read_as_printed(db, data_dir, tmp_path):
    """At 1 ms, as an engineer reads SSDs. Each sample is one measured point (fio's read.lat_ns.mean, hand-read):
    the Samsung PM833 (Lab SSD) at 112,800 ns = 0.113 ms with 8,706.99 IOPS and 35,663,823 bytes/s, under
    1 ms: a lower bound; the Ceph HDD (Lab Ceph) at 70,306,437 ns = 70.3 ms and the HighPoint RAID-5 (Lab RAID,
    the baseline) at 675,409,129 ns = 675 ms, both over 1 ms at their lowest load: no figure, so no
    configuration is compared and the report says why."""
    systems = {name: uploaded(name, file_name) for name, file_name in FILES.items()}
    multi = multi_comparison(
        candidates=[systems["Lab SSD"], systems["Lab Ceph"]],
        baseline=systems["Lab RAID"],
        query=ComparisonQuery(threshold_ms=1.0),
    )
    built = build_report(multi.pairs, options=ReportOptions())
    read = read_back(built, tmp_path / "pdf")
    assert_read_as_printed(built.report, read, compared=False)
    pdf = flat(read.text)
    # The tools as each file names itself (fio-3.14-6-g97134, fio-3.16, fio-3.6-31-g4386), and the workload.
    assert (
        flat("in 1 workload (4 KiB random read), measured with fio 3.14-6-g97134, fio 3.16, fio 3.6-31-g4386.") in pdf
    )
    for sentence in (
        "No configuration of Lab SSD and Lab RAID could be compared at 1 ms.",
        "No figure of B (Lab RAID) at the threshold: over the threshold already at the lowest load.",
        "A is measured at one response time, 0.113 ms, short of 1 ms.",
        "B is measured at one response time, 675 ms, all over 1 ms.",
        "No configuration of Lab Ceph and Lab RAID could be compared at 1 ms.",
        "No figure of A (Lab Ceph) at the threshold: over the threshold already at the lowest load.",
        "A is measured at one response time, 70.3 ms, all over 1 ms.",
    ):
        assert flat(sentence) in pdf, sentence
    # Nothing is compared, so no system's figures table is printed (they hold the runs compared).
    assert "Each system's figures" not in read.text
    assert flat("No figure is compared, so no figure's source is listed.") in pdf
    # Nothing of the three systems' environment is stated and none of their runs is compared: no environment
    # table, one sentence each.
    assert flat("Measurement environment of") not in pdf
    for name in ("Lab SSD", "Lab RAID", "Lab Ceph"):
        said = (
            f"No run of {name} is compared, so its configurations and host are not listed; its uploads do not state"
            " its vendor, model, controllers, cache per controller or host interfaces."
        )
        assert flat(said) in pdf, name
    assert "notstated" not in pdf.replace("Cachenotstated", "")
    assert not re.search(r"\brun \d+\b", read.text)


def test_two_firmware_versions_read_as_printed(db, data_dir, tmp_path):
    old = uploaded("Array 1.0", FILES["Lab SSD"], vendor="Acme", model="A100", firmware="1.0.4")
    new = uploaded("Array 2.0", "fioplot_fio-3.34_randread-1-1.json", vendor="Acme", model="A100", firmware="2.0.1")
    (result,) = multi_comparison(candidates=[new], baseline=old, query=ComparisonQuery(threshold_ms=1.0)).pairs
    built = build_report([result], options=ReportOptions(title="A100 firmware 2.0.1 against 1.0.4"))
    assert_read_as_printed(built.report, read_back(built, tmp_path / "pdf"))


def test_a_long_table_breaks_across_pages_with_its_header_repeated(tmp_path):
    rows = tuple(
        (Cell(f"Configuration {n}"), Cell(f"{n * 1000:,}", n * 1000.0), Cell(f"run {n}")) for n in range(1, 151)
    )
    table = TableBlock("A hundred and fifty rows", ("Configuration", "IOPS", "Run"), rows, numeric=(False, True, False))
    report = Report("Long", "", "2026-01-01", "One table.", [Heading("Rows", 1), table])
    pdf = compile_pdf(render_latex(report, []), {})
    (tmp_path / "long.pdf").write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", "-layout", "long.pdf", "-"], cwd=tmp_path, capture_output=True, check=True
    ).stdout.decode()
    assert all(re.search(rf"Configuration {n} +{n * 1000:,} run {n}\n", text) for n in range(1, 151))
    pages = text.count("\f")
    assert pages == 3
    # The header on each of the three pages, "continued" on the second and third.
    assert len(re.findall(r"Configuration +IOPS Run\n", text)) == pages
    assert text.count("Table 1, continued") == text.count("continued on the next page") == pages - 1


def test_a_short_table_is_never_split_across_pages(tmp_path):
    """Most of a page of text, then a 4-row table that would be split after its second row (22 paragraphs of
    filler; 21 to 24 split it): it moves to the next page whole, its caption, header and rows on one page."""
    rows = tuple((Cell(f"Row {n}"), Cell(f"{n:,}", float(n))) for n in range(1, 5))
    table = TableBlock("Four rows", ("Name", "Value"), rows, numeric=(False, True))
    filler = [Paragraph(f"Line {n} of the text before the table, long enough to fill the page.") for n in range(1, 23)]
    report = Report("Short", "", "2026-01-01", "One table.", [Heading("Rows", 1), *filler, table])
    pdf = compile_pdf(render_latex(report, []), {})
    (tmp_path / "short.pdf").write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", "-layout", "short.pdf", "-"], cwd=tmp_path, capture_output=True, check=True
    ).stdout.decode()
    pages = text.split("\f")
    (page,) = [page for page in pages if "Four rows" in page]
    assert all(f"Row {n}" in page for n in range(1, 5)) and "continued" not in text


def test_a_heading_with_nothing_under_it_is_left_out():
    report = Report(
        "T",
        "",
        "2026-01-01",
        "",
        [Heading("Results", 1), Heading("Each system's figures", 2), Heading("Sizing", 1), Paragraph("Text.")],
    )
    assert [block for block, _ in numbered(report)] == [Heading("Sizing", 1), Paragraph("Text.")]


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("MB/s = 10^6 bytes/s", r"MB/s = $10^{6}$ bytes/s"),
        ("MBps = 2^20 bytes/s", r"MBps = $2^{20}$ bytes/s"),
        ("Improvement = (A - B x k) / (B x k) x 100", r"Improvement = $(A - B \times k) / (B \times k) \times 100$"),
        ("(A - B × k) / (B × k) × 100", r"$(A - B \times k) / (B \times k) \times 100$"),
        ("at least ≥ 2", r"at least \ensuremath{\geq} 2"),
        # What a user typed stays text: no command, no math of its own.
        (r"Lab \input{x} $1 2^x", r"Lab \textbackslash{}input\{x\} \$1 2\textasciicircum{}x"),
        ("workload x (I/Os, MBps), 2 x 4 drives", "workload x (I/Os, MBps), 2 x 4 drives"),
        ("a" * 64, r"\texttt{" + r"\allowbreak{}".join(["a" * 16] * 4) + "}"),
    ],
)
def test_latex_typesets_the_portals_notation_and_escapes_the_rest(text, latex):
    assert latex_escape(text) == latex
