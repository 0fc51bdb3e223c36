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
from operator import itemgetter

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

# Every number in a point's metrics is a cell read by ``_plain_figures``, ``_plain_counts`` or
# ``_number`` (finite, below 2^64-1), or one converted from MiB/s.
METRICS_CHECKED = True
# Iometer prints -1 for an ambiguous value and 2^64-1 for an unset sector count.
_UINT64_MAX = float(2**64 - 1)
# Whole numbers below this are exact as floats: a count read as an int equals the float read of it.
_EXACT_WHOLE = 2**53
_RESULT_MARKERS = ("'Test Type", "'Version", "'Time Stamp", "'Access specifications", "'Results")
_ICF_SECTIONS = ("'TEST SETUP", "'ACCESS SPECIFICATIONS", "'MANAGER LIST", "'RESULTS DISPLAY")
_TIMESTAMP = re.compile(r"^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?::(\d{1,3}))?$")
_HISTOGRAM_BIN = re.compile(r"^(?:(>=)\s*)?([\d.]+)(?:\s+to\s+([\d.]+))?\s*(uS|mS|S|s)$")
_BIN_UNIT_MS = {"uS": 0.001, "mS": 1.0, "S": 1000.0, "s": 1000.0}
_SPEC_FIELDS = ("bytes", "pct", "read_pct", "random_pct", "delay_ms", "burst", "align_bytes", "reply_bytes")
_SPEC_CELLS = itemgetter(slice(len(_SPEC_FIELDS)))
_ROW_KINDS_NOT_TARGETS = ("ALL", "MANAGER", "PROCESSOR", "WORKER")
# Target Type cells as Iometer writes them, taken as they are (any other cell is stripped and upper-cased).
_ROW_KINDS = frozenset((*_ROW_KINDS_NOT_TARGETS, "DISK", "NETWORK"))

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


def _cells_getter(indices):
    """A function giving the cells at ``indices`` as a sequence (``itemgetter`` of one index gives the
    bare cell); ``None`` for no index."""
    if not indices:
        return None
    if len(indices) == 1:
        return itemgetter(slice(indices[0], indices[0] + 1))
    return itemgetter(*indices)


def _plain_figures(cells, getter):
    """The cells ``getter`` picks as floats, in one pass, when every one is a plain figure (from 0 to
    below 2^64-1), as in nearly every row; ``None`` when any is not (empty, -1, NaN, a word), so that
    ``_fill`` reads them one by one and names the cell that is an error."""
    if getter is None:
        return []
    try:
        values = list(map(float, getter(cells)))
        # NaN fails ``>=`` when min() returns it and makes the sum NaN otherwise; with no value below
        # 0, a sum below 2^64-1 keeps each value below it.
        if min(values) >= 0.0 and sum(values) < _UINT64_MAX:
            return values
    except ValueError:  # a cell float() does not read
        pass
    return None


