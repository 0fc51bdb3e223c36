"""vdbench reports: ``summary.html``, ``totals.html`` and ``flatfile.html``.

vdbench writes each report as an HTML page holding one ``<pre>`` block of text. Tags and
entities are stripped line by line with the standard library; nothing is rendered. The
raw-device (SD) and file-system (FSD/FWD) layouts are told apart by their column headers,
which are read by position, so localised dates in front of them do not matter.

Mapping: one run per run definition (RD), or per RD and workload-changing ``For loops`` value
(xfersize, rdpct, seekpct), named (workload name) by its RD; the RDs vdbench adds to prepare a test
(``format_for_<rd>``, ``SD_format``) are runs of phase ``preparation``. The ``avg_`` line of each
RD (the flatfile's ``avg_`` row) is its point, with ``load.threads`` when vdbench states the thread
count. The interval lines become a time series in the point's ``metrics``. vdbench's MB/sec is 2^20
bytes per second and is converted to 10^6. An RD that stops before its ``avg_`` line is left out
with a warning; a file where no RD reached its average is refused.

The reports of one output folder (``summary.html``, ``totals.html``, ``flatfile.html``, also with a
name around them) print the same RDs, so they are read together as one result set: each RD once,
matched by name and order. Each figure is taken from the report that prints it with the most detail
(flatfile, then summary, then totals; CPU from summary or totals), the RD's start and parameters from
summary or totals, and the run's ``params.figures_from`` names the file of each figure. Figures two
reports print differently beyond their last printed digit are named in a warning.

The modules: :mod:`.reader` reads one report line by line, with :mod:`.columns` (the header layouts
and the figures of a line) and :mod:`.dates`; :mod:`.reports` reads the reports of one folder
together; :mod:`.runs` makes each RD's run and point.
"""

import re

from ...result import ResultSet, Run
from ...source import Source, describe_group
from .reader import _Definition, _Reader
from .reports import _DETAIL_ORDER, _base_name, _matched_definitions, _merged, _read_member, _short_reports, group_key
from .runs import _run_and_point

__all__ = ["FORMAT", "READS", "TOOL", "group_key", "parse", "parse_group", "sniff"]


FORMAT = "vdbench"
TOOL = "vdbench"
READS = (
    "vdbench `summary.html`, `totals.html` and `flatfile.html` (raw-device SD and file-system FSD "
    "layouts): one run per RD, its `avg_` line as the point, MB/sec converted from 2^20; the reports of one "
    "output folder are one result set, each figure from the most detailed report"
)

_SNIFF_PATTERNS = (
    re.compile(rb"<title>\s*Vdbench output/", re.IGNORECASE),
    re.compile(rb"Vdbench summary report, created"),
    re.compile(rb"^(?:<pre>)?\*\s*Run\s*: Name of run from RD=", re.MULTILINE),
    re.compile(rb"^(?:<[^>]+>)*\d\d:\d\d:\d\d\.\d{3} Starting RD=", re.MULTILINE),
)


def sniff(head: bytes, name: str) -> bool:
    return any(pattern.search(head) for pattern in _SNIFF_PATTERNS)


def parse(source: Source) -> ResultSet:
    reader = _Reader(source).read().finish()
    return _result_set(reader.source.describe(), reader.version, reader.complete, reader.warnings)


def parse_group(sources: list[Source]) -> ResultSet:
    """One result set from the reports of one run: each RD once, each figure from the report that
    prints it with the most detail, and a warning where two reports disagree beyond rounding."""
    if len(sources) == 1:
        return parse(sources[0])
    readers = [_read_member(source) for source in sources]
    readers.sort(key=lambda reader: _DETAIL_ORDER.index(reader.kind))
    warnings = [
        warning if warning.startswith(f"{r.source.name}:") else f"{_base_name(r.source)}: {warning}"
        for r in readers
        for warning in r.warnings
    ]
    warnings += _short_reports(readers)
    definitions = [_merged(matched, warnings) for matched in _matched_definitions(readers)]
    version = next((reader.version for reader in readers if reader.version), None)
    return _result_set(describe_group(sources), version, definitions, warnings)


def _result_set(source: dict, version: str | None, definitions: list[_Definition], warnings: list[str]) -> ResultSet:
    runs: dict[tuple[object, ...], Run] = {}
    for definition in definitions:
        key, run, point = _run_and_point(definition)
        kept = runs.setdefault(key, run)
        kept.points.append(point)
        if definition.origins:
            kept.params.setdefault("figures_from", definition.origins)
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": version},
        source=source,
        runs=list(runs.values()),
        warnings=warnings,
    )
