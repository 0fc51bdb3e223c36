"""Several systems against one baseline as a table: per workload and configuration, the baseline's
figure, each system's figure and each system's improvement over the baseline (the numbers of the
two-system comparisons, as the compare page shows them: "–" where a system has no figure, "≥" before
a lower bound)."""

from dataclasses import replace

from portal.analysis.tables import Column, ColumnGroup, Row, Table
from portal.comparisons import sentences
from portal.comparisons.comparison import NO_RESPONSE_TIME, ComparisonRow
from portal.comparisons.selectors import MultiComparison

from .comparison_tables import (
    COMPARISON_NUMBERS,
    METRIC_UNITS,
    PCT_NUMBERS,
    at_threshold_of,
    figure_row,
    is_lower_bound,
)
from .presets import marks_notes, response_time_words


def _pair_rows(multi: MultiComparison) -> dict[tuple[int, str, str], ComparisonRow]:
    """Each candidate's row of each workload by (candidate, workload, the baseline's configuration)."""
    return {
        (index, workload.workload, row.b_label): row
        for index, result in enumerate(multi.pairs)
        for workload in result.workloads
        for row in workload.rows
    }


def _improvement_marks(row: Row, marks: list[str], *, first: int) -> Row:
    """``row`` with its improvement cells (from column ``first``, one per candidate) marked as each candidate's
    comparison states them: "≤" at most, "≥" at least."""
    upper = {first + i for i, mark in enumerate(marks) if mark == "≤"}
    lower = {first + i for i, mark in enumerate(marks) if mark == "≥"}
    return replace(row, upper_bounds=row.upper_bounds | upper, lower_bounds=row.lower_bounds | lower)


def _basis(multi: MultiComparison) -> str:
    """The figures' basis: the threshold and the response time it applies to, or how figures with no response
    time (IO500's) were stated, as the two-system tables say it (:func:`.comparison_tables.basis`)."""
    if multi.stated_as:
        return f"Figures {multi.stated_as}, with no response time: no threshold applies"
    return f"Throughput at {response_time_words(threshold_ms=multi.threshold_ms, latency=multi.latency)}"


def multi_comparison_table(multi: MultiComparison) -> Table:
    baseline, candidates = multi.baseline, multi.candidates
    figures = [Column(f"{baseline.name} (baseline)", COMPARISON_NUMBERS)]
    figures += [Column(system.name, COMPARISON_NUMBERS) for system in candidates]
    pair_rows = _pair_rows(multi)
    groups = (
        ColumnGroup(
            f"{multi.stated_as.capitalize()}{NO_RESPONSE_TIME}"
            if multi.stated_as
            else at_threshold_of(threshold_ms=multi.threshold_ms, latency=multi.latency),
            tuple(figures),
        ),
        ColumnGroup(
            f"Improvement over {baseline.name} (%)",
            tuple(Column(system.name, PCT_NUMBERS) for system in candidates),
        ),
    )
    rows = []
    notes: list[str] = []
    for workload in multi.workloads:
        name = f"{workload.workload} ({workload.unit or METRIC_UNITS[workload.metric]})"
        for row in workload.rows:
            values = tuple(cell[0] if cell else None for cell in row.cells)
            improvements = tuple(cell[1] if cell else None for cell in row.cells)
            paired = [pair_rows.get((index, workload.workload, row.label)) for index in range(len(candidates))]
            baseline_bound = any(is_lower_bound(found.b_figures) for found in paired if found is not None)
            bounds = (baseline_bound, *(found is not None and is_lower_bound(found.a_figures) for found in paired))
            found = figure_row(
                (name, row.label),
                (row.baseline, *values, *improvements),
                metric=workload.number_style or workload.metric,
                bounds=bounds,
            )
            rows.append(_improvement_marks(found, [cell[2] if cell else "" for cell in row.cells], first=len(bounds)))
            notes += [
                f"{workload.workload}, {row.label}: {system.name}: improvement not stated: {why}."
                for system, found_row in zip(candidates, paired, strict=True)
                if found_row is not None and (why := sentences.improvement_not_stated(found_row, multi.threshold_ms))
            ]
            notes += [
                f"{workload.workload}, {row.label}: {system.name}: {config or reason}."
                for system, config, reason in zip(candidates, row.configs, row.reasons, strict=True)
                if config or reason
            ]
    return Table(
        title=f"{', '.join(system.name for system in candidates)} compared with {baseline.name}",
        corner=(("", ""), ("Workload", "Configuration")),
        column_groups=groups,
        rows=tuple(rows),
        footnotes=(
            f"{_basis(multi)}; MB/s = 10^6 bytes/s.",
            "Improvement = (system - baseline) / baseline x 100, as each system's comparison states it: ≤ at most "
            "(the baseline's figure a lower bound), ≥ at least (the system's); – where the system has no such "
            "configuration or no difference is stated (the notes say why).",
            *marks_notes(rows),
            *notes,
            *multi.summaries,
            *multi.only_one,
        ),
    )
