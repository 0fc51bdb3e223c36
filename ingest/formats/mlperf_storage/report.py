"""``mlperf_storage_report.json``, what ``benchmark.sh reportgen`` writes from a workload's benchmark runs.

``overall`` holds the model, the accelerator type, the number of simulated accelerators (as text:
``"64"``), the number of runs and the mean and standard deviation of the training throughput in
samples/s and MB/s; ``runs`` holds each run's figures, keyed by its folder's name, which vendors
choose (``run1`` ... ``run5``, or ``result_cosmoflow_16_4accperclient_h100_iter2_1723949500``).
"""

from __future__ import annotations

from ...result import Point, Run
from .document import JsonFile, JSONObject
from .training import UNSTATED_ACCELERATOR, TrainingFigures, training_run

_OVERALL = "overall"
_RUNS = "runs"
RUN_COLUMNS = ("run", "mbps", "samples_per_second", "accelerators")


def report_run(document: JsonFile, warnings: list[str]) -> Run:
    """The workload's run: its point the mean over the benchmark runs, each run in ``metrics.runs``."""
    overall = document.section(document.data, _OVERALL)
    figures = TrainingFigures(
        model=document.text(overall, "model", _OVERALL),
        accelerator=_accelerator_type(document, overall, warnings),
        accelerators=_accelerators(document, overall, _OVERALL),
        mib_per_second=_figure(document, overall, "train_throughput_mean_MB_per_second"),
        mib_per_second_stdev=document.number(overall, "train_throughput_stdev_MB_per_second", _OVERALL, required=False),
        samples_per_second=_figure(document, overall, "train_throughput_mean_samples_per_second"),
        samples_per_second_stdev=document.number(
            overall, "train_throughput_stdev_samples_per_second", _OVERALL, required=False
        ),
    )
    run = training_run(figures, verdict="pass")
    rows = _run_rows(document, figures, warnings)
    run.params |= _dataset(document, overall)
    run.params["benchmark_runs"] = document.whole(overall, "num_benchmark_runs", _OVERALL, required=False)
    if run.params["benchmark_runs"] is not None and run.params["benchmark_runs"] != len(rows):
        warnings.append(
            f"{document.name}:{document.line_of('num_benchmark_runs')}: the report counts "
            f"{run.params['benchmark_runs']} benchmark runs but lists {len(rows)}"
        )
    _point(run).metrics["runs"] = {"columns": list(RUN_COLUMNS), "rows": rows}
    return run


def _point(run: Run) -> Point:
    return run.points[0]


def _figure(document: JsonFile, overall: JSONObject, key: str) -> float:
    return document.number(overall, key, _OVERALL) or 0.0


def _accelerator_type(document: JsonFile, overall: JSONObject, warnings: list[str]) -> str:
    """The simulated accelerator's type; MLPerf Storage v0.5 reports state none (that round emulated one
    type only), so the workload is named as stating none and a warning says so."""
    if "accelerator" in overall:
        return document.text(overall, "accelerator", _OVERALL)
    warnings.append(
        f"{document.name}:{document.line_of('model', _OVERALL)}: the report states no accelerator type (as MLPerf "
        f"Storage v0.5 reports do); its workload is named '{UNSTATED_ACCELERATOR}' and compares only with "
        "reports that state none"
    )
    return UNSTATED_ACCELERATOR


def _accelerators(document: JsonFile, parent: JSONObject, within: str) -> int:
    count = document.whole(parent, "train_num_accelerators", within) or 0
    if count < 1:
        raise document.error("the number of simulated accelerators must be at least 1", "train_num_accelerators")
    return count


def _dataset(document: JsonFile, overall: JSONObject) -> dict[str, int | None]:
    return {
        "files_train": document.whole(overall, "num_files_train", _OVERALL, required=False),
        "samples_per_file": document.whole(overall, "num_samples_per_file", _OVERALL, required=False),
    }


def _run_rows(document: JsonFile, overall: TrainingFigures, warnings: list[str]) -> list[list]:
    """Each benchmark run as a row of ``RUN_COLUMNS`` (MB/s converted from the file's MiB/s), in the
    file's order; a run of another model, accelerator or count than the overall figures is told."""
    runs = document.section(document.data, _RUNS)
    rows: list[list] = []
    for name, figures in runs.items():
        if not isinstance(figures, dict):
            raise document.error("expected the run's figures as an object", name, _RUNS)
        mib = document.number(figures, "train_throughput_MB_per_second", name) or 0.0
        samples = document.number(figures, "train_throughput_samples_per_second", name)
        count = document.whole(figures, "train_num_accelerators", name, required=False)
        rows.append([name, TrainingFigures.mbps_of(mib), samples, count])
        stated = {"model": figures.get("model"), "accelerator": figures.get("accelerator"), "accelerators": count}
        expected = {"model": overall.model, "accelerator": overall.accelerator, "accelerators": overall.accelerators}
        differing = [f"{key} {value}" for key, value in stated.items() if value is not None and value != expected[key]]
        if differing:
            warnings.append(
                f"{document.name}:{document.line_of(name, _RUNS)}: run {name!r} states {', '.join(differing)}, "
                f"unlike the report's overall figures; its figures are kept in the runs table only"
            )
    if not rows:
        raise document.error("the report lists no benchmark run", _RUNS)
    return rows
