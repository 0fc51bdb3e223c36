"""What a comparison says in words: each row's notes, the papers' summary per RAID level, why a workload
compares no configuration, and why a candidate's cell of a table against a baseline is empty."""

from collections import Counter
from collections.abc import Hashable
from typing import TYPE_CHECKING

from portal import formatting
from portal.analysis.compare import improvement_range, summary_sentence
from portal.analysis.curves import Status
from portal.analysis.pairing import config_key_label
from portal.models import System

from .figures import ReplicateGroup

if TYPE_CHECKING:
    from .comparison import Comparison, ComparisonOptions, ComparisonRow


def row_notes(row: "ComparisonRow", *, a_name: str, b_name: str, threshold_ms: float) -> list[str]:
    """What a reader of ``row`` should know of its figures: no improvement to state, different drive counts,
    published figures as their papers printed or stated them, figures that did not reach the threshold."""
    notes = []
    if row.pct is None:
        # Nothing to improve on: B did no I/O at the threshold (a failed run, a step that writes nothing).
        notes.append(f"no improvement: {b_name}'s figure is 0")
    if row.drive_count_a != row.drive_count_b:
        notes.append(f"different drive counts: {row.drive_count_a} vs {row.drive_count_b}")
    sides = [(name, found) for name, found in ((a_name, row.a_figures), (b_name, row.b_figures)) if found is not None]
    # A published MB/s figure as the paper printed it, when that was binary.
    notes += [
        f"{name} published {mbps:g} MBps (2^20 bytes/s)"
        for name, found in sides
        if found.metric == "mbps"
        for mbps in found.printed_mbps
    ]
    # A published figure shown at another threshold than the one it was published at.
    notes += [
        f"{name}: published at {stated:g} ms, shown as published"
        for name, found in sides
        for stated in found.stated_ms
        if stated != threshold_ms
    ]
    notes += [note for name, found in sides for note in not_reached_notes(name, found.not_reached)]
    return notes


def not_reached_notes(name: str, statuses: list[str]) -> list[str]:
    """One note per way figures were read without reaching the threshold, with how many when several (a
    lab's upload holds thousands of replicates of a workload)."""
    return [
        f"{name}{'' if n == 1 else ', ' + formatting.count(n, 'figure')}: {Status(status).words}"
        for status, n in Counter(statuses).items()
    ]


def raid_level_summaries(
    rows: list["ComparisonRow"], *, a_name: str, b_name: str, label: str, options: "ComparisonOptions"
) -> list[str]:
    """The papers' summary of a workload per RAID level ("A performs 5 % to 30 % better than B for RAID-5
    OLTP 8K depending on the number of drives"), and when a side did not reach the threshold, that the
    range is between lower bounds."""
    summaries = []
    for raid in sorted({r.raid_level for r in rows}):
        # A row with no improvement (B's figure is 0) has nothing to say in the range.
        improving = [r for r in rows if r.raid_level == raid and r.pct is not None]
        matched: dict[Hashable, float | None] = {r.label: r.a_value for r in improving}
        against: dict[Hashable, float | None] = {r.label: r.b_value for r in improving}
        improvements = improvement_range(matched, against, adjust_b=options.adjust_b)
        subject = formatting.raid_subject(raid, label)
        sentence = summary_sentence(a_name, b_name, subject, improvements)
        of_raid = [r for r in rows if r.raid_level == raid]
        bounded = [
            name
            for name, side in ((a_name, "a_figures"), (b_name, "b_figures"))
            if any(getattr(r, side) is not None and getattr(r, side).not_reached for r in of_raid)
        ]
        if bounded and improvements.low_pct is not None:
            sentence += _lower_bounds(bounded, options.threshold_ms)
        summaries.append(sentence)
    return summaries


def _lower_bounds(bounded: list[str], threshold_ms: float) -> str:
    # A lower bound says how much at least: a difference between bounds is no finding at the threshold.
    whose = " and ".join(bounded)
    return (
        f"; not a finding at {formatting.threshold(threshold_ms)}: {whose} did not reach it, so "
        f"{'their figures are' if len(bounded) > 1 else 'its figure is a'} lower bound"
        f"{'s' if len(bounded) > 1 else ''}"
    )


def why_empty(
    names: tuple[str, str], a_figures: list[ReplicateGroup], b_figures: list[ReplicateGroup], metric: str
) -> list[str]:
    """Why a workload both sides have compares no configuration, in sentences; ``names``: A's and B's as
    sentences name them."""
    why = []
    a_name, b_name = names
    for letter, name, figures in (("A", a_name, a_figures), ("B", b_name, b_figures)):
        if not any(found.metric == metric and found.summary is not None for found in figures):
            reasons = dict.fromkeys(words for found in figures for words in found.no_value)
            why.append(f"No figure of {letter} ({name}) at the threshold: {'; '.join(reasons) or 'no value'}.")
    if not why:
        why.append(
            f"No configuration of A ({a_name}) pairs with one of B ({b_name}): "
            "choose a configuration of each side above to compare them."
        )
    return why


def empty_cell_reason(result: "Comparison", label: str) -> str:
    """Why the candidate of ``result`` has no figure for a configuration of the baseline in workload ``label``."""
    filtered = " with these filters" if result.left_out else ""
    compared = next((workload for workload in result.workloads if workload.workload == label), None)
    if compared is None:
        return f"no run of this workload{filtered}"
    if not compared.rows:
        return " ".join(compared.empty)
    if compared.only_a:
        configurations = "; ".join(config_key_label(key) for key in compared.only_a)
        return f"no configuration paired with this one (its configurations left unpaired: {configurations})"
    return f"no configuration paired with this one{filtered}"


def only_one(pairs: list["Comparison"], baseline: System) -> list[str]:
    """The workloads each candidate has and the baseline not, and those the baseline has and it not."""
    said = []
    for result in pairs:
        shown, more = result.only_a_workloads[:50], max(len(result.only_a_workloads) - 50, 0)
        if shown:
            said.append(f"Only {result.a.name}: {', '.join(shown)}{f' and {more} more' if more else ''}.")
        shown, more = result.only_b_workloads[:50], max(len(result.only_b_workloads) - 50, 0)
        if shown:
            said.append(
                f"Only {baseline.name} (baseline), not {result.a.name}: "
                f"{', '.join(shown)}{f' and {more} more' if more else ''}."
            )
    return said
