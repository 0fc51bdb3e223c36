"""IOR's text output: a header, an ``Options:`` block and a ``Results:`` table per test, and (IOR 3.2, or
IOR run on its own) ``Max Write:`` lines and a ``Summary of all tests:`` table at the end."""

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ...errors import ParseError
from ...numbers import Printed, read_number, read_whole
from ...result import Point, Run, TransferSize, Workload
from ...source import Source
from ...units import KIB, MIB, mib_to_mbps

_PRINTED = Printed(required=True)
_ACCESSES = ("write", "read")
_KEY_VALUE = re.compile(r"^(\S[^:]*?)\s*: ?(.*)$")
_SETUP = re.compile(r"^(\S[^=]*?)\s*= ?(.*)$")
_CLIENTS = re.compile(r"^(\d+) \((\d+) per node\)")
# IOR's own columns of a results row, by the name its header row gives them.
_ROW_FIGURES = {
    "bw(MiB/s)": "mib_per_s",
    "IOPS": "iops",
    "Latency(s)": "latency_s",
    "block(KiB)": "block_kib",
    "xfer(KiB)": "xfer_kib",
    "open(s)": "open_s",
    "wr/rd(s)": "wrrd_s",
    "close(s)": "close_s",
    "total(s)": "total_s",
}
# The summary's figures kept with each run of its operation (its second StdDev is of the OPs).
_SUMMARY_FIGURES = {
    "Max(MiB)": "max_mib_per_s",
    "Min(MiB)": "min_mib_per_s",
    "Mean(MiB)": "mean_mib_per_s",
    "StdDev": "std_dev_mib_per_s",
    "Max(OPs)": "max_ops_per_s",
    "Min(OPs)": "min_ops_per_s",
    "Mean(OPs)": "mean_ops_per_s",
    "StdDev(OPs)": "std_dev_ops_per_s",
    "Mean(s)": "mean_s",
}


@dataclass
class _Row:
    """One results row: an access of one iteration of a test, with its figures by ``_ROW_FIGURES`` name."""

    access: str
    iteration: int
    line: int
    figures: dict[str, float]


@dataclass
class _Test:
    """One IOR test: its options, stonewalling lines and results rows."""

    line: int
    started_at: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    stonewalling: list[str] = field(default_factory=list)
    rows: list[_Row] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)


@dataclass
class _Reading:
    """What has been read of the file so far, and where the reader is."""

    name: str
    tests: list[_Test] = field(default_factory=list)
    command: str = ""
    block: str = "header"
    summary_columns: list[str] = field(default_factory=list)
    summary: dict[str, list[dict[str, float]]] = field(default_factory=dict)
    summary_line: int | None = None
    finished: bool = False
    unread: list[int] = field(default_factory=list)

    def test(self, number: int) -> _Test:
        if not self.tests:
            self.tests.append(_Test(line=number))
        return self.tests[-1]


def _number(text: str, number: int, column: str) -> float:
    value = read_number(text, file=None, line=number, field=column, printed=_PRINTED)
    assert value is not None  # required: an empty text is refused
    return value


def _text_runs(source: Source, warnings: list[str]) -> list[Run]:
    reading = _Reading(name=source.name)
    number = 0
    with source.open_text() as stream:
        for number, text in enumerate(stream, start=1):
            _line(reading, text.rstrip(), number, warnings)
    if reading.unread:
        first = reading.unread[0]
        warnings.append(
            f"{reading.name}:{first}: {len(reading.unread)} line(s) under Results:, the first on this line, are no "
            "results row (IOR's verbose output) and were not read"
        )
    warnings.extend(_cut_warnings(reading, number))
    return [run for test in reading.tests for run in _test_runs(reading, test)]


def _line(reading: _Reading, line: str, number: int, warnings: list[str]) -> None:
    stripped = line.strip()
    if not stripped:
        if reading.block in ("options", "setup"):
            reading.block = "header"
        return
    if stripped.startswith("WARNING:"):
        warnings.append(f"{reading.name}:{number}: IOR warns: {stripped.partition(':')[2].strip()}")
    elif stripped.startswith("TestID") and _KEY_VALUE.match(stripped):
        if not reading.tests or reading.tests[-1].options:
            reading.tests.append(_Test(line=number))
        reading.block = "header"
    elif stripped == "Options:":
        reading.test(number).line = number
        reading.block = "options"
    elif stripped == "Summary:" and not reading.summary_line:
        reading.test(number).line = number
        reading.block = "setup"  # IOR 3.0 and 3.1 print their setup as 'Summary:' and tab-indented 'key = value'
    elif stripped == "Results:":
        reading.block = "results"
    elif stripped.startswith("access ") and "bw(MiB/s)" in stripped and reading.block != "results":
        reading.block = "results"  # IOR 3.0 and 3.1 print the header row without a 'Results:' line
        _results_line(reading, stripped, number)
    elif stripped == "Summary of all tests:":
        reading.block, reading.summary_line = "summary", number
    elif stripped.startswith("Finished") and _KEY_VALUE.match(stripped):
        reading.finished = True
    elif reading.block == "results":
        _results_line(reading, stripped, number)
    elif reading.block == "summary":
        _summary_line(reading, stripped, number)
    else:
        _header_line(reading, stripped, number)


