"""The report's method and environment: the measurement tools and workloads, the threshold rule, and a
table per system of what was measured (once for two firmware versions of one system, naming both)."""

from collections import defaultdict
from collections.abc import Iterable

from portal import formatting
from portal.analysis.workloads import describe, describe_family
from portal.comparisons.selectors import Comparison, WorkloadComparison
from portal.models import Config, Run, System
from portal.results.selectors import LATENCIES

from .document import Block, Cell, Heading, Paragraph, TableBlock
from .options import Reported, ReportOptions, firmware_versions, joined


def tools(runs: Iterable[Run]) -> list[str]:
    return sorted({" ".join(part for part in (run.tool, run.tool_version) if part) for run in runs})


def method_section(reported: list[Reported], runs: dict[int, Run], options: ReportOptions) -> list[Block]:
    blocks: list[Block] = [Heading("Measurement tool and workloads", 1)]
    blocks.append(Paragraph(f"The figures were measured with {', '.join(tools(runs.values())) or 'no tool named'}."))
    first: dict[str, WorkloadComparison] = {}
    for pair in reported:
        for workload in pair.workloads:
            first.setdefault(workload.workload, workload)
    rows = []
    for workload in first.values():
        run = next((runs[f.run_id] for row in workload.rows for f in row.a + row.b if f.run_id in runs), None)
        rows.append(_workload_row(workload, run))
    blocks.append(
        TableBlock(
            caption=options.captions.get("Workloads table") or "The workloads compared",
            header=("Workload", "What it does", "Read", "Random", "Transfer sizes", "Figure"),
            rows=tuple(rows),
            key="Workloads table",
        )
    )
    blocks.append(Paragraph(_threshold_rule(reported[0].result)))
    return blocks


def _workload_row(workload: WorkloadComparison, run: Run | None) -> tuple[Cell, ...]:
    stored = run.workload if run is not None else None
    if stored is None:
        what, read, random, sizes = "not stated by the file", "–", "–", "–"
    else:
        signature = stored.signature()
        what = describe(signature) if signature.transfer_sizes else describe_family(signature.family)
        read, random = f"{stored.read_pct} %", f"{stored.random_pct} %"
        sizes = ", ".join(formatting.transfer_size(size) for size, _ in signature.transfer_sizes) or "best over sizes"
    metric = formatting.METRIC_UNITS[workload.metric]
    return (Cell(workload.workload), Cell(what), Cell(read), Cell(random), Cell(sizes), Cell(metric))


def _threshold_rule(result: Comparison) -> str:
    at = formatting.threshold(result.threshold_ms)
    latency = LATENCIES[result.latency]
    return (
        f"Each figure is the throughput at {at} {latency} response time, interpolated between the last "
        f"measured point under {at} and the first over it. A curve that never reaches {at} gives a lower "
        "bound, its best point, at its own response time; a curve already over it at the lowest load gives "
        "no value. A figure a paper published at its own threshold is used as published."
    )


def environment_section(
    reported: list[Reported], systems: list[System], runs: dict[int, Run], options: ReportOptions
) -> list[Block]:
    """A table per system; a system compared with itself (two firmware versions) has one, naming both."""
    blocks: list[Block] = [Heading("Measurement environment", 1)]
    for system in systems:
        own = [run for run in runs.values() if run.config.system_id == system.id]
        configs = {run.config.id: run.config for run in own}
        rows = [
            ("Vendor", system.vendor),
            ("Model", system.model),
            ("Firmware", _firmware(system, reported, own)),
            ("Controllers", formatting.count(system.controllers, "controller") if system.controllers else ""),
            ("Cache per controller", _cache_mb(system.cache_mb_per_controller)),
            ("Host interfaces", system.host_interfaces),
            ("Drives", joined(_drive_words(config) for config in configs.values())),
            ("RAID levels and drive counts tested", _raid_and_drives(configs.values())),
            (
                "Segment sizes",
                joined(f"{formatting.significant(c.segment_kb)} KB" for c in configs.values() if c.segment_kb),
            ),
            ("Cache settings", joined(formatting.cache_setting(config) for config in configs.values())),
            ("Host", joined(_host(config) for config in configs.values())),
            ("Measurement", joined(run.get_measurement_display() for run in own)),
        ]
        key = f"{system.name} environment table"
        blocks.append(
            TableBlock(
                caption=options.captions.get(key) or f"Measurement environment of {system.name}",
                header=("", system.name),
                rows=tuple((Cell(name), Cell(value or "not stated")) for name, value in rows),
                key=key,
            )
        )
    return blocks


def _firmware(system: System, reported: list[Reported], runs: list[Run]) -> str:
    """The firmware versions compared ("07.30 (A); 07.15 (B)"), else the system's or its runs' firmware."""
    for pair in reported:
        if firmware_versions(pair.result) and pair.result.a.id == system.id:
            b = pair.result.b_firmware or "every other version"
            return f"{pair.result.a_firmware} (A); {b} (B)"
    return system.firmware or joined(run.firmware for run in runs)


def _cache_mb(value: float | None) -> str:
    return "" if value is None else f"{formatting.significant(value)} MB"


def _drive_words(config: Config) -> str:
    parts = [config.drive_type or "drives"]
    if config.drive_model:
        parts.append(config.drive_model)
    if config.drive_rpm:
        parts.append(f"{formatting.whole(config.drive_rpm)} rpm")
    if config.drive_capacity_gb:
        parts.append(f"{formatting.significant(config.drive_capacity_gb)} GB")
    return ", ".join(parts)


def _raid_and_drives(configs: Iterable[Config]) -> str:
    counts: dict[str, set[int]] = defaultdict(set)
    for config in configs:
        counts[config.raid_level or "RAID level not stated"].update([config.drive_count] if config.drive_count else [])
    return "; ".join(
        f"{raid}: {', '.join(str(n) for n in sorted(drives))} drives" if drives else raid
        for raid, drives in sorted(counts.items())
    )


def _host(config: Config) -> str:
    return ", ".join(part for part in (config.host_server, config.host_os, config.host_hba) if part)
