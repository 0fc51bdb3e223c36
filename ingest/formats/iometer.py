"""Iometer results CSV (versions 1998.x to 2006.07.27, and 1.1.0).

An Iometer results file is a sequence of tests (``'Test Type`` ... ``'End Test``, repeated when
Iometer appends to the same file). Each test holds result sections, one per measurement Iometer
took while cycling access specifications or outstanding I/Os::

    'Time Stamp                      start of the measurement
    'Access specifications ... 'End access specifications
    'Results
    'Target Type,Target Name,...     header, then ALL > MANAGER > PROCESSOR > WORKER > DISK/NETWORK rows
    'Time Stamp                      end of the measurement (and start of the next)

Sections of one test with the same access specification form one run; each section is a point.
The ALL row gives the point's figures; the load is the summed Queue Depth of the DISK rows and the
worker count. Per-worker, per-target and per-processor figures, and the 1.1.0 latency histogram,
go in ``metrics``. MBps columns before 1.1.0 (and ``MiBps (Binary)``) are 2^20 bytes per second
and are converted; 1.1.0's ``MBps (Decimal)`` is used as printed.

In the per-second layout a ``TimeStamp`` column leads each row and every second repeats the ALL
row and its members; the last ALL row of a section is the result, the earlier ones become
``metrics["time_series"]``.

Rows are split on commas, never read with CSV quoting: Iometer writes target names such as
``1: "( INTEL SSDPE2ME016T4`` with an unbalanced double quote.
"""

import re
from dataclasses import dataclass, field

from ..errors import ParseError
from ..numbers import checked
from ..result import Point, ResultSet, Run, TransferSize, Workload, mib_to_mbps, point_load_key
from ..source import sniff_encoding

FORMAT = "iometer"
TOOL = "Iometer"
READS = (
    "Iometer results CSV, 1998.x-2006.07.27 (binary MBps) and 1.1.0 (decimal MBps, latency histogram), "
    "appended tests, cycled sections grouped into runs by access specification, per-second TimeStamp "
    "layout; .icf configurations refused"
)

# Iometer prints -1 for an ambiguous value and 2^64-1 for an unset sector count.
_UINT64_MAX = float(2**64 - 1)
_RESULT_MARKERS = ("'Test Type", "'Version", "'Time Stamp", "'Access specifications", "'Results")
_ICF_SECTIONS = ("'TEST SETUP", "'ACCESS SPECIFICATIONS", "'MANAGER LIST", "'RESULTS DISPLAY")
_TIMESTAMP = re.compile(r"^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?::(\d{1,3}))?$")
_HISTOGRAM_BIN = re.compile(r"^(?:(>=)\s*)?([\d.]+)(?:\s+to\s+([\d.]+))?\s*(uS|mS|S|s)$")
_BIN_UNIT_MS = {"uS": 0.001, "mS": 1.0, "S": 1000.0, "s": 1000.0}
_SPEC_FIELDS = ("bytes", "pct", "read_pct", "random_pct", "delay_ms", "burst", "align_bytes", "reply_bytes")
_ROW_KINDS_NOT_TARGETS = ("ALL", "MANAGER", "PROCESSOR", "WORKER")

