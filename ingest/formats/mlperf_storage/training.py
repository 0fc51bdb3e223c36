"""How an MLPerf Storage training result becomes a run, the same for the report and its console transcript.

One run per model and accelerator type (the workload, named ``cosmoflow (h100)``), with one point: the
number of simulated accelerators is its load (``load.accelerators``), the mean training throughput its
MB/s. The tools print MiB/s under the name "MB/second" (DLIO divides bytes by 1024 twice; samples/s times
the model's record size gives the printed figure), so MB/s is converted to 10^6 bytes per second. The
figures people compare are in the point's metrics: the throughput per accelerator, samples/s, the standard
deviations over the runs, and (from DLIO's summary) the accelerator utilisation.

A report is written only when every run met the benchmark's accelerator utilisation rule (``reportgen``
stops at a run that did not), so its run passes. The rule, from the MLPerf Storage v1.0 rules, is in
``params.au_threshold_pct`` for the models the rules name.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...result import Point, Run, Workload
from ...units import mib_to_mbps

TOOL_DESCRIPTION = "MLPerf Storage training emulation"
# The accelerator type of a report that states none (MLPerf Storage v0.5 reports).
UNSTATED_ACCELERATOR = "accelerator not stated"
# The accelerator utilisation (%) each model's runs must reach, MLPerf Storage v1.0 rules.
AU_THRESHOLD_PCT = {"unet3d": 90.0, "resnet50": 90.0, "cosmoflow": 70.0}


@dataclass
class TrainingFigures:
    """What a report (or its transcript) states of one workload's benchmark runs; MiB/s as printed."""

    model: str
    accelerator: str
    accelerators: int
    mib_per_second: float
    mib_per_second_stdev: float | None
    samples_per_second: float | None
    samples_per_second_stdev: float | None

    @staticmethod
    def mbps_of(mib_per_second: float) -> float:
        """A throughput the tools print in "MB/second" (MiB/s), in MB/s (10^6 bytes/s)."""
        return mib_to_mbps(mib_per_second) or 0.0


def workload_name(model: str, accelerator: str) -> str:
    return f"{model} ({accelerator})"


def accelerators_named(count: int) -> str:
    return f"{count} accelerator" + ("" if count == 1 else "s")


def _typed(accelerator: str) -> str:
    """The accelerator's type and a space, or nothing when the file states none."""
    return "" if accelerator == UNSTATED_ACCELERATOR else f"{accelerator} "


def training_run(figures: TrainingFigures, *, verdict: str | None) -> Run:
    mbps = TrainingFigures.mbps_of(figures.mib_per_second)
    stdev = figures.mib_per_second_stdev
    point = Point(
        load={"accelerators": figures.accelerators},
        mbps=mbps,
        metrics={
            "mbps_per_accelerator": mbps / figures.accelerators,
            "mbps_stdev": None if stdev is None else TrainingFigures.mbps_of(stdev),
            "samples_per_second": figures.samples_per_second,
            "samples_per_second_stdev": figures.samples_per_second_stdev,
            "mib_per_second_printed": figures.mib_per_second,
        },
    )
    name = workload_name(figures.model, figures.accelerator)
    return Run(
        name=f"{name}, {accelerators_named(figures.accelerators)}",
        description=(
            f"{TOOL_DESCRIPTION} of {figures.model} on {figures.accelerators} simulated {_typed(figures.accelerator)}"
            f"{accelerators_named(figures.accelerators).split(' ', 1)[1]}: the mean training throughput of the "
            "benchmark runs"
        ),
        workload=Workload(name=name),
        verdict=verdict,
        params={
            "model": figures.model,
            "accelerator": figures.accelerator,
            "accelerators": figures.accelerators,
            "au_threshold_pct": AU_THRESHOLD_PCT.get(figures.model.lower()),
        },
        points=[point],
    )
