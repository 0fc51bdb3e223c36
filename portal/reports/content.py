"""The white-paper report of a comparison: its sections, every number read by the compare page's
selector (:func:`portal.comparisons.selectors.comparison`) and written by :mod:`portal.formatting`.

Sections follow the published studies: title and abstract, the measurement tool and workloads, the
measurement environment, the results per workload (chart, table, summary sentences, what was not
compared), the sizing of the workloads measured at several drive counts, the summary of the ranges of
improvement, and the provenance of every figure.
"""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from portal import formatting
from portal.analysis.compare import improvement_range, summary_sentence
from portal.analysis.tables import round_half_up
from portal.analysis.workloads import describe, describe_family
from portal.comparisons.selectors import Comparison, WorkloadComparison
from portal.exports import presets
from portal.exports.charts import comparison_figure
from portal.exports.comparison_tables import basis
from portal.models import Run, System
from portal.models.results import document_title
from portal.results.selectors import LATENCIES

from .document import Block, Box, Cell, Figure, Heading, Paragraph, Report, TableBlock
from .sizing import sizing_blocks

IMPROVEMENT_FORMULA = "improvement = (A - B x k) / (B x k) x 100, k the adjustment factor for B"
MIB = 1024 * 1024 / 1_000_000  # one MiB/s in MB/s


@dataclass(frozen=True)
class ReportOptions:
    """What the author chose on the compose form: kept in the report's address, so it can be rebuilt."""

    title: str = ""
    author: str = ""
    # Workload names to report, in the comparison's order; empty: every compared workload.
    workloads: tuple[str, ...] = ()
    # Captions of the workloads' charts typed by the author, by workload name.
    captions: dict[str, str] = field(default_factory=dict)
    charts: bool = True
    tables: bool = True
    environment: bool = True
    # "MB/s" (10^6 bytes/s, as the page) or "MiB/s" (2^20 bytes/s, as seed 000 prints Iometer's MBps).
    mbps_unit: str = "MB/s"
    # Decimals of the improvements in the results tables: 1 as the compare page prints them.
    pct_decimals: int = 1


@dataclass(frozen=True)
class Reported:
    """One comparison of the report (one system A against the baseline B) and its workloads reported."""

    result: Comparison
    workloads: list[WorkloadComparison]


def report_content(results: Sequence[Comparison], *, options: ReportOptions, today: date | None = None) -> Report:
    """The report of ``results``: the comparison the compare page shows for the same selection, or, for
    several systems against one baseline, each system's (``multi_comparison(...).pairs``)."""
    reported = [Reported(result, _chosen(result, options)) for result in results]
    runs = _runs_of(workload for pair in reported for workload in pair.workloads)
    systems = list({system.id: system for pair in reported for system in (pair.result.a, pair.result.b)}.values())
    blocks: list[Block] = []
    blocks += _method(reported, runs)
    if options.environment:
        blocks += _environment(systems, runs)
    blocks += _results(reported, systems, options)
    names = {workload.workload for pair in reported for workload in pair.workloads}
    blocks += sizing_blocks(systems, workloads=names, threshold_ms=results[0].threshold_ms)
    blocks += _summary(reported)
    blocks += _provenance(reported, runs)
    baseline = results[0].b.name
    title = options.title or f"{' and '.join(pair.result.a.name for pair in reported)} compared with {baseline}"
    return Report(
        title=title,
        author=options.author,
        date=(today or date.today()).isoformat(),
        abstract=_abstract(reported, runs),
        blocks=blocks,
    )


def _chosen(result: Comparison, options: ReportOptions) -> list[WorkloadComparison]:
    compared = [workload for workload in result.workloads if workload.rows]
    if not options.workloads:
        return compared
    return [workload for workload in compared if workload.workload in options.workloads]


def _runs_of(workloads: Iterable[WorkloadComparison]) -> dict[int, Run]:
    """Every run behind the reported figures, with its configuration, workload and upload, in one query."""
    ids = {figure.run_id for workload in workloads for row in workload.rows for figure in row.a + row.b}
    runs = Run.objects.filter(id__in=ids).select_related("config__system", "workload", "upload")
    return {run.id: run for run in runs}


def _tools(runs: Iterable[Run]) -> list[str]:
    return sorted({" ".join(part for part in (run.tool, run.tool_version) if part) for run in runs})


