"""Several systems each against one baseline, gathered into one table per workload with a row per
configuration of the baseline (the two-system comparisons' numbers, cell by cell)."""

from collections.abc import Sequence
from dataclasses import dataclass, field

from portal.models import System

from . import sentences
from .comparison import Comparison

# A candidate's figure, its improvement % over the baseline as the two-system comparison states it (None where
# it states none: both figures lower bounds, one published at another threshold, B's figure 0) and the
# improvement's mark ('' a finding, "≤" or "≥" a bound: :func:`.sentences.improvement_mark`).
Cell = tuple[float, float | None, str]


@dataclass
class MultiRow:
    """One configuration of the baseline in one workload: the baseline's figure and each candidate's, with
    its improvement."""

    label: str
    baseline: float | None
    # One cell per candidate, None where the candidate has no counterpart.
    cells: list[Cell | None]
    # Per candidate: its configuration where it is not the baseline's, else "".
    configs: list[str] = field(default_factory=list)
    # Per candidate: why its cell is empty, else "".
    reasons: list[str] = field(default_factory=list)
    # Whether the baseline's figure, and per candidate its figure, is a lower bound (the threshold not reached).
    baseline_bound: bool = False
    bounds: list[bool] = field(default_factory=list)

    @property
    def entries(self) -> list[tuple[Cell | None, str, str]]:
        """Per candidate: its cell, its configuration where it differs, why the cell is empty."""
        return list(zip(self.cells, self.configs, self.reasons, strict=True))


@dataclass
class MultiWorkload:
    workload: str
    metric: str
    rows: list[MultiRow]
    # The unit its figures are headed with, by their kind (:mod:`portal.analysis.figure_kinds`): "IOPS",
    # "metadata ops/s", "MB/s".
    unit: str = ""
    # How the tables print its figures (:attr:`WorkloadComparison.number_style`): "iops", "mbps" or "score".
    number_style: str = ""


@dataclass
class MultiComparison:
    baseline: System
    candidates: list[System]
    threshold_ms: float
    workloads: list[MultiWorkload]
    pairs: list[Comparison] = field(default_factory=list)
    # Each candidate's summary sentences, and the workloads only it or only the baseline has, in sentences.
    summaries: list[str] = field(default_factory=list)
    only_one: list[str] = field(default_factory=list)
    # What the threshold applies to: the average response time or a percentile (the pairs').
    latency: str = "avg"

    @property
    def stated_as(self) -> str:
        """How the figures were stated where none has a response time (IO500's), as every pair states them
        (:attr:`Comparison.stated_as`): "as measured", "as published", "as measured / as published", or "as
        measured or published" where the pairs differ; '' where some pair's figures are read at the threshold."""
        stated = {pair.stated_as for pair in self.pairs}
        if not stated or "" in stated:
            return ""
        return stated.pop() if len(stated) == 1 else "as measured or published"


def multi_table(
    pairs: list[Comparison], *, candidates: Sequence[System], baseline: System, threshold_ms: float
) -> MultiComparison:
    """Each candidate's comparison against ``baseline`` (``pairs``, in the candidates' order) as one table
    per workload; an empty cell says why."""
    tables: dict[str, tuple[str, dict[str, MultiRow]]] = {}
    for index, result in enumerate(pairs):
        for workload in result.workloads:
            table = tables.setdefault(workload.workload, (workload.metric, {}))[1]
            for row in workload.rows:
                found = table.setdefault(row.b_label, _multi_row(row.b_label, row.b_value, len(pairs)))
                found.cells[index] = (row.a_value, row.stated_pct, row.pct_mark or "")
                found.configs[index] = "" if row.a_label == row.b_label else row.a_label
                found.bounds[index] = row.a_lower_bound
                found.baseline_bound = found.baseline_bound or row.b_lower_bound
    # A workload none of the candidates could be paired in (no rows) is left out of the table.
    shown = sorted((label, metric, rows) for label, (metric, rows) in tables.items() if rows)
    units = {workload.workload: workload.unit for result in reversed(pairs) for workload in result.workloads}
    styles = {workload.workload: workload.number_style for result in reversed(pairs) for workload in result.workloads}
    tabled = [
        MultiWorkload(label, metric, list(rows.values()), units[label], styles[label]) for label, metric, rows in shown
    ]
    for table_workload in tabled:
        for multi_row in table_workload.rows:
            multi_row.reasons = [
                "" if cell else sentences.empty_cell_reason(result, table_workload.workload)
                for cell, result in zip(multi_row.cells, pairs, strict=True)
            ]
    summaries = [sentence for result in pairs for workload in result.workloads for sentence in workload.summaries]
    only_one = sentences.only_one(pairs, baseline)
    latency = pairs[0].latency if pairs else "avg"
    return MultiComparison(baseline, list(candidates), threshold_ms, tabled, pairs, summaries, only_one, latency)


def _multi_row(label: str, baseline: float, candidates: int) -> MultiRow:
    return MultiRow(
        label, baseline, [None] * candidates, [""] * candidates, [""] * candidates, bounds=[False] * candidates
    )