def _header_line(reading: _Reading, line: str, number: int) -> None:
    if reading.block == "setup":
        _setup_line(reading.test(number), line)
        return
    match = _KEY_VALUE.match(line)
    if match is None:
        return  # the banner, or a line of IOR's verbose output: no figure
    key, value = match.group(1).strip(), match.group(2).strip()
    if reading.block == "options":
        reading.test(number).options[key] = value
    elif key == "Command line":
        reading.command = value
    elif key == "StartTime" or re.fullmatch(r"Test \d+ started", key):  # the latter: IOR 3.0 and 3.1
        reading.test(number).started_at = _timestamp(value)


def _setup_line(test: _Test, line: str) -> None:
    """A line of IOR 3.0/3.1's setup, ``clients            = 8 (8 per node)``, read into the options as
    IOR 3.2 names them (``tasks``, ``clients per node``; ``ordering in a file`` without its 'offsets')."""
    match = _SETUP.match(line)
    if match is None:
        return
    key, value = match.group(1), match.group(2)
    if clients := _CLIENTS.match(value) if key == "clients" else None:
        test.options["tasks"], test.options["clients per node"] = clients.group(1), clients.group(2)
    elif key == "ordering in a file":
        test.options[key] = value.split()[0] if value else value
    else:
        test.options[key] = value


def _timestamp(text: str) -> str | None:
    """IOR's ``Sun Nov 11 21:32:17 2018`` as ISO 8601; ``None`` when it is written otherwise."""
    try:
        return datetime.strptime(text, "%a %b %d %H:%M:%S %Y").isoformat()
    except ValueError:
        return None


def _results_line(reading: _Reading, line: str, number: int) -> None:
    test = reading.test(number)
    cells = line.split()
    if cells[0] == "access":
        test.columns = cells
    elif line.startswith("stonewalling"):
        test.stonewalling.append(line)
    elif line.startswith(("Max Write:", "Max Read:", "---")) or cells[0] == "remove":
        # the Max lines repeat the best row's bandwidth; '---' underlines the header; IOR 3.3+ adds a
        # 'remove' row (the time to delete the test files, its other columns '-'), which moves no data
        return
    elif cells[0] in _ACCESSES:
        test.rows.append(_row(test, cells, number))
    else:
        reading.unread.append(number)


def _row(test: _Test, cells: list[str], number: int) -> _Row:
    if not test.columns:
        raise ParseError(f"a {cells[0]} row before the 'access bw(MiB/s) ...' header row of its Results", line=number)
    if len(cells) != len(test.columns):
        raise ParseError(
            f"expected {len(test.columns)} columns as the header row ({' '.join(test.columns)}) names, "
            f"found {len(cells)}",
            line=number,
        )
    figures = {
        name: _number(cell, number, column)
        for column, cell in zip(test.columns, cells, strict=True)
        if (name := _ROW_FIGURES.get(column))
    }
    iteration = dict(zip(test.columns, cells, strict=True)).get("iter", "0")
    whole = read_whole(iteration, file=None, line=number, field="iter")
    return _Row(access=cells[0], iteration=whole or 0, line=number, figures=figures)


def _summary_line(reading: _Reading, line: str, number: int) -> None:
    cells = line.split()
    if cells[0] == "Operation":
        second = cells.index("StdDev", cells.index("StdDev") + 1) if cells.count("StdDev") > 1 else None
        reading.summary_columns = [f"{cell}(OPs)" if i == second else cell for i, cell in enumerate(cells)]
    elif cells[0] in _ACCESSES and reading.summary_columns:
        if len(cells) != len(reading.summary_columns):
            raise ParseError(
                f"expected {len(reading.summary_columns)} columns as the summary's header row names, "
                f"found {len(cells)}",
                line=number,
            )
        row = {
            name: _number(cell, number, column)
            for column, cell in zip(reading.summary_columns, cells, strict=True)
            if (name := _SUMMARY_FIGURES.get(column))
        }
        reading.summary.setdefault(cells[0], []).append(row)
    else:
        raise ParseError(
            f"expected a row of the summary ('write' or 'read' and its figures), found {line[:40]!r}", line=number
        )


