"""Several systems against one baseline as a table: per workload and configuration, the baseline's
figure, each system's figure and each system's improvement over the baseline (the numbers of the
two-system comparisons, as the compare page shows them)."""

from portal.analysis.tables import Column, ColumnGroup, Row, Table
from portal.comparisons.selectors import MultiComparison

from .comparison_tables import COMPARISON_NUMBERS, METRIC_UNITS, PCT_NUMBERS


def multi_comparison_table(multi: MultiComparison) -> Table:
    baseline, candidates = multi.baseline, multi.candidates
    figures = [Column(f"{baseline.name} (baseline)", COMPARISON_NUMBERS)]
    figures += [Column(system.name, COMPARISON_NUMBERS) for system in candidates]
    groups = (
        ColumnGroup(f"At {multi.threshold_ms:g} ms", tuple(figures)),
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
            rows.append(Row((name, row.label), (row.baseline, *values, *improvements)))
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
            f"Throughput at an average response time of {multi.threshold_ms:g} ms; MB/s = 10^6 bytes/s.",
            "Improvement = (system - baseline) / baseline x 100; N/A where the system has no such configuration.",
            *notes,
            *multi.summaries,
            *multi.only_one,
        ),
    )
