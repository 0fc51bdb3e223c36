"""What the author chose for a report, the comparisons it reports, and the words every section uses
for them (a system side, a configuration, a figure in the unit the author chose)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from portal import formatting
from portal.comparisons.selectors import Comparison, WorkloadComparison
from portal.models import Run, System

# The user a report is built for and shown to.

MIB = 1024 * 1024 / 1_000_000  # one MiB/s in MB/s

# The figures a workload's tables and charts may show: IOPS, MB/s (10^6 bytes/s) or MiB/s (2^20 bytes/s).
FIGURE_UNITS = ("IOPS", "MB/s", "MiB/s")


@dataclass(frozen=True)
class ReportOptions:
    """What the author chose on the compose form: kept in the report's address, so it can be rebuilt."""

    title: str = ""
    author: str = ""
    # Workload names to report, in the comparison's order; empty: every compared workload.
    workloads: tuple[str, ...] = ()
    # Captions typed by the author, by the key of the table or figure (:func:`caption_keys`); a workload's
    # name alone is the key of its chart.
    captions: dict[str, str] = field(default_factory=dict)
    charts: bool = True
    tables: bool = True
    environment: bool = True
    # "MB/s" (10^6 bytes/s, as the page) or "MiB/s" (2^20 bytes/s, as seed 000 prints Iometer's MBps).
    mbps_unit: str = "MB/s"
    # Decimals of the improvements in the results tables: 1 as the compare page prints them.
    pct_decimals: int = 1
    # The figure a workload's table and chart show (one of FIGURE_UNITS), by workload name; a workload not
    # named shows the compare page's figure (IOPS or MB/s in ``mbps_unit``).
    figures: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Reported:
    """One comparison of the report (one system A against the baseline B) and its workloads reported."""

    result: Comparison
    workloads: list[WorkloadComparison]


def side_a(result: Comparison) -> str:
    """System A as the compare page names it, with its firmware when one was chosen."""
    return formatting.compared_side(result.a, result.a_firmware)


def side_b(result: Comparison) -> str:
    return formatting.compared_side(result.b, result.b_firmware)


def firmware_versions(result: Comparison) -> bool:
    """Whether ``result`` compares two firmware versions of one system."""
    return result.a.id == result.b.id and bool(result.a_firmware)


def default_title(candidates: Sequence[System], baseline: System, *, a_firmware: str = "", b_firmware: str = "") -> str:
    """ "IBM DS4500 compared with IBM DS4400"; "IBM DS5020: firmware 07.30 vs 07.15" for two firmware
    versions of one system."""
    if len(candidates) == 1 and candidates[0].id == baseline.id and a_firmware:
        return f"{baseline.name}: firmware {a_firmware} vs {b_firmware or 'every other version'}"
    compared = " and ".join(formatting.compared_side(system, a_firmware) for system in candidates)
    return f"{compared} compared with {formatting.compared_side(baseline, b_firmware)}"


def workload_names(reported: list[Reported]) -> list[str]:
    """The workloads reported, in the order of the comparisons, each once."""
    return list(dict.fromkeys(workload.workload for pair in reported for workload in pair.workloads))


def joined(values: Iterable[str]) -> str:
    return "; ".join(sorted({value for value in values if value}))


def run_ids(workload: WorkloadComparison) -> set[int]:
    return {figure.run_id for row in workload.rows for figure in row.a + row.b}


def transfer_size_bytes(workload: WorkloadComparison, runs: dict[int, Run]) -> int | None:
    """The one transfer size of every run behind ``workload``'s figures, None when they have several or
    none (IOPS and MB/s are then not one another's multiple)."""
    sizes = set()
    for run_id in run_ids(workload):
        stored = runs[run_id].workload if run_id in runs else None
        signature = stored.signature() if stored is not None else None
        if signature is None or len(signature.transfer_sizes) != 1:
            return None
        sizes.add(signature.transfer_sizes[0][0])
    return sizes.pop() if len(sizes) == 1 else None
