"""The per-rank CSV IOR 3.4 writes with ``-O saveRankPerformanceDetailsCSV=FILE``: a row per access and
rank, with its run time and throughput (bytes per second) with and without the open and close.

The file states no task count, so the ranks read are taken as all of them; the result says so, naming the
line of the last rank read (a copy cut short at a line end cannot be told from a whole one otherwise).
The aggregate throughput is the sum of the ranks' throughput with open and close: IOR's aggregate
bandwidth when the ranks end together, as its barriers around each access make them."""

import csv
from dataclasses import dataclass, field

from ...errors import ParseError
from ...figures import known_sum
from ...numbers import Printed, read_number, read_whole
from ...result import MB, Point, Run, Workload
from ...source import Source

RANK_CSV_HEADER = b"access,rank,runtime-with-openclose,runtime,throughput-withopenclose,throughput"
_COLUMNS = RANK_CSV_HEADER.decode().split(",")
_PRINTED = Printed(required=True)


@dataclass
class _Access:
    """The ranks' rows of one access: rank numbers, run times (s) and throughputs (bytes/s)."""

    ranks: list[int] = field(default_factory=list)
    runtime_s: list[float] = field(default_factory=list)
    throughput: list[float] = field(default_factory=list)
    throughput_without_openclose: list[float] = field(default_factory=list)
    last_line: int = 0


def _number(text: str, number: int, column: str) -> float:
    value = read_number(text, file=None, line=number, field=column, printed=_PRINTED)
    assert value is not None  # required: an empty text is refused
    return value


def _rank_csv_runs(source: Source, warnings: list[str]) -> list[Run]:
    accesses: dict[str, _Access] = {}
    with source.open_text(errors="strict") as stream:
        for number, cells in enumerate(csv.reader(stream), start=1):
            if number == 1 or not cells:
                continue
            if len(cells) != len(_COLUMNS):
                raise ParseError(
                    f"expected {len(_COLUMNS)} columns ({','.join(_COLUMNS)}), found {len(cells)}", line=number
                )
            if cells[0] not in ("write", "read"):
                raise ParseError(f"access {cells[0][:40]!r} is neither write nor read", line=number)
            _add(accesses.setdefault(cells[0], _Access()), cells, number)
    return [_run(source.name, access, rows, warnings) for access, rows in accesses.items()]


def _add(rows: _Access, cells: list[str], number: int) -> None:
    rank = read_whole(cells[1], file=None, line=number, field="rank")
    if rank is None:
        raise ParseError("the rank is empty", line=number, field="rank")
    rows.ranks.append(rank)
    rows.runtime_s.append(_number(cells[2], number, _COLUMNS[2]))
    rows.throughput.append(_number(cells[4], number, _COLUMNS[4]))
    rows.throughput_without_openclose.append(_number(cells[5], number, _COLUMNS[5]))
    rows.last_line = number


def _run(name: str, access: str, rows: _Access, warnings: list[str]) -> Run:
    count = len(rows.ranks)
    warnings.append(
        f"{name}:{rows.last_line}: {count} {access} ranks read, the last on this line; a per-rank CSV states no "
        "task count, so a copy cut short at a line end is read as a smaller run (IOR's text output states it)"
    )
    if sorted(rows.ranks) != list(range(count)):
        warnings.append(f"the {access} ranks are not 0 to {count - 1} once each: some ranks are missing or repeated")
    total = known_sum(rows.throughput)
    without_openclose = known_sum(rows.throughput_without_openclose)
    mbps = total / MB if total is not None else None
    reads = access == "read"
    point = Point(
        load={"threads": count},
        mbps=mbps,
        read_mbps=mbps if reads else 0.0,
        write_mbps=0.0 if reads else mbps,
        metrics={
            "slowest_rank_s": max(rows.runtime_s),
            "fastest_rank_s": min(rows.runtime_s),
            "lowest_rank_mbps": min(rows.throughput) / MB,
            "highest_rank_mbps": max(rows.throughput) / MB,
            "mbps_without_openclose": without_openclose / MB if without_openclose is not None else None,
        },
    )
    return Run(name=access, workload=Workload(read_pct=100.0 if reads else 0.0), points=[point])