def _plain_counts(cells, getter):
    """The cells ``getter`` picks as ints when every one is a plain whole count below 2^53 (where
    ``_whole`` of the float read gives the same int); ``None`` otherwise, as ``_plain_figures``."""
    if getter is None:
        return []
    try:
        counts = list(map(int, getter(cells)))
        if min(counts) >= 0 and max(counts) < _EXACT_WHOLE:
            return counts
    except ValueError:  # a cell int() does not read ("1.5", "")
        pass
    return None


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
        self._plain_readers()
        # PROCESSOR rows stop before the latency bins; every other row fills the whole header.
        self.processor_width = self.bins[0][0] if self.bins else len(self.columns)

    def _plain_readers(self):
        """Keys and cell getters of each row kind's figures, for ``_plain_figures`` / ``_plain_counts``."""
        self.figure_keys = [key for key, _i, _column in self.figure_cells]
        self.figure_get = _cells_getter([i for _key, i, _column in self.figure_cells])
        # A member's four figures, those only checked, then its Queue Depth: when a column is missing,
        # every member row is read cell by cell.
        kept = {key: i for key, i, _column in self.member_kept}
        self.member_get = None
        if len(kept) == len(_MEMBER_KEYS) and self.queue_depth_index is not None:
            checked = [i for _key, i, _column in self.member_checked]
            self.member_get = _cells_getter([*(kept[key] for key in _MEMBER_KEYS), *checked, self.queue_depth_index])
        self.metric_keys = [key for key, _i, _column in self.metric_cells]
        self.metric_get = _cells_getter([i for _key, i, _column in self.metric_cells])
        self.metric_count_keys = [key for key in self.metric_keys if key in _COUNT_METRICS]
        # With every column present, a row's figures are the dict of the keys and the values read.
        self.figures_complete = self.figure_keys == list(_FIGURE_KEYS)
        self.metrics_complete = self.metric_keys == list(_TOTAL_METRIC_COLUMNS)
        self.bin_bounds = [(name, low, high) for _i, name, (low, high) in self.bins]
        self.bin_get = _cells_getter([i for i, _name, _bounds in self.bins])
        # Rows other than ALL are read from their first cells only (names, member figures, Queue Depth,
        # CPU): they are split that far, and the rest of the row is only counted.
        used = [self.type_index, self.name_index, self.spec_index, self.cpu_index, self.queue_depth_index]
        used += [i for _key, i, _column in self.member_cells]
        self.split_at = 1 + max(i for i in used if i is not None)

    def _present(self, positions):
        return [(key, i, self.columns[i]) for key, i in positions.items() if i is not None]

    def _mb_columns(self, line):
        for columns, binary in ((_DECIMAL_MB_COLUMNS, False), (_BINARY_MB_COLUMNS, True), (_MIB_MB_COLUMNS, True)):
            if columns["mbps"] in self.index:
                return {key: self.index.get(column) for key, column in columns.items()}, binary
        raise ParseError("the results header has no MBps column ('MBps' or 'MBps (Decimal)')", line=line)

    def figures_of(self, cells, line):
        """The point figures of an ALL row, in contract units (MB/s decimal, ms)."""
        values = _plain_figures(cells, self.figure_get)
        if values is not None and self.figures_complete:
            out = dict(zip(_FIGURE_KEYS, values, strict=True))
        else:
            out = dict.fromkeys(_FIGURE_KEYS)
            if values is None:
                _fill(out, cells, self.figure_cells, line)
            else:
                out.update(zip(self.figure_keys, values, strict=True))
        if self.mb_binary:
            for key in _MB_KEYS:
                out[key] = mib_to_mbps(out[key])
        # A response time of 0 where no I/O of that kind completed is "not measured".
        for count, times in _TIMES_OF_COUNTS:
            if not out[count]:
                for key in times:
                    out[key] = None
        return out

    def member(self, cells, line, out):
        """``out`` (a WORKER or target row's names) with the row's four figures and Queue Depth, in
        contract units."""
        values = None if self.member_get is None else _plain_figures(cells, self.member_get)
        if values is None:
            out.update(_MEMBER_FIGURES_UNSET)
            _fill(out, cells, self.member_kept, line)
            _fill({}, cells, self.member_checked, line)
            iops, mbps = out["iops"], out["mbps"]
            response_ms, max_response_ms = out["avg_response_ms"], out["max_response_ms"]
            queue_depth = _optional(cells, self.queue_depth_index, line, "Queue Depth")
        else:
            iops, mbps, response_ms, max_response_ms = values[:4]
            queue_depth = values[-1]
        out["iops"] = iops
        out["mbps"] = mib_to_mbps(mbps) if self.mb_binary else mbps
        # As for the ALL row: no I/O, no response time.
        out["avg_response_ms"] = response_ms if iops else None
        out["max_response_ms"] = max_response_ms if iops else None
        out["queue_depth"] = _whole(queue_depth)
        return out


