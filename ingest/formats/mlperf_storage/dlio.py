"""DLIO's ``summary.json`` and ``per_epoch_stats.json``, written in each client's folder of a benchmark run.

``summary.json`` holds the whole run's figures (every client's folder holds the same ones): the number
of simulated accelerators and of hosts, the accelerator utilisation (AU) of each epoch with its mean,
whether the mean met the benchmark's rule (``train_au_meet_expectation``: ``success`` or ``fail``), and
the training throughput of each epoch in samples/s with its mean and the mean I/O throughput in "MB/s"
(MiB/s, converted). It names the model in MLPerf Storage v0.5 (kept), not in v1.0. ``per_epoch_stats.json``
holds each epoch's start, end and duration, and those of its blocks: read with the ``summary.json`` of the
same folder into its run's epoch table; alone it holds no figure to store and is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import ParseError
from ...result import Point, Run
from .document import JsonFile, JSONObject
from .training import TOOL_DESCRIPTION, TrainingFigures, accelerators_named

_METRIC = "metric"
_VERDICTS = {"success": "pass", "fail": "fail"}
EPOCH_COLUMNS = ("epoch", "au_pct", "samples_per_second", "start", "end", "duration_s")


@dataclass
class Epoch:
    """One epoch of ``per_epoch_stats.json``: its number and times (its blocks' times are not read)."""

    number: str
    start: str | None
    end: str | None
    duration_s: float | None


def summary_run(document: JsonFile, epochs: list[Epoch] | None, warnings: list[str]) -> Run:
    """The benchmark run of a ``summary.json``: its point the mean I/O throughput with the number of
    simulated accelerators as load; AU and samples/s in the metrics, each epoch in ``metrics.epochs``."""
    data = document.data
    metric = document.section(data, _METRIC)
    accelerators = document.whole(data, "num_accelerators") or 0
    if accelerators < 1:
        raise document.error("the number of simulated accelerators must be at least 1", "num_accelerators")
    mib = document.number(metric, "train_io_mean_MB_per_second", _METRIC) or 0.0
    mbps = TrainingFigures.mbps_of(mib)
    stdev = document.number(metric, "train_io_stdev_MB_per_second", _METRIC, required=False)
    au_mean = document.number(metric, "train_au_mean_percentage", _METRIC)
    hosts = document.whole(data, "num_hosts", required=False)
    host = data.get("hostname") if isinstance(data.get("hostname"), str) else None
    started_at = document.moment(data, "start")
    # MLPerf Storage v0.5's DLIO names the model at the top of its summary; v1.0's does not.
    model = data["model"].strip() if isinstance(data.get("model"), str) and data["model"].strip() else None
    point = Point(
        load={"accelerators": accelerators},
        mbps=mbps,
        metrics={
            "au_pct": au_mean,
            "au_pct_stdev": document.number(metric, "train_au_stdev_percentage", _METRIC, required=False),
            "mbps_per_accelerator": mbps / accelerators,
            "mbps_stdev": None if stdev is None else TrainingFigures.mbps_of(stdev),
            "samples_per_second": document.number(metric, "train_throughput_mean_samples_per_second", _METRIC),
            "samples_per_second_stdev": document.number(
                metric, "train_throughput_stdev_samples_per_second", _METRIC, required=False
            ),
            "mib_per_second_printed": mib,
            "hosts": hosts,
            "epochs": {"columns": list(EPOCH_COLUMNS), "rows": _epoch_rows(document, metric, epochs, warnings)},
        },
    )
    return Run(
        name=_run_name(accelerators, started_at, host),
        description=f"{TOOL_DESCRIPTION}: one benchmark run's DLIO summary"
        + (f" of {model}; it names no accelerator type" if model else "; it does not name the model"),
        started_at=started_at,
        verdict=_verdict(document, metric),
        params={
            **({"model": model} if model else {}),
            "accelerators": accelerators,
            "hosts": hosts,
            "host": host,
            "files_train": document.whole(data, "num_files_train", required=False),
            "samples_per_file": document.whole(data, "num_samples_per_file", required=False),
        },
        points=[point],
    )


def _run_name(accelerators: int, started_at: str | None, host: str | None) -> str:
    """``DLIO training run of 2024-08-17 22:55, 64 accelerators (summary of c002)``: the start tells the
    benchmark runs of one workload apart, their summaries being alike in all else."""
    started = f" of {started_at[:16].replace('T', ' ')}" if started_at else ""
    return f"DLIO training run{started}, {accelerators_named(accelerators)}" + (f" (summary of {host})" if host else "")


def _verdict(document: JsonFile, metric: JSONObject) -> str:
    stated = metric.get("train_au_meet_expectation")
    verdict = _VERDICTS.get(str(stated).strip().lower())
    if verdict is None:
        raise document.error(
            f"expected 'success' or 'fail' (whether the accelerator utilisation met the rule), found {stated!r}",
            "train_au_meet_expectation",
            _METRIC,
        )
    return verdict


def _epoch_rows(document: JsonFile, metric: JSONObject, epochs: list[Epoch] | None, warnings: list[str]) -> list[list]:
    """A row of ``EPOCH_COLUMNS`` per epoch: AU and samples/s from the summary's lists, times from
    ``per_epoch_stats.json`` where it was read with it."""
    au = document.numbers(metric, "train_au_percentage", _METRIC)
    samples = document.numbers(metric, "train_throughput_samples_per_second", _METRIC)
    timed = epochs or []
    count = max(len(au), len(samples), len(timed))
    if len({len(au), len(samples), len(timed) if epochs is not None else len(au)}) > 1:
        warnings.append(
            f"{document.name}: the epochs do not agree: {len(au)} AU figures, {len(samples)} throughputs"
            + (f", {len(timed)} epochs in per_epoch_stats.json" if epochs is not None else "")
            + "; the missing ones are left blank"
        )
    rows = []
    for index in range(count):
        epoch = timed[index] if index < len(timed) else None
        rows.append(
            [
                epoch.number if epoch else str(index + 1),
                au[index] if index < len(au) else None,
                samples[index] if index < len(samples) else None,
                epoch.start if epoch else None,
                epoch.end if epoch else None,
                epoch.duration_s if epoch else None,
            ]
        )
    return rows


def per_epoch_stats(document: JsonFile) -> list[Epoch]:
    """The epochs of ``per_epoch_stats.json`` in epoch order (keys ``"1"``, ``"2"``, ...)."""
    epochs = []
    for number, stats in sorted(document.data.items(), key=lambda item: _epoch_order(document, item[0])):
        if not isinstance(stats, dict):
            raise document.error("expected the epoch's start, end and duration as an object", number)
        epochs.append(
            Epoch(
                number=number,
                start=document.moment(stats, "start", number),
                end=document.moment(stats, "end", number),
                duration_s=document.number(stats, "duration", number, required=False),
            )
        )
    if not epochs:
        raise ParseError("per_epoch_stats.json lists no epoch", file=document.name, line=1)
    return epochs


def _epoch_order(document: JsonFile, number: str) -> int:
    if not number.isascii() or not number.strip().isdigit() or len(number.strip()) > 9:
        raise document.error(f"expected an epoch number as the key, found {number!r}", number)
    return int(number)


def epochs_alone(document: JsonFile) -> ParseError:
    """The refusal of a ``per_epoch_stats.json`` read without its ``summary.json``."""
    return ParseError(
        "per_epoch_stats.json holds each epoch's start, end and duration but no throughput or accelerator "
        "utilisation; upload it together with the summary.json of the same folder (or the folder as a .zip)",
        file=document.name,
        line=1,
    )
