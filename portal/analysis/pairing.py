"""Which configurations and workloads of two systems are compared with each other.

A configuration is keyed by (RAID level, drive count, cache setting), with "" or None where a
side does not state it; a workload by what makes two runs the same workload (:func:`workload_key_of`).
Pure functions of these keys: the comparison selectors read the runs and their figures.
"""

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from portal.analysis.vocabulary import config_words
from portal.analysis.workloads import describe_family, signature

# (RAID level, drive count, cache setting); "" or None where it is not stated.
ConfigKey = tuple[str, int | None, str]
# ("workload", workload id), ("family", read/random family) or ("name", the name it was stored under).
WorkloadKey = tuple[str, Any]

MATCHED_BY = {
    "workload": "same workload: read %, random % and transfer sizes",
    "family": "best of each side over the transfer sizes of one read % and random %",
    "name": "by name only: the files do not say what the workload does",
    "pair": "paired by hand",
}


def compatible(a_key: ConfigKey, b_key: ConfigKey) -> bool:
    """Same RAID level and drive count; cache settings equal, or unknown on one side."""
    return a_key[:2] == b_key[:2] and (not a_key[2] or not b_key[2] or a_key[2] == b_key[2])


def pair_configs(
    a_keys: Iterable[ConfigKey], b_keys: Iterable[ConfigKey]
) -> tuple[list[tuple[ConfigKey, ConfigKey]], list[ConfigKey], list[ConfigKey]]:
    """Match configurations between A and B.

    First exactly (RAID level, drive count, cache setting), then with the cache setting unknown
    on one side when that is unambiguous, then, per RAID level, a lone configuration left on
    each side: arrays of different sizes at their best, as the papers compare them.
    Returns (pairs, unmatched A keys, unmatched B keys).
    """
    a_left, b_left = list(a_keys), list(b_keys)
    pairs = [(key, key) for key in a_left if key in b_left]
    for a_key, _ in pairs:
        a_left.remove(a_key)
        b_left.remove(a_key)
    for a_key in list(a_left):
        candidates = [b_key for b_key in b_left if compatible(a_key, b_key)]
        rivals = [other for other in a_left if candidates and compatible(other, candidates[0])]
        if len(candidates) == 1 and len(rivals) == 1:
            pairs.append((a_key, candidates[0]))
            a_left.remove(a_key)
            b_left.remove(candidates[0])
    for raid in {key[0] for key in a_left}:
        a_raid = [key for key in a_left if key[0] == raid]
        b_raid = [key for key in b_left if key[0] == raid]
        if len(a_raid) == 1 and len(b_raid) == 1:
            pairs.append((a_raid[0], b_raid[0]))
            a_left.remove(a_raid[0])
            b_left.remove(b_raid[0])
    return pairs, a_left, b_left


def config_key_order(key: ConfigKey) -> tuple[str, int, str]:
    """Configurations by RAID level, drive count and cache setting, unstated parts first."""
    return (key[0] or "", key[1] or 0, key[2] or "")


def config_key_label(key: ConfigKey) -> str:
    """'RAID-5, 140 drives, All Caches Disabled' for a (RAID level, drive count, cache setting) key."""
    return config_words(key[0], key[1], key[2])


def ambiguities(
    a_left: list[ConfigKey], b_left: list[ConfigKey], *, printed: bool = False
) -> tuple[list[str], list[str]]:
    """Sentences for unmatched configurations that could match several on the other side because
    one side does not state its cache setting, and the settings the user can choose between. The compare
    page's sentences ask its reader to choose one; ``printed`` ones (a report's) say why it is not compared."""
    sentences: list[str] = []
    choices: list[str] = []
    for side, keys, others, other_side in (("A", a_left, b_left, "B"), ("B", b_left, a_left, "A")):
        for key in keys:
            matches = [other for other in others if compatible(key, other)]
            if len(matches) > 1:
                settings_text = " or ".join(repr(m[2]) for m in matches if m[2])
                why = (
                    f"{side} states no cache setting for it, so it is compared with neither"
                    if printed
                    else "choose a cache setting to compare them"
                )
                sentences.append(f"{side}'s {config_key_label(key)} could match {other_side}'s {settings_text}: {why}")
                choices += [m[2] for m in matches if m[2] and m[2] not in choices]
    return sentences, choices


def workload_key_of(
    workload_id: int | None,
    workload_name: str,
    read_pct: float | None,
    random_pct: float | None,
    *,
    family: bool,
) -> WorkloadKey:
    """What makes two runs the same workload: its identity when the file said what it does (or, for
    ``family``, its read % and random % whatever the transfer size), else its name."""
    if family and read_pct is not None and random_pct is not None:
        sig = signature(read_pct=read_pct, random_pct=random_pct, transfer_sizes=[], sizes_required=False)
        assert sig is not None  # known: both percentages are, and sizes are not required
        return ("family", sig.family)
    if workload_id:
        return ("workload", workload_id)
    return ("name", workload_name)


def workload_title(key: WorkloadKey, stored_name: str) -> str:
    """A compared workload in words: its family described, its workload's name, or its stored name."""
    if key[0] == "family":
        return describe_family(key[1])
    return stored_name if key[0] == "workload" else key[1]


def workload_names(key: WorkloadKey, names: Iterable[str]) -> set[object]:
    """The names a workload is found by: every name of its workload, else the one it was stored under."""
    return set(names) if key[0] == "workload" else {key[1]}


def pair_label(a_title: str, b_title: str) -> str:
    """One compared workload's label: its title, or both sides' titles when they differ."""
    return a_title if a_title == b_title else f"{a_title} = {b_title}"


def match_workloads(
    a_names: Mapping[WorkloadKey, Collection[object]], b_names: Mapping[WorkloadKey, Collection[object]]
) -> list[tuple[WorkloadKey, WorkloadKey]]:
    """Keys of A and B that are the same workload (each side's keys with the names they are found
    by): equal keys, then a name one side has as a name and the other as one of a workload's names."""
    pairs = [(key, key) for key in a_names if key in b_names]
    for a_key in [key for key in a_names if key[0] == "name" and key not in b_names]:
        found = [k for k, names in b_names.items() if k[0] == "workload" and a_key[1] in names]
        pairs += [(a_key, found[0])] if len(found) == 1 else []
    for b_key in [key for key in b_names if key[0] == "name" and key not in a_names]:
        found = [k for k, names in a_names.items() if k[0] == "workload" and b_key[1] in names]
        pairs += [(found[0], b_key)] if len(found) == 1 else []
    return pairs
