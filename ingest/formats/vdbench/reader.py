"""One report read line by line: tags stripped, RDs started, the header and the interval and
average lines of each RD."""

import html
import re
from dataclasses import dataclass, field

from ...errors import ParseError
from ...source import Source
from ...units import mib_to_mbps
from .columns import _FLAT_TEXT, _Figures, _Interval, _named, _numbers, _rounding, _summary_columns
from .dates import _flat_started_at, _header_date, _iso

_TAG = re.compile(r"<[^>]*>")
_TIME_OF_DAY = re.compile(r"^\d\d:\d\d:\d\d\.\d+$")
_START_RD = re.compile(r"^(\d\d:\d\d:\d\d)\.\d+\s+Starting RD=([^;\s]+);?\s*(.*)$")
_INTERVAL = re.compile(r"^\d+$", re.ASCII)
_SUMMARY_ROW = re.compile(r"^(avg|std|max|min)_(\d+)-(\d+)$")
_HEADER_INTERVAL = re.compile(r"^\.*interval\.*$", re.IGNORECASE)
_LINKED_RD = re.compile(r"^(?:Link to Run Definitions:)?\s+(\S+) For loops:")


@dataclass
class _Definition:
    """One run definition (or one flatfile run) as it is read: its intervals and averages."""

    name: str
    line: int
    start_time: str | None = None
    description: str = ""
    loops: dict[str, str] = field(default_factory=dict)
    started_at: str | None = None
    intervals: list[_Interval] = field(default_factory=list)
    average: _Figures | None = None
    average_label: str = ""
    average_line: int = 0
    # A unit of the last digit each average figure was printed with: the room rounding leaves.
    rounding: dict[str, float] = field(default_factory=dict)
    statistics: dict[str, _Figures] = field(default_factory=dict)
    # Figure (or 'intervals', 'started_at') -> the file it was taken from, when files are merged.
    origins: dict[str, str] = field(default_factory=dict)


# A run definition as one report prints it.
_Copy = tuple["_Reader", _Definition]