# Point figure -> header column, per MB/s flavour. Iometer prints response times in ms.
_FIGURE_COLUMNS = {
    "iops": "IOps",
    "read_iops": "Read IOps",
    "write_iops": "Write IOps",
    "avg_response_ms": "Average Response Time",
    "avg_read_response_ms": "Average Read Response Time",
    "avg_write_response_ms": "Average Write Response Time",
    "max_response_ms": "Maximum Response Time",
}
_DECIMAL_MB_COLUMNS = {
    "mbps": "MBps (Decimal)",
    "read_mbps": "Read MBps (Decimal)",
    "write_mbps": "Write MBps (Decimal)",
}
_BINARY_MB_COLUMNS = {"mbps": "MBps", "read_mbps": "Read MBps", "write_mbps": "Write MBps"}
_MIB_MB_COLUMNS = {
    "mbps": "MiBps (Binary)",
    "read_mbps": "Read MiBps (Binary)",
    "write_mbps": "Write MiBps (Binary)",
}
_FIGURE_KEYS = (*_FIGURE_COLUMNS, "mbps", "read_mbps", "write_mbps")
_MB_KEYS = ("mbps", "read_mbps", "write_mbps")
_MEMBER_FIGURES = ("iops", "avg_response_ms", "max_response_ms")
# A member's figures, in the order its dict shows them.
_MEMBER_KEYS = ("iops", "mbps", "avg_response_ms", "max_response_ms")
_MEMBER_FIGURES_UNSET = dict.fromkeys(_MEMBER_KEYS)
_TIMES_OF_COUNTS = (
    ("iops", ("avg_response_ms", "max_response_ms")),
    ("read_iops", ("avg_read_response_ms",)),
    ("write_iops", ("avg_write_response_ms",)),
)
_COUNT_METRICS = (
    "managers",
    "disks",
    "errors",
    "read_errors",
    "write_errors",
    "bytes_read",
    "bytes_written",
    "read_ios",
    "write_ios",
    "packet_errors",
    "queue_depth",
    "starting_sector",
    "maximum_size_sectors",
)
# ALL-row columns kept in metrics, by metric name.
_TOTAL_METRIC_COLUMNS = {
    "managers": "# Managers",
    "disks": "# Disks",
    "max_read_response_ms": "Maximum Read Response Time",
    "max_write_response_ms": "Maximum Write Response Time",
    "transactions_per_s": "Transactions per Second",
    "connections_per_s": "Connections per Second",
    "errors": "Errors",
    "read_errors": "Read Errors",
    "write_errors": "Write Errors",
    "bytes_read": "Bytes Read",
    "bytes_written": "Bytes Written",
    "read_ios": "Read I/Os",
    "write_ios": "Write I/Os",
    "cpu_user_pct": "% User Time",
    "cpu_privileged_pct": "% Privileged Time",
    "cpu_dpc_pct": "% DPC Time",
    "cpu_interrupt_pct": "% Interrupt Time",
    "interrupts_per_s": "Interrupts per Second",
    "cpu_effectiveness": "CPU Effectiveness",
    "packets_per_s": "Packets/Second",
    "packet_errors": "Packet Errors",
    "segments_retransmitted_per_s": "Segments Retransmitted/Second",
    # Common to all workers, else -1 (None); sectors unset print as 2^64-1 (None).
    "queue_depth": "Queue Depth",
    "starting_sector": "Starting Sector",
    "maximum_size_sectors": "Maximum Size",
}


