"""Several systems against one baseline as a table: per workload and configuration, the baseline's
figure, each system's figure and each system's improvement over the baseline (the numbers of the
two-system comparisons, as the compare page shows them: "–" where a system has no figure, "≥" before
a lower bound)."""

from portal.analysis.tables import Column, ColumnGroup, Table
from portal.comparisons.comparison import ComparisonRow
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


def multi_comparison_table(multi: MultiComparison) -> Table:
    baseline, candidates = multi.baseline, multi.candidates
    figures = [Column(f"{baseline.name} (baseline)", COMPARISON_NUMBERS)]
    figures += [Column(system.name, COMPARISON_NUMBERS) for system in candidates]
    pair_rows = _pair_rows(multi)
    groups = (
        ColumnGroup(at_threshold_of(threshold_ms=multi.threshold_ms, latency=multi.latency), tuple(figures)),
        ColumnGroup(
            f"Improvement over {baseline.name} (%)",
            tuple(Column(system.name, PCT_NUMBERS) for system in candidates),
        ),
    )
    rows = []
    notes: list[str] = []
    for workload in multi.workloads:
        name = f"{workload.workload} ({METRIC_UNITS[workload.metric]})"
        for row in workload.rows:
            values = tuple(cell[0] if cell else None for cell in row.cells)
            improvements = tuple(cell[1] if cell else None for cell in row.cells)
            paired = [pair_rows.get((index, workload.workload, row.label)) for index in range(len(candidates))]
            baseline_bound = any(is_lower_bound(found.b_figures) for found in paired if found is not None)
            bounds = (baseline_bound, *(found is not None and is_lower_bound(found.a_figures) for found in paired))
            rows.append(
                figure_row(
                    (name, row.label), (row.baseline, *values, *improvements), metric=workload.metric, bounds=bounds
                )
            )
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
            f"Throughput at {response_time_words(threshold_ms=multi.threshold_ms, latency=multi.latency)}; "
            "MB/s = 10^6 bytes/s.",
            "Improvement = (system - baseline) / baseline x 100; – where the system has no such configuration.",
            *marks_notes(rows),
            *notes,
            *multi.summaries,
            *multi.only_one,
        ),
    )
