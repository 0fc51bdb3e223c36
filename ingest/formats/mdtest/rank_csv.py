"""The per-rank CSV mdtest 3.4 writes with ``--saveRankPerformanceDetails``: a ``rate-`` and a ``time-``
column per operation, an ``all`` row (the whole run's rates) and a row per rank with fewer cells (the
columns of the operations after the last it ran are left out).

The runs' rates are the ``all`` row's; the ranks' rows give each operation's rank count (its load) and
lowest and highest rank rate. The file states no task count, so the ranks read are taken as all of them;
the result says so, naming the line of the last rank read."""

import csv
from dataclasses import dataclass, field

from ...errors import ParseError
from ...numbers import Printed, read_number
from ...result import Run
from ...source import Source
from .operations import Rate, operation_runs

RANK_CSV_HEADER = b"rank,items,rate-"
_PRINTED = Printed(required=False)


@dataclass
class _Ranks:
    """The rates the ranks' rows hold for one operation."""

    rates: list[float] = field(default_factory=list)


def _number(text: str, number: int, column: str) -> float | None:
    return read_number(text, file=None, line=number, field=column, printed=_PRINTED)


def _rank_csv_runs(source: Source, warnings: list[str]) -> list[Run]:
    header: list[str] = []
    totals: dict[str, float | None] = {}
    ranks: dict[str, _Ranks] = {}
    last = rank_rows = 0
    with source.open_text() as stream:
        for number, cells in enumerate(csv.reader(stream), start=1):
            if number == 1:
                header = cells
            elif cells and len(cells) > len(header):
                raise ParseError(f"{len(cells)} cells where the header names {len(header)} columns", line=number)
            elif cells and cells[0] == "all":
                totals = _row(header, cells, number)
            elif cells:
                for column, rate in _row(header, cells, number).items():
                    if rate is not None and column.startswith("rate-"):
                        ranks.setdefault(column, _Ranks()).rates.append(rate)
                last, rank_rows = number, rank_rows + 1
    if not totals:
        raise ParseError("no 'all' row: the rates of the whole run are missing", line=2)
    warnings.append(
        f"{source.name}:{last}: ranks read up to this line; a per-rank CSV states no task count, so a copy cut "
        "short at a line end is read with fewer ranks (mdtest's text output states it)"
    )
    return operation_runs(_rates(totals, ranks), tasks=rank_rows or None, params={}, started_at=None, warnings=warnings)


def _row(header: list[str], cells: list[str], number: int) -> dict[str, float | None]:
    return {column: _number(cell, number, column) for column, cell in zip(header[2:], cells[2:], strict=False)}


def _rates(totals: dict[str, float | None], ranks: dict[str, _Ranks]) -> list[Rate]:
    rates = []
    for column, mean in totals.items():
        if not column.startswith("rate-") or mean is None:
            continue
        operation = column.removeprefix("rate-")
        rank_rates = ranks.get(column, _Ranks()).rates
        statistics = {"mean": mean}
        if rank_rates:
            statistics |= {"ranks": len(rank_rates), "lowest_rank": min(rank_rates), "highest_rank": max(rank_rates)}
        time_s = totals.get(f"time-{operation}")
        rate = Rate(operation=operation, line=2, mean=mean, statistics=statistics)
        rate.times_s = {"all": time_s} if time_s is not None else {}
        rates.append(rate)
    return rates
