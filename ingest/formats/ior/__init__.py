"""IOR results: the text IOR prints (3.2 with its 'Summary of all tests' table, 3.3 and 3.4 with IOPS and
latency columns, stonewalling and WARNING lines among the results) and the per-rank CSV IOR 3.4 writes
with ``-O saveRankPerformanceDetailsCSV=``.

Mapping: each access (write, read) of each test is a run, one per iteration when a test repeats; its one
point is the aggregate of every task, with the task count as ``load.threads``. IOR prints bandwidth in
MiB/s (converted to MB/s); its IOPS column is read where it has one, and otherwise computed as IOR
computes its OPs column (bandwidth over the transfer size). IOR's ``Latency(s)`` column (the time of a
task divided by the transfers it was given) is the point's mean response time. Stonewalling lines are
kept in the run's parameters, IOR's WARNING lines become the result's warnings.

The modules: :mod:`.text` reads the text output, :mod:`.json_output` the JSON output IOR 3.3+ writes with
``-O summaryFormat=JSON`` (read into the same runs), :mod:`.rank_csv` the per-rank CSV.
"""

import re

from ...errors import ParseError
from ...result import ResultSet
from ...source import Source
from .json_output import JSON_HEAD, json_runs, json_version, read_json_document
from .rank_csv import RANK_CSV_HEADER, _rank_csv_runs
from .text import _text_runs

__all__ = ["FORMAT", "READS", "TOOL", "parse", "sniff"]

FORMAT = "ior"
TOOL = "IOR"
READS = (
    "IOR text output (3.0/3.1 with their 'Summary:' setup, 3.2 with its 'Summary of all tests', 3.4 with "
    "stonewalling and WARNING lines, 4.x with "
    "'remove' rows, which are no run), its JSON output (-O summaryFormat=JSON) and its per-rank CSV: a run per "
    "access and iteration, tasks as load, MiB/s converted, IOPS and latency where printed"
)

_TEXT = re.compile(rb"^IOR-(\S+): MPI Coordinated Test of Parallel I/O", re.MULTILINE)


def sniff(head: bytes, name: str) -> bool:
    head = head.lstrip(b"\xef\xbb\xbf")
    return bool(_TEXT.search(head) or head.startswith(RANK_CSV_HEADER) or JSON_HEAD.match(head))


def parse(source: Source) -> ResultSet:
    warnings: list[str] = []
    head = source.head()
    if head.lstrip(b"\xef\xbb\xbf").startswith(RANK_CSV_HEADER):
        runs, version = _rank_csv_runs(source, warnings), None
    elif JSON_HEAD.match(head.lstrip(b"\xef\xbb\xbf")):
        data, banner_version = read_json_document(source)
        runs, version = json_runs(data), json_version(data) or banner_version
    else:
        match = _TEXT.search(head)
        version = match.group(1).decode("ascii", "replace") if match else None
        runs = _text_runs(source, warnings)
    if not runs and version and version.startswith("2."):
        raise ParseError(
            f"IOR {version} output: IOR 2 prints its results as a summary table without a 'Results:' block, which "
            "ArrayBench does not read; upload the output of IOR 3.2 or later"
        )
    if not runs:
        raise ParseError("no results row (such as 'write  14314  ...' under 'Results:') in this file")
    return ResultSet(
        format=FORMAT, tool={"name": TOOL, "version": version}, source=source.describe(), runs=runs, warnings=warnings
    )
