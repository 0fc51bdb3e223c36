"""Runs of mdtest's rates: one per operation it ran, its operations per second as the point's rate."""

from dataclasses import dataclass, field
from typing import Any

from ...result import Point, Run, Workload

# How the portal and the exports name the figure a metadata run's points hold in ``iops``.
FIGURE = "metadata operations per second"


@dataclass
class Rate:
    """One operation's rate (operations per second) as mdtest states it, and where."""

    operation: str
    line: int
    mean: float
    statistics: dict[str, float] = field(default_factory=dict)
    times_s: dict[str, float] = field(default_factory=dict)
    # The unit of ``times_s``: seconds (mdtest up to 3.4) or "ms_per_op" (mdtest 4's 'SUMMARY time (in ms/op)').
    time_unit: str = "s"


def operation_runs(
    rates: list[Rate], *, tasks: int | None, params: dict[str, Any], started_at: str | None, warnings: list[str]
) -> list[Run]:
    """A run per operation with a rate above 0; the operations at 0 (not run) listed in a warning."""
    idle = [
        f"{rate.operation} (line {rate.line})" for rate in rates if not rate.mean and not any(rate.statistics.values())
    ]
    if idle:
        warnings.append(f"operations mdtest did not run (a rate of 0), not stored: {', '.join(idle)}")
    return [_run(rate, tasks, params, started_at) for rate in rates if rate.mean or any(rate.statistics.values())]


def _run(rate: Rate, tasks: int | None, params: dict[str, Any], started_at: str | None) -> Run:
    metrics: dict[str, Any] = {"operations_per_s": dict(rate.statistics)}
    if rate.times_s:
        metrics["time_s" if rate.time_unit == "s" else "time_ms_per_op"] = dict(rate.times_s)
    point = Point(load={"threads": tasks} if tasks else {}, iops=rate.mean, metrics=metrics)
    return Run(
        name=rate.operation,
        started_at=started_at,
        workload=Workload(name=rate.operation),
        params={"figure": FIGURE, "operation": rate.operation.lower(), **params},
        points=[point],
    )
