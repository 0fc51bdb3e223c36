"""What a comparison says in words: each row's notes, the papers' summary per RAID level, why a workload
compares no configuration, and why a candidate's cell of a table against a baseline is empty."""

from collections import Counter
from collections.abc import Hashable
from typing import TYPE_CHECKING

from portal import formatting
from portal.analysis.compare import improvement_range, improvement_size, summary_sentence
from portal.analysis.curves import Status
from portal.analysis.pairing import config_key_label
from portal.models import System
from portal.results.selectors import LATENCIES

from . import details
from .figures import ReplicateGroup

if TYPE_CHECKING:
    from .comparison import Comparison, ComparisonOptions, ComparisonRow


def row_notes(
    row: "ComparisonRow", *, a_name: str, b_name: str, threshold_ms: float, unit: str | None = None
) -> list[str]:
    """What a reader of ``row`` should know of its figures: no improvement to state, different drive counts,
    published figures as their papers printed or stated them, figures that did not reach the threshold.
    ``unit``: what the figures count where it is no IOPS nor MB/s ("object ops/s")."""
    notes = []
    if row.pct is None:
        # Nothing to improve on: B did no I/O at the threshold (a failed run, a step that writes nothing).
        notes.append(f"no improvement: {b_name}'s figure is 0")
    if row.drive_count_a != row.drive_count_b:
        notes.append(f"different drive counts: {row.drive_count_a} vs {row.drive_count_b}")
        if row.drive_count_a and row.drive_count_b:
            metric = row.a_figures.metric if row.a_figures is not None else "iops"
            # A lower bound's share of each drive is a lower bound too.
            a_each = formatting.throughput(row.a_value / row.drive_count_a, metric, unit=unit)
            b_each = formatting.throughput(row.b_value / row.drive_count_b, metric, unit=unit)
            a_each, b_each = (f"≥ {each}" if bound else each for each, bound in
                              ((a_each, row.a_lower_bound), (b_each, row.b_lower_bound)))  # fmt: skip
            notes.append(f"per drive: {a_name} {a_each}, {b_name} {b_each}")
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
    rows: list["ComparisonRow"],
    *,
    a_name: str,
    b_name: str,
    label: str,
    options: "ComparisonOptions",
    unit: str | None = None,
) -> list[str]:
    """The papers' summary of a workload per RAID level ("A performs 5.0 % to 30.0 % better than B for
    RAID-5 OLTP 8K depending on the number of drives"), by :func:`group_sentences`."""
    summaries = []
    for raid in sorted({r.raid_level for r in rows}):
        of_raid = [r for r in rows if r.raid_level == raid]
        summaries += group_sentences(
            of_raid, names=(a_name, b_name), subject=subject(label, raid), options=options, unit=unit
        )
    return summaries


def subject(workload: str, raid_level: str) -> str:
    """What a summary is about: "RAID-5 OLTP 8K", "OLTP 8K without RAID", or the workload alone when no RAID
    level is stated."""
    return formatting.raid_subject(raid_level, workload)


def read_at_threshold(found: ReplicateGroup | None, threshold_ms: float) -> bool:
    """Whether a side's figure of a row was read at the threshold: none of its replicates a lower bound
    (threshold not reached), none published at another threshold."""
    return (
        found is not None
        and found.summary is not None
        and not found.not_reached
        and all(stated == threshold_ms for stated in found.stated_ms)
    )


def is_finding(row: "ComparisonRow", threshold_ms: float) -> bool:
    """A row whose improvement may be stated as "X % better": both figures read at the threshold."""
    return (
        row.pct is not None
        and read_at_threshold(row.a_figures, threshold_ms)
        and read_at_threshold(row.b_figures, threshold_ms)
    )


