"""vdbench reports: ``summary.html``, ``totals.html`` and ``flatfile.html``.

vdbench writes each report as an HTML page holding one ``<pre>`` block of text. Tags and
entities are stripped line by line with the standard library; nothing is rendered. The
raw-device (SD) and file-system (FSD/FWD) layouts are told apart by their column headers,
which are read by position, so localised dates in front of them do not matter.

Mapping: one run per run definition (RD), or per RD and workload-changing ``For loops`` value
(xfersize, rdpct, seekpct), named (workload name) by its RD; the RDs vdbench adds to prepare a test
(``format_for_<rd>``, ``SD_format``) are runs of phase ``preparation``. The ``avg_`` line of each
RD (the flatfile's ``avg_`` row) is its point, with ``load.threads`` when vdbench states the thread
count. The interval lines become a time series in the point's ``metrics``. vdbench's MB/sec is 2^20
bytes per second and is converted to 10^6. An RD that stops before its ``avg_`` line is left out
with a warning; a file where no RD reached its average is refused.

The reports of one output folder (``summary.html``, ``totals.html``, ``flatfile.html``, also with a
name around them) print the same RDs, so they are read together as one result set: each RD once,
matched by name and order. Each figure is taken from the report that prints it with the most detail
(flatfile, then summary, then totals; CPU from summary or totals), the RD's start and parameters from
summary or totals, and the run's ``params.figures_from`` names the file of each figure. Figures two
reports print differently beyond their last printed digit are named in a warning.
"""

import html
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, TypeVar

from ..errors import ParseError
from ..figures import known_max, measured_read_pct
from ..numbers import Printed, read_number, size_or_none
from ..result import Point, ResultSet, Run, TransferSize, Workload
from ..source import Source, describe_group
from ..units import mib_to_mbps

FORMAT = "vdbench"
TOOL = "vdbench"
READS = (
    "vdbench `summary.html`, `totals.html` and `flatfile.html` (raw-device SD and file-system FSD "
    "layouts): one run per RD, its `avg_` line as the point, MB/sec converted from 2^20; the reports of one "
    "output folder are one result set, each figure from the most detailed report"
)

