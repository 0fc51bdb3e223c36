"""The white-paper report of a comparison: its sections, every number read by the compare page's
selector (:func:`portal.comparisons.selectors.comparison`) and written by :mod:`portal.formatting`.

Sections follow the published studies: title and abstract, the measurement tool and workloads
(:mod:`.environment`), the measurement environment, the results per workload (:mod:`.results`: chart,
table, summary sentences, what was not compared), the sizing of the workloads measured at several drive
counts (:mod:`.sizing`), the summary of the ranges of improvement, and the provenance of every figure.
:data:`SECTIONS` lists them in order: a new section is one more entry.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from portal import formatting
from portal.analysis.curves import Status
from portal.comparisons import sentences
from portal.comparisons.comparison import ComparisonOptions
from portal.comparisons.kinds import RATES
from portal.comparisons.selectors import Comparison, ComparisonRow, WorkloadComparison
from portal.models import Run, System
from portal.models.results import document_title

from .comparison_tables import basis
from .document import Block, Box, Cell, Figure, Heading, Paragraph, Report, TableBlock
from .environment import environment_section, method_section, tools_named
from .options import FIGURE_UNITS, Reported, ReportOptions, default_title, run_ids, side_a, side_b, workload_names
from .results import IMPROVEMENT_FORMULA, figure_unit, results_section
from .sizing import sizing_blocks

__all__ = ["SECTIONS", "ReportOptions", "report_content", "report_outline"]


@dataclass(frozen=True)
class Reading:
    """What every section reads: the comparisons reported, their runs and systems, the author's options,
    and whether charts are drawn (the compose form lists their captions without drawing them)."""

    reported: list[Reported]
    runs: dict[int, Run]
    systems: list[System]
    options: ReportOptions
    draw: bool = True


def _method(reading: Reading) -> list[Block]:
    return method_section(reading.reported, reading.runs, reading.options)


def _environment(reading: Reading) -> list[Block]:
    if not reading.options.environment:
        return []
    return environment_section(reading.reported, reading.systems, reading.runs, reading.options)


def _results(reading: Reading) -> list[Block]:
    return results_section(reading.reported, reading.systems, reading.runs, reading.options, draw=reading.draw)


def _summary(reading: Reading) -> list[Block]:
    blocks: list[Block] = [Heading("Summary", 1)]
    for pair in reading.reported:
        if len(reading.reported) > 1:
            blocks.append(Heading(f"{side_a(pair.result)} against {side_b(pair.result)}", 2))
        blocks += _summary_of(pair.result, pair.workloads)
    return blocks


def _provenance(reading: Reading) -> list[Block]:
    blocks: list[Block] = [Heading("Appendix: provenance", 1)]
    result = reading.reported[0].result
    blocks.append(Paragraph(f"{basis(result)} Adjustment factor k = {result.adjust_b:g}; {IMPROVEMENT_FORMULA}."))
    rows = []
    for workload in (workload for pair in reading.reported for workload in pair.workloads):
        for row in workload.rows:
            for side, figures in (("A", row.a), ("B", row.b)):
                for figure in figures:
                    run = reading.runs[figure.run_id]
                    value = formatting.throughput(figure.value, figure.metric, unit=workload.unit)
                    if figure.status == Status.NOT_REACHED and figure.value is not None:
                        value = f"≥ {value}"  # the best point measured, a lower bound
                    rows.append(
                        (
                            Cell(f"{workload.workload}, {row.label}"),
                            Cell(f"{side}: {formatting.compared_side(run.config.system, run.firmware)}"),
                            Cell(value),
                            Cell(f"run {run.id}"),
                            Cell(_source(run)),
                        )
                    )
    if not rows:
        blocks.append(Paragraph("No figure is compared, so no figure's source is listed."))
        return blocks
    key = "Provenance table"
    blocks.append(
        TableBlock(
            caption=reading.options.captions.get(key) or "Where every figure came from",
            header=("Figure", "System", "Value", "Run", "Source"),
            rows=tuple(rows),
            numeric=(False, False, True, False, False),
            key=key,
        )
    )
    return blocks


def _sizing(reading: Reading) -> list[Block]:
    # Only workloads read as I/Os or bytes at the threshold are sized by drive count (not IO500's figures,
    # training throughputs or metadata, file and object rates).
    names = {workload.workload for pair in reading.reported for workload in pair.workloads if workload.sizable}
    return sizing_blocks(reading.systems, workloads=names, threshold_ms=reading.reported[0].result.threshold_ms)


# The report's sections after its abstract, in order.
SECTIONS: tuple[Callable[[Reading], list[Block]], ...] = (
    _method,
    _environment,
    _results,
    _sizing,
    _summary,
    _provenance,
)


def report_content(
    results: Sequence[Comparison], *, options: ReportOptions, today: date | None = None, draw: bool = True
) -> Report:
    """The report of ``results``: the comparison the compare page shows for the same selection, or, for
    several systems against one baseline, each system's (``multi_comparison(...).pairs``). Without
    ``draw`` its figures hold their captions but no chart."""
    reported = [Reported(result, _chosen(result, options)) for result in results]
    runs = _runs_of(workload for pair in reported for workload in pair.workloads)
    systems = list({system.id: system for pair in reported for system in (pair.result.a, pair.result.b)}.values())
    reading = Reading(reported, runs, systems, options, draw)
    blocks = [block for section in SECTIONS for block in section(reading)]
    return Report(
        title=options.title or title_of(results),
        author=options.author,
        date=(today or date.today()).isoformat(),
        abstract=_abstract(reported, runs),
        blocks=blocks,
    )


@dataclass(frozen=True)
class WorkloadFigures:
    """The figures a workload's table can show (IOPS, MB/s, MiB/s: those its runs allow) and the one chosen."""

    workload: str
    offered: tuple[str, ...]
    chosen: str


