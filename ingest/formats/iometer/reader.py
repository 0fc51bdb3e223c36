"""The line-by-line state machine over a results file: markers open tests and sections, access
specification lines are read into the section, and results rows go to :func:`.rows.read_rows`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, Any

from ...errors import ParseError
from .cells import _iso_timestamp
from .detect import _is_results_header
from .rows import read_rows
from .sections import _SPEC_FIELDS, _check_shares, _Section, _Spec, _spec_values, _Test, _where
from .table import _Table


def _blocks(stream: IO[str], block_chars: int = 1 << 14) -> Iterator[list[str]]:
    """The stream's lines without their line ends, in lists of the lines of each block read (a line
    at a time costs more than the parsing). Blocks of 16 K characters: an upload's progress moves at each
    block read, in steps of 5 % of a file of a few hundred kilobytes (64 K blocks saved 1-2 % of a 50 MB
    parse's CPU but moved the progress of a 460 KB file in 7 steps)."""
    pending = ""
    while block := stream.read(block_chars):
        text = pending + block
        lines = text.split("\n")
        pending = lines.pop()
        if "\r" in text:
            lines = [line.rstrip("\r") for line in lines]
        if lines:
            yield lines
    if pending:
        yield [pending.rstrip("\r")]


class _Reader:
    """A line-by-line state machine over one results file."""

    def __init__(self, name: str = "") -> None:
        self.name = name  # the file's, for warnings that say where it was cut
        self.tests: list[_Test] = []
        self.section: _Section | None = None
        self.awaiting: Callable[[str, int], None] | None = None
        self.spec_mode: str | None = None
        self.in_rows = False
        self.timestamp: str | None = None
        self.points: list[_Section] = []
        self.warnings: list[str] = []
        self.stray_lines: list[int] = []
        self.last_line = 0
        self.tables: dict[str, _Table] = {}
        self.remaining: Iterator[list[str]] = iter(())
        self.lines_read = 0
        # One copy of each name rows repeat (processors, workers, targets, access specifications).
        self.names: dict[str, str] = {}
        # Each access specification line read, by its text.
        self.spec_values: dict[str, tuple[Any, ...]] = {}

    @property
    def test(self) -> _Test:
        if not self.tests:
            self.tests.append(_Test(number=1, line=1))
        return self.tests[-1]

    def read(self, stream: IO[str]) -> None:
        # Kept to tell a cut final row from a bad one (``at_last_line``).
        self.remaining = _blocks(stream)
        for lines in self.remaining:
            before, count = self.lines_read, len(lines)
            self.lines_read += count
            i = 0
            while i < count:
                if self.in_rows and lines[i][:1].isalpha():
                    # The common line: a results row. The rows after it are read in the same loop, up
                    # to the first other line (a table ends at a marker, which starts with a quote).
                    i = read_rows(self, lines, i, before)
                    if i == count:
                        break
                text, number = lines[i], before + i + 1
                # A marker line (its first cell one of ``_MARKERS``) and an awaited line go straight to
                # their handlers, as ``line`` would send them.
                if (
                    text[:1] == "'"
                    and self.awaiting is None
                    and "Target Type" not in text
                    and (handler := _MARKERS.get(text.split(",", 1)[0].rstrip()))
                ):
                    self.in_rows = False
                    handler(self, number)
                elif self.awaiting is not None and not self.in_rows and (stripped := text.strip()):
                    awaited, self.awaiting = self.awaiting, None
                    awaited(stripped, number)
                else:
                    self.line(number, text)
                i += 1
        self.last_line = self.lines_read
        self.finish()

    def at_last_line(self, number: int) -> bool:
        """Whether line ``number`` is the file's last; only asked before raising, as it reads on."""
        return number == self.lines_read and next(self.remaining, None) is None

    def line(self, number: int, text: str) -> None:
        stripped = text.strip()
        if not stripped:
            return
        if self.in_rows and stripped[0] != "'":
            # A results row not starting with a letter (``read`` takes the others). Nothing is awaited
            # inside a table.
            read_rows(self, [text], 0, number - 1)
        elif self.awaiting:
            handler, self.awaiting = self.awaiting, None
            handler(stripped, number)
        elif stripped.startswith("'") and ("Target Type" not in stripped or not _is_results_header(stripped)):
            self.marker(stripped, number)
        elif self.in_rows:
            read_rows(self, [text], 0, number - 1)
        elif self.spec_mode:
            self.spec_line(stripped, number)
        elif _is_results_header(stripped):
            self.open_results(number)
            self.header(stripped, number)
        else:
            self.stray_lines.append(number)

    def marker(self, text: str, number: int) -> None:
        keyword = text.split(",", 1)[0].rstrip()
        self.in_rows = False
        handler = _MARKERS.get(keyword)
        if handler is None:
            self.warnings.append(f"line {number}: unknown Iometer marker {keyword!r} ignored")
        else:
            handler(self, number)

    def access_specifications(self, number: int) -> None:
        self.open_section(number)
        self.spec_mode = "block"

    def await_version(self, number: int) -> None:
        self.awaiting = self.version

    def await_time_stamp(self, number: int) -> None:
        self.awaiting = self.time_stamp

    def await_spec_name(self, number: int) -> None:
        self.awaiting = self.spec_name

    def spec_lines(self, number: int) -> None:
        self.spec_mode = "lines"

    def end_specs(self, number: int) -> None:
        self.spec_mode = None
        for spec in self.section.specs if self.section is not None else ():
            _check_shares(spec)

    def results(self, number: int) -> None:
        self.open_results(number)
        self.awaiting = self.header

    def end_test(self, number: int) -> None:
        self.close_section()
        self.test.ended = True

    def start_test(self, number: int) -> None:
        self.close_section()
        self.end_test_check()
        self.tests.append(_Test(number=len(self.tests) + 1, line=number))
        self.timestamp = None
        self.awaiting = self.test_type

    def test_type(self, text: str, number: int) -> None:
        kind, _, description = text.partition(",")
        self.test.type = kind.strip()
        self.test.description = description.strip()

    def version(self, text: str, number: int) -> None:
        self.test.version = text.strip()

    def time_stamp(self, text: str, number: int) -> None:
        moment = _iso_timestamp(text)
        if moment is None:
            self.warnings.append(f"line {number}: time stamp {text!r} is not in Iometer's form; ignored")
        if self.section is not None and self.section.total is not None:
            self.section.ended_at = moment
        self.close_section()
        self.timestamp = moment

    def open_section(self, number: int) -> None:
        self.close_section()
        self.section = _Section(test=self.test, line=number, started_at=self.timestamp)

    def open_results(self, number: int) -> None:
        if self.section is None or self.section.table is not None:
            self.open_section(number)
        self.spec_mode = None

    def need_section(self, number: int) -> _Section:
        """Access specification lines belong to a section opened by 'Access specifications."""
        if self.section is None:
            raise ParseError(
                "access specification outside an 'Access specifications block: the lines before it are missing "
                "or damaged",
                line=number,
            )
        return self.section

    def results_section(self, number: int) -> tuple[_Section, _Table]:
        """The section whose results rows are read, and its header's layout: rows are read only after
        ``header`` set both (``in_rows``)."""
        section = self.section
        if section is None or section.table is None:
            raise ParseError("a results row before its 'Target Type header", line=number)
        return section, section.table

    def spec_name(self, text: str, number: int) -> None:
        section = self.need_section(number)
        name, _, assignment = text.rpartition(",")
        if not name:
            name, assignment = assignment, ""
        section.specs.append(_Spec(name=name.strip(), default_assignment=assignment.strip(), line=number))
        self.spec_mode = "block"

    def spec_line(self, text: str, number: int) -> None:
        section = self.need_section(number)
        if self.spec_mode != "lines" or not section.specs:
            self.stray_lines.append(number)
            return
        # Iometer repeats each access specification in every test that runs it: a line is read once.
        values = self.spec_values.get(text)
        if values is None:
            values = self.spec_values[text] = _spec_values(text, number)
        spec = section.specs[-1]
        spec.lines.append(dict(zip(_SPEC_FIELDS, values, strict=False)))
        spec.line_values.append(values)

    def header(self, text: str, number: int) -> None:
        # Every section repeats the same header; build its layout once.
        table = self.tables.get(text)
        if table is None:
            table = self.tables[text] = _Table(text.split(","), number)
        section = self.need_section(number)
        section.table, section.header_line = table, number
        self.in_rows = True

    def close_section(self) -> None:
        section, self.section = self.section, None
        self.spec_mode = None
        self.in_rows = False
        if section is None:
            return
        if section.total is None:
            if section.specs or section.table:
                names = ", ".join(repr(spec.name) for spec in section.specs) or "no access specification"
                self.warnings.append(
                    f"{_where(section)}: section for {names} has no ALL results row (test stopped?); skipped"
                )
            return
        if section.total["workers"] == 0 or not section.total["iops"]:
            self.warnings.append(
                f"{_where(section)}: section has {section.total['workers'] or 0:g} workers and "
                f"{section.total['iops'] or 0:g} IOPS (an empty run); skipped"
            )
            return
        self.points.append(section)

    def cut_section(self, section: _Section) -> None:
        """A results section the file ends in (Iometer closes each with a 'Time Stamp or 'End Test line):
        its rows may be cut short, so it is not stored."""
        self.section = None
        self.warnings.append(
            f"{self.name}:{self.last_line}: the results of line {section.header_line} (test {section.test.number}) "
            "end with the file, without the 'Time Stamp or 'End Test line Iometer writes after them: they look "
            "cut short, and are not stored"
        )

    def end_test_check(self) -> None:
        if self.tests and not self.tests[-1].ended:
            test = self.tests[-1]
            self.warnings.append(f"line {test.line}: test {test.number} has no 'End Test (stopped or cut short)")

    def finish(self) -> None:
        if self.awaiting is not None or (self.section is not None and self.in_rows and self.section.total is None):
            raise ParseError(
                "the file ends inside a section before its results; the file looks truncated",
                line=self.last_line,
            )
        if self.section is not None and self.section.total is not None:
            self.cut_section(self.section)
        self.close_section()
        if self.tests and not self.tests[-1].ended:
            test = self.tests[-1]
            self.warnings.append(
                f"{self.name}:{self.last_line}: the file ends before the 'End Test line of test {test.number} "
                f"(line {test.line}), which Iometer writes after every test: it looks cut short here, and whatever "
                "the test wrote after this line is missing"
            )
        if self.stray_lines:
            self.warnings.append(
                f"{len(self.stray_lines)} line(s) outside any Iometer section ignored (first on line "
                f"{self.stray_lines[0]})"
            )


# What each marker line (its first cell) starts.
_MARKERS = {
    "'Test Type": _Reader.start_test,
    "'Version": _Reader.await_version,
    "'Time Stamp": _Reader.await_time_stamp,
    "'Access specifications": _Reader.access_specifications,
    "'Access specification name": _Reader.await_spec_name,
    "'size": _Reader.spec_lines,
    "'End access specifications": _Reader.end_specs,
    "'Results": _Reader.results,
    "'End Test": _Reader.end_test,
}