def _abstract(reported: list[Reported], runs: dict[int, Run]) -> str:
    tools = ", ".join(_tools(runs.values())) or "no tool named"
    names = _workload_names(reported)
    listed = ", ".join(names) or "no workload both systems ran"
    compared = " and ".join(_system_words(pair.result.a) for pair in reported)
    each = " each" if len(reported) > 1 else ""
    headline = " ".join(_overall_sentence(pair.result, pair.workloads) for pair in reported)
    return (
        f"This report compares {compared}{each} with {_system_words(reported[0].result.b)} (the baseline) in "
        f"{formatting.count(len(names), 'workload')} ({listed}), measured with {tools}. "
        f"{basis(reported[0].result)} {headline}"
    )


def _workload_names(reported: list[Reported]) -> list[str]:
    """The workloads reported, in the order of the comparisons, each once."""
    return list(dict.fromkeys(workload.workload for pair in reported for workload in pair.workloads))


def _system_words(system: System) -> str:
    firmware = f", firmware {system.firmware}" if system.firmware else ""
    return f"{system.name}{firmware}"


def _overall_sentence(result: Comparison, workloads: list[WorkloadComparison]) -> str:
    rows = {(workload.workload, row.label): row for workload in workloads for row in workload.rows}
    if not rows:
        return "No configuration of the two systems could be compared."
    # A row with no improvement (B's figure is 0) has nothing to say in the range.
    rows = {key: row for key, row in rows.items() if row.pct is not None}
    found = improvement_range(
        {key: row.a_value for key, row in rows.items()},
        {key: row.b_value * result.adjust_b for key, row in rows.items()},
    )
    return summary_sentence(result.a.name, result.b.name, "the workloads compared", found, varying="the workload") + "."


def _method(reported: list[Reported], runs: dict[int, Run]) -> list[Block]:
    blocks: list[Block] = [Heading("Measurement tool and workloads", 1)]
    tools = _tools(runs.values())
    blocks.append(Paragraph(f"The figures were measured with {', '.join(tools) or 'no tool named'}."))
    rows = []
    first: dict[str, WorkloadComparison] = {}
    for pair in reported:
        for workload in pair.workloads:
            first.setdefault(workload.workload, workload)
    for workload in first.values():
        run = next((runs[f.run_id] for row in workload.rows for f in row.a + row.b if f.run_id in runs), None)
        rows.append(_workload_row(workload, run))
    blocks.append(
        TableBlock(
            caption="The workloads compared",
            header=("Workload", "What it does", "Read", "Random", "Transfer sizes", "Figure"),
            rows=tuple(rows),
        )
    )
    blocks.append(Paragraph(_threshold_rule(reported[0].result)))
    return blocks


def _workload_row(workload: WorkloadComparison, run: Run | None) -> tuple[Cell, ...]:
    stored = run.workload if run is not None else None
    if stored is None:
        what, read, random, sizes = "not stated by the file", "–", "–", "–"
    else:
        signature = stored.signature()
        what = describe(signature) if signature.transfer_sizes else describe_family(signature.family)
        read, random = f"{stored.read_pct} %", f"{stored.random_pct} %"
        sizes = ", ".join(formatting.transfer_size(size) for size, _ in signature.transfer_sizes) or "best over sizes"
    metric = formatting.METRIC_UNITS[workload.metric]
    return (Cell(workload.workload), Cell(what), Cell(read), Cell(random), Cell(sizes), Cell(metric))


def _threshold_rule(result: Comparison) -> str:
    at = formatting.threshold(result.threshold_ms)
    latency = LATENCIES[result.latency]
    return (
        f"Each figure is the throughput at {at} {latency} response time, interpolated between the last "
        f"measured point under {at} and the first over it. A curve that never reaches {at} gives a lower "
        "bound, its best point, at its own response time; a curve already over it at the lowest load gives "
        "no value. A figure a paper published at its own threshold is used as published."
    )


ENVIRONMENT_ROWS = ("Vendor", "Model", "Firmware", "Controllers", "Cache per controller", "Host interfaces")


