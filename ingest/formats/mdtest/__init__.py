"""mdtest results: the text mdtest prints (1.9.3 with its ``stonewall rank`` lines, 3.4 with its SUMMARY
rate and time tables) and the per-rank CSV mdtest 3.4 writes with ``--saveRankPerformanceDetails``.

Mapping: a metadata rate is a new kind of figure, operations per second of one operation (file creation,
stat, read, removal; tree or directory creation and removal). Each operation mdtest ran is a run named
after it (its workload named the same, with no read or random share: it moves no data), whose one point
holds the operation's mean rate as its ``iops`` (operations per second, the unit stated in the run's
parameters as ``figure``), with the task count as ``load.threads`` and the table's max, min, mean and
standard deviation (and times, where printed) in ``metrics``. mdtest prints 0 for the operations it did
not run: they are not stored, and a warning lists them.

The modules: :mod:`.text` reads the text output, :mod:`.rank_csv` the per-rank CSV; :mod:`.operations`
makes runs of the rates either reads.
"""

import re

from ...errors import ParseError
from ...result import ResultSet
from ...source import Source
from .rank_csv import RANK_CSV_HEADER, _rank_csv_runs
from .text import _text_runs

__all__ = ["FORMAT", "READS", "TOOL", "parse", "sniff"]

FORMAT = "mdtest"
TOOL = "mdtest"
READS = (
    "mdtest text output (1.9.3 with stonewall lines, 3.4 with SUMMARY rate and time tables, 4.x with their units "
    "and -P per-rank columns) and its per-rank CSV: a run per metadata operation, its operations per second as the "
    "point's rate, tasks as load"
)

_TEXT = re.compile(rb"^mdtest-(\S+) was launched with \d+ total task", re.MULTILINE)


def sniff(head: bytes, name: str) -> bool:
    return bool(_TEXT.search(head) or head.lstrip(b"\xef\xbb\xbf").startswith(RANK_CSV_HEADER))


def parse(source: Source) -> ResultSet:
    warnings: list[str] = []
    head = source.head()
    if head.lstrip(b"\xef\xbb\xbf").startswith(RANK_CSV_HEADER):
        runs, version = _rank_csv_runs(source, warnings), None
    else:
        match = _TEXT.search(head)
        version = match.group(1).decode("ascii", "replace") if match else None
        runs = _text_runs(source, warnings)
    if not runs:
        raise ParseError("no operation with a rate above 0 (such as 'File creation : 49741.404 ...') in this file")
    return ResultSet(
        format=FORMAT, tool={"name": TOOL, "version": version}, source=source.describe(), runs=runs, warnings=warnings
    )
