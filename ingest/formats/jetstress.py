"""Microsoft Exchange Jetstress result reports (HTML), Jetstress 2007 to 2019.

A report is sections of two-column label/value tables (Test Summary, Database Sizing and
Throughput, Jetstress System Parameters) and multi-column grids (Jetstress 2007: "Disk Subsystem
Performance" with one LogicalDisk row per volume, latencies in **seconds**; 2010 and later:
"Transactional I/O Performance" with one ``InstanceNNNN.N`` row per database instance, latencies in
**milliseconds**), then host counters and the test log. Section titles may be headings or a
one-cell row of the table; labels are matched by their words, whatever their case, spacing and
"Transactional".

The report is user-supplied HTML: it is read with the standard library's tokenizer only, never
rendered, and nothing in it is run. Cell text is kept as written: markup that is not text
formatting (``<script>``, ``<img>``...) stays in the value as literal text; scripts outside the
tables are passed over with a warning.

Mapping: one run named after the test description (or "Jetstress"), ``verdict`` from Overall Test
Result, one point with ``load.threads`` = thread count, ``iops`` = achieved transactional IOPS,
``read_iops`` / ``write_iops`` = database reads / writes per second summed over instances (or
database volumes), ``avg_read_response_ms`` / ``avg_write_response_ms`` = database latencies
weighted by those rates, ``avg_response_ms`` = both weighted together, ``cpu_pct`` = host
``% Processor Time``; ``metrics`` holds ``target_iops``, ``log_write_latency_ms`` (weighted by log
writes per second), the per-instance rows (``instances``), the host counters (``host``) and any
other grid under its section name. The workload's read % is the measured database read share
(named in ``params["measured_workload"]``); random % and transfer sizes stay unknown: Exchange's
database I/O mix is not stated in the report, and its usual sizes are no figure of this test.
"""

import re
from datetime import datetime
from html.parser import HTMLParser
from typing import Any

from ..errors import ParseError
from ..figures import known_sum, measured_read_pct
from ..latency import iops_weighted_ms
from ..numbers import Printed, read_number
from ..result import Point, ResultSet, Run, Workload
from ..source import Source, decode_head
from ..units import convert_time

MAX_THREAD_DIGITS = 9  # a billion threads is no Jetstress run
FORMAT = "jetstress"
TOOL = "Microsoft Exchange Jetstress"
READS = (
    "Jetstress 2007 to 2019 HTML result reports (UTF-8 or UTF-16): verdict, achieved and target IOPS, "
    "thread count, per-volume or per-instance database and log latencies; configuration XML refused"
)

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
_PRINTED = Printed(
    missing=frozenset({"", "n/a", "(n/a)", "-", "na"}),
    units=("%", "mb", "bytes"),
    refusal="expected a number, found {text!r}",
    one_refusal=True,
)
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
_Instance = dict[str, float | str | None]
# What the report reader found, in order: ("text", text, line) outside tables, ("table", table).
_Item = tuple[str, "_Table"] | tuple[str, str, int]
_TIME_FORMATS = ("%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%d.%m.%Y %H:%M:%S")


def _head_text(head: bytes) -> str:
    return decode_head(head).lower()


def refuse(head: bytes, name: str) -> str | None:
    text = _head_text(head)
    if "<configuration" in text and ("jetstressversiongenerated" in text or "<exchangeprofile" in text):
        return (
            "this is a Jetstress configuration file (JetstressConfig.xml): the settings of a test, not its "
            "results; upload the HTML report Jetstress writes after the test (Performance_*.html)"
        )
    return None


def sniff(head: bytes, name: str) -> bool:
    text = _head_text(head)
    return "jetstress" in text and ("<html" in text or "<table" in text)


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


def _number(text: str, *, line: int | None, field: str | None) -> float | None:
    """A figure as printed ('1,101.114', '40%', '32.0 MB'); None for '(n/a)' and blanks."""
    return read_number(text, file=None, line=line, field=field, printed=_PRINTED)


def _field(report: _Report, *keys: str) -> _Field | None:
    for key in keys:
        if key in report.fields:
            return report.fields[key]
    return None


def _field_number(report: _Report, *keys: str) -> float | None:
    found = _field(report, *keys)
    return None if found is None else _number(found[1], line=found[2], field=found[0])


def _column_role(label: str, line: int) -> tuple[str | None, str | None, str | None, str | None]:
    """``(target, direction, measure, unit)`` of a grid column (``unit`` the time unit of a latency);
    None where the label does not say."""
    text = label.lower()
    direction = "read" if "read" in text else "write" if "write" in text else None
    target = "log" if re.search(r"\blog\b", text) else "db" if "database" in text else None
    unit = None
    if "latency" in text or re.search(r"sec/(read|write)", text):
        measure = "latency"
        if re.search(r"msec|\(ms\)", text):
            unit = "ms"
        elif re.search(r"sec/(read|write)|\(sec\)|\(s\)", text):
            unit = "s"
        else:
            raise ParseError(
                "cannot tell whether this latency column is in seconds ('sec/Read') or milliseconds ('(msec)')",
                line=line,
                field=label,
            )
    elif "/sec" in text or "per sec" in text:
        measure = "rate"
    elif "bytes" in text:
        measure = "bytes"
    else:
        measure = None
    return target, direction, measure, unit


