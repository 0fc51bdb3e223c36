"""The report's method and environment: the measurement tools and workloads, the threshold rule, and a
table per system of what was measured (once for two firmware versions of one system, naming both)."""

from collections import defaultdict
from collections.abc import Iterable

from portal import formatting
from portal.analysis.pairing import ConfigKey
from portal.analysis.workloads import describe, describe_family
from portal.comparisons.selectors import Comparison, WorkloadComparison
from portal.models import Config, Run, System
from portal.results.selectors import LATENCIES

from .document import Block, Cell, Heading, Paragraph, TableBlock
from .options import Reported, ReportOptions, firmware_versions, joined


def tools(runs: Iterable[Run]) -> list[str]:
    return sorted({" ".join(part for part in (run.tool, run.tool_version) if part) for run in runs})


def tools_named(reported: list[Reported], runs: dict[int, Run]) -> str:
    """The tools of the runs behind the compared figures; where no figure is compared, those of the
    systems' runs, whose figures their tables show."""
    named = tools(runs.values())
    if not named:
        systems = {system for pair in reported for system in (pair.result.a, pair.result.b)}
        named = tools(Run.objects.filter(config__system__in=systems).only("tool", "tool_version"))
    return ", ".join(named) or "no tool named"


def method_section(reported: list[Reported], runs: dict[int, Run], options: ReportOptions) -> list[Block]:
    blocks: list[Block] = [Heading("Measurement tool and workloads", 1)]
    blocks.append(Paragraph(f"The figures were measured with {tools_named(reported, runs)}."))
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
    # The unit of what its rate counts: "IOPS", "MB/s", "metadata ops/s", "object ops/s" ...
    return (Cell(workload.workload), Cell(what), Cell(read), Cell(random), Cell(sizes), Cell(workload.unit))


def _threshold_rule(result: Comparison) -> str:
    if result.as_published:
        how = {"as published": "published", "as measured": "measured"}.get(result.stated_as, "measured or published")
        return (
            f"Each figure is the one IO500 {how}, its phase's or its score's, with no response time: no "
            f"threshold applies, and the figures are compared {result.stated_as}."
        )
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
        measured = measured_configurations(reported, system)
        rows = [
            ("Vendor", system.vendor),
            ("Model", system.model),
            ("Firmware", _firmware(system, reported, own)),
            ("Controllers", formatting.count(system.controllers, "controller") if system.controllers else ""),
            ("Cache per controller", _cache_mb(system.cache_mb_per_controller)),
            ("Host interfaces", system.host_interfaces),
            ("Drives", drive_descriptions(configs.values())),
            ("RAID levels and drive counts tested", _raid_and_drives(measured)),
            (
                "Segment sizes",
                joined(f"{formatting.significant(c.segment_kb)} KB" for c in configs.values() if c.segment_kb),
            ),
            ("Cache settings", _cache_settings(measured)),
            ("Host", joined(_host(config) for config in configs.values())),
            ("Measurement", joined(run.get_measurement_display() for run in own)),
        ]
        if not own:
            # What its compared runs would say cannot be read: the uploads are not said to leave it out.
            rows = [(name, value) for name, value in rows if value or name not in RUN_ROWS]
        blocks += _environment_table(system, rows, options, compared=bool(own))
    return blocks


# The environment rows read off the runs compared (the firmware where the system states none).
RUN_ROWS = frozenset(
    ("Firmware", "Drives", "RAID levels and drive counts tested", "Segment sizes", "Cache settings", "Host",
     "Measurement")
)  # fmt: skip


def _environment_table(
    system: System, rows: list[tuple[str, str]], options: ReportOptions, *, compared: bool
) -> list[Block]:
    """The rows the uploads state, as a table (none where they state nothing), and one sentence naming the
    rows they do not state; for a system none of whose runs is compared, that its configurations are not
    listed."""
    stated = [(name, value) for name, value in rows if value]
    unstated = _listed([_lowered(name) for name, value in rows if not value])
    blocks: list[Block] = []
    if stated:
        key = f"{system.name} environment table"
        blocks.append(
            TableBlock(
                caption=options.captions.get(key) or f"Measurement environment of {system.name}",
                header=("", system.name),
                rows=tuple((Cell(name), Cell(value)) for name, value in stated),
                key=key,
            )
        )
    if not compared:
        missing = f"; its uploads do not state its {unstated}" if unstated else ""
        blocks.append(
            Paragraph(f"No run of {system.name} is compared, so its configurations and host are not listed{missing}.")
        )
    elif unstated:
        sentence = (
            f"The uploads of {system.name} do not state its {unstated}."
            if stated
            else f"The uploads of {system.name} state nothing of its environment ({unstated})."
        )
        blocks.append(Paragraph(sentence))
    return blocks


