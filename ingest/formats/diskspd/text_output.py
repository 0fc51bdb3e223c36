"""DiskSpd's text output (the default), as a Windows console prints it: parameters, then the Total,
Read and Write IO tables, the CPU table and the ``%-ile`` table of each result; several outputs may
follow one another in a file."""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...errors import ParseError
from ...numbers import Printed, read_number, whole
from ...result import Run
from ...source import Source, sniff_encoding
from ...units import size_multiplier
from .model import _Direction, _Measurement, _run, _Target
from .xml_output import _timestamp

# Windows code page assumed for text lines that are not UTF-8 (a console redirected to a file).
LEGACY_CODE_PAGE = "cp1251"
PERCENTILE_ROWS = {"min": "0", "max": "100", "25th": "25", "50th": "50", "75th": "75", "90th": "90"}
PERCENTILE_ROWS |= {"95th": "95", "99th": "99"}
PERCENTILE_ROWS |= {f"{n}-nines": "99." + "9" * (n - 2) for n in range(3, 10)}
# -L: DiskSpd measures latency and ends each result with a %-ile table.
LATENCY_FLAG = re.compile(r"(?:^|\s)-L(?=\s|$)")
# The CPU table's header: DiskSpd 2.0 writes "CPU |" or "Group | CPU |"; 2.1 and 2.2 put the CPU's
# place before it ("Core | CPU |", "Node | Group | Core | CPU |", "Socket | Node | Core | CPU |", ...).
CPU_HEADER = re.compile(r"^(?:(?:Socket|Node|Group|Core)\s*\|\s*)*CPU\s*\|")
# Command-line switches that give a run's profile when the output has no 'Input parameters:' (DiskSpd
# -Rtext as some harnesses save it): block size, random (alignment) or sequential (stride), write %,
# outstanding I/Os per thread and target.
THREADS_PER_FILE = re.compile(r"threads per file:\s*(\d+)")
SWITCH = re.compile(r"^[-/]([brswo])(.*)$")
# DiskSpd's documented defaults for what the command line leaves out: 64 KiB blocks, sequential,
# reads only, 2 outstanding I/Os.
COMMAND_LINE_DEFAULTS = {"b": "64K", "w": "0", "o": "2"}
SWITCH_SIZE_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3}
FILE_SIZE_SUFFIX = re.compile(r"\s+\(\d+(?:[KMGT]i?)?B\)$")
# Text output as a Windows locale prints it: grouping spaces, a decimal comma, "N/A", "12%".
PRINTED_TEXT = Printed(
    missing=frozenset({"n/a"}),
    units=("%",),
    decimal_comma=True,
    grouping_spaces=True,
    refusal="expected a number in {field!r}, found {stripped!r}",
)


# Text output ----------------------------------------------------------------------------------


def _parse_text(source: Source) -> tuple[str | None, list[Run], list[str]]:
    reader = _TextReader(source)
    for number, line in _text_lines(source, reader.warnings):
        reader.feed(number, line)
    reader.finish()
    return None, reader.runs, reader.warnings


def _text_lines(source: Source, warnings: list[str]) -> Iterator[tuple[int, str]]:
    """Numbered lines without line ends; lines that are not UTF-8 are read in the legacy code page."""
    encoding, _ = sniff_encoding(source.head())
    if encoding != "utf-8":
        with source.open_text() as stream:
            for number, line in enumerate(stream, 1):
                yield number, line.rstrip("\n")
        return
    legacy = []
    with source.open_binary() as stream:
        for number, raw in enumerate(stream, 1):
            if b"\x00" in raw:
                raise ParseError(
                    "NUL byte in the text: the file is damaged (or UTF-16 without a byte-order mark); "
                    "save DiskSpd's output again",
                    file=source.name,
                    line=number,
                )
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line = raw.decode(LEGACY_CODE_PAGE, errors="replace")
                legacy.append(number)
            yield number, line.rstrip("\r\n")
    if legacy:
        warnings.append(
            f"{source.name}: {len(legacy)} lines (first: line {legacy[0]}) are not UTF-8 and were read as "
            f"{LEGACY_CODE_PAGE}; names may show wrong letters if the console used another code page"
        )