def improvement_mark(row: "ComparisonRow", threshold_ms: float) -> str | None:
    """How a row's improvement is stated, as its sentence states it: '' a finding (both figures read at the
    threshold), "≤" or "≥" a bound (B, or A, a lower bound, the other read at the threshold: "at most" or "at
    least" that much), None no difference stated (both lower bounds, a figure published at another threshold,
    no improvement)."""
    if row.pct is None:
        return None
    if is_finding(row, threshold_ms):
        return ""
    a_bound = row.a_figures is not None and bool(row.a_figures.not_reached)
    b_bound = row.b_figures is not None and bool(row.b_figures.not_reached)
    if read_at_threshold(row.a_figures, threshold_ms) and b_bound:
        return "≤"
    if a_bound and read_at_threshold(row.b_figures, threshold_ms):
        return "≥"
    return None


# How the API and the commands name a bound on the improvement (:func:`improvement_mark`'s "≤" and "≥").
IMPROVEMENT_BOUNDS = {"≤": "at_most", "≥": "at_least"}


def improvement_not_stated(row: "ComparisonRow", threshold_ms: float) -> str:
    """Why a row states no improvement, in words ('' where it states one, a finding or a bound): B's figure
    is 0, both figures are lower bounds, or a figure was published at another threshold."""
    if row.pct is None:
        return "no improvement: B's figure is 0"
    if improvement_mark(row, threshold_ms) is not None:
        return ""
    if row.a_figures is not None and row.a_figures.not_reached and row.b_figures and row.b_figures.not_reached:
        return f"neither reaches {formatting.threshold(threshold_ms)}: both figures are lower bounds"
    return unstated_improvement_note(row, threshold_ms) or "a figure not read at the threshold"


def unstated_improvement_note(row: "ComparisonRow", threshold_ms: float) -> str:
    """Why a row's improvement is not stated where a figure was published at another threshold, '' else."""
    if row.pct is None or improvement_mark(row, threshold_ms) is not None:
        return ""
    stated = sorted(
        {ms for found in (row.a_figures, row.b_figures) if found is not None for ms in found.stated_ms} - {threshold_ms}
    )
    if not stated:
        return ""  # both figures lower bounds: their notes say so
    at = " and ".join(formatting.threshold(ms) for ms in stated)
    return f"improvement not stated at {formatting.threshold(threshold_ms)}: published at {at}"


def configuration_words(row: "ComparisonRow") -> str:
    """What differs between the two configurations of a row, A's against B's ("3 against 1 drive; RAID-0
    against RAID level not stated"), '' when nothing does: drive counts, RAID level, cache setting and drive
    type, then drive speed, firmware and host adapter where both sides state them (:mod:`.details`)."""
    raid_b = row.raid_level if row.raid_level_b is None else row.raid_level_b
    differing = []
    if row.drive_count_a != row.drive_count_b:
        a, b = (formatting.whole(n) if n else "unstated" for n in (row.drive_count_a, row.drive_count_b))
        differing.append(f"{a} against {b} drive{'' if row.drive_count_b == 1 else 's'}")
    for a, b, unstated in (
        (row.raid_level, raid_b, "RAID level not stated"),
        (row.cache_a, row.cache_b, "cache setting not stated"),
        (row.drive_type_a, row.drive_type_b, "drive type not stated"),
    ):
        if a != b:
            differing.append(f"{a or unstated} against {b or unstated}")
    return "; ".join(differing + details.differences(row.details_a, row.details_b))


def group_sentences(
    rows: list["ComparisonRow"],
    *,
    names: tuple[str, str],
    subject: str,
    options: "ComparisonOptions",
    unit: str | None = None,
) -> list[str]:
    """What the rows of one workload and RAID level show, in sentences: the range of improvement over the
    rows both of whose figures were read at the threshold, naming the configurations where they differ;
    then what is known of the others (lower bounds, figures published at another threshold), never as a
    difference."""
    a_name, b_name = names
    found = [row for row in rows if is_finding(row, options.threshold_ms)]
    said = []
    if found:
        matched: dict[Hashable, float | None] = {row.label: row.a_value for row in found}
        against: dict[Hashable, float | None] = {row.label: row.b_value for row in found}
        improvements = improvement_range(matched, against, adjust_b=options.adjust_b)
        varying = "the number of drives" if len({row.drive_count_a for row in found}) > 1 else "the configuration"
        sentence = summary_sentence(a_name, b_name, subject, improvements, varying=varying)
        differing = list(dict.fromkeys(words for words in map(configuration_words, found) if words))
        if differing:
            sentence += f" ({'; '.join(differing)})"
        said.append(sentence)
    said += [_bounded_sentence(row, names, subject, options, unit) for row in rows if row not in found]
    return said