def _listed(names: list[str]) -> str:
    """ "a", "a or b", "a, b or c"; '' for none."""
    return " or ".join(filter(None, (", ".join(names[:-1]), names[-1]))) if names else ""


def _lowered(name: str) -> str:
    """A row's name inside a sentence: "Cache per controller" as "cache per controller", "RAID ..." kept."""
    return name if name[1:2].isupper() else name[:1].lower() + name[1:]


def _firmware(system: System, reported: list[Reported], runs: list[Run]) -> str:
    """The firmware versions compared ("07.30 (A); 07.15 (B)"), else the system's or its runs' firmware."""
    for pair in reported:
        if firmware_versions(pair.result) and pair.result.a.id == system.id:
            b = pair.result.b_firmware or "every other version"
            return f"{pair.result.a_firmware} (A); {b} (B)"
    if system.firmware:
        return system.firmware
    by_firmware: dict[str, set[str]] = defaultdict(set)
    for run in runs:
        by_firmware[run.firmware or str((run.config.extra or {}).get("firmware") or "")].add(run.workload_name)
    if set(by_firmware) == {""}:
        return ""
    # Which firmware each array ran, where the papers say it per measurement.
    return "; ".join(
        f"{firmware or 'not stated'} ({', '.join(sorted(names))})" for firmware, names in sorted(by_firmware.items())
    )


def _cache_mb(value: float | None) -> str:
    return "" if value is None else f"{formatting.significant(value)} MB"


def _drive_parts(config: Config) -> tuple[str | None, ...]:
    """A configuration's drive as (type, model, rpm, capacity), None where not stated."""
    return (
        config.drive_type or None,
        config.drive_model or None,
        f"{formatting.whole(config.drive_rpm)} rpm" if config.drive_rpm else None,
        f"{formatting.significant(config.drive_capacity_gb)} GB" if config.drive_capacity_gb else None,
    )


def drive_descriptions(configs: Iterable[Config]) -> str:
    """One description per distinct drive ("HDD, 10,000 rpm; HDD, 15,000 rpm, 18.2 GB"): a description that
    states less of a drive another states more of ("HDD" beside "HDD, 10,000 rpm") is that drive."""
    # A configuration stating nothing of its drives describes none.
    drives = {parts for parts in map(_drive_parts, configs) if any(parts)}
    distinct = [
        parts
        for parts in drives
        if not any(
            other != parts and all(mine is None or mine == theirs for mine, theirs in zip(parts, other, strict=True))
            for other in drives
        )
    ]
    return joined(", ".join(part for part in parts if part) for parts in distinct)


def measured_configurations(reported: list[Reported], system: System) -> set[ConfigKey]:
    """The configurations (RAID level, drive count, cache setting) of ``system`` measured in the reported
    workloads: those compared and those left unpaired."""
    keys: set[ConfigKey] = set()
    for pair in reported:
        for workload in pair.workloads:
            if pair.result.a.id == system.id:
                keys.update((row.raid_level, row.drive_count_a, row.cache_a) for row in workload.rows)
                keys.update(workload.only_a)
            if pair.result.b.id == system.id:
                keys.update(
                    (row.raid_level if row.raid_level_b is None else row.raid_level_b, row.drive_count_b, row.cache_b)
                    for row in workload.rows
                )
                keys.update(workload.only_b)
    return keys


def _cache_settings(keys: set[ConfigKey]) -> str:
    """Every cache setting measured, and that some configurations state none where they do not."""
    stated = joined(cache for _, _, cache in keys)
    if stated and any(not cache for _, _, cache in keys):
        return f"{stated}; not stated for the others"
    return stated


def _raid_and_drives(keys: Iterable[ConfigKey]) -> str:
    counts: dict[str, set[int]] = defaultdict(set)
    for raid_level, drive_count, _ in keys:
        counts[raid_level or "RAID level not stated"].update([drive_count] if drive_count else [])
    return "; ".join(f"{raid}: {_drive_counts(drives)}" if drives else raid for raid, drives in sorted(counts.items()))


def _drive_counts(counts: set[int]) -> str:
    """ "1 drive", "3, 8 drives": the counts in order, the noun in the number of the last."""
    *fewer, most = sorted(counts)
    return ", ".join([*(str(n) for n in fewer), formatting.count(most, "drive")])


def _host(config: Config) -> str:
    return ", ".join(part for part in (config.host_server, config.host_os, config.host_hba) if part)