def _environment(systems: list[System], runs: dict[int, Run]) -> list[Block]:
    blocks: list[Block] = [Heading("Measurement environment", 1)]
    for system in systems:
        configs = {run.config.id: run.config for run in runs.values() if run.config.system_id == system.id}
        measured = {run.get_measurement_display() for run in runs.values() if run.config.system_id == system.id}
        rows = [
            ("Vendor", system.vendor),
            ("Model", system.model),
            ("Firmware", system.firmware),
            ("Controllers", formatting.count(system.controllers, "controller") if system.controllers else ""),
            ("Cache per controller", _cache_mb(system.cache_mb_per_controller)),
            ("Host interfaces", system.host_interfaces),
            ("Drives", _joined(_drive_words(config) for config in configs.values())),
            ("RAID levels and drive counts tested", _raid_and_drives(configs.values())),
            (
                "Segment sizes",
                _joined(f"{formatting.significant(c.segment_kb)} KB" for c in configs.values() if c.segment_kb),
            ),
            ("Cache settings", _joined(formatting.cache_setting(config) for config in configs.values())),
            ("Host", _joined(_host(config) for config in configs.values())),
            ("Measurement", _joined(measured)),
        ]
        blocks.append(
            TableBlock(
                caption=f"Measurement environment of {system.name}",
                header=("", system.name),
                rows=tuple((Cell(name), Cell(value or "not stated")) for name, value in rows),
            )
        )
    return blocks


def _cache_mb(value: float | None) -> str:
    return "" if value is None else f"{formatting.significant(value)} MB"


def _joined(values: Iterable[str]) -> str:
    return "; ".join(sorted({value for value in values if value}))


def _drive_words(config) -> str:
    parts = [config.drive_type or "drives"]
    if config.drive_model:
        parts.append(config.drive_model)
    if config.drive_rpm:
        parts.append(f"{formatting.whole(config.drive_rpm)} rpm")
    if config.drive_capacity_gb:
        parts.append(f"{formatting.significant(config.drive_capacity_gb)} GB")
    return ", ".join(parts)


def _raid_and_drives(configs) -> str:
    counts: dict[str, set[int]] = defaultdict(set)
    for config in configs:
        counts[config.raid_level or "RAID level not stated"].update([config.drive_count] if config.drive_count else [])
    return "; ".join(
        f"{raid}: {', '.join(str(n) for n in sorted(drives))} drives" if drives else raid
        for raid, drives in sorted(counts.items())
    )


def _host(config) -> str:
    return ", ".join(part for part in (config.host_server, config.host_os, config.host_hba) if part)


def _results(reported: list[Reported], systems: list[System], options: ReportOptions) -> list[Block]:
    blocks: list[Block] = [Heading("Results", 1)]
    for name in _workload_names(reported):
        blocks.append(Heading(name, 2))
        for pair in reported:
            for workload in (w for w in pair.workloads if w.workload == name):
                if len(reported) > 1:
                    blocks.append(Heading(f"{pair.result.a.name} against {pair.result.b.name}", 3))
                blocks += _workload_results(pair.result, workload, options)
    if options.tables:
        blocks += _system_tables(systems, threshold_ms=reported[0].result.threshold_ms)
    return blocks


def _workload_results(result: Comparison, workload: WorkloadComparison, options: ReportOptions) -> list[Block]:
    """One workload of one comparison: its chart, its table, the page's sentences and what was not compared."""
    blocks: list[Block] = []
    if options.charts:
        caption = options.captions.get(workload.workload) or _caption(result, workload)
        blocks.append(Figure(caption, comparison_figure(result, workload)))
    if options.tables:
        blocks.append(_workload_table(result, workload, options))
    blocks.extend(Paragraph(sentence + ".") for sentence in workload.summaries)
    blocks.extend(_not_compared(result, workload))
    return blocks


def _caption(result: Comparison, workload: WorkloadComparison) -> str:
    at = formatting.threshold(result.threshold_ms)
    return f"{workload.workload} at {at}: {result.a.name} (A) and {result.b.name} (B)"


def _figure_text(value: float, metric: str, mbps_unit: str) -> Cell:
    if metric == "mbps" and mbps_unit == "MiB/s":
        value /= MIB
    return Cell(formatting.iops(value) if metric == "iops" else formatting.mbps(value), value)