def _row_target(name: str) -> str | None:
    lowered = name.lower()
    if re.search(r"\blog\b", lowered):
        return "log"
    if "database" in lowered or re.search(r"\bdb\b", lowered):
        return "db"
    return None


def _metric_key(target: str, direction: str, measure: str) -> str:
    if measure == "latency":
        return f"{target}_{direction}_latency_ms"
    if measure == "rate":
        return f"{target}_{direction}s_per_s"
    return f"{target}_{direction}_bytes"


def _instance_rows(
    header_line: int, header: list[str], rows: list[tuple[int, list[str]]], warnings: list[str]
) -> list[_Instance]:
    """Per-instance (or per-volume) dicts with figures under unit-named keys."""
    roles = [_column_role(label, header_line) for label in header[1:]]
    instances: list[_Instance] = []
    for line, cells in rows:
        if len(cells) > len(header):
            warnings.append(f"line {line}: {len(cells) - len(header)} cell(s) beyond the table's columns not read")
        name = cells[0]
        row_target = _row_target(name)
        instance: _Instance = {"name": name}
        for label, role, text in zip(header[1:], roles, cells[1:], strict=False):
            target, direction, measure, unit = role
            target = target or row_target
            if not (target and direction and measure):
                instance[label] = _value_or_text(text)
                continue
            value = _number(text, line=line, field=label)
            instance[_metric_key(target, direction, measure)] = (
                convert_time(value, unit) if unit and value is not None else value
            )
        if not (row_target or any(role[0] for role in roles)):
            warnings.append(f"line {line}: {name!r} is neither a database nor a log volume; not counted in the totals")
        instances.append(instance)
    return instances


def _sum(instances: list[_Instance], key: str) -> float | None:
    return known_sum(_figure(row, key) for row in instances)


def _weighted(instances: list[_Instance], pairs: list[tuple[str, str]]) -> float | None:
    """Mean of latencies weighted by rates over ``pairs`` of (latency key, rate key); None without weight."""
    return iops_weighted_ms(
        (_figure(row, latency_key), _figure(row, rate_key)) for row in instances for latency_key, rate_key in pairs
    )


def _figure(row: _Instance, key: str) -> float | None:
    value = row.get(key)
    return value if isinstance(value, float) else None


def _plain_grid(header: list[str], rows: list[tuple[int, list[str]]]) -> list[_Instance]:
    return [{label: _value_or_text(text) for label, text in zip(header, cells, strict=False)} for _line, cells in rows]


def _value_or_text(text: str) -> float | str | None:
    try:
        return _number(text, line=None, field=None)
    except ParseError:
        return text


def _whole_number(text: str, line: int | None, label: str) -> int | None:
    """A count or a size in bytes as Jetstress prints it: a whole number ('inf', 'NaN' or '1.5' are damage)."""
    value = _number(text, line=line, field=label)
    if value is None:
        return None
    if not float(value).is_integer():
        raise ParseError(f"{label} {text.strip()!r} is not a whole number", line=line, field=label)
    return round(value)


def _time(found: _Field | None) -> str | None:
    """A Test Start / End Time as a date in ISO form; a time none of Jetstress's forms reads is refused."""
    if found is None:
        return None
    label, text, line, _section = found
    for pattern in _TIME_FORMATS:
        try:
            return datetime.strptime(text.strip(), pattern).isoformat()
        except ValueError:
            continue
    raise ParseError(
        f"{label} {text.strip()[:40]!r} is not a date as Jetstress writes it (such as '10/16/2009 11:49:39 AM')",
        line=line,
        field=label,
    )


def _verdict(report: _Report) -> str | None:
    found = _field(report, "overall test result")
    if found is None:
        report.warnings.append("no Overall Test Result in the report; the run has no verdict")
        return None
    value = found[1].strip().lower()
    if value.startswith(("pass", "fail")):
        return "pass" if value.startswith("pass") else "fail"
    report.warnings.append(f"line {found[2]}: Overall Test Result {found[1]!r} is neither Pass nor Fail")
    return None


def _threads(report: _Report) -> tuple[int | None, str | None]:
    found = _field(report, "thread count")
    if found is None:
        return None, None
    match = re.match(r"\s*(\d+)\s*(?:\((.*)\))?", found[1])
    if not match or len(match[1]) > MAX_THREAD_DIGITS:
        shown = found[1] if len(found[1]) <= 40 else f"{found[1][:40]}...({len(found[1])} characters)"
        raise ParseError(f"expected a number of threads, found {shown!r}", line=found[2], field=found[0])
    return int(match[1]), match[2]