class _Reader:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.warnings: list[str] = []
        self.columns: list[tuple[str, str]] | None = None
        self.flat = False
        self.flat_index: dict[str, int] = {}
        self.flat_figures: list[int] = []
        self.flat_width = 0
        self.header_top: str | None = None
        self.date: str | None = None
        self.current: _Definition | None = None
        self.complete: list[_Definition] = []
        self.incomplete: list[_Definition] = []
        self.linked: list[str] = []
        self.in_link_block = False
        self.started: set[str] = set()
        self.version: str | None = None
        self.last_line = 0

    def read(self) -> "_Reader":
        with self.source.open_text(errors="replace") as stream:
            for number, raw in enumerate(stream, start=1):
                self.last_line = number
                if "<" in raw:
                    raw = _TAG.sub("", raw)
                self.line(number, html.unescape(raw).rstrip() if "&" in raw else raw.rstrip())
        self.close()
        return self

    def line(self, number: int, text: str) -> None:
        if self.header_top is not None:
            self.columns = _named(_summary_columns(self.header_top, text, number))
            self.header_top = None
            return
        tokens = text.split()
        if not tokens:
            self.in_link_block = False
        elif tokens[0].startswith("*"):
            return
        elif self.flat:
            self.flat_row(number, tokens)
        elif self.note_linked_definition(text):
            return
        elif started := _START_RD.match(text.strip()):
            self.start_definition(number, *started.groups())
        elif "Run" in tokens and "Interval" in tokens and not _TIME_OF_DAY.match(tokens[0]):
            self.flat_header(tokens)
        elif "nterval" in text and any(_HEADER_INTERVAL.match(token) for token in tokens):
            self.header_top = text
            self.date = _header_date(text) or self.date
            if self.current is not None and self.current.started_at is None:
                self.current.started_at = _iso(self.date, self.current.start_time)
        else:
            self.summary_row(number, tokens)

    def flat_header(self, tokens: list[str]) -> None:
        self.flat = True
        self.flat_index = {column: position for position, column in enumerate(tokens)}
        self.flat_figures = [position for position, column in enumerate(tokens) if column not in _FLAT_TEXT]
        self.columns = _named([tokens[position] for position in self.flat_figures])
        self.flat_width = len(tokens)

    def note_linked_definition(self, text: str) -> bool:
        """Remember the RDs listed under 'Link to Run Definitions' to report those never started."""
        if text.startswith("Link to Run Definitions:"):
            self.in_link_block = True
        if not self.in_link_block:
            return False
        linked = _LINKED_RD.match(text)
        if linked:
            self.linked.append(linked.group(1))
            return True
        self.in_link_block = False
        return False

    def start_definition(self, number: int, time_of_day: str, name: str, description: str) -> None:
        self.close()
        self.started.add(name)
        loops = _for_loops(description)
        self.current = _Definition(name, number, time_of_day, description.strip(), loops)
        self.current.started_at = _iso(self.date, time_of_day)

    def summary_row(self, number: int, tokens: list[str]) -> None:
        offset = 1
        if _TIME_OF_DAY.match(tokens[0]):
            tokens, offset = tokens[1:], 2
        if len(tokens) < 2 or not (_INTERVAL.match(tokens[0]) or _SUMMARY_ROW.match(tokens[0])):
            return
        if self.columns is None:
            raise ParseError("interval line before any column header ('interval  i/o rate ...')", line=number)
        if self.current is None:
            raise ParseError("interval line before any 'Starting RD=' line", line=number)
        values = _numbers(self.columns, tokens[1:], number, offset=offset)
        self.add_row(tokens[0], values, number, tokens[1:])

    def flat_row(self, number: int, tokens: list[str]) -> None:
        if len(tokens) != self.flat_width:
            raise ParseError(
                f"expected {self.flat_width} flatfile columns as in the header, found {len(tokens)}", line=number
            )
        index = self.flat_index
        name, label = tokens[index["Run"]], tokens[index["Interval"]]
        current = self.current
        if current is None or current.name != name or (current.average and _INTERVAL.match(label)):
            self.close()
            timestamp = tokens[index["timestamp"]] if "timestamp" in index else None
            self.current = _Definition(name, number, started_at=_flat_started_at(timestamp))
        if "version" in index and tokens[index["version"]] != "n/a":
            self.version = tokens[index["version"]]
        figures = [tokens[position] for position in self.flat_figures]
        values = _numbers(self.columns or [], figures, number, offset=len(tokens) - len(figures))
        self.add_row(label, values, number, figures)

    def add_row(self, label: str, values: _Figures, number: int, figures: list[str]) -> None:
        current = self.current
        if current is None:  # both callers start a run definition first
            raise ParseError("interval line before any 'Starting RD=' line", line=number)
        summary = _SUMMARY_ROW.match(label)
        if summary is None:
            if not _INTERVAL.match(label):
                raise ParseError(f"interval {label!r} is neither a number nor avg_/std_/max_/min_", line=number)
            # Only the series kept in metrics, so a long run does not hold every interval's table.
            series = (values.get("rate"), mib_to_mbps(values.get("mib_per_s")), values.get("resp_ms"))
            current.intervals.append((int(label), *series))
        elif summary.group(1) == "avg":
            current.average = values
            current.average_label = label
            current.average_line = number
            rounding = {key: _rounding(token) for (_, key), token in zip(self.columns or [], figures, strict=True)}
            current.rounding = rounding
        else:
            current.statistics[summary.group(1)] = values

    def close(self) -> None:
        definition, self.current = self.current, None
        if definition is None:
            return
        if definition.average is None:
            self.incomplete.append(definition)
            self.warnings.append(
                f"{self.source.name}:{self.last_line}: RD={definition.name} (line {definition.line}) stopped after "
                f"{len(definition.intervals)} intervals without its avg_ line; the run was cut short and is left out"
            )
            return
        self.complete.append(definition)

    def finish(self) -> "_Reader":
        """Warn of RDs listed but never started; refuse a file where no RD reached its average."""
        never_started = [name for name in self.linked if name not in self.started]
        if never_started and not self.flat:
            self.warnings.append(
                f"{self.source.name}:{self.last_line}: RD {', '.join(never_started)} listed under 'Link to Run "
                "Definitions' never started: the run stopped before them or the file is cut short, and their results "
                "are missing"
            )
        if not self.complete:
            raise _no_complete_run(self.incomplete, never_started)
        return self

    @property
    def kind(self) -> str:
        """Which of vdbench's reports this is, told by its content (names are often changed)."""
        if self.flat:
            return "flatfile"
        return "summary" if any(d.intervals for d in self.complete) else "totals"


def _for_loops(description: str) -> dict[str, str]:
    """``threads=8 xfersize=4k`` after 'For loops:' as a dict; 'None' gives an empty dict."""
    _, found, loops = description.partition("For loops:")
    pairs = (item.split("=", 1) for item in loops.split() if "=" in item) if found else ()
    return dict(pairs)


def _no_complete_run(incomplete: list[_Definition], never_started: list[str]) -> ParseError:
    if not incomplete:
        return ParseError(
            "no vdbench interval table found: expected 'Starting RD=' lines followed by interval lines, "
            "or a flatfile column header with 'Run' and 'Interval'"
        )
    first = incomplete[0]
    detail = f"RD={first.name} (line {first.line}) stopped after {len(first.intervals)} intervals"
    if never_started:
        detail += f" and RD {', '.join(never_started)} never started"
    return ParseError(
        f"no complete run: {detail}; the run was aborted before its first average (avg_ line), "
        "so there is no result to store",
        line=first.line,
    )