@dataclass
class _Spec:
    name: str
    default_assignment: str
    lines: list = field(default_factory=list)
    # Each line's values, as read: with the name, what tells one specification from another.
    line_values: list = field(default_factory=list)

    def key(self):
        return self.name, tuple(self.line_values)


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


def _blocks(stream, block_chars=1 << 14):
    """The stream's lines without their line ends, in lists of the lines of each block read (a line
    at a time costs more than the parsing)."""
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
        self.lines_read = 0

    @property
    def test(self):
        if not self.tests:
            self.tests.append(_Test(number=1, line=1))
        return self.tests[-1]

    def read(self, stream):
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
                    i = self.rows(lines, i, before)
                    if i == count:
                        break
                self.line(before + i + 1, lines[i])
                i += 1
        self.last_line = self.lines_read
        self.finish()

    def at_last_line(self, number):
        """Whether line ``number`` is the file's last; only asked before raising, as it reads on."""
        return number == self.lines_read and next(self.remaining, None) is None

    def line(self, number, text):
        stripped = text.strip()
        if not stripped:
            return
        if self.in_rows and stripped[0] != "'":
            # A results row not starting with a letter (``read`` takes the others). Nothing is awaited
            # inside a table.
            self.rows([text], 0, number - 1)
        elif self.awaiting:
            handler, self.awaiting = self.awaiting, None
            handler(stripped, number)
        elif stripped.startswith("'") and ("Target Type" not in stripped or not _is_results_header(stripped)):
            self.marker(stripped, number)
        elif self.in_rows:
            self.rows([text], 0, number - 1)
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
        handler = _MARKERS.get(keyword)
        if handler is None:
            self.warnings.append(f"line {number}: unknown Iometer marker {keyword!r} ignored")
        else:
            handler(self, number)

    def access_specifications(self, number):
        self.open_section(number)
        self.spec_mode = "block"

    def await_version(self, number):
        self.awaiting = self.version

    def await_time_stamp(self, number):
        self.awaiting = self.time_stamp

    def await_spec_name(self, number):
        self.awaiting = self.spec_name

    def spec_lines(self, number):
        self.spec_mode = "lines"

    def end_specs(self, number):
        self.spec_mode = None

    def results(self, number):
        self.open_results(number)
        self.awaiting = self.header

    def end_test(self, number):
        self.close_section()
        self.test.ended = True

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
        values = _plain_figures(cells, _SPEC_CELLS)
        if values is None:
            values = [_number(cell, number, name) for cell, name in zip(cells, _SPEC_FIELDS, strict=False)]
        line = dict(zip(_SPEC_FIELDS, values, strict=False))
        line["bytes"] = int(line["bytes"] or 0)
        spec = self.section.specs[-1]
        spec.lines.append(line)
        spec.line_values.append(tuple(line.values()))

    def header(self, text, number):
        # Every section repeats the same header; build its layout once.
        table = self.tables.get(text)
        if table is None:
            table = self.tables[text] = _Table(text.split(","), number)
        self.section.table, self.section.header_line = table, number
        self.in_rows = True

    def rows(self, lines, i, before):
        """Reads results rows from ``lines[i]`` on while they start with a letter (Target Type); returns
        the index of the first other line, or the length of ``lines``. ``before``: the number of the
        line before ``lines[0]``. One loop with the layout at hand: rows are most of a file, and most
        are PROCESSOR, WORKER and DISK rows, whose plain figures are converted here without a call per
        row or per cell."""
        section = self.section
        table = section.table
        width, processor_width, type_index, name_index = (
            table.width,
            table.processor_width,
            table.type_index,
            table.name_index,
        )
        spec_index = table.spec_index
        # A PROCESSOR row's CPU cell, when every row wide enough to be read has it.
        cpu_index = table.cpu_index if table.cpu_index is not None and table.cpu_index < processor_width else None
        member_get, mb_binary = table.member_get, table.mb_binary
        manager = section.manager
        processors, workers, targets = section.processors, section.workers, section.targets
        split_at, end = table.split_at, len(lines)
        while True:
            text = lines[i]
            number = before + i + 1
            cells = text.split(",", split_at)
            count = len(cells)
            if count > split_at:  # the last item is the rest of the row
                count += cells[split_at].count(",")
            if count > width:
                cells = text.split(",")
                count = self.trim(cells, table, number)
            kind = cells[type_index] if type_index < count else ""
            if kind not in _ROW_KINDS:
                kind = kind.strip().upper()
            if count < (processor_width if kind == "PROCESSOR" else width):
                self.short_row(kind, text.split(","), table, number)
            name = cells[name_index].strip() if name_index < count else ""
            if kind == "PROCESSOR":
                if cpu_index is None:
                    cpu_pct = _optional(cells, table.cpu_index, number, "% CPU Utilization")
                else:
                    cell = cells[cpu_index]
                    try:
                        cpu_pct = float(cell)
                    except ValueError:
                        cpu_pct = _number(cell, number, "% CPU Utilization")
                    else:
                        if not 0.0 <= cpu_pct < _UINT64_MAX:
                            cpu_pct = _number(cell, number, "% CPU Utilization")
                processors.append({"manager": manager, "name": name, "cpu_pct": cpu_pct})
            elif kind == "ALL":
                self.total_row(text.split(",") if len(cells) < count else cells, number)
                # The per-second layout starts new lists at each ALL row.
                processors, workers, targets = section.processors, section.workers, section.targets
            elif kind == "MANAGER":
                section.manager = manager = name
            elif kind:
                values = None if member_get is None else _plain_figures(cells, member_get)
                if values is None:
                    member = {"manager": manager, "name": name}
                    if kind == "WORKER":
                        member["access_specification"] = _text(cells, spec_index)
                    table.member(cells, number, member)
                else:
                    iops, mbps, response_ms, max_response_ms = values[0], values[1], values[2], values[3]
                    if mb_binary:
                        mbps = mib_to_mbps(mbps)
                    if not iops:  # as for the ALL row: no I/O, no response time
                        response_ms = max_response_ms = None
                    queue_depth = values[-1]
                    if queue_depth.is_integer():
                        queue_depth = int(queue_depth)
                    if kind == "WORKER":
                        member = {
                            "manager": manager,
                            "name": name,
                            "access_specification": "" if spec_index is None else cells[spec_index].strip(),
                            "iops": iops,
                            "mbps": mbps,
                            "avg_response_ms": response_ms,
                            "max_response_ms": max_response_ms,
                            "queue_depth": queue_depth,
                        }
                    else:
                        member = {
                            "manager": manager,
                            "name": name,
                            "iops": iops,
                            "mbps": mbps,
                            "avg_response_ms": response_ms,
                            "max_response_ms": max_response_ms,
                            "queue_depth": queue_depth,
                        }
                if kind == "WORKER":
                    workers.append(member)
                else:
                    member["type"] = kind
                    member["worker"] = workers[-1]["name"] if workers else None
                    targets.append(member)
            else:
                raise ParseError("the row has no Target Type (ALL, MANAGER, WORKER, DISK ...)", line=number)
            i += 1
            if i == end or not lines[i][:1].isalpha():
                return i

    def trim(self, cells, table, number):
        """Drops empty cells past the header's width (trailing commas); other extra cells are an error.
        Returns how many cells are left."""
        while len(cells) > table.width and not cells[-1].strip():
            cells.pop()
        if len(cells) > table.width:
            raise ParseError(
                f"expected {table.width} columns after 'Target Type' (header line {self.section.header_line}), "
                f"found {len(cells)}; is there a comma inside a name?",
                line=number,
            )
        return len(cells)

    def short_row(self, kind, cells, table, number):
        width = table.processor_width if kind == "PROCESSOR" else table.width
        cut = "; the file looks truncated" if self.at_last_line(number) else ""
        raise ParseError(
            f"the {kind or 'unnamed'} row has {len(cells)} of the {width} columns the header on line "
            f"{self.section.header_line} announces{cut}",
            line=number,
        )

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
        # The point's metrics in the order they are shown; the section's end is set when it is read.
        metrics = {"started_at": section.started_at, "ended_at": None, "all_row_line": number}
        figures["metrics"] = _total_metrics(metrics, table, cells, number, figures)
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


