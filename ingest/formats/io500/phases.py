"""Runs of IO500 phases and of its score, whichever file states them.

A bandwidth phase (its name begins with ``ior``) is stated in GiB/s: the sc20 and later files say so, and
the 2018 files' "GB/s" is the same figure (IOR's MiB/s divided by 1,024: 14,314.03 MiB/s is printed as
13.978 GB/s). A metadata phase (mdtest, find) is stated in kIOPS, thousands of operations per second."""

from dataclasses import dataclass, field
from typing import Any

from ...result import MB, Point, Run, Workload
from ...units import GIB
from ..mdtest.operations import FIGURE as METADATA_FIGURE

# The phases IO500's score is computed from (sc20 onwards; the 2018 names, with underscores, are the same).
SCORED = frozenset(
    {
        "ior-easy-write",
        "mdtest-easy-write",
        "ior-hard-write",
        "mdtest-hard-write",
        "find",
        "ior-easy-read",
        "mdtest-easy-stat",
        "ior-hard-read",
        "mdtest-hard-stat",
        "mdtest-easy-delete",
        "mdtest-hard-read",
        "mdtest-hard-delete",
    }
)
SCORE_RUN = "IO500 score"


@dataclass
class Phase:
    """One phase as the file states it: its name (hyphenated), figure, time and whether it counts."""

    name: str
    line: int
    figure: float
    time_s: float | None = None
    scored: bool = True
    valid: bool = True
    started_at: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Score:
    """IO500's score: its bandwidth (GiB/s) and metadata (kIOPS) sub-scores and their total."""

    line: int
    bandwidth_gib_per_s: float
    metadata_kiops: float
    total: float
    valid: bool = True
    params: dict[str, Any] = field(default_factory=dict)


def phase_name(printed: str) -> str:
    """A phase's name as sc20 and later print it: ``ior_easy_write`` (2018) is ``ior-easy-write``."""
    return printed.replace("_", "-")


def phase_runs(phases: list[Phase], *, procs: int | None, warnings: list[str], name: str) -> list[Run]:
    """A run per phase with a figure; a phase IO500 does not score or found invalid is stored and warned of."""
    runs = []
    for phase in phases:
        if not phase.figure:
            warnings.append(f"{name}:{phase.line}: phase {phase.name} states no figure (0), not stored")
            continue
        if not phase.scored:
            warnings.append(f"{name}:{phase.line}: phase {phase.name} is not part of IO500's score, stored as measured")
        if not phase.valid:
            warnings.append(
                f"{name}:{phase.line}: IO500 marks phase {phase.name} [INVALID]; stored with a fail verdict"
            )
        runs.append(_phase_run(phase, procs))
    return runs


def _phase_run(phase: Phase, procs: int | None) -> Run:
    metrics: dict[str, Any] = {"time_s": phase.time_s} if phase.time_s is not None else {}
    params: dict[str, Any] = {"scored": phase.scored, **phase.params}
    load = {"threads": procs} if procs else {}
    if phase.name.startswith("ior"):
        mbps = phase.figure * GIB / MB
        reads = phase.name.endswith("read")
        point = Point(load=load, mbps=mbps, read_mbps=mbps if reads else 0.0, write_mbps=0.0 if reads else mbps)
        metrics["gib_per_s"] = phase.figure
        workload = Workload(name=phase.name, read_pct=100.0 if reads else 0.0)
    else:
        point = Point(load=load, iops=phase.figure * 1000)
        metrics["kiops"] = phase.figure
        params["figure"] = METADATA_FIGURE
        workload = Workload(name=phase.name)
    point.metrics = metrics
    verdict = None if phase.valid else "fail"
    return Run(
        name=phase.name, started_at=phase.started_at, workload=workload, verdict=verdict, params=params, points=[point]
    )


def score_run(score: Score, *, procs: int | None, warnings: list[str], name: str) -> Run:
    """The score as a run of its own: its point's MB/s is the bandwidth sub-score, its rate the metadata
    sub-score (operations per second), and ``metrics`` holds the three as IO500 prints them."""
    if not score.valid:
        warnings.append(f"{name}:{score.line}: IO500 marks the score [INVALID]; stored with a fail verdict")
    point = Point(
        load={"threads": procs} if procs else {},
        mbps=score.bandwidth_gib_per_s * GIB / MB,
        iops=score.metadata_kiops * 1000,
        metrics={
            "score": score.total,
            "bandwidth_gib_per_s": score.bandwidth_gib_per_s,
            "metadata_kiops": score.metadata_kiops,
        },
    )
    params = {"figure": "IO500 score (bandwidth GiB/s and metadata kIOPS sub-scores, geometric means)", **score.params}
    return Run(
        name=SCORE_RUN,
        workload=Workload(name=SCORE_RUN),
        verdict=None if score.valid else "fail",
        params=params,
        points=[point],
    )
