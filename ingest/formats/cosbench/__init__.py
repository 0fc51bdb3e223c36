"""COSBench (the object-store benchmark) results: a workload's summary CSV and a stage's time series CSV.

Mapping: each operation of a stage (its ``Op-Name``: read, write, delete, ...) is a run, its
``Op-Type`` the workload, with one point: ``iops`` = operations per second (COSBench's
``Throughput``, successful operations), ``mbps`` = ``Bandwidth`` (bytes per second) / 10^6,
``avg_response_ms`` = ``Avg-ResTime``, ``max_response_ms`` = the ``100%-ResTime`` (the summary's
60-99 % response times go to ``metrics``, with the processing time and the success ratio). A stage
of preparation or clean-up (op types ``prepare``, ``cleanup``) is a preparation run. Neither file
states the stage's worker count, so a point has no load; the object size is the operation's bytes
over its count where that divides evenly.

The modules: :mod:`.summary` reads the workload summary (``<workload>.csv``: a row per stage and
operation, with the ``Detailed Status`` of the stage spilling into further columns), and
:mod:`.series` a stage's time series (``<stage>.csv``: a two-row header, a row per sample), read as
its average with the samples in ``metrics.series`` and a warning saying so.
"""

from ...errors import ParseError
from ...result import ResultSet
from ...source import Source, decode_head
from .series import SERIES_HEADER, _series_runs
from .summary import _summary_runs, is_summary

__all__ = ["FORMAT", "READS", "TOOL", "parse", "sniff"]

FORMAT = "cosbench"
TOOL = "COSBench"
READS = (
    "COSBench workload summary CSV and stage time series CSV (two-row header): one run per stage and "
    "operation, op type as workload, op/s as IOPS, bandwidth, average and 60-100 % response times, "
    "success ratio; a time series read as its average"
)


def sniff(head: bytes, name: str) -> bool:
    text = decode_head(head).lstrip("\ufeff")
    return is_summary(text) or text.startswith(SERIES_HEADER)


def parse(source: Source) -> ResultSet:
    warnings: list[str] = []
    text = source.head_text().lstrip("\ufeff")
    if is_summary(text):
        runs = _summary_runs(source, warnings)
    elif text.startswith(SERIES_HEADER):
        runs = _series_runs(source, warnings)
    else:
        raise ParseError("neither a COSBench workload summary nor a stage time series", file=source.name, line=1)
    if not runs:
        raise ParseError("the file holds no operation of any stage", file=source.name, line=2)
    return ResultSet(
        format=FORMAT, tool={"name": TOOL, "version": None}, source=source.describe(), runs=runs, warnings=warnings
    )