def _params(report: _Report) -> dict[str, Any]:
    """Every label/value field by section, with percentages and MB sizes as numbers."""
    params: dict[str, Any] = {}
    for section, fields in report.sections.items():
        for label, value in fields.items():
            key = _snake(label)
            if section == "database configuration":
                params.setdefault("database_configuration", {})[label] = value
            elif "database size" in _label_key(label) or _label_key(label) == "database files":
                found = report.fields.get(_label_key(label))
                line = found[2] if found is not None else None
                params[f"{key}_{'count' if 'files' in key else 'bytes'}"] = _whole_number(value, line, label)
            elif value.strip().endswith("%"):
                params[f"{key}_pct"] = _value_or_text(value)
            elif re.fullmatch(r"[\d.,]+\s*mb", value.strip().lower()):
                params[f"{key}_mb"] = _value_or_text(value)
            elif key not in _FIELDS_ELSEWHERE:
                params[key] = value
    if report.test_log:
        params["test_log"] = report.test_log
    return params


def _grid_metrics(report: _Report) -> tuple[list[_Instance], dict[str, Any]]:
    """``(instances, metrics)`` from the grids: the main I/O grid's rows and every other grid by section."""
    metrics: dict[str, Any] = {}
    instances = None
    for section, header_line, header, rows in report.grids:
        if section in _MAIN_GRIDS and instances is None:
            instances = _instance_rows(header_line, header, rows, report.warnings)
        elif section == "host system performance":
            metrics["host"] = _plain_grid(header, rows)
        else:
            metrics[_snake(section or "grid").replace("_i_o_", "_io_")] = _plain_grid(header, rows)
    if instances is None:
        report.warnings.append(
            "no 'Transactional I/O Performance' or 'Disk Subsystem Performance' table: database read and write "
            "figures are unknown"
        )
    return instances or [], metrics


def _cpu_pct(host_rows: list[_Instance]) -> float | None:
    for row in host_rows:
        values = list(row.values())
        if values and str(values[0]).strip().lower() == "% processor time":
            average = row.get("Average", values[1] if len(values) > 1 else None)
            return average if isinstance(average, float) else None
    return None


def _point(report: _Report, achieved_iops: float, threads: int | None) -> Point:
    instances, metrics = _grid_metrics(report)
    read_iops = _sum(instances, "db_reads_per_s")
    write_iops = _sum(instances, "db_writes_per_s")
    metrics.update(
        target_iops=_field_number(report, "target i o per second"),
        log_write_latency_ms=_weighted(instances, [("log_write_latency_ms", "log_writes_per_s")]),
        instances=instances,
    )
    return Point(
        load={"threads": threads},
        iops=achieved_iops,
        read_iops=read_iops,
        write_iops=write_iops,
        avg_response_ms=_weighted(
            instances, [("db_read_latency_ms", "db_reads_per_s"), ("db_write_latency_ms", "db_writes_per_s")]
        ),
        avg_read_response_ms=_weighted(instances, [("db_read_latency_ms", "db_reads_per_s")]),
        avg_write_response_ms=_weighted(instances, [("db_write_latency_ms", "db_writes_per_s")]),
        cpu_pct=_cpu_pct(metrics.get("host", [])),
        metrics=metrics,
    )


def parse(source: Source) -> ResultSet:
    reader = _read_items(source)
    report = _collect(reader.items)
    report.warnings.extend(_cut_short_warning(source.name, reader))
    if reader.scripts_outside_tables:
        report.warnings.append(
            f"the report holds {reader.scripts_outside_tables} script element(s) outside its tables; "
            "they were passed over and never run"
        )
    achieved_iops = _field_number(report, "achieved i o per second")
    if achieved_iops is None:
        raise ParseError(
            "no 'Achieved Transactional I/O per Second' in this report: only Jetstress performance and stress "
            "test reports hold results (database checksum reports do not)",
            file=source.name,
        )
    threads, thread_scope = _threads(report)
    point = _point(report, achieved_iops, threads)
    description = _field(report, "test description")
    start = _time(_field(report, "test start time"))
    _time(_field(report, "test end time"))
    params = _params(report)
    if thread_scope:
        params["thread_count_scope"] = thread_scope
    read_pct = measured_read_pct(point.read_iops, point.write_iops)
    if read_pct is not None:
        params["measured_workload"] = ["read_pct"]
    run = Run(
        name=(description[1] if description else "") or "Jetstress",
        started_at=start,
        workload=Workload(read_pct=read_pct),
        verdict=_verdict(report),
        params=params,
        points=[point],
    )
    version = _field(report, "jetstress version")
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": version[1] if version else None},
        source=source.describe(),
        runs=[run],
        warnings=report.warnings,
    )