def _where(section):
    return f"line {section.line} (test {section.test.number})"


def _total_metrics(metrics, table, cells, number, figures):
    """Adds the ALL row's figures beyond the point's own to ``metrics``: errors, bytes, CPU split,
    network counters."""
    values = _plain_figures(cells, table.metric_get)
    if values is None:
        metrics.update(dict.fromkeys(_TOTAL_METRIC_COLUMNS))
        _fill(metrics, cells, table.metric_cells, number)
        for key in _COUNT_METRICS:
            metrics[key] = _whole(metrics[key])
    else:
        if not table.metrics_complete:
            metrics.update(dict.fromkeys(_TOTAL_METRIC_COLUMNS))
        metrics.update(zip(table.metric_keys, values, strict=True))
        for key in table.metric_count_keys:
            value = metrics[key]
            if value.is_integer():
                metrics[key] = int(value)
    for count, maximum in (("read_iops", "max_read_response_ms"), ("write_iops", "max_write_response_ms")):
        if not figures[count]:
            metrics[maximum] = None
    return metrics


def _histogram(table, cells, number):
    """The ALL row's latency bins; the row is full width, so every bin column is there."""
    counts = _plain_counts(cells, table.bin_get)
    if counts is None:
        read = {}
        _fill(read, cells, table.bin_cells, number)
        counts = [_whole(read[i]) for i, _name, _bounds in table.bins]
    return [
        {"bin": name, "low_ms": low, "high_ms": high, "count": count}
        for (name, low, high), count in zip(table.bin_bounds, counts, strict=True)
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
    depths = [t["queue_depth"] for t in section.targets if t["type"] == "DISK"]
    if None in depths:
        depths = [depth for depth in depths if depth is not None]
    metrics = total["metrics"]
    metrics["ended_at"] = section.ended_at
    if total["histogram"]:
        metrics["latency_histogram"] = total["histogram"]
    metrics["workers"], metrics["targets"], metrics["processors"] = section.workers, section.targets, section.processors
    if section.time_series:
        metrics["time_series"] = section.time_series
    figures = {key: total[key] for key in (*_FIGURE_KEYS, "cpu_pct")}
    return Point(
        load={"outstanding_io": sum(depths) if depths else None, "threads": total["workers"]},
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


def _new_run(section, name, workload):
    return Run(
        name=name,
        description=section.test.description,
        started_at=section.started_at,
        workload=workload,
        params={
            "test_number": section.test.number,
            "test_type": section.test.type,
            "access_specifications": [
                {"name": s.name, "default_assignment": s.default_assignment, "lines": s.lines} for s in section.specs
            ],
        },
    )


def _runs(sections):
    """Group sections into runs: one per test and access specification, in file order. The workload
    of each access specification is worked out once: Iometer cycles a few specifications through
    many sections and tests."""
    runs, used_names, workloads = {}, set(), {}
    for section in sections:
        name = _spec_names(section)
        specs = tuple(spec.key() for spec in section.specs)
        key = (section.test.number, specs or name)
        run = runs.get(key)
        if run is None:
            workload = workloads.get(specs)
            if workload is None:
                workload = workloads[specs] = _workload(section.specs)
            run = runs[key] = _new_run(section, _unique_name(name, section.test.number, used_names), workload)
        run.points.append(_point(section))
    for run in runs.values():
        if len(run.points) > 1:
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