@dataclass
class _TextRun:
    """One DiskSpd text output, from its ``Command Line:`` on."""

    line: int
    command_line: str
    spans: list[dict[str, Any]] = field(default_factory=list)  # per timespan: {"targets": [...], "pool_depth": n}
    results: list[dict[str, Any]] = field(default_factory=list)  # per measured timespan: dict of what was read
    system: dict[str, str] = field(default_factory=dict)


class _TextReader:
    """A line-driven reader: the section a line belongs to decides how it is read."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.warnings: list[str] = []
        self.runs: list[Run] = []
        self.run: _TextRun | None = None
        self.section: str | None = None
        self.table: dict[str, Any] | None = None
        self.skipped: list[tuple[int, str]] = []  # (line number, text) not part of any DiskSpd section
        self.label: tuple[int, str] | None = None  # the line naming the next %-ile chart (a target path or "total:")

    # dispatch

    def feed(self, number: int, line: str) -> None:
        stripped = line.strip()
        if stripped.startswith("Command Line:"):
            self._start_run(number, stripped)
        elif self.run is None:
            self._skip(number, stripped)
        elif self.table is not None:
            self._table_line(self.table, number, stripped)
        elif stripped:
            self._section_line(number, stripped)

    def _section_line(self, number: int, stripped: str) -> None:
        if stripped == "Input parameters:":
            self.section = "parameters"
        elif stripped == "System information:":
            self.section = "system"
        elif stripped.startswith("Results for timespan"):
            self._start_results(number, stripped)
        elif stripped == "Totals:":
            self.section = "totals"
        elif self.section == "parameters":
            self._parameter(number, stripped)
        elif self.section == "system":
            key, _, value = stripped.partition(":")
            self._current().system[key.strip()] = value.strip()
        elif self.section == "totals":
            return
        elif not self._result_line(number, stripped):
            self._label_or_skip(number, stripped)

    def _start_run(self, number: int, stripped: str) -> None:
        self._flush_run()
        self._warn_skipped()
        self.run = _TextRun(line=number, command_line=stripped.partition(":")[2].strip())
        self.section, self.table = None, None

    def _skip(self, number: int, stripped: str) -> None:
        if stripped:
            self.skipped.append((number, stripped))

    def _label_or_skip(self, number: int, stripped: str) -> None:
        if self.label is not None:
            self._skip(*self.label)
        self.label = (number, stripped)

    def _warn_skipped(self) -> None:
        if self.label is not None:
            self._skip(*self.label)
            self.label = None
        if not self.skipped:
            return
        first, last = self.skipped[0][0], self.skipped[-1][0]
        where = f"{first}" if first == last else f"{first}-{last}"
        shown = " | ".join(text for _, text in self.skipped[:3]) + (" | ..." if len(self.skipped) > 3 else "")
        count = f"{len(self.skipped)} line" + ("s" if len(self.skipped) > 1 else "")
        self.warnings.append(f"{self.source.name}:{where}: {count} outside DiskSpd output skipped: {shown}")
        self.skipped = []

    def _current(self) -> _TextRun:
        """The output being read: section lines reach the readers only after its 'Command Line:'."""
        if self.run is None:
            raise ParseError("DiskSpd output before its 'Command Line:'", file=self.source.name)
        return self.run

    def finish(self) -> None:
        self._flush_run()
        self._warn_skipped()

    # Input parameters

    def _parameter(self, number: int, stripped: str) -> None:
        key, _, value = stripped.partition(":")
        spans = self._current().spans
        if key == "timespan":
            spans.append({"targets": [], "pool_depth": None, "settings": {}})
            return
        if not spans:
            spans.append({"targets": [], "pool_depth": None, "settings": {}})
        span = spans[-1]
        if key == "path":
            span["targets"].append(_Target(path=value.strip().strip("'")))
        elif span["targets"]:
            self._target_parameter(span["targets"][-1], number, stripped)
        elif key.startswith("number of outstanding I/O operations"):
            span["pool_depth"] = self._count(value, number, key)
        elif value:
            span["settings"][key] = value.strip()

    def _target_parameter(self, target: _Target, number: int, stripped: str) -> None:
        key, _, value = stripped.partition(":")
        if key == "block size":
            target.block_bytes = _size_bytes(value, number, self.source)
        elif key.startswith("number of outstanding I/O operations"):
            target.outstanding_per_thread = self._count(value, number, key)
        elif stripped.startswith("performing"):
            target.write_pct = _write_pct(stripped)
        elif stripped.startswith("using") and "I/O (" in stripped:
            target.random_pct = _random_pct(stripped)
            target.interlocked = stripped.startswith("using interlocked sequential")
            target.alignment_bytes = self._alignment_bytes(stripped, number) if target.random_pct else None
        else:
            target.settings.append(stripped)

    def _alignment_bytes(self, stripped: str, number: int) -> int | None:
        """'using random I/O (alignment: 4096)', '... (alignment/stride: 8KiB)'."""
        match = re.search(r"\(alignment(?:/stride)?:\s*([^)]*)\)", stripped)
        return _size_bytes(match.group(1), number, self.source, field="alignment") if match else None

    # Results

    def _start_results(self, number: int, stripped: str) -> None:
        self.section = "results"
        self._current().results.append(
            {"line": number, "timespan": len(self._current().results) + 1, "tables": {}, "charts": []}
        )

    def _result_line(self, number: int, stripped: str) -> bool:
        """Read one line of a results section; False when it is not DiskSpd's."""
        if not self._current().results:
            return False
        if not stripped.strip("*-"):
            return True  # a rule under a heading
        result = self._current().results[-1]
        key, _, value = stripped.partition(":")
        if key in ("actual test time", "thread count", "request count", "proc count") and value.strip():
            result[key] = self._number(value.strip().rstrip("s"), number, key)
        elif stripped.startswith("The test was interrupted"):
            self.warnings.append(f"{self.source.name}:{number}: {stripped}")
            result["interrupted"] = True
        elif stripped in ("Total IO", "Read IO", "Write IO"):
            self.table = {
                "kind": stripped.split()[0].lower(), "header": None, "rows": [], "total": None, "line": number,
            }  # fmt: skip
        elif CPU_HEADER.match(stripped):
            self.table = {"kind": "cpu", "header": _cells(stripped), "rows": [], "total": None}
        elif stripped.startswith("%-ile |"):
            # DiskSpd names a chart on the line just above it; anything further up is not a name.
            label = self.label[1] if self.label and self.label[0] == number - 1 else None
            if self.label and label is None:
                self._skip(*self.label)
            self.label = None
            self.table = {
                "kind": "percentiles", "header": _cells(stripped), "rows": [], "label": label, "line": number,
            }  # fmt: skip
        else:
            return False
        return True

    def _table_line(self, table: dict[str, Any], number: int, stripped: str) -> None:
        if not stripped:
            self._end_table(table)
        elif not stripped.strip("-"):
            return
        elif table["header"] is None:
            table["header"] = _cells(stripped)
        elif stripped.startswith("total:"):
            table["total"] = (number, _cells(stripped.removeprefix("total:")))
        elif stripped.startswith("avg."):
            table["total"] = (number, _cells(stripped.removeprefix("avg.").lstrip("|")))
        else:
            table["rows"].append((number, stripped))  # split only where the rows are used

    def _end_table(self, table: dict[str, Any]) -> None:
        self.table = None
        result = self._current().results[-1]
        if table["kind"] == "percentiles":
            if self._percentiles_complete(table):
                result["charts"].append((table["label"], self._percentiles(table)))
            else:
                result["cut_percentiles"] = True
        else:
            result["tables"][table["kind"]] = table

    def _percentiles_complete(self, table: dict[str, Any]) -> bool:
        """DiskSpd ends every %-ile table with its ``max`` row: a table without it was cut short, and is
        not read (a warning says so)."""
        if any(_cells(row)[:1] == ["max"] for _, row in table["rows"]):
            return True
        last = table["rows"][-1][0] if table["rows"] else table["line"]
        self.warnings.append(
            f"{self.source.name}:{last}: the %-ile table ends before its 'max' row (DiskSpd always writes it): "
            "the output looks cut short here; its percentiles and maximum latency are not stored"
        )
        return False

    def _percentiles(self, table: dict[str, Any]) -> dict[str, dict[str, float]]:
        columns = {"Read (ms)": "read", "Write (ms)": "write", "Total (ms)": "total"}
        chart: dict[str, dict[str, float]] = {}
        for number, row in table["rows"]:
            cells = _cells(row)
            percentile = PERCENTILE_ROWS.get(cells[0])
            for name, text in zip(table["header"][1:], cells[1:], strict=False):
                value = self._number(text, number, name)
                if percentile is not None and name in columns and value is not None:
                    chart.setdefault(columns[name], {})[percentile] = value
        return chart

    # Building runs

    def _flush_run(self) -> None:
        if self.table is not None:
            self._end_table(self.table)
        run, self.run = self.run, None
        if run is None:
            return
        self._check_run_complete(run)
        measured = [r for r in run.results if not r.get("interrupted")]
        for result in measured:
            span = run.spans[result["timespan"] - 1] if result["timespan"] <= len(run.spans) else None
            measurement = self._measurement(result, span, run)
            self.runs.append(
                _run(
                    measurement,
                    timespan=result["timespan"],
                    several=len(run.results) > 1,
                    started_at=_timestamp(run.system.get("start time")),
                    description=run.command_line,
                    warnings=self.warnings,
                    where=f"{self.source.name}:{result['line']}",
                )
            )

    def _check_run_complete(self, run: _TextRun) -> None:
        """A run whose output stops before the results of each of its timespans is cut short: what it
        holds is not stored, and the warning says so."""
        expected = max(len(run.spans), 1)
        if len(run.results) < expected:
            self.warnings.append(
                f"{self.source.name}:{run.line}: this DiskSpd run holds the results of {len(run.results)} of its "
                f"{expected} timespan{'s' if expected > 1 else ''}: the output looks cut short, and the missing "
                "results are not stored"
            )

    def _measurement(self, result: dict[str, Any], span: dict[str, Any] | None, run: _TextRun) -> _Measurement:
        seconds = result.get("actual test time")
        if not seconds or "total" not in result["tables"]:
            raise ParseError(
                "the results have no 'actual test time' or no 'Total IO' table; the output looks cut short",
                file=self.source.name,
                line=result["line"],
            )
        missing = [f"'{kind.title()} IO'" for kind in ("read", "write") if kind not in result["tables"]]
        if missing:
            raise ParseError(
                f"the results have no {' or '.join(missing)} table (DiskSpd writes Total, Read and Write IO "
                "tables); the output looks cut short",
                file=self.source.name,
                line=result["line"],
            )
        if LATENCY_FLAG.search(run.command_line) and not result["charts"] and not result.get("cut_percentiles"):
            self.warnings.append(
                f"{self.source.name}:{result['line']}: DiskSpd ran with -L but these results have no %-ile table: "
                "the output looks cut short; their percentiles and maximum latency are not stored"
            )
        directions = {kind: self._io_table(table) for kind, table in result["tables"].items() if kind != "cpu"}
        pairs = self._thread_rows(result["tables"]["total"])
        if span is None:
            span = self._command_line_span(run, pairs)
        self._check_thread_count(result, span)
        return _Measurement(
            seconds=seconds,
            threads=self._count(result["thread count"], result["line"], "thread count")
            if result.get("thread count")
            else None,
            directions=directions,
            pairs=pairs,
            targets=span["targets"] if span else [],
            pool_outstanding_per_thread=span["pool_depth"] if span else None,
            cpu_pct=self._cpu_pct(result["tables"].get("cpu")),
            metrics=self._text_metrics(result),
            params={"command_line": run.command_line, **(span["settings"] if span else {}), **run.system}
            | {"targets": [vars(t) for t in (span["targets"] if span else [])]},
        )

    def _check_thread_count(self, result: dict[str, Any], span: dict[str, Any] | None) -> None:
        """A warning when the input parameters' threads per file, added over the targets, are not the
        results' 'thread count' (the count is the load stored)."""
        per_target = [
            int(match.group(1))
            for target in (span["targets"] if span else [])
            for setting in target.settings
            if (match := THREADS_PER_FILE.fullmatch(setting))
        ]
        stated = result.get("thread count")
        complete = per_target and len(per_target) == len(span["targets"] if span else [])
        if complete and stated is not None and stated != sum(per_target):
            self.warnings.append(
                f"{self.source.name}:{result['line']}: the input parameters give {sum(per_target)} threads "
                f"('threads per file' over {len(per_target)} target{'s' if len(per_target) > 1 else ''}), the "
                f"results 'thread count: {stated:.0f}'; the load stored is the thread count"
            )

    def _command_line_span(self, run: _TextRun, pairs: list[tuple[str, int]]) -> dict[str, Any] | None:
        """The profile the command line states, for an output without 'Input parameters:': one target per
        path the results name, each with the command's -b, -r/-s, -w and -o (DiskSpd's defaults where it
        gives none); ``None`` when the command sets a switch twice or takes its profile from -X."""
        switches: dict[str, str] = {}
        for token in run.command_line.split()[1:]:
            match = SWITCH.match(token)
            if token.lower().startswith(("-x", "/x")) or (match and match.group(1) in switches):
                return None
            if match:
                switches[match.group(1)] = match.group(2)
        if "r" in switches and "s" in switches:
            return None
        given = {**COMMAND_LINE_DEFAULTS, **switches}
        block = self._switch_number(given["b"], run, "-b", sizes=True)
        random = "r" in switches
        alignment = self._switch_number(given["r"] or given["b"], run, "-r", sizes=True) if random else None
        targets = [
            _Target(
                path=path,
                block_bytes=block,
                write_pct=float(self._switch_number(given["w"], run, "-w")),
                random_pct=100.0 if random else 0.0,
                outstanding_per_thread=self._switch_number(given["o"], run, "-o"),
                alignment_bytes=alignment,
            )
            for path in dict.fromkeys(path for path, _ in pairs)
        ]
        defaults = ", ".join(f"-{key}{value}" for key, value in COMMAND_LINE_DEFAULTS.items() if key not in switches)
        self.warnings.append(
            f"{self.source.name}:{run.line}: the output has no 'Input parameters:'; the workload and queue depth "
            "are read from the command line"
            + (f" (DiskSpd's defaults {defaults} for what it leaves out)" if defaults else "")
        )
        return {"targets": targets, "pool_depth": None, "settings": {"profile": "from the command line"}}

    def _switch_number(self, text: str, run: _TextRun, switch: str, *, sizes: bool = False) -> int:
        """The number a command-line switch gives (``-b4K``: 4,096 with ``sizes``)."""
        match = re.fullmatch(r"(\d+)([bkmgBKMG]?)", text)
        if not match or (match.group(2) and not sizes):
            raise ParseError(
                f"the command line's {switch}{text} is not a number DiskSpd takes", file=self.source.name, line=run.line
            )
        return int(match.group(1)) * SWITCH_SIZE_UNITS[match.group(2).lower()]

    def _io_table(self, table: dict[str, Any]) -> _Direction:
        """The ``total:`` row of one Total/Read/Write IO table."""
        header = table["header"]
        if table["total"] is None:
            raise ParseError(
                f"the {table['kind'].title()} IO table has no 'total:' row (the file may be cut short)",
                file=self.source.name,
                line=table["line"],
            )
        number, cells = table["total"]
        values = dict(zip(header[1:], cells, strict=False))
        direction = _Direction(
            ios=int(self._number(values.get("I/Os"), number, "I/Os") or 0),
            bytes=int(self._number(values.get("bytes"), number, "bytes") or 0),
            iops=self._number(values.get("I/O per s"), number, "I/O per s"),
            avg_ms=self._number(values["AvgLat"], number, "AvgLat") if "AvgLat" in values else None,
        )
        return direction

    def _thread_rows(self, table: dict[str, Any]) -> list[tuple[str, int]]:
        """(target path, I/Os) for each thread row of the Total IO table."""
        rows = []
        for number, row in table["rows"]:
            named = dict(zip(table["header"], _cells(row), strict=False))
            path = FILE_SIZE_SUFFIX.sub("", named.get("file", ""))
            rows.append((path, int(self._number(named.get("I/Os"), number, "I/Os") or 0)))
        return rows

    def _cpu_pct(self, table: dict[str, Any] | None) -> float | None:
        if table is None or table["total"] is None:
            return None
        number, cells = table["total"]
        # The avg. row has no Group/Core/CPU cells: align it with the header from the right.
        values = dict(zip(table["header"][-len(cells) :], cells, strict=False))
        return self._number(values.get("Usage"), number, "Usage")

    def _text_metrics(self, result: dict[str, Any]) -> dict[str, Any]:
        metrics: dict[str, Any] = {"test_time_s": result["actual test time"]}
        charts = result["charts"]
        overall = [chart for label, chart in charts if label in (None, "total:")]
        if overall or charts:
            metrics["percentiles_ms"] = (overall or [charts[-1][1]])[-1]
        per_target = {label: chart for label, chart in charts if label not in (None, "total:")}
        if per_target:
            metrics["target_percentiles_ms"] = per_target
        return metrics

    def _number(self, text: str | None, number: int, column: str) -> float | None:
        return _number(text, number, column, self.source)

    def _count(self, text: str | None, number: int, column: str) -> int:
        """A count the line must hold (outstanding I/Os per thread, ...)."""
        value = self._number(text, number, column)
        if value is None:
            raise ParseError(f"{column!r} has no value", file=self.source.name, line=number, field=column)
        return whole(value, file=self.source.name, line=number, field=column, shown=text)


