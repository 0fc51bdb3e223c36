"""The report's results: per workload the page's chart, the table of both figures in the figure the author
chose (IOPS, MB/s or MiB/s), the page's sentences and what was not compared; then each system's
white-paper table."""

from dataclasses import replace

from portal import formatting
from portal.analysis.digits import NO_FIGURE
from portal.analysis.pairing import ambiguities
from portal.analysis.tables import LOWER_BOUND, PAGE_FORMATS, Table, format_number, round_half_up
from portal.charts.comparison import ChartUnit
from portal.comparisons.selectors import Comparison, ComparisonRow, WorkloadComparison
from portal.models import Run, System
from portal.results.selectors import LATENCIES

from . import presets
from .charts import comparison_figure
from .comparison_tables import basis, is_lower_bound
from .document import Block, Box, Cell, Figure, Heading, Paragraph, TableBlock, table_cells
from .options import (
    MIB,
    Reported,
    ReportOptions,
    joined,
    run_ids,
    side_a,
    side_b,
    transfer_size_bytes,
    workload_names,
)

IMPROVEMENT_FORMULA = "improvement = (A - B x k) / (B x k) x 100, k the adjustment factor for B"


def results_section(
    reported: list[Reported], systems: list[System], runs: dict[int, Run], options: ReportOptions, *, draw: bool
) -> list[Block]:
    blocks: list[Block] = [Heading("Results", 1)]
    for name in workload_names(reported):
        blocks.append(Heading(name, 2))
        for pair in reported:
            for workload in (w for w in pair.workloads if w.workload == name):
                if len(reported) > 1:
                    blocks.append(Heading(f"{side_a(pair.result)} against {side_b(pair.result)}", 3))
                blocks += _workload_results(pair.result, workload, runs, options, draw=draw)
    blocks += _workloads_not_compared(reported, options)
    if options.tables:
        first = reported[0].result
        compared = {run_id for pair in reported for workload in pair.workloads for run_id in run_ids(workload)}
        blocks += _system_tables(
            systems,
            {run_id: runs[run_id] for run_id in sorted(compared)},
            threshold_ms=first.threshold_ms,
            latency=first.latency,
            options=options,
        )
    return blocks


def _workloads_not_compared(reported: list[Reported], options: ReportOptions) -> list[Block]:
    """The workloads both systems measured that no figure compares, each with why (the reader is told, not
    left to notice a workload missing); those the author left out by choice are not listed."""
    blocks: list[Block] = []
    for pair in reported:
        for workload in pair.result.workloads:
            if workload.rows or (options.workloads and workload.workload not in options.workloads):
                continue
            why = [
                *workload.printed_empty,
                *(f"{sentence}." for sentence in printed_ambiguities(workload)),
                *(f"{sentence}." for sentence in workload.sides_measured),
            ]
            title = f"{workload.workload}: not compared"
            if len(reported) > 1:
                title = f"{workload.workload}, {side_a(pair.result)} against {side_b(pair.result)}: not compared"
            blocks.append(Box(title, tuple(why or ["No figure pairs."])))
    return [Heading("Workloads not compared", 2), *blocks] if blocks else []


def _workload_results(
    result: Comparison, workload: WorkloadComparison, runs: dict[int, Run], options: ReportOptions, *, draw: bool
) -> list[Block]:
    """One workload of one comparison: its chart, its table, the page's sentences and what was not compared."""
    blocks: list[Block] = []
    if options.charts:
        caption = options.captions.get(workload.workload) or _caption(result, workload)
        figure = comparison_figure(result, workload, unit=chart_unit(workload, runs, options)) if draw else None
        blocks.append(Figure(caption, figure, key=workload.workload))
    if options.tables:
        blocks.append(_workload_table(result, workload, runs, options))
    blocks.extend(Paragraph(sentence + ".") for sentence in workload.summaries)
    blocks.extend(_not_compared(result, workload))
    return blocks


def chart_unit(workload: WorkloadComparison, runs: dict[int, Run], options: ReportOptions) -> ChartUnit:
    """The unit ``workload``'s chart is drawn in: its table's (:func:`figure_unit`)."""
    unit = figure_unit(workload, runs, options)
    size = transfer_size_bytes(workload, runs)
    return ChartUnit(unit, figure_in(1.0, metric=workload.metric, unit=unit, size_bytes=size))


def _caption(result: Comparison, workload: WorkloadComparison) -> str:
    kind = workload.figure_kind
    at = workload.as_published or (
        f"at {formatting.threshold(result.threshold_ms)}" if kind.at_threshold else f"{kind.words}"
    )
    return f"{workload.workload} {at}: {side_a(result)} (A) and {side_b(result)} (B)"


