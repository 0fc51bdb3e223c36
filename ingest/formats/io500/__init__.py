"""IO500 results: ``result_summary.txt`` (sc20 and later ``[RESULT] ... GiB/s / kIOPS`` lines, the 2018
``[RESULT] BW phase ... GB/s`` lines and the 2018 full ``io-500-summary`` log) and the per-phase
``result.txt`` INI. ``config.ini`` (the run's settings) is refused with a sentence saying what to upload.

Mapping: each phase (ior-easy-write, mdtest-easy-write, find, ...) is a run named after it (its workload
named the same), with one point: a bandwidth phase's GiB/s as MB/s, a metadata phase's kIOPS as operations
per second in ``iops`` (``params.figure`` says so, as for mdtest). The score is a run of its own, "IO500
score": its point's MB/s is the bandwidth sub-score, its rate the metadata sub-score, and ``metrics`` holds
the total score and both sub-scores as printed. A phase outside the score (``[      ]``) is stored and
warned of, one without a figure (the timestamp step) is passed over with a warning, an ``[INVALID]`` phase
or score is stored with a fail verdict and warned of. ``result.txt`` adds the process count (the load),
each phase's start time and stonewall figures.

The modules: :mod:`.summary` and :mod:`.result_ini` read the two files, :mod:`.phases` makes the runs.
"""

import re

from ...errors import ParseError
from ...result import ResultSet
from ...source import Source
from .result_ini import _result_ini_runs
from .summary import _summary_runs

__all__ = ["FORMAT", "READS", "TOOL", "parse", "refuse", "sniff"]

FORMAT = "io500"
TOOL = "IO500"
READS = (
    "IO500 result_summary.txt (2018 and sc20+ forms) and result.txt: a run per phase (GiB/s as MB/s, kIOPS as "
    "operations per second), the score and its bandwidth and metadata sub-scores as a run of their own"
)

_SUMMARY = re.compile(
    rb"^(?:\[RESULT\]\s+(?:(?:BW|IOPS)\s+phase\s+\d+\s+)?\S+\s+[\d.]+\s+(?:GiB/s|GB/s|kIOPS|kiops)\s*:"
    rb"|IO500 version \S+|Running the IO500 Benchmark now|io500_ior_cmd=)",
    re.MULTILINE,
)
_RESULT_INI = re.compile(rb"^\[run\]\s*\n(?:[^\[]*\n)?version\s*=\s*io500", re.MULTILINE)
_CONFIG_INI = re.compile(rb"^\[global\]\s*\n(?:.*\n){0,3}?datadir\s*=", re.MULTILINE)


def sniff(head: bytes, name: str) -> bool:
    return bool(_RESULT_INI.search(head) or _SUMMARY.search(head))


def refuse(head: bytes, name: str) -> str | None:
    if _CONFIG_INI.search(head.lstrip(b"\xef\xbb\xbf")) and (b"[ior-easy]" in head or b"[mdtest-easy]" in head):
        return (
            "this is an IO500 configuration file (config.ini): it holds the run's settings, not its results; "
            "upload result_summary.txt or result.txt from the same results folder"
        )
    return None


def parse(source: Source) -> ResultSet:
    warnings: list[str] = []
    if _RESULT_INI.search(source.head()):
        runs, version = _result_ini_runs(source, warnings)
    else:
        runs, version = _summary_runs(source, warnings)
    if not runs:
        raise ParseError("no IO500 phase with a figure and no score in this file")
    return ResultSet(
        format=FORMAT, tool={"name": TOOL, "version": version}, source=source.describe(), runs=runs, warnings=warnings
    )