def _cells(text: str) -> list[str]:
    return [cell.strip() for cell in text.split("|")]


def _number(text: str | None, number: int, column: str, source: Source) -> float | None:
    """A number as DiskSpd printed it, also with a locale's grouping spaces and decimal comma."""
    return (
        None if text is None else read_number(text, file=source.name, line=number, field=column, printed=PRINTED_TEXT)
    )


def _size_bytes(text: str, number: int, source: Source, field: str = "block size") -> int:
    match = re.fullmatch(r"\s*(\d+)\s*([KMGT]iB|B)?\s*", text)
    if not match:
        raise ParseError(f"{field} {text.strip()!r} is not a size", file=source.name, line=number, field=field)
    multiplier = size_multiplier(match.group(2) or "")
    if multiplier is None:  # the pattern holds only units size_multiplier knows
        raise ParseError(f"{field} {text.strip()!r} is not a size", file=source.name, line=number, field=field)
    return int(match.group(1)) * multiplier


def _write_pct(stripped: str) -> float | None:
    if "read test" in stripped:
        return 0.0
    if "write test" in stripped:
        return 100.0
    match = re.search(r"ratio:\s*(\d+)\s*/\s*(\d+)", stripped)
    return float(match.group(2)) if match else None


def _random_pct(stripped: str) -> float:
    if stripped.startswith("using random"):
        return 100.0
    match = re.search(r"\((\d+)% random\)", stripped)
    return float(match.group(1)) if match else 0.0
