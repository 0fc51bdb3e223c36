"""Runs grouped by the workload they measured, and each group's name as tables, charts and exports print it.

Runs are the same workload when they do the same thing (:func:`~portal.analysis.pairing.workload_key_of`: its
identity, or only where the file did not say what it does, the name it was stored under), never because they
were stored under one name: fio-plot names its randread and its randwrite jobs both "random-read". A group is
named by the name its runs were stored under; where runs of one workload were stored under several names, by
the workload's title; and where two groups would print the same name, each adds what it does ("random-read
(4 KiB random read)", "random-read (4 KiB random write)"), so no two columns, series or rows read alike.
"""

from collections.abc import Iterable
from typing import NamedTuple

from .pairing import WorkloadKey, workload_key_of

# What a group of runs without a workload adds to its name beside a namesake that has one.
NOT_STATED = "what it does not stated"


class GroupedRun(NamedTuple):
    """What names a run's group: its workload (id, title and what it does in words) and its stored name."""

    workload_id: int | None
    stored_name: str
    # The workload's name ("4 KiB random read", or a paper's "Random Reads 4K"); "" for a run of none.
    title: str
    # What the workload does in words (``portal.analysis.workloads.describe``); "" for a run of none.
    described: str


def group_key(*, workload_id: int | None, stored_name: str) -> WorkloadKey:
    """The group of a run: its workload, else (the file did not say what it does) its stored name."""
    return workload_key_of(workload_id, stored_name, None, None, family=False)


def group_labels(runs: Iterable[GroupedRun]) -> dict[WorkloadKey, str]:
    """Each group's name (see the module's docstring), distinct from every other group's of ``runs``."""
    names: dict[WorkloadKey, dict[str, None]] = {}
    grouped: dict[WorkloadKey, GroupedRun] = {}
    for run in runs:
        key = group_key(workload_id=run.workload_id, stored_name=run.stored_name)
        names.setdefault(key, {})[run.stored_name] = None
        grouped.setdefault(key, run)
    first = {key: _one_name(list(names[key]), grouped[key]) for key in grouped}
    labels: dict[WorkloadKey, str] = {}
    for key, name in first.items():
        namesakes = [other for other, other_name in first.items() if other_name == name]
        labels[key] = name if len(namesakes) == 1 else f"{name} ({grouped[key].described or NOT_STATED})"
    # Two workloads in the same words (a paper's name that is another's description): told apart by number.
    taken: dict[str, int] = {}
    for key, label in labels.items():
        taken[label] = taken.get(label, 0) + 1
        if taken[label] > 1:
            labels[key] = f"{label}, workload {taken[label]}"
    return labels


def _one_name(names: list[str], run: GroupedRun) -> str:
    """The name a group prints: the one its runs were stored under, else its workload's title."""
    named = [name for name in names if name]
    if len(named) == 1:
        return named[0]
    return run.title or run.described or (named[0] if named else NOT_STATED)