_SNIFF_PATTERNS = (
    re.compile(rb"<title>\s*Vdbench output/", re.IGNORECASE),
    re.compile(rb"Vdbench summary report, created"),
    re.compile(rb"^(?:<pre>)?\*\s*Run\s*: Name of run from RD=", re.MULTILINE),
    re.compile(rb"^(?:<[^>]+>)*\d\d:\d\d:\d\d\.\d{3} Starting RD=", re.MULTILINE),
)
_UNNAMED = re.compile(r"[^a-z0-9%]+")
# The run definitions vdbench adds to prepare a test, not to measure one: ``format_for_<rd>`` creates
# an FSD's files (``format=yes``), ``SD_format`` writes a raw SD over (``formatsd=yes``).
_PREPARATION_RD = re.compile(r"^(?:format_for_|SD_format$)", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_TIME_OF_DAY = re.compile(r"^\d\d:\d\d:\d\d\.\d+$")
_START_RD = re.compile(r"^(\d\d:\d\d:\d\d)\.\d+\s+Starting RD=([^;\s]+);?\s*(.*)$")
_INTERVAL = re.compile(r"^\d+$", re.ASCII)
_SUMMARY_ROW = re.compile(r"^(avg|std|max|min)_(\d+)-(\d+)$")
_HEADER_INTERVAL = re.compile(r"^\.*interval\.*$", re.IGNORECASE)
_LINKED_RD = re.compile(r"^(?:Link to Run Definitions:)?\s+(\S+) For loops:")
_ENGLISH_DATE = re.compile(r"^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s+(\d{4})")
_CJK_DATE = re.compile(r"^(\d{1,2})月\s*(\d{1,2}),\s*(\d{4})")
_FLAT_TIMESTAMP = re.compile(r"^(\d\d)/(\d\d)/(\d{4})-(\d\d:\d\d:\d\d)")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_REQUESTED_RATE = re.compile(r"(?:I/O rate: |fwdrate=)(\d+(?:\.\d+)?)(?![\d.%])")
_INFINITY = float("inf")
# vdbench formats numbers with the JVM's locale, so some reports print 0,598 for 0.598; it prints
# NaN (and old versions n/a) where it has no figure.
_PRINTED = Printed(missing=frozenset({"n/a", "nan"}), decimal_comma=True, refusal="{text!r} ({place}) is not a number")

# Column names of the summary tables (``group sub-title``, dots stripped) and of the flatfile,
# mapped to one vocabulary. Columns not named here are kept in the point's metrics.
_COLUMNS = {
    "i/o rate": "rate",
    "reqstdops rate": "rate",
    "rate": "rate",
    "mb/sec 1024**2": "mib_per_s",
    "mb/sec total": "mib_per_s",
    "MB/sec": "mib_per_s",
    "mb/sec read": "read_mib_per_s",
    "MB_read": "read_mib_per_s",
    "mb/sec write": "write_mib_per_s",
    "MB_write": "write_mib_per_s",
    "bytes i/o": "bytes_per_io",
    "xfer size": "bytes_per_io",
    "bytes/io": "bytes_per_io",
    "Xfersize": "bytes_per_io",
    "read pct": "read_pct",
    "read%": "read_pct",
    "resp time": "resp_ms",
    "reqstdops resp": "resp_ms",
    "resp": "resp_ms",
    "read rate": "read_rate",
    "Read_rate": "read_rate",
    "write rate": "write_rate",
    "Write_rate": "write_rate",
    "read resp": "read_resp_ms",
    "Read_resp": "read_resp_ms",
    "write resp": "write_resp_ms",
    "Write_resp": "write_resp_ms",
    "resp max": "max_resp_ms",
    "resp_max": "max_resp_ms",
    "read max": "read_max_resp_ms",
    "write max": "write_max_resp_ms",
    "resp stddev": "resp_std_ms",
    "resp_std": "resp_std_ms",
    "queue depth": "queue_depth",
    "cpu% sys+u": "cpu_pct",
    "cpu% sys+usr": "cpu_pct",
    "cpu% total": "cpu_pct",
    "cpu_used": "cpu_pct",
    "cpu% sys": "cpu_sys_pct",
    "threads": "threads",
    "rdpct": "requested_read_pct",
    "seekpct": "requested_random_pct",
    "xfersize": "requested_bytes",
    "reqrate": "requested_rate",
}
# Flatfile columns that are text, not figures.
_FLAT_TEXT = {"tod", "timestamp", "Run", "Interval", "version"}
# For-loop parameters that set the load (a point); the others change the workload (a run).
_LOAD_LOOPS = {"threads", "iorate", "fwdrate"}
_POINT_FIELDS = {
    "rate",
    "read_rate",
    "write_rate",
    "read_pct",
    "mib_per_s",
    "read_mib_per_s",
    "write_mib_per_s",
    "resp_ms",
    "read_resp_ms",
    "write_resp_ms",
    "max_resp_ms",
    "cpu_pct",
    "threads",
}


# vdbench's own report names, with whatever a user put around them ('run1_totals.html').
_REPORT_NAME = re.compile(
    r"^(?P<before>.*?)(?:^|[_.-])(?:summary|totals|flatfile)(?P<after>(?:[_.-].*)?)\.html?$", re.IGNORECASE
)
# Reports in decreasing detail: the flatfile prints four decimals and per-interval columns (resp_max,
# requested xfersize, rdpct, seekpct, threads), summary three significant digits with the intervals,
# totals only the avg_ lines.
_DETAIL_ORDER = ("flatfile", "summary", "totals")
_DESCRIPTION_ORDER = ("summary", "totals", "flatfile")
# Figures taken from summary or totals before the flatfile: their 'cpu% total' is user + sys, while
# some versions' flatfile cpu_used holds the user time only (see _compared).
_SUMMARY_FIRST = {"cpu_pct"}
# Internal figure names as the result contract names them, for params and warnings.
_FIGURE_NAMES = {
    "rate": "iops",
    "read_rate": "read_iops",
    "write_rate": "write_iops",
    "mib_per_s": "mbps",
    "read_mib_per_s": "read_mbps",
    "write_mib_per_s": "write_mbps",
    "resp_ms": "avg_response_ms",
    "read_resp_ms": "avg_read_response_ms",
    "write_resp_ms": "avg_write_response_ms",
    "max_resp_ms": "max_response_ms",
}


# An average or interval line's figures by name (None where vdbench printed none); one interval of
# the series kept: (interval, IOPS, MB/s, mean response ms).
_Figures = dict[str, float | None]
_Interval = tuple[int, float | None, float | None, float | None]
_T = TypeVar("_T")


def sniff(head: bytes, name: str) -> bool:
    return any(pattern.search(head) for pattern in _SNIFF_PATTERNS)


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


def parse(source: Source) -> ResultSet:
    reader = _Reader(source).read().finish()
    return _result_set(reader.source.describe(), reader.version, reader.complete, reader.warnings)


def group_key(source: Source) -> str | None:
    """Reports of one vdbench output folder share a key: their folder and the name around vdbench's
    own ``summary`` / ``totals`` / ``flatfile`` (``run1_totals.html`` goes with ``run1_summary.html``,
    not with another run's reports saved in the same folder); other names are read alone."""
    name = PurePosixPath(source.name.replace("\\", "/"))
    report = _REPORT_NAME.match(name.name)
    if report is None:
        return None
    return f"{_folder(source, name)}/{report['before'].lower()}*{report['after'].lower()}"


def _folder(source: Source, name: PurePosixPath) -> str:
    """The folder a file's name gives (a zip member, files given together in one request), else the
    folder it is in."""
    if str(name.parent) != "." or source.path is None:
        return str(name.parent)
    return str(source.path.parent.resolve())


def parse_group(sources: list[Source]) -> ResultSet:
    """One result set from the reports of one run: each RD once, each figure from the report that
    prints it with the most detail, and a warning where two reports disagree beyond rounding."""
    if len(sources) == 1:
        return parse(sources[0])
    readers = [_read_member(source) for source in sources]
    readers.sort(key=lambda reader: _DETAIL_ORDER.index(reader.kind))
    warnings = [
        warning if warning.startswith(f"{r.source.name}:") else f"{_base_name(r.source)}: {warning}"
        for r in readers
        for warning in r.warnings
    ]
    warnings += _short_reports(readers)
    definitions = [_merged(matched, warnings) for matched in _matched_definitions(readers)]
    version = next((reader.version for reader in readers if reader.version), None)
    return _result_set(describe_group(sources), version, definitions, warnings)


def _short_reports(readers: list["_Reader"]) -> list[str]:
    """Every report of one run lists each of its RDs: one holding fewer than another report was cut
    short, and the RDs it lacks are taken from the other reports only."""
    most = max(readers, key=lambda reader: len(reader.complete))
    warnings = []
    for reader in readers:
        names = [definition.name for definition in reader.complete]
        if len(names) < len(most.complete):
            missing = [definition.name for definition in most.complete[len(names) :]]
            warnings.append(
                f"{reader.source.name}: holds {len(names)} of the {len(most.complete)} complete RDs "
                f"{_base_name(most.source)} holds: it looks cut short, and the figures of RD "
                f"{', '.join(missing)} come from the other reports only"
            )
    return warnings


def _read_member(source: Source) -> "_Reader":
    try:
        return _Reader(source).read().finish()
    except ParseError as error:
        raise error.located(source.name) from None


def _base_name(source: Source) -> str:
    return PurePosixPath(source.name.replace("\\", "/")).name


def _matched_definitions(readers: list[_Reader]) -> list[list[_Copy]]:
    """The complete RDs of every report, matched by name and by order among RDs of that name (a
    'For loops' RD runs once per value), as (reader, definition) lists in the readers' order."""
    matched: dict[tuple[str, int], list[_Copy]] = {}
    for reader in readers:
        seen: dict[str, int] = {}
        for definition in reader.complete:
            seen[definition.name] = seen.get(definition.name, 0) + 1
            matched.setdefault((definition.name, seen[definition.name]), []).append((reader, definition))
    return list(matched.values())


def _merged(matched: list[_Copy], warnings: list[str]) -> _Definition:
    """One RD from its copies in several reports (most detailed report first)."""
    first = matched[0][1]
    # The RD's start, parameters and 'For loops' are printed by summary and totals; the flatfile
    # gives only the time of the first interval.
    described = min(matched, key=_description_rank)
    with_intervals = next((item for item in matched if item[1].intervals), None)
    merged = _Definition(
        first.name,
        first.line,
        start_time=described[1].start_time,
        description=described[1].description,
        loops=described[1].loops,
        started_at=_first_known(*(d.started_at for _, d in sorted(matched, key=_description_rank))),
        intervals=with_intervals[1].intervals if with_intervals else [],
        average={},
        average_label=first.average_label,
        statistics=next((d.statistics for _, d in matched if d.statistics), {}),
    )
    merged.origins = {"started_at": _base_name(described[0].source)} if merged.started_at else {}
    if with_intervals:
        merged.origins["intervals"] = _base_name(with_intervals[0].source)
    disagreements = _merge_average(merged, matched)
    if disagreements:
        warnings.append(
            f"RD={first.name}: the reports disagree beyond rounding on {'; '.join(disagreements)} "
            "(the figure named first is kept)"
        )
    return merged


def _merge_average(merged: _Definition, matched: list[_Copy]) -> list[str]:
    """Fill the merged average figure by figure, noting each one's file; return the disagreements."""
    assert merged.average is not None, "_merged starts the average empty"
    disagreements = []
    for key in dict.fromkeys(key for _, definition in matched for key in _average(definition)):
        kept, others = _preferred(key, matched)
        if kept is None:
            continue
        merged.average[key] = _average(kept[1])[key]
        merged.origins[_FIGURE_NAMES.get(key, key)] = _base_name(kept[0].source)
        disagreements += [_disagreement(key, kept, other) for other in others if _disagree(key, kept[1], other[1])]
    return disagreements


def _description_rank(item: _Copy) -> int:
    return _DESCRIPTION_ORDER.index(item[0].kind)


def _preferred(key: str, matched: list[_Copy]) -> tuple[_Copy, list[_Copy]] | tuple[None, list[_Copy]]:
    """The copy whose figure is kept, and the other copies that state the figure."""
    stating = [item for item in matched if _average(item[1]).get(key) is not None]
    if key in _SUMMARY_FIRST:
        stating.sort(key=_description_rank)
    return (stating[0], stating[1:]) if stating else (None, [])


def _disagree(key: str, kept: _Definition, other: _Definition) -> bool:
    """True when two printed figures differ by more than their printed digits allow."""
    (kept_value, kept_room), (other_value, other_room) = _compared(key, kept), _compared(key, other)
    # The limit itself is allowed: 0.85 printed with one decimal is 0.9 (or 0.8 when truncated).
    return abs(kept_value - other_value) > max(kept_room, other_room) * (1 + 1e-9) + 1e-12


def _compared(key: str, definition: _Definition) -> tuple[float, float]:
    """The figure weighed against the other reports, and the room its printing leaves.

    vdbench 5.04.06 writes the user time alone as the flatfile's cpu_used (cpu_used = cpu_user 1.7454,
    cpu_kernel 3.4581, where summary's cpu% total is 5.2), so user + kernel stands for it where the
    flatfile prints both.
    """
    values, rounding = definition.average, definition.rounding
    assert values is not None, "only definitions that state the figure are compared"
    user, kernel = values.get("cpu_user"), values.get("cpu_kernel")
    if key == "cpu_pct" and user is not None and kernel is not None:
        return user + kernel, rounding["cpu_user"] + rounding["cpu_kernel"]
    value = values[key]
    assert value is not None, "only definitions that state the figure are compared"
    return value, rounding.get(key, 0.0)


def _disagreement(key: str, kept: _Copy, other: _Copy) -> str:
    (kept_reader, kept_definition), (other_reader, other_definition) = kept, other
    return (
        f"{_FIGURE_NAMES.get(key, key)}: {_average(kept_definition)[key]:g} in {_base_name(kept_reader.source)} "
        f"line {kept_definition.average_line}, {_compared(key, other_definition)[0]:g} in "
        f"{_base_name(other_reader.source)} line {other_definition.average_line}"
    )


def _rounding(token: str) -> float:
    """A unit of the last digit printed ('0.080' -> 0.001, '11471' -> 1): vdbench rounds some columns
    and truncates others (flatfile create resp 250.6270 is 250.62 in summary), so either is allowed.
    An exponent is not weighed: vdbench prints none."""
    mantissa = re.split("[eE]", token, maxsplit=1)[0].replace(",", ".")
    _, point, decimals = mantissa.partition(".")
    return 10.0 ** -len(decimals) if point and len(decimals) < 300 else 1.0


def _result_set(source: dict, version: str | None, definitions: list[_Definition], warnings: list[str]) -> ResultSet:
    runs: dict[tuple[object, ...], Run] = {}
    for definition in definitions:
        key, run, point = _run_and_point(definition)
        kept = runs.setdefault(key, run)
        kept.points.append(point)
        if definition.origins:
            kept.params.setdefault("figures_from", definition.origins)
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": version},
        source=source,
        runs=list(runs.values()),
        warnings=warnings,
    )


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