def figure_unit(workload: WorkloadComparison, runs: dict[int, Run], options: ReportOptions) -> str:
    """The figure ``workload``'s table shows: the author's choice where the runs allow it (IOPS and MB/s
    are one another's multiple only at one transfer size), else the compare page's."""
    page = "IOPS" if workload.metric == "iops" else options.mbps_unit
    chosen = options.figures.get(workload.workload, page)
    crosses = (chosen == "IOPS") != (workload.metric == "iops")
    if crosses and transfer_size_bytes(workload, runs) is None:
        return page
    return chosen


def figure_in(value: float, *, metric: str, unit: str, size_bytes: int | None) -> float:
    """``value`` (IOPS or MB/s, by ``metric``) as ``unit``: IOPS, MB/s (10^6 bytes/s) or MiB/s (2^20)."""
    mb_per_s = value if metric == "mbps" else value * (size_bytes or 0) / 1_000_000
    if unit == "IOPS":
        return value if metric == "iops" else mb_per_s * 1_000_000 / (size_bytes or 1)
    return mb_per_s / MIB if unit == "MiB/s" else mb_per_s


def _figure_cell(value: float, unit: str, *, lower_bound: bool = False, score: bool = False) -> Cell:
    """A figure as the page writes it, "≥" before a lower bound (the threshold not reached: its best point);
    IO500's score (``score``) with the six decimals its file prints."""
    if score:
        text = format_number(value, PAGE_FORMATS["score"])
    else:
        text = formatting.iops(value) if unit == "IOPS" else formatting.mbps(value)
    return Cell(LOWER_BOUND + text if lower_bound else text, value)


def _workload_table(
    result: Comparison, workload: WorkloadComparison, runs: dict[int, Run], options: ReportOptions
) -> TableBlock:
    unit = figure_unit(workload, runs, options)
    size = transfer_size_bytes(workload, runs)
    score = workload.number_style == "score"
    rows = []
    for row in workload.rows:
        how = joined(formatting.status_words(figure.status) for figure in row.a + row.b)
        a_value, b_value = (
            figure_in(value, metric=workload.metric, unit=unit, size_bytes=size)
            for value in (row.a_value, row.b_value * result.adjust_b)
        )
        rows.append(
            (
                Cell(row.label),
                _figure_cell(a_value, unit, lower_bound=is_lower_bound(row.a_figures), score=score),
                _figure_cell(b_value, unit, lower_bound=is_lower_bound(row.b_figures), score=score),
                _improvement_cell(row, options.pct_decimals),
                Cell(_confidence(row)),
                Cell(how),
            )
        )
    b_heading = f"B: {side_b(result)}" + (f" x {result.adjust_b:g}" if result.adjust_b != 1 else "")
    kind = workload.figure_kind
    # A rate of other operations than I/Os (metadata, files, objects) is headed by its own unit, never IOPS.
    shown = kind.unit if unit == "IOPS" and workload.metric == "iops" else unit
    unit_note = f"{shown}: {kind.words}." if shown != unit else _unit_note(unit, workload.metric, size)
    notes = [basis(result), unit_note, IMPROVEMENT_FORMULA + "."]
    notes += [f"{row.label}: {note}." for row in workload.rows for note in row.notes]
    at = formatting.threshold(result.threshold_ms)
    if result.latency != "avg":
        at += f", {LATENCIES[result.latency]}"  # "at 1 ms, 99th percentile": the table's basis in its caption
    if workload.as_published:
        caption = f"{workload.workload} {workload.as_published} ({shown})"
    elif kind.at_threshold:
        caption = f"{workload.workload} at {at} ({shown})"
    else:
        caption = f"{workload.workload}: {kind.words} ({unit})"
    return TableBlock(
        caption=options.captions.get(f"{workload.workload} table") or caption,
        header=("Configuration", f"A: {side_a(result)}", b_heading, "Improvement", "Confidence", "How read"),
        rows=tuple(rows),
        notes=tuple(notes),
        numeric=(False, True, True, True, False, False),
        key=f"{workload.workload} table",
    )


def _improvement_cell(row: ComparisonRow, decimals: int) -> Cell:
    """The improvement rounded half up, as the compare page prints it with one decimal ("12.7 %", "476.0 %"):
    "–" where the sentences state no difference (the row's notes say why)."""
    pct = row.stated_pct
    if pct is None:
        return Cell(NO_FIGURE if row.pct is not None else "")
    rounded = round_half_up(pct, decimals)
    mark = f"{row.pct_mark} " if row.pct_mark else ""
    return Cell(f"{mark}{rounded:.{decimals}f} %", float(rounded))


def _unit_note(unit: str, metric: str, size_bytes: int | None) -> str:
    words = {
        "MiB/s": "MiB/s = 2^20 bytes per second.",
        "MB/s": "MB/s = 10^6 bytes per second.",
        "IOPS": "IOPS: I/O operations per second.",
    }[unit]
    if (unit == "IOPS") != (metric == "iops") and size_bytes:
        measured = "IOPS" if metric == "iops" else "MB/s"
        words += (
            f" Read in {measured} and converted at the workload's {formatting.transfer_size(size_bytes)} transfers."
        )
    return words


