"""A comparison as tables: per workload and matched configuration, the summary sentences, and
seed 002's side-by-side table. MB/s is decimal here; figures are written as the compare page writes
them (whole IOPS, MB/s to three significant digits), a lower bound marked "≥"."""

from collections.abc import Iterable, Iterator
from dataclasses import replace

from portal import formatting
from portal.analysis.curves import Status
from portal.analysis.digits import NO_FIGURE
from portal.analysis.pairing import config_key_label
from portal.analysis.tables import PAGE_FORMATS, Column, ColumnGroup, NumberFormat, Row, Table
from portal.comparisons.comparison import NO_RESPONSE_TIME, ComparisonRow
from portal.comparisons.figures import ReplicateGroup
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import Comparison, WorkloadComparison, comparison
from portal.models import System
from portal.results.selectors import LATENCIES

from .presets import PresetError, marks_notes, response_time_words

COMPARISON_NUMBERS = PAGE_FORMATS["iops"]
PCT_NUMBERS = NumberFormat(decimals=1, trim_zeros=False, group_from=None, na_text=NO_FIGURE)
METRIC_UNITS = {"iops": "IOPS", "mbps": "MB/s"}


def basis(result: Comparison) -> str:
    """The figures' basis in the compare page's words, which every export repeats: the threshold, the
    response time it applies to, and B's adjustment ("Throughput at a 99th percentile response time of 1 ms."); figures
    published or measured with no response time (IO500's) as such."""
    if result.as_published:
        words = f"Figures {result.stated_as}, with no response time: no threshold applies"
    else:
        words = f"Throughput at {response_time_words(threshold_ms=result.threshold_ms, latency=result.latency)}"
    if result.adjust_b != 1:
        words += f"; B's figures multiplied by {result.adjust_b:g}"
    return words + "."


def at_threshold(result: Comparison) -> str:
    """A column group's heading: "At 20 ms", "At 1 ms (99th percentile)", "As published (no response time)",
    "As measured / as published (no response time)"."""
    if result.as_published:
        return f"{result.stated_as.capitalize()}{NO_RESPONSE_TIME}"
    return at_threshold_of(threshold_ms=result.threshold_ms, latency=result.latency)


def at_threshold_of(*, threshold_ms: float, latency: str) -> str:
    at = f"At {formatting.threshold(threshold_ms)}"
    return at if latency == "avg" else f"{at} ({LATENCIES[latency]})"


def is_lower_bound(found: ReplicateGroup | None) -> bool:
    """Whether a side's figure is a lower bound: a figure of it did not reach the threshold (its best point)."""
    return found is not None and Status.NOT_REACHED in found.not_reached


def figure_row(
    headers: tuple[str, ...], cells: tuple[float | None, ...], *, metric: str, bounds: Iterable[bool]
) -> Row:
    """A row of figures in ``metric`` as the compare page writes them, the cells that are lower bounds marked
    (``bounds``, one per figure; the cells after the figures, an improvement, keep their column's format)."""
    bounds = list(bounds)
    formats = (PAGE_FORMATS[metric],) * len(bounds)
    return Row(headers, cells, formats=formats, lower_bounds=frozenset(i for i, bound in enumerate(bounds) if bound))


def figure_heading(workload: WorkloadComparison) -> str:
    """What a workload's figures are, as a table heads them: "IOPS", "metadata ops/s", "MB/s"; an AI
    training throughput says it is read at the benchmark's utilisation rule, not at the threshold."""
    kind = workload.figure_kind
    return kind.unit if kind.at_threshold else f"{kind.words}, {kind.unit}"


def comparison_table(result: Comparison) -> Table:
    """Per workload and matched configuration: A, B (and B adjusted), and the improvement of A over B."""
    adjusted = result.adjust_b != 1
    a_name, b_name = result.a_side, result.b_side
    columns = [Column(a_name, COMPARISON_NUMBERS), Column(b_name, COMPARISON_NUMBERS)]
    if adjusted:
        columns.append(Column(f"{b_name} x {result.adjust_b:g}", COMPARISON_NUMBERS))
    groups = (
        ColumnGroup(at_threshold(result), tuple(columns)),
        ColumnGroup("Improvement", (Column("%", PCT_NUMBERS),)),
    )
    rows: list[Row] = []
    notes: list[str] = []
    for workload in result.workloads:
        name = f"{workload.workload} ({figure_heading(workload)})"
        for row in workload.rows:
            b_cells = (row.b_value, row.b_value * result.adjust_b) if adjusted else (row.b_value,)
            bounds = (is_lower_bound(row.a_figures), *(is_lower_bound(row.b_figures),) * len(b_cells))
            # The improvement as the sentences state it: "–" where they state none (the notes say why).
            cells = (row.a_value, *b_cells, row.stated_pct)
            found = figure_row((name, row.label), cells, metric=workload.number_style, bounds=bounds)
            # An improvement against a lower bound of B is at most, one of A's at least, as the sentence says.
            if row.pct_mark == "≤":
                found = replace(found, upper_bounds=frozenset({len(cells) - 1}))
            elif row.pct_mark == "≥":
                found = replace(found, lower_bounds=found.lower_bounds | {len(cells) - 1})
            rows.append(found)
            notes.extend(f"{workload.workload}, {row.label}: {note}." for note in row.notes)
        notes.extend(f"{workload.workload}: {sentence}" for sentence in (*workload.training, *workload.rates))
        notes.extend(_unmatched(workload, result))
    footnotes = [
        f"{basis(result)} MB/s = 10^6 bytes/s.",
        "Improvement = (A - B x k) / (B x k) x 100" + (f", k = {result.adjust_b:g}." if adjusted else ", k = 1."),
    ]
    return Table(
        title=f"{a_name} compared with {b_name}",
        corner=(("", ""), ("Workload", "Matched configuration")),
        column_groups=groups,
        rows=tuple(rows),
        footnotes=tuple(footnotes + marks_notes(rows) + notes),
    )