def _summary_columns(top: str, bottom: str, number: int) -> list[str]:
    """Name the columns of a two-line summary header: each sub-title gets the group above it.

    Both header lines end at the same column, so the top line is shifted to match before
    the groups are found by position; this keeps localised dates of any width harmless.
    """
    shift = len(bottom) - len(top)
    groups = [(m.start() + shift, m.end() + shift, m.group().strip(".").lower()) for m in re.finditer(r"\S+", top)]
    columns = []
    for match in re.finditer(r"\S+", bottom):
        start, end = match.span()
        over = [g for g in groups if g[0] < end and start < g[1]]
        nearest = over or sorted(groups, key=lambda g: abs((g[0] + g[1]) - (start + end)))
        if not nearest:
            raise ParseError("column header line without titles above it", line=number)
        columns.append(f"{nearest[0][2]} {match.group().lower()}")
    if not columns:
        raise ParseError("expected the second column header line (rate, resp, ...) after the first", line=number)
    return columns


def _named(columns: list[str]) -> list[tuple[str, str]]:
    """Pair each column with its name in the common vocabulary (or a tidy form of its own)."""
    return [
        (column, _COLUMNS.get(column) or re.sub(r"[^a-z0-9%]+", "_", column.lower()).strip("_")) for column in columns
    ]