def _confidence(row: ComparisonRow) -> str:
    confidence = row.confidence
    if not confidence:
        return "single figures"
    welch = getattr(confidence, "welch", None)
    if welch:
        return f"p = {welch.p_value:.3f} (Welch, {confidence.a.n} vs {confidence.b.n} runs)"
    return str(getattr(confidence, "reason", ""))


def _not_compared(result: Comparison, workload: WorkloadComparison) -> list[Block]:
    lines = workload.printed_empty + [f"Not compared: {sentence}." for sentence in printed_ambiguities(workload)]
    for side, keys in ((side_a(result), workload.only_a), (side_b(result), workload.only_b)):
        if keys:
            named = "; ".join(_config_words(key) for key in keys)
            lines.append(f"Only {side} was measured with {named}: it has no counterpart to compare.")
    return [Box("Not compared", tuple(lines))] if lines else []


def printed_ambiguities(workload: WorkloadComparison) -> list[str]:
    """The configurations of ``workload`` that could match several of the other side's, in a report's words
    (the compare page asks its reader to choose a cache setting; a report says why none is compared)."""
    return ambiguities(workload.only_a, workload.only_b, printed=True)[0]


def _config_words(key: tuple[str | None, int | None, str]) -> str:
    raid, drives, cache = key
    return formatting.config_words(raid, drives, cache)


def _system_tables(
    systems: list[System], compared: dict[int, Run], *, threshold_ms: float, latency: str, options: ReportOptions
) -> list[Block]:
    """Each system's white-paper table (seed 000 Table 1's layout) of the runs the comparison uses (``compared``,
    by id), one per RAID level (and per firmware version where the runs compared span several, as a firmware
    report's two sides do: a figure is never the mean of two versions' runs), as the table export prints it, at
    the comparison's threshold and latency and in the report's MB/s."""
    blocks: list[Block] = []
    for system in systems:
        mine = {run_id: run for run_id, run in compared.items() if run.config.system_id == system.id}
        by_version = len({run.firmware for run in mine.values()}) > 1
        groups: dict[tuple[str, str], list[int]] = {}
        for run_id, run in mine.items():
            groups.setdefault((run.config.raid_level or "", run.firmware if by_version else ""), []).append(run_id)
        for (level, firmware), ids in sorted(groups.items()):
            selection = presets.Selection(raid_level=level or None, run_ids=tuple(ids))
            try:
                # Headed in the report's words: its workloads as the comparison names them, IOPS as IOPS.
                table = presets.whitepaper(
                    system,
                    threshold_ms=threshold_ms,
                    latency=latency,
                    mbps_unit=options.mbps_unit,
                    selection=selection,
                    iops_label="IOPS",
                    titled=True,
                )
            except presets.PresetError:
                continue  # runs without drive counts have no white-paper table; the comparison stands
            # A drive count and cache setting with no run compared has no row (the paper's grid would print one).
            table = replace(table, rows=tuple(row for row in table.rows if any(cell is not None for cell in row.cells)))
            version = f"firmware {firmware}" if firmware else ("firmware not stated" if by_version else "")
            key = " ".join(part for part in (system.name, level, version, "figures table") if part)
            block = _from_table(table, key=key, options=options)
            if version and key not in options.captions:
                block = replace(block, caption=f"{block.caption} ({version})")
            blocks.append(block)
    if blocks:
        blocks.insert(0, Heading("Each system's figures", 2))
        blocks.insert(1, Paragraph("The runs compared above, as each system's results table lays them out."))
    return blocks


def _from_table(table: Table, *, key: str, options: ReportOptions) -> TableBlock:
    grid = table.text_grid()
    width = table.row_header_width
    header, rows = table_cells(table)
    paper_table, _, title = table.title.partition(". ")
    caption = (
        f"{title}, laid out as the paper's {paper_table}" if title and paper_table.startswith("Table") else table.title
    )
    return TableBlock(
        caption=options.captions.get(key) or caption,
        # Group headings are carried over figure columns only: the corner's words are no column's.
        header=_group_headers(header, [""] * width + grid[0][width:]),
        rows=rows,
        notes=tuple(table.footnotes),
        numeric=tuple(j >= width for j in range(len(header))),
        key=key,
    )


def _group_headers(header: tuple[str, ...], groups: list[str]) -> tuple[str, ...]:
    """Group headings carried over the columns they span ("OLTP 8K I/Os", "OLTP 8K MBps")."""
    current, out = "", []
    for text, group in zip(header, groups, strict=True):
        current = group or current
        out.append(text if group or not current or text.startswith(current) else f"{current} {text}")
    return tuple(out)