@dataclass(frozen=True)
class Outline:
    """What the compose form offers to change: every table's and figure's caption (key, caption) in order,
    the default captions likewise, and each workload's figure."""

    captions: list[tuple[str, str]]
    defaults: list[tuple[str, str]]
    figures: list[WorkloadFigures]


def report_outline(results: Sequence[Comparison], *, options: ReportOptions) -> Outline:
    """The captions of ``options`` where it has them, else the defaults; the figures likewise."""
    everything = replace(options, charts=True, tables=True, environment=True, captions={})
    report = report_content(results, options=everything, draw=False)
    defaults: dict[str, str] = {}
    for block in report.blocks:
        if isinstance(block, TableBlock | Figure) and block.key and block.key not in defaults:
            defaults[block.key] = block.caption
    captions = [(key, options.captions.get(key) or caption) for key, caption in defaults.items()]
    reported = [Reported(result, _chosen(result, options)) for result in results]
    runs = _runs_of(workload for pair in reported for workload in pair.workloads)
    figures: dict[str, WorkloadFigures] = {}
    for workload in (workload for pair in reported for workload in pair.workloads):
        if workload.workload not in figures:
            offered = tuple(
                unit
                for unit in FIGURE_UNITS
                if figure_unit(workload, runs, replace(options, figures={workload.workload: unit})) == unit
            )
            figures[workload.workload] = WorkloadFigures(
                workload.workload, offered, figure_unit(workload, runs, options)
            )
    return Outline(captions, list(defaults.items()), list(figures.values()))


def title_of(results: Sequence[Comparison]) -> str:
    first = results[0]
    return default_title(
        [result.a for result in results], first.b, a_firmware=first.a_firmware, b_firmware=first.b_firmware
    )


def _chosen(result: Comparison, options: ReportOptions) -> list[WorkloadComparison]:
    compared = [workload for workload in result.workloads if workload.rows]
    if not options.workloads:
        return compared
    return [workload for workload in compared if workload.workload in options.workloads]


def _runs_of(workloads: Iterable[WorkloadComparison]) -> dict[int, Run]:
    """Every run behind the reported figures, with its configuration, workload and upload, in one query."""
    ids = {run_id for workload in workloads for run_id in run_ids(workload)}
    runs = Run.objects.filter(id__in=ids).select_related("config__system", "workload", "upload")
    return {run.id: run for run in runs}


def _abstract(reported: list[Reported], runs: dict[int, Run]) -> str:
    tools_used = tools_named(reported, runs)
    # The workloads compared; where none is, those both systems ran (the headline says why none is compared).
    names = workload_names(reported) or list(
        dict.fromkeys(workload.workload for pair in reported for workload in pair.result.workloads)
    )
    listed = ", ".join(names) or "no workload both systems ran"
    compared = " and ".join(_system_words(pair.result.a, pair.result.a_firmware) for pair in reported)
    each = " each" if len(reported) > 1 else ""
    first = reported[0].result
    headline = " ".join(_overall_sentence(pair.result, pair.workloads) for pair in reported)
    return (
        f"This report compares {compared}{each} with {_system_words(first.b, first.b_firmware)} (the baseline) in "
        f"{formatting.count(len(names), 'workload')} ({listed}), measured with {tools_used}. "
        f"{basis(first)} {headline}"
    )


def _system_words(system: System, firmware: str) -> str:
    """ "IBM DS4500, firmware 05.40.06.00": the firmware compared, else the system's."""
    version = firmware or system.firmware
    return f"{system.name}, firmware {version}" if version else system.name