def _numbers(columns: list[tuple[str, str]], tokens: list[str], number: int, *, offset: int) -> _Figures:
    if len(tokens) != len(columns):
        raise ParseError(
            f"expected {len(columns)} values after the interval label as in the column header, found {len(tokens)}",
            line=number,
        )
    try:
        figures: list[float | None] = [float(token) for token in tokens]
    except ValueError:
        figures = []
    if len(figures) != len(tokens) or _INFINITY in figures or -_INFINITY in figures:
        # A decimal comma, 'n/a' or damage: each figure read on its own, the first bad one named.
        figures = [
            _value(token, number, column, position)
            for position, ((column, _), token) in enumerate(zip(columns, tokens, strict=True), start=offset + 1)
        ]
    # vdbench prints NaN where it has no figure (a CPU it could not read); NaN is the value unequal to itself.
    return {key: figure if figure == figure else None for (_, key), figure in zip(columns, figures, strict=True)}


def _value(token: str, number: int, column: str, position: int) -> float | None:
    """A figure, also written with a decimal comma; None for 'n/a' and NaN."""
    place = f"value {position} of the line"
    return read_number(token, file=None, line=number, field=column, negative=True, printed=_PRINTED, place=place)


def _average(definition: _Definition) -> _Figures:
    """The figures of a definition's ``avg_`` line ({} for one cut short, which is no complete run)."""
    return definition.average or {}


