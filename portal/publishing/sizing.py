"""The report's "Sizing" section: each compared system's drive-count sweeps of the reported workloads,
as the sizing page and its exports give them (each drive count's figure, the model there, the model's
prediction with that count left out, and the model's sentences). A comparison without sweeps has no
such section."""

from collections.abc import Iterable

from portal.analysis.tables import Table
from portal.models import System
from portal.sizing.output import sizing_tables
from portal.sizing.selectors import sizing, sweep_workloads

from .document import Block, Heading, Paragraph, TableBlock, table_cells

INTRODUCTION = (
    "Throughput at the threshold against drive count, where a system was measured at two or more drive"
    " counts of a reported workload: the model (drive-bound while the drives are the limit, level where"
    " the controller is) is fitted to the measured figures and checked by leaving each interior drive"
    " count out and predicting it from the others. Modelled figures are never measurements."
)


def sizing_blocks(systems: Iterable[System], *, workloads: Iterable[str], threshold_ms: float) -> list[Block]:
    """The section's heading, introduction and one table per sweep (nothing without a sweep)."""
    reported = set(workloads)
    tables: list[Table] = []
    for system in systems:
        for workload in sweep_workloads(system=system):
            if workload in reported:
                tables += sizing_tables(system, sizing(system=system, workload=workload, threshold_ms=threshold_ms))
    if not tables:
        return []
    return [Heading("Sizing", 1), Paragraph(INTRODUCTION), *(_table_block(table) for table in tables)]


def _table_block(table: Table) -> TableBlock:
    width = table.row_header_width
    header, rows = table_cells(table)
    return TableBlock(
        caption=table.title,
        header=header,
        rows=rows,
        notes=tuple(table.footnotes),
        numeric=tuple(j >= width for j in range(len(header))),
    )