def _options(result: Comparison) -> ComparisonOptions:
    return ComparisonOptions(threshold_ms=result.threshold_ms, adjust_b=result.adjust_b, latency=result.latency)


def _findings(
    result: Comparison, workloads: list[WorkloadComparison]
) -> list[tuple[WorkloadComparison, ComparisonRow]]:
    """The rows whose improvement is a finding: both figures read at the threshold."""
    return [
        (workload, row)
        for workload in workloads
        for row in workload.rows
        if sentences.is_finding(row, result.threshold_ms)
    ]


def _cases(result: Comparison, workloads: list[WorkloadComparison]) -> list[str]:
    """The best and the worst case among the findings, each with its configurations where they differ."""
    found = _findings(result, workloads)
    if not found:
        return []
    sides = f"{side_a(result)} against {side_b(result)}"
    extremes = [
        (f"Best case of {sides}", max(found, key=lambda pair: pair[1].pct or 0.0)),
        (f"Worst case of {sides}", min(found, key=lambda pair: pair[1].pct or 0.0)),
    ]
    if len(found) == 1:
        # One row is both the best and the worst case: it is said once.
        others = sum(len(workload.rows) for workload in workloads) > 1
        extremes = [(f"The one comparison of {sides}" + (" read at the threshold" if others else ""), found[0])]
    cases = []
    for words, (workload, row) in extremes:
        differing = sentences.configuration_words(row)
        where = f"{workload.workload}, {row.label}" + (f" ({differing})" if differing else "")
        cases.append(f"{words}: {where}: {formatting.improvement(row.pct)}.")
    return cases


def _overall_sentence(result: Comparison, workloads: list[WorkloadComparison]) -> str:
    """What the abstract says of a comparison: its best and worst case among the rows both of whose figures
    were read at the threshold (no range over different workloads); with none, what is known of the first
    rows (lower bounds, figures published at another threshold) in the summary's words."""
    rows = [row for workload in workloads for row in workload.rows]
    if not rows:
        why = list(dict.fromkeys(sentence for workload in result.workloads for sentence in workload.printed_empty))
        return " ".join(
            [f"No configuration of {side_a(result)} and {side_b(result)} could be compared at "
             f"{formatting.threshold(result.threshold_ms)}.", *why]
        )  # fmt: skip
    said = _cases(result, workloads)
    rest = len(rows) - len(_findings(result, workloads))
    if said and rest:
        said.append(
            f"{formatting.count(rest, 'configuration')} compared {'has' if rest == 1 else 'have'} a figure not read"
            f" at {formatting.threshold(result.threshold_ms)}: the summary says what is known of them."
        )
    elif not said:
        known = _group_sentences(result, workloads)
        said += [f"{sentence}." for sentence in known[:ABSTRACT_SENTENCES]]
        if len(known) > ABSTRACT_SENTENCES:
            said.append(f"The summary says what is known of {len(known) - ABSTRACT_SENTENCES} more.")
    return " ".join(said)


# How many sentences of what is known an abstract repeats where no row is a finding.
ABSTRACT_SENTENCES = 3


def _group_sentences(result: Comparison, workloads: list[WorkloadComparison]) -> list[str]:
    """Each workload and RAID level's sentences, as the compare page words them."""
    names = (side_a(result), side_b(result))
    said = []
    for workload in workloads:
        for raid in sorted({row.raid_level for row in workload.rows}):
            rows = [row for row in workload.rows if row.raid_level == raid]
            subject = sentences.subject(workload.workload, raid)
            unit = workload.unit if workload.kind in RATES else None
            said += sentences.group_sentences(rows, names=names, subject=subject, options=_options(result), unit=unit)
    return said


def _summary_of(result: Comparison, workloads: list[WorkloadComparison]) -> list[Block]:
    """What each workload and RAID level shows, in the papers' words, then the best and worst cases."""
    said = [f"{sentence}." for sentence in _group_sentences(result, workloads)]
    said += _cases(result, workloads)
    for side, only in ((side_a(result), result.only_a_workloads), (side_b(result), result.only_b_workloads)):
        if only:
            said.append(f"Only {side} was measured with {', '.join(only)}; they are not compared.")
    return [Box("Lessons learned", tuple(said) or ("No configuration could be compared.",))]


def _source(run: Run) -> str:
    if run.upload is not None:
        return f"{run.upload.original_name}, sha256 {run.upload.sha256}"
    if not run.citation_document:
        return "not stated"
    cited = ", ".join(part for part in (document_title(run.citation_document), run.citation_table) if part)
    return f"published in {cited}"
