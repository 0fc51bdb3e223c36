"""The rows and statistics of a comparison: each configuration pair's figures, improvement and confidence,
gathered per workload, and the comparison of two systems they make up."""

from collections import defaultdict

from portal.analysis.compare import (
    compare_summaries,
    improvement_pct,
    replicates_together,
)
from portal.analysis.pairing import ambiguities, config_key_order, pair_configs
from portal.models import System

from . import sentences
from .comparison import ComparisonOptions, ComparisonRow, WorkloadComparison
from .figures import ConfigGroup, ReplicateGroup


def groups(found: list[ReplicateGroup], metric: str, *, best: bool = False) -> dict[ConfigGroup, ReplicateGroup]:
    """Replicates with a value, by configuration group, those of one group together; or only the best
    figure of each configuration (``best``: a family of workloads at its best; figures one by one)."""
    by_group: defaultdict[ConfigGroup, list[ReplicateGroup]] = defaultdict(list)
    for replicates in found:
        if replicates.metric == metric and replicates.summary is not None:
            by_group[replicates.group].append(replicates)
    if best:
        return {key: max(parts, key=lambda part: part.valued.mean) for key, parts in by_group.items()}
    return {key: _together(parts) for key, parts in by_group.items()}


def _together(parts: list[ReplicateGroup]) -> ReplicateGroup:
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    found = [part.found for part in parts]
    return ReplicateGroup(
        system_id=first.system_id,
        workload_key=first.workload_key,
        group=first.group,
        metric=first.metric,
        summary=replicates_together([part.valued for part in parts]),
        printed_mbps=[value for part in parts for value in part.printed_mbps],
        stated_ms=[value for part in parts for value in part.stated_ms],
        not_reached=[status for part in parts for status in part.not_reached],
        found=None if None in found else [figure for figures in found if figures for figure in figures],
        on_demand=next((part.on_demand for part in parts if part.on_demand), None),
        no_value=list(dict.fromkeys(words for part in parts for words in part.no_value)),
    )


def compared_row(
    a: System,
    b: System,
    a_found: ReplicateGroup,
    b_found: ReplicateGroup,
    options: ComparisonOptions,
    unit: str | None = None,
) -> ComparisonRow:
    """A's and B's figures of one configuration pair, the improvement of A over B and its confidence."""
    a_summary, b_summary = a_found.valued, b_found.valued
    a_key, b_key = a_found.group, b_found.group
    row = ComparisonRow(
        raid_level=a_key.raid_level,
        drive_count_a=a_key.drive_count,
        drive_count_b=b_key.drive_count,
        cache_a=a_key.cache_setting,
        cache_b=b_key.cache_setting,
        a_value=a_summary.mean,
        b_value=b_summary.mean,
        pct=None,
        a_figures=a_found,
        b_figures=b_found,
        raid_level_b=None if b_key.raid_level == a_key.raid_level else b_key.raid_level,
        drive_type_a=options.drive_type(a.id, a_key),
        drive_type_b=options.drive_type(b.id, b_key),
        details_a=options.details_of(a.id, a_key, firmware_chosen=bool(options.a_firmware)),
        details_b=options.details_of(b.id, b_key, firmware_chosen=bool(options.b_firmware)),
    )
    if row.b_value * options.adjust_b > 0:
        row.pct = improvement_pct(row.a_value, row.b_value, adjust_b=options.adjust_b)
    if a_summary.n > 1 and b_summary.n > 1:
        row.confidence = compare_summaries(a_summary, b_summary, adjust_b=options.adjust_b)
    a_name, b_name = options.side_names(a, b)
    row.notes = sentences.row_notes(row, a_name=a_name, b_name=b_name, threshold_ms=options.threshold_ms, unit=unit)
    row.pct_mark = sentences.improvement_mark(row, options.threshold_ms)
    unstated = sentences.unstated_improvement_note(row, options.threshold_ms)
    if unstated:
        row.notes.append(unstated)
    return row


def workload_comparison(
    a: System,
    b: System,
    label: str,
    found: tuple[list[ReplicateGroup], list[ReplicateGroup]],
    options: ComparisonOptions,
    *,
    matched_by: str,
    best: bool = False,
    chosen: bool = False,
    iops_unit: str | None = None,
) -> WorkloadComparison:
    """One compared workload from each side's :class:`ReplicateGroup` (one per figure, or summed up);
    ``chosen``: one configuration of each side was chosen, and they are compared whatever they are;
    ``iops_unit``: what both sides' operations are where they are no I/Os ("object ops/s")."""
    a_figures, b_figures = found
    metric = "iops" if all(replicates.metric == "iops" for replicates in a_figures + b_figures) else "mbps"
    unit = iops_unit if metric == "iops" else None
    a_groups, b_groups = groups(a_figures, metric, best=best), groups(b_figures, metric, best=best)
    pairs, only_a, only_b = pair_configs(sorted(a_groups, key=config_key_order), sorted(b_groups, key=config_key_order))
    if chosen and not pairs and len(a_groups) == len(b_groups) == 1:
        pairs, only_a, only_b = [(next(iter(a_groups)), next(iter(b_groups)))], [], []
    rows = [
        compared_row(a, b, a_groups[ConfigGroup(*ak)], b_groups[ConfigGroup(*bk)], options, unit) for ak, bk in pairs
    ]
    rows.sort(key=lambda r: (r.raid_level, r.drive_count_a or 0, r.cache_a))
    a_name, b_name = options.side_names(a, b)
    summaries = sentences.raid_level_summaries(
        rows, a_name=a_name, b_name=b_name, label=label, options=options, unit=unit
    )
    said, choices = ambiguities(only_a, only_b)
    why = [] if rows else sentences.why_empty((a_name, b_name), a_figures, b_figures, metric)
    printed = [] if rows else sentences.why_empty((a_name, b_name), a_figures, b_figures, metric, printed=True)
    return WorkloadComparison(
        label, metric, rows, only_a, only_b, summaries, said, matched_by, choices, empty=why, printed_empty=printed
    )