def _workload_table(result: Comparison, workload: WorkloadComparison, options: ReportOptions) -> TableBlock:
    mbps_unit = options.mbps_unit
    unit = "IOPS" if workload.metric == "iops" else mbps_unit
    rows = []
    for row in workload.rows:
        how = _joined(formatting.status_words(figure.status) for figure in row.a + row.b)
        rows.append(
            (
                Cell(row.label),
                _figure_text(row.a_value, workload.metric, mbps_unit),
                _figure_text(row.b_value * result.adjust_b, workload.metric, mbps_unit),
                _improvement_cell(row.pct, options.pct_decimals),
                Cell(_confidence(row)),
                Cell(how),
            )
        )
    b_heading = f"B: {result.b.name}" + (f" x {result.adjust_b:g}" if result.adjust_b != 1 else "")
    notes = [basis(result), _unit_note(unit), IMPROVEMENT_FORMULA + "."]
    notes += [f"{row.label}: {note}." for row in workload.rows for note in row.notes]
    return TableBlock(
        caption=f"{workload.workload} at {formatting.threshold(result.threshold_ms)} ({unit})",
        header=("Configuration", f"A: {result.a.name}", b_heading, "Improvement", "Confidence", "How read"),
        rows=tuple(rows),
        notes=tuple(notes),
        numeric=(False, True, True, True, False, False),
    )


def _improvement_cell(pct: float | None, decimals: int) -> Cell:
    """The improvement rounded half up, as the compare page prints it with one decimal ("12.7 %", "476.0 %");
    empty when B's figure is 0 (the row's notes say so)."""
    if pct is None:
        return Cell("")
    rounded = round_half_up(pct, decimals)
    return Cell(f"{rounded:.{decimals}f} %", float(rounded))


def _unit_note(unit: str) -> str:
    if unit == "MiB/s":
        return "MiB/s = 2^20 bytes per second."
    if unit == "MB/s":
        return "MB/s = 10^6 bytes per second."
    return "IOPS: I/O operations per second."


def _confidence(row) -> str:
    confidence = row.confidence
    if not confidence:
        return "single figures"
    welch = getattr(confidence, "welch", None)
    if welch:
        return f"p = {welch.p_value:.3f} (Welch, {confidence.a.n} vs {confidence.b.n} runs)"
    return str(getattr(confidence, "reason", ""))


def _not_compared(result: Comparison, workload: WorkloadComparison) -> list[Block]:
    lines = list(workload.empty) + [f"Not compared: {sentence}." for sentence in workload.ambiguous]
    for system, keys in ((result.a, workload.only_a), (result.b, workload.only_b)):
        if keys:
            named = "; ".join(_config_words(key) for key in keys)
            lines.append(f"Only {system.name} was measured with {named}: it has no counterpart to compare.")
    return [Box("Not compared", tuple(lines))] if lines else []


def _config_words(key) -> str:
    raid, drives, cache = key
    return ", ".join(
        p for p in (raid or "RAID level not stated", formatting.count(drives, "drive") if drives else "", cache) if p
    )


def _system_tables(systems: list[System], *, threshold_ms: float) -> list[Block]:
    """Each system's white-paper table (seed 000 Table 1's layout), as the table export prints it."""
    blocks: list[Block] = []
    for system in systems:
        try:
            selection = presets.default_selection(system)
            table = presets.whitepaper(system, threshold_ms=threshold_ms, selection=selection)
        except presets.PresetError:
            continue  # a system without drive counts has no white-paper table; the comparison stands
        blocks.append(_from_table(table))
    if blocks:
        blocks.insert(0, Heading("Each system's figures", 2))
    return blocks


def _from_table(table) -> TableBlock:
    grid = table.text_grid()
    width = table.row_header_width
    header = tuple(" ".join(p for p in (group, label) if p) for group, label in zip(grid[0], grid[1], strict=True))
    rows = tuple(
        tuple(
            Cell(text) if j < width or row.cells[j - width] is None else Cell(text, row.cells[j - width])
            for j, text in enumerate(line)
        )
        for row, line in zip(table.rows, grid[2:], strict=True)
    )
    paper_table, _, title = table.title.partition(". ")
    caption = (
        f"{title}, laid out as the paper's {paper_table}" if title and paper_table.startswith("Table") else table.title
    )
    return TableBlock(
        caption=caption,
        header=_group_headers(header, grid[0]),
        rows=rows,
        notes=tuple(table.footnotes),
        numeric=tuple(j >= width for j in range(len(header))),
    )