def _expected_accesses(command: str) -> set[str]:
    """The accesses the command line asks for: ``-w`` and ``-r`` (both when it names neither, IOR's default)."""
    flags = "".join(token[1:] for token in command.split() if re.fullmatch(r"-[A-Za-z]+", token))
    asked = {access for access, flag in (("write", "w"), ("read", "r")) if flag in flags}
    return asked or set(_ACCESSES)


def _cut_warnings(reading: _Reading, last: int) -> list[str]:
    """Where the file holds fewer results than its command line and repetitions ask for, or a summary cut short."""
    warnings = []
    for test in reading.tests:
        repetitions = read_whole(test.options.get("repetitions", "1"), file=None, line=test.line, field="repetitions")
        wanted = len(_expected_accesses(reading.command)) * (repetitions or 1)
        if test.rows and len(test.rows) < wanted:
            warnings.append(
                f"{reading.name}:{last}: the test of line {test.line} holds {len(test.rows)} results row(s) where its "
                f"command line and repetitions ask for {wanted}: the file looks cut short, and the rest are missing"
            )
    accesses = {row.access for test in reading.tests for row in test.rows}
    if reading.summary_line is not None and (set(reading.summary) < accesses or not reading.finished):
        warnings.append(
            f"{reading.name}:{last}: the 'Summary of all tests' (line {reading.summary_line}) ends before IOR's "
            "'Finished' line: the file looks cut short, and the summary's rows after this line are missing"
        )
    return warnings


def _test_runs(reading: _Reading, test: _Test) -> list[Run]:
    several = len(test.rows) > len({row.access for row in test.rows})
    label = f" (test {reading.tests.index(test) + 1})" if len(reading.tests) > 1 else ""
    runs = []
    for row in test.rows:
        name = f"{row.access}{label}" + (f", iteration {row.iteration}" if several else "")
        params = _params(test, row)
        if row.access in reading.summary:
            params["ior_summary"] = reading.summary[row.access]
        workload = _workload(test, row)
        runs.append(
            Run(name=name, started_at=test.started_at, workload=workload, params=params, points=[_point(test, row)])
        )
    return runs


def _params(test: _Test, row: _Row) -> dict[str, Any]:
    kept = ("api", "access", "type", "segments", "ordering in a file", "nodes", "clients per node", "repetitions")
    params: dict[str, Any] = {key.replace(" ", "_"): test.options[key] for key in kept if test.options.get(key)}
    if test.stonewalling:
        params["stonewalling"] = " / ".join(test.stonewalling)
    params["iteration"] = row.iteration
    return params


def _workload(test: _Test, row: _Row) -> Workload:
    ordering = test.options.get("ordering in a file", "")
    random_pct = {"sequential": 0.0, "random": 100.0}.get(ordering)
    xfer = row.figures.get("xfer_kib")
    sizes = [TransferSize(bytes=round(xfer * KIB), pct=100.0)] if xfer and (xfer * KIB).is_integer() else []
    return Workload(read_pct=100.0 if row.access == "read" else 0.0, random_pct=random_pct, transfer_sizes=sizes)


def _point(test: _Test, row: _Row) -> Point:
    figures = row.figures
    mib_per_s = figures.get("mib_per_s")
    iops = figures.get("iops")
    xfer_kib = figures.get("xfer_kib")
    if iops is None and mib_per_s is not None and xfer_kib:
        iops = mib_per_s * MIB / (xfer_kib * KIB)  # as IOR computes its OPs column
    latency_ms = figures["latency_s"] * 1000 if "latency_s" in figures else None
    mbps = mib_to_mbps(mib_per_s)
    reads = row.access == "read"
    tasks = read_whole(test.options.get("tasks", ""), file=None, line=test.line, field="tasks")
    metrics = {key: value for key, value in figures.items() if key not in ("mib_per_s", "iops", "latency_s")}
    return Point(
        load={"threads": tasks} if tasks else {},
        iops=iops,
        read_iops=iops if reads else 0.0,
        write_iops=0.0 if reads else iops,
        mbps=mbps,
        read_mbps=mbps if reads else 0.0,
        write_mbps=0.0 if reads else mbps,
        avg_response_ms=latency_ms,
        avg_read_response_ms=latency_ms if reads else None,
        avg_write_response_ms=None if reads else latency_ms,
        metrics=metrics,
    )
