"""MLPerf Storage (v1.0) training results: the report, DLIO's summaries, the reportgen transcript and the
system description of a submission.

Mapping (:mod:`.training`): one run per model and accelerator type (the workload, ``cosmoflow (h100)``)
with one point, the number of simulated accelerators as its load (``load.accelerators``) and the mean
training throughput as its MB/s (the tools' "MB/second" is MiB/s: converted); the throughput per
accelerator, samples/s, standard deviations and, from DLIO's summary, the accelerator utilisation (AU)
in the point's metrics, and whether AU met the benchmark's rule as the run's verdict.

The modules: :mod:`.document` reads a JSON file and says where a key is written; :mod:`.report` reads
``mlperf_storage_report.json``, :mod:`.transcript` the console transcript of ``benchmark.sh reportgen``,
:mod:`.dlio` DLIO's ``summary.json`` with the ``per_epoch_stats.json`` of the same folder, and
:mod:`.system` the system description JSON (the result set's system, no runs).
"""

from __future__ import annotations

import re

from ...result import ResultSet, Run
from ...source import Source, decode_head, describe_group
from .dlio import epochs_alone, per_epoch_stats, summary_run
from .document import read_json
from .report import report_run
from .system import description_system
from .transcript import transcript_runs

__all__ = ["FORMAT", "READS", "TOOL", "group_key", "parse", "parse_group", "sniff"]

FORMAT = "mlperf_storage"
TOOL = "MLPerf Storage"
READS = (
    "MLPerf Storage v0.5 and v1.0 training: `mlperf_storage_report.json` (v0.5's without an accelerator type) "
    "and the `benchmark.sh reportgen` transcript (one run per model and accelerator type, simulated accelerators "
    "as load, MiB/s converted), DLIO `summary.json` (accelerator utilisation and its pass/fail) with the "
    "`per_epoch_stats.json` of its folder, and the system description JSON (nodes, CPUs, memory, NICs, drives) "
    "as the system"
)

_REPORT = re.compile(r'"overall"\s*:\s*\{[^{}]*"train_num_accelerators"\s*:')
_SUMMARY = re.compile(r'"train_au_(?:mean_)?percentage"\s*:|"train_au_meet_expectation"\s*:')
_EPOCHS = re.compile(r'^\s*\{\s*"\d+"\s*:\s*\{\s*"start"\s*:')
_TRANSCRIPT = re.compile(
    r"^(?:\S+\s+\S+\s+)?(?:Overall Training Throughput \((?:samples|MB)/second\)|Overall number of accelerators)"
    r"\s*:",
    re.MULTILINE,
)
_SYSTEM = re.compile(r'^\s*\{\s*"(?:networks|nodes|storage_system|benchmark_hosts|system)"\s*:')
_SYSTEM_KEYS = re.compile(r'"(?:node_type_name|storage_system|benchmark_hosts)"\s*:')


def _kind(head: bytes) -> str | None:
    """Which of the tool's files ``head`` begins: report, summary, epochs, transcript or system."""
    text = decode_head(head)
    if _REPORT.search(text):
        return "report"
    if _SUMMARY.search(text):
        return "summary"
    if _EPOCHS.match(text):
        return "epochs"
    if _SYSTEM.match(text) and _SYSTEM_KEYS.search(text):
        return "system"
    if _TRANSCRIPT.search(text):
        return "transcript"
    return None


def sniff(head: bytes, name: str) -> bool:
    return _kind(head) is not None


def group_key(source: Source) -> str | None:
    """DLIO's ``summary.json`` and ``per_epoch_stats.json`` of one folder are read together."""
    if _kind(source.head()) not in ("summary", "epochs"):
        return None
    return "dlio:" + source.name.replace("\\", "/").rpartition("/")[0]


def parse(source: Source) -> ResultSet:
    return parse_group([source])


def parse_group(sources: list[Source]) -> ResultSet:
    warnings: list[str] = []
    kinds = [(_kind(source.head()), source) for source in sources]
    runs: list[Run] = []
    system = None
    for kind, source in kinds:
        if kind == "report":
            runs.append(report_run(read_json(source, "mlperf_storage_report.json"), warnings))
        elif kind == "transcript":
            runs.extend(transcript_runs(source, warnings))
        elif kind == "system":
            system = description_system(read_json(source, "an MLPerf Storage system description"))
    runs.extend(_dlio_runs([source for kind, source in kinds if kind in ("summary", "epochs")], warnings))
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": None},
        source=sources[0].describe() if len(sources) == 1 else describe_group(sources),
        system=system,
        runs=runs,
        warnings=warnings,
    )


def _dlio_runs(sources: list[Source], warnings: list[str]) -> list[Run]:
    """A run per ``summary.json``; the ``per_epoch_stats.json`` of its folder read with it when it is the
    folder's only summary."""
    summaries = [read_json(source, "DLIO's summary.json") for source in sources if _kind(source.head()) == "summary"]
    epoch_files = [
        read_json(source, "DLIO's per_epoch_stats.json") for source in sources if _kind(source.head()) == "epochs"
    ]
    if epoch_files and not summaries:
        raise epochs_alone(epoch_files[0])
    epochs = per_epoch_stats(epoch_files[0]) if len(summaries) == 1 and len(epoch_files) == 1 else None
    if epoch_files and epochs is None:
        warnings.append(
            f"{', '.join(file.name for file in epoch_files)}: not read: one per_epoch_stats.json goes with one "
            "summary.json of the same folder"
        )
    return [summary_run(summary, epochs, warnings) for summary in summaries]