def _group_headers(header: tuple[str, ...], groups: list[str]) -> tuple[str, ...]:
    """Group headings carried over the columns they span ("OLTP 8K I/Os", "OLTP 8K MBps")."""
    current, out = "", []
    for text, group in zip(header, groups, strict=True):
        current = group or current
        out.append(text if group or not current or text.startswith(current) else f"{current} {text}")
    return tuple(out)


def _summary(reported: list[Reported]) -> list[Block]:
    blocks: list[Block] = [Heading("Summary", 1)]
    for pair in reported:
        if len(reported) > 1:
            blocks.append(Heading(f"{pair.result.a.name} against {pair.result.b.name}", 2))
        blocks += _summary_of(pair.result, pair.workloads)
    return blocks


def _summary_of(result: Comparison, workloads: list[WorkloadComparison]) -> list[Block]:
    """Ranges of improvement per workload family and RAID level, in the papers' words, then best and worst."""
    blocks: list[Block] = []
    groups: dict[tuple[str, str], dict] = defaultdict(dict)
    for workload in workloads:
        for row in workload.rows:
            groups[(workload.workload, row.raid_level or "RAID level not stated")][row.label] = row
    sentences = []
    for (name, raid), rows in groups.items():
        # A row with no improvement (B's figure is 0) has nothing to say in the range, as on the compare page.
        improving_rows = {key: row for key, row in rows.items() if row.pct is not None}
        found = improvement_range(
            {key: row.a_value for key, row in improving_rows.items()},
            {key: row.b_value * result.adjust_b for key, row in improving_rows.items()},
        )
        sentences.append(summary_sentence(result.a.name, result.b.name, f"{raid} {name}", found) + ".")
    all_rows = [(workload, row) for workload in workloads for row in workload.rows]
    improving = [(workload, row, row.pct) for workload, row in all_rows if row.pct is not None]
    if all_rows:
        blocks.append(Paragraph(_overall_sentence(result, workloads)))
    if improving:
        best = max(improving, key=lambda found: found[2])
        worst = min(improving, key=lambda found: found[2])
        sentences.append(f"Best case: {best[0].workload}, {best[1].label}: {formatting.improvement(best[2])}.")
        sentences.append(f"Worst case: {worst[0].workload}, {worst[1].label}: {formatting.improvement(worst[2])}.")
    for system, names in ((result.a, result.only_a_workloads), (result.b, result.only_b_workloads)):
        if names:
            sentences.append(f"Only {system.name} was measured with {', '.join(names)}; they are not compared.")
    blocks.append(Box("Lessons learned", tuple(sentences) or ("No configuration could be compared.",)))
    return blocks


def _provenance(reported: list[Reported], runs: dict[int, Run]) -> list[Block]:
    blocks: list[Block] = [Heading("Appendix: provenance", 1)]
    result = reported[0].result
    blocks.append(Paragraph(f"{basis(result)} Adjustment factor k = {result.adjust_b:g}; {IMPROVEMENT_FORMULA}."))
    rows = []
    for workload in (workload for pair in reported for workload in pair.workloads):
        for row in workload.rows:
            for side, figures in (("A", row.a), ("B", row.b)):
                for figure in figures:
                    run = runs[figure.run_id]
                    rows.append(
                        (
                            Cell(f"{workload.workload}, {row.label}"),
                            Cell(f"{side}: {run.config.system.name}"),
                            Cell(formatting.throughput(figure.value, figure.metric)),
                            Cell(f"run {run.id}"),
                            Cell(_source(run)),
                        )
                    )
    blocks.append(
        TableBlock(
            caption="Where every figure came from",
            header=("Figure", "System", "Value", "Run", "Source"),
            rows=tuple(rows),
        )
    )
    return blocks


def _source(run: Run) -> str:
    if run.upload is not None:
        return f"{run.upload.original_name}, sha256 {run.upload.sha256}"
    if not run.citation_document:
        return "not stated"
    cited = ", ".join(part for part in (document_title(run.citation_document), run.citation_table) if part)
    return f"published in {cited}"