def _head_lines(head):
    encoding, bom_length = sniff_encoding(head)
    text = head[bom_length:].decode(encoding, errors="replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _is_results_header(line):
    names = [cell.strip().lstrip("'") for cell in line.split(",", 3)[:3]]
    return "Target Type" in names and "Target Name" in names


def sniff(head, name):
    lines = _head_lines(head)
    return bool(lines) and (lines[0].startswith(_RESULT_MARKERS) or _is_results_header(lines[0]))


def refuse(head, name):
    """A message for an Iometer configuration file (.icf), which holds settings and no results."""
    lines = _head_lines(head)
    if not lines or not re.match(r"^Version \S+", lines[0]):
        return None
    if not any(line.startswith(_ICF_SECTIONS) for line in lines[1:]):
        return None
    version = lines[0].split()[1]
    return (
        f"this is an Iometer configuration file (.icf, Version {version}): it holds test settings "
        "and no results. Run the test and upload the results CSV Iometer writes (the file given "
        "with /r, or the one chosen when the test starts)."
    )


def _number(text, line, column):
    """A cell as a float; ``None`` for an empty cell or an Iometer sentinel (-1, 2^64-1)."""
    try:
        value = float(text)
    except ValueError:
        if not text.strip():
            return None
        raise ParseError(f"{text.strip()!r} is not a number", line=line, field=column) from None
    if value == -1 or value == _UINT64_MAX:
        return None
    # Negative figures are left to the contract, which names the run and point.
    return checked(value, file=None, line=line, field=column, negative=True, shown=text)


def _cell(cells, i, line, column):
    """``_number`` of ``cells[i]``, with the common case (a plain non-negative figure) inline: the
    parser reads a million cells in a 50 MB file. NaN fails both comparisons and takes the slow path."""
    text = cells[i]
    try:
        value = float(text)
    except ValueError:
        return _number(text, line, column)
    if 0.0 <= value < _UINT64_MAX:
        return value
    return _number(text, line, column)


def _fill(out, cells, positions, line):
    """``out[key]`` = ``_cell`` of each ``(key, index, column)`` position, with ``_cell`` inline: this
    loop converts nearly every cell the parser reads."""
    for key, i, column in positions:
        text = cells[i]
        try:
            value = float(text)
        except ValueError:
            value = _number(text, line, column)
        else:
            if not 0.0 <= value < _UINT64_MAX:
                value = _number(text, line, column)
        out[key] = value


def _optional(cells, i, line, column):
    """``_cell`` of a column the header may lack or a short (PROCESSOR) row may stop before."""
    return None if i is None or i >= len(cells) else _cell(cells, i, line, column)


def _text(cells, i):
    return "" if i is None or i >= len(cells) else cells[i].strip()


def _whole(value):
    """A count read as a float (``4.0``) back to an int; other values unchanged."""
    return int(value) if value is not None and value.is_integer() else value


def _iso_timestamp(text):
    """``2023-03-25 03:05:43:661`` (Iometer's milliseconds after a colon) to ISO 8601, else ``None``."""
    match = _TIMESTAMP.match(text.strip())
    if not match:
        return None
    day, clock, millis = match.groups()
    return f"{day}T{clock}.{int(millis):03d}" if millis else f"{day}T{clock}"


def _histogram_bin(name):
    """``(low_ms, high_ms)`` for a latency-bin column name such as ``0.5 to 1 mS`` or ``>= 10 s``."""
    match = _HISTOGRAM_BIN.match(name.strip())
    if not match:
        return None
    at_least, low, high, unit = match.groups()
    scale = _BIN_UNIT_MS[unit]
    if at_least:
        return float(low) * scale, None
    if high is None:
        return None
    return float(low) * scale, float(high) * scale


class _Table:
    """The column layout of one ``'Target Type,...`` header line."""

    def __init__(self, cells, line):
        self.columns = [cell.strip().lstrip("'").strip() for cell in cells]
        self.index = {name: i for i, name in enumerate(self.columns) if name}
        if "Target Type" not in self.index or "IOps" not in self.index:
            raise ParseError("a results header must name 'Target Type' and 'IOps' columns", line=line)
        self.width = len(self.columns)
        self.type_index = self.index["Target Type"]
        self.name_index = self.type_index + 1
        self.time_index = self.index.get("TimeStamp", self.index.get("Time Stamp"))
        self.spec_index = self.index.get("Access Specification Name")
        self.workers_index = self.index.get("# Workers")
        self.cpu_index = self.index.get("% CPU Utilization")
        self.queue_depth_index = self.index.get("Queue Depth")
        self.figures = {key: self.index.get(column) for key, column in _FIGURE_COLUMNS.items()}
        self.mb_columns, self.mb_binary = self._mb_columns(line)
        # Column positions computed once per header: each row is converted in one pass over them.
        self.figure_cells = self._present({**self.figures, **self.mb_columns})
        # A member keeps four figures; its read and write MBps are converted only to refuse a damaged cell.
        self.member_cells = self._present({key: self.figures[key] for key in _MEMBER_FIGURES} | self.mb_columns)
        self.member_kept = [cell for cell in self.member_cells if cell[0] in _MEMBER_KEYS]
        self.member_checked = [cell for cell in self.member_cells if cell[0] not in _MEMBER_KEYS]
        self.metric_cells = self._present(
            {key: self.index.get(column) for key, column in _TOTAL_METRIC_COLUMNS.items()}
        )
        self.bins = [(i, name, bounds) for i, name in enumerate(self.columns) if (bounds := _histogram_bin(name))]
        self.bin_cells = [(i, i, name) for i, name, _bounds in self.bins]
        # PROCESSOR rows stop before the latency bins; every other row fills the whole header.
        self.processor_width = self.bins[0][0] if self.bins else len(self.columns)

    def _present(self, positions):
        return [(key, i, self.columns[i]) for key, i in positions.items() if i is not None]

    def _mb_columns(self, line):
        for columns, binary in ((_DECIMAL_MB_COLUMNS, False), (_BINARY_MB_COLUMNS, True), (_MIB_MB_COLUMNS, True)):
            if columns["mbps"] in self.index:
                return {key: self.index.get(column) for key, column in columns.items()}, binary
        raise ParseError("the results header has no MBps column ('MBps' or 'MBps (Decimal)')", line=line)

    def figures_of(self, cells, line):
        """The point figures of an ALL row, in contract units (MB/s decimal, ms)."""
        out = dict.fromkeys(_FIGURE_KEYS)
        _fill(out, cells, self.figure_cells, line)
        if self.mb_binary:
            for key in _MB_KEYS:
                out[key] = mib_to_mbps(out[key])
        # A response time of 0 where no I/O of that kind completed is "not measured".
        for count, times in _TIMES_OF_COUNTS:
            if not out[count]:
                for key in times:
                    out[key] = None
        return out

    def member_of(self, cells, line, out):
        """A WORKER or target row's four figures, added to ``out`` in contract units."""
        out.update(_MEMBER_FIGURES_UNSET)
        _fill(out, cells, self.member_kept, line)
        _fill({}, cells, self.member_checked, line)
        if self.mb_binary:
            out["mbps"] = mib_to_mbps(out["mbps"])
        if not out["iops"]:
            out["avg_response_ms"] = out["max_response_ms"] = None


@dataclass
class _Spec:
    name: str
    default_assignment: str
    lines: list = field(default_factory=list)

    def key(self):
        return self.name, tuple(tuple(line.values()) for line in self.lines)


@dataclass
class _Test:
    number: int
    line: int
    type: str = ""
    description: str = ""
    version: str | None = None
    ended: bool = False


@dataclass
class _Section:
    test: _Test
    line: int
    started_at: str | None = None
    ended_at: str | None = None
    specs: list = field(default_factory=list)
    table: _Table | None = None
    header_line: int | None = None
    total: dict | None = None
    total_line: int | None = None
    workers: list = field(default_factory=list)
    targets: list = field(default_factory=list)
    processors: list = field(default_factory=list)
    time_series: list = field(default_factory=list)
    manager: str | None = None


def _lines(stream, block_chars=1 << 14):
    """The stream's lines without their line ends, read a block at a time (a line at a time costs
    more than the parsing)."""
    pending = ""
    while block := stream.read(block_chars):
        text = pending + block
        lines = text.split("\n")
        pending = lines.pop()
        if "\r" in text:
            lines = [line.rstrip("\r") for line in lines]
        yield from lines
    if pending:
        yield pending.rstrip("\r")


class _Reader:
    """A line-by-line state machine over one results file."""

    def __init__(self):
        self.tests = []
        self.section = None
        self.awaiting = None
        self.spec_mode = None
        self.in_rows = False
        self.timestamp = None
        self.points = []
        self.warnings = []
        self.stray_lines = []
        self.last_line = 0
        self.tables = {}
        self.remaining = iter(())

    @property
    def test(self):
        if not self.tests:
            self.tests.append(_Test(number=1, line=1))
        return self.tests[-1]

    def read(self, stream):
        # Kept to tell a cut final row from a bad one (``at_last_line``).
        self.remaining = lines = _lines(stream)
        line = self.line
        for self.last_line, text in enumerate(lines, start=1):
            line(self.last_line, text)
        self.finish()

    def at_last_line(self):
        """Whether the line being read is the file's last; only asked before raising, as it reads on."""
        return next(self.remaining, None) is None

    def line(self, number, text):
        stripped = text.strip()
        if not stripped:
            return
        if self.in_rows and stripped[0] != "'":
            # The common line first: a results row. Nothing is awaited inside a table (markers end it).
            self.row(text, number)
        elif self.awaiting:
            handler, self.awaiting = self.awaiting, None
            handler(stripped, number)
        elif stripped.startswith("'") and not _is_results_header(stripped):
            self.marker(stripped, number)
        elif self.in_rows:
            self.row(text, number)
        elif self.spec_mode:
            self.spec_line(stripped, number)
        elif _is_results_header(stripped):
            self.open_results(number)
            self.header(stripped, number)
        else:
            self.stray_lines.append(number)

    def marker(self, text, number):
        keyword = text.split(",", 1)[0].rstrip()
        self.in_rows = False
        if keyword == "'Test Type":
            self.start_test(number)
        elif keyword == "'Version":
            self.awaiting = self.version
        elif keyword == "'Time Stamp":
            self.awaiting = self.time_stamp
        elif keyword == "'Access specifications":
            self.open_section(number)
            self.spec_mode = "block"
        elif keyword == "'Access specification name":
            self.awaiting = self.spec_name
        elif keyword == "'size":
            self.spec_mode = "lines"
        elif keyword == "'End access specifications":
            self.spec_mode = None
        elif keyword == "'Results":
            self.open_results(number)
            self.awaiting = self.header
        elif keyword == "'End Test":
            self.close_section()
            self.test.ended = True
        else:
            self.warnings.append(f"line {number}: unknown Iometer marker {keyword!r} ignored")

    def start_test(self, number):
        self.close_section()
        self.end_test_check()
        self.tests.append(_Test(number=len(self.tests) + 1, line=number))
        self.timestamp = None
        self.awaiting = self.test_type

    def test_type(self, text, number):
        kind, _, description = text.partition(",")
        self.test.type = kind.strip()
        self.test.description = description.strip()

    def version(self, text, number):
        self.test.version = text.strip()

    def time_stamp(self, text, number):
        moment = _iso_timestamp(text)
        if moment is None:
            self.warnings.append(f"line {number}: time stamp {text!r} is not in Iometer's form; ignored")
        if self.section is not None and self.section.total is not None:
            self.section.ended_at = moment
        self.close_section()
        self.timestamp = moment

    def open_section(self, number):
        self.close_section()
        self.section = _Section(test=self.test, line=number, started_at=self.timestamp)

    def open_results(self, number):
        if self.section is None or self.section.table is not None:
            self.open_section(number)
        self.spec_mode = None

    def need_section(self, number):
        """Access specification lines belong to a section opened by 'Access specifications."""
        if self.section is None:
            raise ParseError(
                "access specification outside an 'Access specifications block: the lines before it are missing "
                "or damaged",
                line=number,
            )

    def spec_name(self, text, number):
        self.need_section(number)
        name, _, assignment = text.rpartition(",")
        if not name:
            name, assignment = assignment, ""
        self.section.specs.append(_Spec(name=name.strip(), default_assignment=assignment.strip()))
        self.spec_mode = "block"

    def spec_line(self, text, number):
        self.need_section(number)
        if self.spec_mode != "lines" or not self.section.specs:
            self.stray_lines.append(number)
            return
        cells = [cell.strip() for cell in text.split(",")]
        while cells and not cells[-1]:
            cells.pop()
        if len(cells) < 4:
            raise ParseError(
                f"access specification line {text!r} needs at least size, % of size, % reads and % random",
                line=number,
            )
        values = [_number(cell, number, name) for cell, name in zip(cells, _SPEC_FIELDS, strict=False)]
        line = dict(zip(_SPEC_FIELDS, values, strict=False))
        line["bytes"] = int(line["bytes"] or 0)
        self.section.specs[-1].lines.append(line)

    def header(self, text, number):
        # Every section repeats the same header; build its layout once.
        table = self.tables.get(text)
        if table is None:
            table = self.tables[text] = _Table(text.split(","), number)
        self.section.table, self.section.header_line = table, number
        self.in_rows = True

    def row(self, text, number):
        table = self.section.table
        cells = text.split(",")
        if len(cells) > table.width:
            self.trim(cells, table, number)
        kind = cells[table.type_index].strip().upper() if table.type_index < len(cells) else ""
        if len(cells) < (table.processor_width if kind == "PROCESSOR" else table.width):
            self.short_row(kind, cells, table, number)
        self.dispatch_row(kind, cells, number)

    def trim(self, cells, table, number):
        """Drops empty cells past the header's width (trailing commas); other extra cells are an error."""
        while len(cells) > table.width and not cells[-1].strip():
            cells.pop()
        if len(cells) > table.width:
            raise ParseError(
                f"expected {table.width} columns after 'Target Type' (header line {self.section.header_line}), "
                f"found {len(cells)}; is there a comma inside a name?",
                line=number,
            )

    def short_row(self, kind, cells, table, number):
        width = table.processor_width if kind == "PROCESSOR" else table.width
        cut = "; the file looks truncated" if self.at_last_line() else ""
        raise ParseError(
            f"the {kind or 'unnamed'} row has {len(cells)} of the {width} columns the header on line "
            f"{self.section.header_line} announces{cut}",
            line=number,
        )

    def dispatch_row(self, kind, cells, number):
        section, table = self.section, self.section.table
        name = cells[table.name_index].strip() if table.name_index < len(cells) else ""
        if kind == "PROCESSOR":
            cpu_pct = _optional(cells, table.cpu_index, number, "% CPU Utilization")
            section.processors.append({"manager": section.manager, "name": name, "cpu_pct": cpu_pct})
        elif kind == "ALL":
            self.total_row(cells, number)
        elif kind == "MANAGER":
            section.manager = name
        elif kind == "WORKER":
            section.workers.append(self.member(cells, number, name, spec=True))
        elif kind:
            target = self.member(cells, number, name, spec=False)
            target["type"] = kind
            target["worker"] = section.workers[-1]["name"] if section.workers else None
            section.targets.append(target)
        else:
            raise ParseError("the row has no Target Type (ALL, MANAGER, WORKER, DISK ...)", line=number)

    def member(self, cells, number, name, *, spec):
        table = self.section.table
        out = {"manager": self.section.manager, "name": name}
        if spec:
            out["access_specification"] = _text(cells, table.spec_index)
        table.member_of(cells, number, out)
        out["queue_depth"] = _whole(_optional(cells, table.queue_depth_index, number, "Queue Depth"))
        return out

    def total_row(self, cells, number):
        section, table = self.section, self.section.table
        if section.total is not None:
            # Per-second layout: each ALL row opens one second's rows; the last one is the result.
            section.time_series.append(_second(section.total))
            section.workers, section.targets, section.processors = [], [], []
        figures = table.figures_of(cells, number)
        figures["workers"] = _whole(_optional(cells, table.workers_index, number, "# Workers"))
        figures["cpu_pct"] = _optional(cells, table.cpu_index, number, "% CPU Utilization")
        figures["spec_name"] = _text(cells, table.spec_index)
        figures["metrics"] = _total_metrics(table, cells, number, figures)
        figures["histogram"] = _histogram(table, cells, number)
        if table.time_index is not None:
            figures["time"] = _iso_timestamp(cells[table.time_index]) or cells[table.time_index].strip()
        section.total, section.total_line = figures, number

    def close_section(self):
        section, self.section = self.section, None
        self.spec_mode = None
        self.in_rows = False
        if section is None:
            return
        where = f"line {section.line} (test {section.test.number})"
        if section.total is None:
            if section.specs or section.table:
                names = ", ".join(repr(spec.name) for spec in section.specs) or "no access specification"
                self.warnings.append(f"{where}: section for {names} has no ALL results row (test stopped?); skipped")
            return
        if section.total["workers"] == 0 or not section.total["iops"]:
            self.warnings.append(
                f"{where}: section has {section.total['workers'] or 0:g} workers and "
                f"{section.total['iops'] or 0:g} IOPS (an empty run); skipped"
            )
            return
        self.points.append(section)

    def end_test_check(self):
        if self.tests and not self.tests[-1].ended:
            test = self.tests[-1]
            self.warnings.append(f"line {test.line}: test {test.number} has no 'End Test (stopped or cut short)")

    def finish(self):
        if self.awaiting is not None or (self.section is not None and self.in_rows and self.section.total is None):
            raise ParseError(
                "the file ends inside a section before its results; the file looks truncated",
                line=self.last_line,
            )
        self.close_section()
        self.end_test_check()
        if self.stray_lines:
            self.warnings.append(
                f"{len(self.stray_lines)} line(s) outside any Iometer section ignored (first on line "
                f"{self.stray_lines[0]})"
            )


def _total_metrics(table, cells, number, figures):
    """The ALL row's figures beyond the point's own: errors, bytes, CPU split, network counters."""
    metrics = dict.fromkeys(_TOTAL_METRIC_COLUMNS)
    _fill(metrics, cells, table.metric_cells, number)
    for key in _COUNT_METRICS:
        metrics[key] = _whole(metrics[key])
    for count, maximum in (("read_iops", "max_read_response_ms"), ("write_iops", "max_write_response_ms")):
        if not figures[count]:
            metrics[maximum] = None
    return metrics


def _histogram(table, cells, number):
    """The ALL row's latency bins; the row is full width, so every bin column is there."""
    counts = {}
    _fill(counts, cells, table.bin_cells, number)
    return [
        {"bin": name, "low_ms": low, "high_ms": high, "count": _whole(counts[i])} for i, name, (low, high) in table.bins
    ]


def _second(total):
    return {key: total.get(key) for key in ("time", "iops", "mbps", "avg_response_ms")}


def _workload(specs):
    """Transfer-size mix, read % and random % weighted by each line's share of the spec. Several
    specs (workers running different ones) give no one mix: how the I/Os split between them is
    not stated."""
    if len(specs) != 1:
        return Workload()
    lines = [line for line in specs[0].lines if line["bytes"] > 0 and line["pct"]]
    total_pct = sum(line["pct"] for line in lines)
    if not total_pct:
        return Workload()
    sizes = {}
    for line in lines:
        sizes[line["bytes"]] = sizes.get(line["bytes"], 0) + line["pct"] * 100 / total_pct
    return Workload(
        read_pct=sum(line["pct"] * (line["read_pct"] or 0) for line in lines) / total_pct,
        random_pct=sum(line["pct"] * (line["random_pct"] or 0) for line in lines) / total_pct,
        transfer_sizes=[TransferSize(bytes=size, pct=pct) for size, pct in sorted(sizes.items())],
        alignment_bytes=_alignment_bytes(lines),
    )


def _alignment_bytes(lines):
    """The ``align`` column when every line states the same one. 0 is Iometer's "sector
    boundaries", whose size the results do not state, so it stays unknown."""
    alignments = {line.get("align_bytes") for line in lines}
    if len(alignments) != 1:
        return None
    alignment = alignments.pop()
    return int(alignment) if alignment and alignment.is_integer() else None


def _point(section):
    total = section.total
    disk_depths = [t["queue_depth"] for t in section.targets if t["type"] == "DISK" and t["queue_depth"] is not None]
    metrics = {"started_at": section.started_at, "ended_at": section.ended_at, "all_row_line": section.total_line}
    metrics.update(total["metrics"])
    if total["histogram"]:
        metrics["latency_histogram"] = total["histogram"]
    metrics.update(workers=section.workers, targets=section.targets, processors=section.processors)
    if section.time_series:
        metrics["time_series"] = section.time_series
    figures = {key: total[key] for key in (*_FIGURE_COLUMNS, "mbps", "read_mbps", "write_mbps", "cpu_pct")}
    return Point(
        load={"outstanding_io": sum(disk_depths) if disk_depths else None, "threads": total["workers"]},
        metrics=metrics,
        **figures,
    )


def _spec_names(section):
    if section.specs:
        return " + ".join(spec.name for spec in section.specs)
    worker_specs = dict.fromkeys(w["access_specification"] for w in section.workers if w["access_specification"])
    return section.total["spec_name"] or " + ".join(worker_specs) or "unnamed access specification"


def _unique_name(name, test_number, used_names):
    """The spec name, qualified by its test when an earlier test already used it."""
    unique, repeat = name, 2
    if unique in used_names:
        unique = f"{name} (test {test_number})"
    while unique in used_names:
        unique, repeat = f"{name} (test {test_number}, #{repeat})", repeat + 1
    used_names.add(unique)
    return unique


def _new_run(section, name):
    return Run(
        name=name,
        description=section.test.description,
        started_at=section.started_at,
        workload=_workload(section.specs),
        params={
            "test_number": section.test.number,
            "test_type": section.test.type,
            "access_specifications": [
                {"name": s.name, "default_assignment": s.default_assignment, "lines": s.lines} for s in section.specs
            ],
        },
    )


def _runs(sections):
    """Group sections into runs: one per test and access specification, in file order."""
    runs, used_names = {}, set()
    for section in sections:
        name = _spec_names(section)
        key = (section.test.number, tuple(spec.key() for spec in section.specs) or name)
        if key not in runs:
            runs[key] = _new_run(section, _unique_name(name, section.test.number, used_names))
        runs[key].points.append(_point(section))
    for run in runs.values():
        run.points.sort(key=lambda p: point_load_key({"load": p.load}))
    return list(runs.values())


def _tool(tests, warnings):
    versions = list(dict.fromkeys(test.version for test in tests if test.version))
    if len(versions) > 1:
        warnings.append(f"tests were written by several Iometer versions ({', '.join(versions)}); the first is kept")
    return {"name": TOOL, "version": versions[0] if versions else None}


def parse(source):
    reader = _Reader()
    with source.open_text(errors="replace") as stream:
        reader.read(stream)
    if not reader.points:
        raise ParseError(
            "no result section with measurements: every section is empty or has no ALL row"
            + (f" ({reader.warnings[0]})" if reader.warnings else ""),
        )
    return ResultSet(
        format=FORMAT,
        tool=_tool(reader.tests, reader.warnings),
        source=source.describe(),
        runs=_runs(reader.points),
        warnings=reader.warnings,
    )