def _unmatched(workload: WorkloadComparison, result: Comparison) -> Iterator[str]:
    """What the page says was not compared: a configuration both sides have under cache settings that do not
    pair is a cache-setting choice, not a configuration only one side has."""
    both = {key[:2] for key in workload.only_a} & {key[:2] for key in workload.only_b}
    yield from (f"{workload.workload}: {sentence}." for sentence in workload.ambiguous)
    for side, keys in ((result.a_side, workload.only_a), (result.b_side, workload.only_b)):
        alone = [key for key in keys if key[:2] not in both]
        if alone:
            configurations = "; ".join(config_key_label(key) for key in alone)
            yield f"{workload.workload}: only {side} has {configurations}."
    if both and not workload.ambiguous:
        shared = "; ".join(config_key_label((*key, "")) for key in sorted(both, key=str))
        yield f"{workload.workload}: both have {shared} under different cache settings; choose one to compare them."


def summary_table(result: Comparison) -> Table:
    """The paper's Summary list: one sentence per workload and RAID level, then what only one side has."""
    sentences = [sentence for workload in result.workloads for sentence in workload.summaries]
    for side, names in ((result.a_side, result.only_a_workloads), (result.b_side, result.only_b_workloads)):
        if names:
            sentences.append(f"Only {side} was measured with {', '.join(names)}.")
    return Table(
        title=f"Summary: {result.a_side} compared with {result.b_side}",
        corner=(("",), ("Summary",)),
        column_groups=(),
        rows=tuple(Row((sentence,), ()) for sentence in sentences),
        footnotes=(basis(result),),
    )


def side_by_side_table(result: Comparison) -> Table:
    """Seed 002 Table 1: workload, RAID level ("Any" when not stated), array A, array B; each side's RAID
    level where the two differ ("RAID-0 vs not stated")."""
    numbers = PAGE_FORMATS["iops"]
    rows = [
        figure_row(
            (f"{workload.workload} {figure_heading(workload)}", _raid_levels(row)),
            (row.a_value, row.b_value),
            metric=workload.number_style,
            bounds=(is_lower_bound(row.a_figures), is_lower_bound(row.b_figures)),
        )
        for workload in result.workloads
        for row in workload.rows
    ]
    all_rows = [row for workload in result.workloads for row in workload.rows]
    columns = (
        Column(_system_label(result.a_side, {row.drive_count_a for row in all_rows}), numbers),
        Column(_system_label(result.b_side, {row.drive_count_b for row in all_rows}), numbers),
    )
    at = f"at {formatting.threshold(result.threshold_ms)} {LATENCIES[result.latency]} response time"
    return Table(
        title=f"Performance {result.stated_as + NO_RESPONSE_TIME if result.as_published else at}, end to end",
        corner=(("", ""), ("Workload", "RAID level")),
        column_groups=(ColumnGroup(at_threshold(result), columns),),
        rows=tuple(rows),
        footnotes=(f"{basis(result)} MB/s = 10^6 bytes/s.", *marks_notes(rows)),
    )


def _raid_levels(row: ComparisonRow) -> str:
    """The RAID level a row compares at, or each side's, A's first, where configurations chosen by hand differ."""
    if row.raid_level_b is None:
        return row.raid_level or "Any"
    sides = (row.raid_level, row.raid_level_b)
    return " vs ".join(formatting.raid_level_words(raid) if raid else "not stated" for raid in sides)


def _system_label(side: str, drive_counts: set[int | None]) -> str:
    """ "EVA4100 (56 drives)" when every row has the same drive count."""
    if len(drive_counts) == 1 and None not in drive_counts:
        return f"{side} ({formatting.count(drive_counts.pop(), 'drive')})"
    return side


def comparison_tables(
    *, a: System, b: System, threshold_ms: float = 20.0, adjust_b: float = 1.0, workload: str | None = None
) -> list[Table]:
    """The comparison, its summary sentences and seed 002's side-by-side table, for one pair of systems."""
    if adjust_b <= 0:
        raise PresetError(f"the adjustment factor for B must be positive, got {adjust_b:g}")
    query = ComparisonQuery(threshold_ms=threshold_ms, adjust_b=adjust_b, workload=workload)
    return comparison_tables_from(comparison(a=a, b=b, query=query))


def comparison_tables_from(result: Comparison) -> list[Table]:
    """The comparison, summary and side-by-side tables of a comparison the compare page made."""
    if not result.workloads:
        raise PresetError(f"{result.a.name} and {result.b.name} have no workload in common")
    return [comparison_table(result), summary_table(result), side_by_side_table(result)]