def _run_and_point(definition: _Definition) -> tuple[tuple[object, ...], Run, Point]:
    values = _average(definition)
    workload, measured = _workload(values, definition.loops)
    name = " ".join([definition.name] + [f"{k}={v}" for k, v in definition.loops.items() if k not in _LOAD_LOOPS])
    workload.name = definition.name
    run = Run(
        name=name,
        description=definition.description,
        started_at=definition.started_at,
        workload=workload,
        phase="preparation" if _PREPARATION_RD.match(definition.name) else "measurement",
        params={"rd": definition.name} | {f"for_{k}": v for k, v in definition.loops.items() if k not in _LOAD_LOOPS},
    )
    if measured:
        run.params["measured_workload"] = measured
    # Flatfile rows carry the requested workload; runs of one name with another workload stay apart.
    key = (name, values.get("requested_bytes"), values.get("requested_read_pct"), values.get("requested_random_pct"))
    return key, run, _point(definition, values)


def _workload(values: _Figures, loops: dict[str, str]) -> tuple[Workload, list[str]]:
    """What the RD asked for (its ``For loops`` values, the flatfile's requested columns); where the
    report states neither, the measured read % and average transfer size of the ``avg_`` line,
    named in the run's ``measured_workload`` (an average of a size distribution is no size issued)."""
    read_pct = _first_known(_operation_read_pct(loops), _loop_number(loops.get("rdpct")))
    read_pct = _first_known(read_pct, values.get("requested_read_pct"))
    random_pct = _first_known(_random_pct(loops.get("seekpct")), _fileio_random_pct(loops.get("fileio")))
    random_pct = _first_known(random_pct, values.get("requested_random_pct"))
    sizes = _xfersizes(loops.get("xfersize"))
    if not sizes and (requested_bytes := values.get("requested_bytes")):
        sizes = [TransferSize(bytes=int(requested_bytes), pct=100.0)]
    measured: list[str] = []
    if read_pct is None and (read_pct := _read_pct(values)) is not None:
        measured.append("read_pct")
    # A stated xfersize that is no mix (a range) leaves the sizes unknown: the average is no size issued.
    if not sizes and "xfersize" not in loops and (bytes_per_io := values.get("bytes_per_io")):
        sizes = [TransferSize(bytes=int(bytes_per_io), pct=100.0)]
        measured.append("transfer_sizes")
    workload = Workload(
        read_pct=read_pct,
        random_pct=random_pct,
        transfer_sizes=sizes,
        alignment_bytes=size_or_none(loops.get("align")),
        streams=_streams(loops.get("streams")),
    )
    return workload, measured