def _side_words(
    name: str, found: ReplicateGroup | None, value: float, options: "ComparisonOptions", unit: str | None
) -> str:
    metric = found.metric if found is not None else "iops"
    figure = formatting.throughput(value, metric, unit=unit)
    if found is None or found.summary is None:
        return f"{name} has no figure"
    if found.not_reached:
        return f"{name} at least {figure} (does not reach {_at(options)})"
    stated = [ms for ms in found.stated_ms if ms != options.threshold_ms]
    if stated:
        return f"{name} {figure} as published at {formatting.threshold(stated[0])}"
    return f"{name} {figure} at {_at(options)}"


def _at(options: "ComparisonOptions") -> str:
    at = formatting.threshold(options.threshold_ms)
    return f"{at} on average" if options.latency == "avg" else f"{at} at the {LATENCIES[options.latency]}"


def _bounded_sentence(
    row: "ComparisonRow", names: tuple[str, str], subject: str, options: "ComparisonOptions", unit: str | None
) -> str:
    """What is known of a row that is no finding: at least or at most a difference where one side was read
    at the threshold and the other did not reach it, else each side's figure as it was read."""
    a_name, b_name = names
    where = f"for {subject} ({configuration_words(row) or row.label})"
    a_at = read_at_threshold(row.a_figures, options.threshold_ms)
    b_at = read_at_threshold(row.b_figures, options.threshold_ms)
    a_bound = row.a_figures is not None and bool(row.a_figures.not_reached)
    b_bound = row.b_figures is not None and bool(row.b_figures.not_reached)
    if row.pct is not None and ((a_at and b_bound) or (a_bound and b_at)):
        # A lower bound on B caps A's improvement; one on A is the least A does.
        better = row.pct >= 0
        bound = "at most" if b_bound == better else "at least"
        how = f"{bound} {improvement_size(row.pct)} % {'better' if better else 'worse'}"
        known = _side_words(b_name if b_bound else a_name, row.b_figures if b_bound else row.a_figures,
                            row.b_value if b_bound else row.a_value, options, unit)  # fmt: skip
        return f"{a_name} performs {how} than {b_name} {where}: {known}"
    if a_bound and b_bound:
        metric = row.a_figures.metric if row.a_figures is not None else "iops"
        a_least, b_least = (formatting.throughput(value, metric, unit=unit) for value in (row.a_value, row.b_value))
        return (
            f"Neither {a_name} nor {b_name} reaches {_at(options)} {where}: {a_name} at least {a_least},"
            f" {b_name} at least {b_least}; no difference is stated"
        )
    sides = (
        _side_words(a_name, row.a_figures, row.a_value, options, unit),
        _side_words(b_name, row.b_figures, row.b_value, options, unit),
    )
    return f"No difference is stated at {_at(options)} {where}: {sides[0]}, {sides[1]}"


def why_empty(
    names: tuple[str, str],
    a_figures: list[ReplicateGroup],
    b_figures: list[ReplicateGroup],
    metric: str,
    *,
    printed: bool = False,
) -> list[str]:
    """Why a workload both sides have compares no configuration, in sentences; ``names``: A's and B's as
    sentences name them. The compare page's sentences point at its choice of configurations; ``printed``
    ones (a report's) say what was not compared in their own words."""
    why = []
    a_name, b_name = names
    for letter, name, figures in (("A", a_name, a_figures), ("B", b_name, b_figures)):
        if not any(found.metric == metric and found.summary is not None for found in figures):
            reasons = dict.fromkeys(words for found in figures for words in found.no_value)
            why.append(f"No figure of {letter} ({name}) at the threshold: {'; '.join(reasons) or 'no value'}.")
    if not why and printed:
        why.append(
            f"No configuration of A ({a_name}) pairs with one of B ({b_name}) by RAID level, drive count and"
            " cache setting, so none is compared."
        )
    elif not why:
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
