"""What a run's figure counts, decided in one place: block I/Os, bytes, metadata operations, files created,
object operations, or an AI training throughput at the benchmark's accelerator utilisation rule.

Every tool stores its rate in a point's ``iops`` (operations of some kind per second) or ``mbps`` (10^6
bytes per second); what the operations are depends on the tool and the test. Pages, the compare table,
the API and the exports name the figure by its kind, so an mdtest file-creation rate is never written as
IOPS, and figures of two kinds are never compared with each other.
"""

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class FigureKind:
    """A kind of figure: ``key`` as the API names it, ``words`` as sentences name it, ``unit`` as tables
    head it, and whether it is read at a response-time threshold (an MLPerf Storage throughput is read at
    the benchmark's accelerator utilisation rule instead)."""

    key: str
    words: str
    unit: str
    at_threshold: bool = True


IO_OPERATIONS = FigureKind("io_operations", "I/O operations per second", "IOPS")
DATA_THROUGHPUT = FigureKind("data_throughput", "throughput in MB/s (10^6 bytes per second)", "MB/s")
METADATA_OPERATIONS = FigureKind("metadata_operations", "metadata operations per second", "metadata ops/s")
FILES_CREATED = FigureKind("files_created", "files created per second", "files/s")
OBJECT_OPERATIONS = FigureKind("object_operations", "object operations per second", "object ops/s")
TRAINING_THROUGHPUT = FigureKind(
    "training_throughput", "training throughput at the AU rule", "MB/s", at_threshold=False
)
# IO500's score as its file states it (its point's ``metrics["score"]``), not a rate: a comparison states it
# in place of the score run's rate, which is its metadata sub-score.
IO500_SCORE = FigureKind(
    "io500_score", "IO500 score (geometric mean of the bandwidth and metadata sub-scores)", "score"
)
# The name IO500's score run is stored under (the parser's ``SCORE_RUN``).
IO500_SCORE_RUN = "IO500 score"

KINDS = {
    kind.key: kind
    for kind in (
        IO_OPERATIONS,
        DATA_THROUGHPUT,
        METADATA_OPERATIONS,
        FILES_CREATED,
        OBJECT_OPERATIONS,
        TRAINING_THROUGHPUT,
        IO500_SCORE,
    )
}

# Bonnie++'s file tests (create, stat, delete of empty files) count metadata operations; its random seeks
# are I/Os, its block and per-character tests bytes.
_BONNIE_FILE_TESTS = ("file create", "file stat", "file delete")


def figure_kind(*, tool: str, params: Mapping[str, object] | None, workload_name: str, metric: str) -> FigureKind:
    """The kind of a run's figure in ``metric`` ("iops" or "mbps"), from the tool that measured it (the
    run's ``tool``), its ``params`` (mdtest and IO500 state ``figure``) and its workload's name."""
    params = params or {}
    if tool == "MLPerf Storage":
        return TRAINING_THROUGHPUT if metric == "mbps" else IO_OPERATIONS
    if metric != "iops":
        return DATA_THROUGHPUT
    if tool == "COSBench":
        return OBJECT_OPERATIONS
    if tool == "fs_mark":
        return FILES_CREATED
    # IO500's mdtest and find phases and elbencho's MKDIRS, STAT, RMFILES and RMDIRS (entries/s) state it.
    if tool == "mdtest" or (tool in ("IO500", "elbencho") and "metadata" in str(params.get("figure", ""))):
        return METADATA_OPERATIONS
    if tool == "Bonnie++" and any(test in workload_name.lower() for test in _BONNIE_FILE_TESTS):
        return METADATA_OPERATIONS
    return IO_OPERATIONS


def stated_kind(*, tool: str, run_name: str) -> FigureKind | None:
    """The kind of figure a comparison states for a run in place of its rate, from the run's ``tool`` and
    name: IO500's score for IO500's score run (its rate is the metadata sub-score); None for every other run."""
    return IO500_SCORE if tool == "IO500" and run_name == IO500_SCORE_RUN else None


def sized_by_drives(kind: FigureKind) -> bool:
    """Whether drive-count sizing and the back-end formula answer for figures of ``kind``: only I/O operations
    or bytes per second read at a response-time threshold. Metadata, file and object rates and training
    throughputs have no drive-count model or per-drive figure to size from."""
    return kind in (IO_OPERATIONS, DATA_THROUGHPUT) and kind.at_threshold


def not_sized(kind: FigureKind, *, workload: str) -> str:
    """Why ``workload``, whose figures are of ``kind``, gets no drive count: "No drive-count sizing for object
    ops/s: read's figures are object operations per second; ..."."""
    return (
        f"No drive-count sizing for {kind.unit}: {workload}'s figures are {kind.words}; drive-count sizing and the"
        " back-end formula read I/O operations per second or MB/s at a response-time threshold."
    )


def kind_of_metric(metric: str) -> FigureKind:
    """The kind a figure in ``metric`` is when nothing else is known of it: IOPS or MB/s."""
    return IO_OPERATIONS if metric == "iops" else DATA_THROUGHPUT