def _streams(text: str | None) -> int | None:
    """A WD's ``streams=n``: n independent sequential streams; a ``(min,max)`` range is no one count."""
    count = _loop_number(text)
    return int(count) if count and count.is_integer() and count >= 1 else None


def _operation_read_pct(loops: dict[str, str]) -> float | None:
    """An FWD's ``operation=read`` / ``write`` is all reads or all writes."""
    return {"read": 100.0, "write": 0.0}.get((loops.get("operation") or "").lower())


def _fileio_random_pct(fileio: str | None) -> float | None:
    """``fileio=random`` / ``sequential`` (also ``(random,shared)``) of an FWD."""
    kind = (fileio or "").strip("()").split(",")[0].strip().lower()
    return {"random": 100.0, "sequential": 0.0, "seq": 0.0}.get(kind)


def _xfersizes(text: str | None) -> list[TransferSize]:
    """``4k`` or a distribution ``(4k,50,64k,50)`` as transfer sizes; a ``(min,max,align)`` range,
    or anything else, states no mix."""
    if not text:
        return []
    size = size_or_none(text)
    if size:
        return [TransferSize(bytes=size, pct=100.0)]
    items = [item.strip() for item in text.strip("()").split(",")]
    if len(items) < 2 or len(items) % 2:
        return []
    read = [(size_or_none(items[i]), _loop_number(items[i + 1])) for i in range(0, len(items), 2)]
    pairs = [(size, pct) for size, pct in read if size and pct is not None and 0 < pct <= 100]
    if len(pairs) != len(read):
        return []
    if abs(sum(pct for _, pct in pairs) - 100) > 0.01:
        return []
    mix: dict[int, float] = {}
    for size, pct in pairs:
        mix[size] = mix.get(size, 0.0) + pct
    return [TransferSize(bytes=size, pct=pct) for size, pct in sorted(mix.items())]


def _read_pct(values: _Figures) -> float | None:
    if values.get("read_pct") is not None:
        return values["read_pct"]
    return measured_read_pct(values.get("read_rate"), values.get("write_rate"))


def _direction_rates(values: _Figures) -> tuple[float | None, float | None]:
    """Read and write IOPS: given by the FSD layouts, from the read percentage for SD."""
    if values.get("read_rate") is not None:
        return values["read_rate"], values.get("write_rate")
    rate, read_pct = values.get("rate"), values.get("read_pct")
    if rate is None or read_pct is None:
        return None, None
    read_iops = rate * read_pct / 100
    return read_iops, rate - read_iops


