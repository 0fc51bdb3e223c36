"""IO500 results: ``result_summary.txt`` (sc20 and later ``[RESULT] ... GiB/s / kIOPS`` lines, the 2018
``[RESULT] BW phase ... GB/s`` lines and the 2018 full ``io-500-summary`` log) and the per-phase
``result.txt`` INI, with the ``config.ini`` of the same folder when it is given too (alone, it is refused
with a sentence saying what to upload: it holds settings, no results).

Mapping: each phase (ior-easy-write, mdtest-easy-write, find, ...) is a run named after it (its workload
named the same), with one point: a bandwidth phase's GiB/s as MB/s, a metadata phase's kIOPS as operations
per second in ``iops`` (``params.figure`` says so, as for mdtest). The score is a run of its own, "IO500
score": its point's MB/s is the bandwidth sub-score, its rate the metadata sub-score, and ``metrics`` holds
the total score and both sub-scores as printed. A phase outside the score (``[      ]``) is stored and
warned of, one without a figure (the timestamp step) is passed over with a warning, an ``[INVALID]`` phase
or score is stored with a fail verdict and warned of. ``result.txt`` adds the process count (the load),
each phase's start time and stonewall figures; ``config.ini`` each phase's settings. Files of one results
folder are read together (``result.txt`` when given, else ``result_summary.txt``; the other is checked
against it).

The modules: :mod:`.summary`, :mod:`.result_ini` and :mod:`.config_ini` read the three files,
:mod:`.phases` makes the runs.
"""

import re

from ...errors import ParseError
from ...result import ResultSet, Run
from ...source import Source, describe_group
from .config_ini import apply_config, config_sections
from .result_ini import _result_ini_runs
from .summary import _summary_runs

__all__ = ["FORMAT", "READS", "TOOL", "group_key", "parse", "parse_group", "sniff"]

FORMAT = "io500"
TOOL = "IO500"
READS = (
    "IO500 result_summary.txt (2018 and sc20+ forms), result.txt and config.ini: a run per phase (GiB/s as MB/s, "
    "kIOPS as operations per second), the score and its bandwidth and metadata sub-scores as a run of their own"
)

_SUMMARY = re.compile(
    rb"^(?:\[RESULT(?:-invalid)?\]\s+(?:(?:BW|IOPS)\s+phase\s+\d+\s+)?\S+\s+[\d.]+\s+(?:GiB/s|GB/s|kIOPS|kiops)\s*:"
    rb"|IO500 version \S+|Running the IO500 Benchmark now|io500_ior_cmd=)",
    re.MULTILINE,
)
_RESULT_INI = re.compile(rb"^\[run\]\s*\n(?:[^\[]*\n)?version\s*=\s*io500", re.MULTILINE)
_CONFIG_INI = re.compile(rb"^\[global\]\s*\n(?:.*\n){0,3}?datadir\s*=", re.MULTILINE)


# The names IO500 gives its files in a results folder; files sharing what comes before are read together.
_NAMES = ("result_summary.txt", "result.txt", "config.ini")
_CONFIG_ONLY = (
    "this is an IO500 configuration file (config.ini): it holds the run's settings, not its results; "
    "upload result_summary.txt or result.txt from the same results folder (with config.ini, to keep its settings)"
)


def sniff(head: bytes, name: str) -> bool:
    return bool(_RESULT_INI.search(head) or _SUMMARY.search(head) or _is_config(head))


def _is_config(head: bytes) -> bool:
    head = head.lstrip(b"\xef\xbb\xbf")
    return bool(_CONFIG_INI.search(head)) and (b"[ior-easy]" in head or b"[mdtest-easy]" in head)


def group_key(source: Source) -> str | None:
    """The results folder (and any prefix before IO500's file names): its files are read together."""
    return next((source.name[: -len(name)] for name in _NAMES if source.name.endswith(name)), None)


def parse(source: Source) -> ResultSet:
    return parse_group([source])


def parse_group(sources: list[Source]) -> ResultSet:
    """One result set from the files of one results folder: its results file (``result.txt`` before
    ``result_summary.txt``), the other checked against it, and ``config.ini``'s settings."""
    configs = [source for source in sources if _is_config(source.head())]
    results = [source for source in sources if source not in configs]
    if not results:
        raise ParseError(_CONFIG_ONLY, file=configs[0].name)
    if len(configs) > 1:
        raise ParseError(
            f"two IO500 config.ini given together ({configs[0].name}, {configs[1].name}): upload each results "
            "folder apart, or zip the folders"
        )
    warnings: list[str] = []
    ini = [source for source in results if _RESULT_INI.search(source.head())]
    summaries = [source for source in results if source not in ini]
    if len(ini) > 1 or len(summaries) > 1:
        names = ", ".join(source.name for source in results)
        raise ParseError(
            f"more than one IO500 result of one kind given together ({names}): upload each results folder apart, "
            "or zip the folders"
        )
    if ini:
        runs, version = _result_ini_runs(ini[0], warnings)
        if summaries:
            checked, _ = _summary_runs(summaries[0], [])
            warnings.extend(_disagreements(runs, checked, ini[0].name, summaries[0].name))
    else:
        runs, version = _summary_runs(summaries[0], warnings)
    if configs:
        apply_config(runs, config_sections(configs[0]), name=configs[0].name, warnings=warnings)
    if not runs:
        raise ParseError("no IO500 phase with a figure and no score in this file", file=results[0].name)
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": version},
        source=describe_group(sources) if len(sources) > 1 else sources[0].describe(),
        runs=runs,
        warnings=warnings,
    )


def _disagreements(runs: list[Run], checked: list[Run], read: str, other: str) -> list[str]:
    """A warning per phase whose figure in ``other`` differs from the one stored from ``read``."""
    figures = {run.name: (run.points[0].mbps, run.points[0].iops) for run in runs}
    return [
        f"{other}: phase {run.name} differs from {read}, whose figure is stored"
        for run in checked
        if run.name in figures and not _same(figures[run.name], (run.points[0].mbps, run.points[0].iops))
    ]


def _same(stored: tuple[float | None, float | None], other: tuple[float | None, float | None]) -> bool:
    """Whether two phases' (MB/s, operations per second) agree to the digits IO500 prints (six of GiB/s, kIOPS)."""
    for mine, theirs in zip(stored, other, strict=True):
        if mine is None or theirs is None:
            if mine is not theirs:
                return False
        elif abs(mine - theirs) > 1e-6 * max(abs(mine), 1.0):
            return False
    return True
