"""mdtest's text output: the launch line, stonewall lines and the SUMMARY rate (and time) tables."""

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ...errors import ParseError
from ...numbers import Printed, read_number, read_whole
from ...result import Run
from ...source import Source
from .operations import Rate, operation_runs

_PRINTED = Printed(required=True)
# mdtest 3.3 prints "NA" for the statistics its 'File create (stonewall)' row has none of.
_STATISTIC = Printed(required=True, missing=frozenset({"na"}))
_STARTED = re.compile(r"^-- started at (.+?) --$")
_LAUNCHED = re.compile(r"^mdtest-\S+ was launched with (\d+) total task\(s\) on (\d+) node\(s\)")
_ITEMS = re.compile(r"^(\d+) tasks, (\d+) (?:files|directories|files/directories)\b")
_STONEWALL_RANK = re.compile(r"^stonewall rank \d+: (\d+) of (\d+)")
_STONEWALL_HIT = re.compile(r"^Continue stonewall hit min: (\S+) max: (\S+) avg: (\S+)")
# 'SUMMARY rate: (of 1 iterations)' (1.9.3 to 3.4, times in seconds) or, from mdtest 4.0,
# 'SUMMARY rate (in ops/sec): (of 1 iterations)' and 'SUMMARY time (in ms/op): ...'.
_TABLE = re.compile(r"^SUMMARY(?: (rate|time))?(?: \(in ([^)]+)\))?: \(of (\d+) iterations?\)")
# A table row: the operation's name (with a colon in 1.9.3) and its max, min, mean and standard deviation;
# with mdtest 4's -P, the ranks' max, min and mean come first (7 figures).
_ROW = re.compile(r"^([A-Za-z][A-Za-z ()]*?)\s*:?\s+((?:[^\s:]+\s+){3}\S+|(?:[^\s:]+\s+){6}\S+)$")
_STATISTICS = ("max", "min", "mean", "std_dev")
_RANK_STATISTICS = ("rank_max", "rank_min", "rank_mean")


@dataclass
class _Reading:
    """What has been read of the file so far."""

    started_at: str | None = None
    tasks: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    stonewall_items: list[int] = field(default_factory=list)
    table: str | None = None
    time_unit: str = "s"
    time_unit_of: dict[str, str] = field(default_factory=dict)
    rates: list[Rate] = field(default_factory=list)
    times: dict[str, dict[str, float]] = field(default_factory=dict)
    finished: bool = False


def _number(text: str, number: int, column: str) -> float:
    value = read_number(text, file=None, line=number, field=column, printed=_PRINTED)
    assert value is not None  # required: an empty text is refused
    return value


def _text_runs(source: Source, warnings: list[str]) -> list[Run]:
    reading = _Reading()
    number = 0
    with source.open_text() as stream:
        for number, text in enumerate(stream, start=1):
            _line(reading, text.strip(), number)
    if not reading.finished:
        warnings.append(
            f"{source.name}:{number}: the file ends before mdtest's '-- finished at' line: it looks cut short, and "
            "the operations and tables after this line are missing"
        )
    if reading.stonewall_items:
        reading.params["stonewall_ranks"] = len(reading.stonewall_items)
    for rate in reading.rates:
        rate.times_s = reading.times.get(rate.operation, {})
        rate.time_unit = reading.time_unit_of.get(rate.operation, "s")
    return operation_runs(
        reading.rates, tasks=reading.tasks, params=reading.params, started_at=reading.started_at, warnings=warnings
    )


def _line(reading: _Reading, line: str, number: int) -> None:
    if not line:
        reading.table = None
    elif match := _STARTED.match(line):
        reading.started_at = _timestamp(match.group(1))
    elif match := _LAUNCHED.match(line):
        reading.tasks = read_whole(match.group(1), file=None, line=number, field="tasks")
        reading.params["nodes"] = read_whole(match.group(2), file=None, line=number, field="nodes")
    elif match := _ITEMS.match(line):
        reading.params["items"] = read_whole(match.group(2), file=None, line=number, field="files")
    elif match := _STONEWALL_RANK.match(line):
        reading.stonewall_items.append(read_whole(match.group(1), file=None, line=number, field="stonewall") or 0)
    elif match := _STONEWALL_HIT.match(line):
        names = ("stonewall_items_min", "stonewall_items_max", "stonewall_items_mean")
        reading.params |= {name: _number(text, number, name) for name, text in zip(names, match.groups(), strict=True)}
    elif match := _TABLE.match(line):
        reading.table = match.group(1) or "rate"
        if reading.table == "time":
            reading.time_unit = "ms_per_op" if match.group(2) == "ms/op" else "s"
        reading.params["iterations"] = read_whole(match.group(3), file=None, line=number, field="iterations")
    elif line.startswith("-- finished at"):
        reading.finished = True
    elif reading.table is not None and not line.startswith(("Operation", "---")):
        _table_row(reading, line, number)


def _timestamp(text: str) -> str | None:
    """mdtest's ``11/11/2018 21:37:53`` as ISO 8601; ``None`` when it is written otherwise."""
    try:
        return datetime.strptime(text, "%m/%d/%Y %H:%M:%S").isoformat()
    except ValueError:
        return None


def _table_row(reading: _Reading, line: str, number: int) -> None:
    match = _ROW.match(line)
    if match is None:
        raise ParseError(
            f"expected an operation and its Max, Min, Mean and Std Dev (e.g. 'File creation : 4.6 4.6 4.6 0.0'), "
            f"found {line[:40]!r}",
            line=number,
        )
    operation = " ".join(match.group(1).split())
    texts = match.group(2).split()
    names = (*_RANK_STATISTICS, *_STATISTICS) if len(texts) == 7 else _STATISTICS
    figures = {
        name: value
        for name, text in zip(names, texts, strict=True)
        if (value := read_number(text, file=None, line=number, field=f"{operation} {name}", printed=_STATISTIC))
        is not None
    }
    if "mean" not in figures:
        raise ParseError(f"the {operation} row states no mean (NA)", line=number)
    if reading.table == "time":
        reading.times[operation] = figures
        reading.time_unit_of[operation] = reading.time_unit
    elif any(rate.operation == operation for rate in reading.rates):
        raise ParseError(f"a second {operation} row in the SUMMARY rate table", line=number)
    else:
        reading.rates.append(Rate(operation=operation, line=number, mean=figures["mean"], statistics=figures))