def _point(definition: _Definition, values: _Figures) -> Point:
    read_iops, write_iops = _direction_rates(values)
    load: dict[str, float] = {}
    threads = _loop_number(definition.loops.get("threads")) or values.get("threads")
    if threads:
        load["threads"] = int(threads)
    target_iops = _requested_rate(definition)
    if target_iops:
        load["target_iops"] = target_iops
    metrics: dict[str, Any] = {k: v for k, v in values.items() if k not in _POINT_FIELDS and v is not None}
    metrics["average"] = definition.average_label
    metrics |= {f"{kind}_row": row for kind, row in definition.statistics.items()}
    if definition.intervals:
        metrics["intervals"] = _interval_series(definition.intervals)
    return Point(
        load=load,
        iops=values.get("rate"),
        read_iops=read_iops,
        write_iops=write_iops,
        mbps=mib_to_mbps(values.get("mib_per_s")),
        read_mbps=mib_to_mbps(values.get("read_mib_per_s")),
        write_mbps=mib_to_mbps(values.get("write_mib_per_s")),
        avg_response_ms=values.get("resp_ms"),
        avg_read_response_ms=values.get("read_resp_ms") if read_iops else None,
        avg_write_response_ms=values.get("write_resp_ms") if write_iops else None,
        max_response_ms=values.get("max_resp_ms")
        if values.get("max_resp_ms") is not None
        else known_max([values.get("read_max_resp_ms"), values.get("write_max_resp_ms")]),
        cpu_pct=values.get("cpu_pct"),
        metrics=metrics,
    )


def _first_known(*values: _T | None) -> _T | None:
    return next((value for value in values if value is not None), None)


def _interval_series(intervals: list[_Interval]) -> dict[str, list]:
    numbers, iops, mbps, response_ms = (list(column) for column in zip(*intervals, strict=True))
    return {"interval": numbers, "iops": iops, "mbps": mbps, "avg_response_ms": response_ms}


def _requested_rate(definition: _Definition) -> float | None:
    """The I/O rate the RD asked for (``iorate=``, ``fwdrate=``, 'I/O rate: 100'); None for max or curve."""
    loops = definition.loops
    stated = _REQUESTED_RATE.search(definition.description)
    return _loop_number(loops.get("iorate") or loops.get("fwdrate") or (stated and stated.group(1)))


def _for_loops(description: str) -> dict[str, str]:
    """``threads=8 xfersize=4k`` after 'For loops:' as a dict; 'None' gives an empty dict."""
    _, found, loops = description.partition("For loops:")
    pairs = (item.split("=", 1) for item in loops.split() if "=" in item) if found else ()
    return dict(pairs)


def _loop_number(text: str | None) -> float | None:
    """A parameter's number; None for text, and for a value too large to count threads or bytes by."""
    try:
        number = float(text) if text is not None else None
    except ValueError:
        return None
    return number if number is None or abs(number) < _INFINITY else None


def _random_pct(seekpct: str | None) -> float | None:
    if seekpct is None:
        return None
    named = {"seq": 0.0, "sequential": 0.0, "eof": 0.0, "random": 100.0, "rand": 100.0}
    return named.get(seekpct.lower(), _loop_number(seekpct))


def _header_date(text: str) -> str | None:
    english = _ENGLISH_DATE.match(text)
    if english and english.group(1).lower() in _MONTHS:
        return f"{english.group(3)}-{_MONTHS.index(english.group(1).lower()) + 1:02d}-{int(english.group(2)):02d}"
    cjk = _CJK_DATE.match(text)
    if cjk:
        return f"{cjk.group(3)}-{int(cjk.group(1)):02d}-{int(cjk.group(2)):02d}"
    return None


def _iso(date: str | None, time_of_day: str | None) -> str | None:
    return f"{date}T{time_of_day}" if date and time_of_day else None


def _flat_started_at(timestamp: str | None) -> str | None:
    match = _FLAT_TIMESTAMP.match(timestamp or "")
    return f"{match.group(3)}-{match.group(1)}-{match.group(2)}T{match.group(4)}" if match else None
