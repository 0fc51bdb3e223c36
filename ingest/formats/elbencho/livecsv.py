"""elbencho's ``--livecsv`` progress samples: no final result, each phase's average up to its last
sample, with a warning saying so."""

import csv

from ...result import Point, Run, Workload
from ...source import Source
from ...units import MB, convert_time, mib_to_mbps
from .phases import _number
from .runs import _phase_read_pct

# A --livecsv progress sample: runtime_ms, done_bytes, iops, mib_per_s, entries_per_s, active, cpu_pct.
_Sample = dict[str, float | None]


# --- the --livecsv progress samples ---------------------------------------------------------


def _live_runs(source: Source, warnings: list[str]) -> list[Run]:
    phases: dict[tuple[str, str], tuple[int, list[_Sample]]] = {}
    other_rows = 0
    with source.open_text() as stream:
        reader = csv.DictReader(stream)
        for row in reader:
            if (row.get("Rank") or "").strip() != "Total" or (row.get("MixType") or "").strip():
                other_rows += 1
                continue
            key = ((row.get("Label") or "").strip(), (row.get("Phase") or "").strip())
            sample = _live_sample(row, reader.line_num) | {"line": reader.line_num}
            phases.setdefault(key, (reader.line_num, []))[1].append(sample)
    if other_rows:
        warnings.append(f"{other_rows} per-worker or read-mix rows of the live statistics were not read")
    runs = [_live_run(source.name, key, line, samples, warnings) for key, (line, samples) in phases.items()]
    return runs


def _live_sample(row: dict[str, str | None], number: int) -> _Sample:
    def figure(column: str) -> float | None:
        value = (row.get(column) or "").strip()
        return _number(value, number, column) if value else None

    return {
        "runtime_ms": figure("RuntimeMS"),
        "done_bytes": figure("DoneBytes"),
        "iops": figure("IOPS"),
        "mib_per_s": figure("MiB/s"),
        "entries_per_s": figure("Entries/s"),
        "active": figure("Active"),
        "cpu_pct": figure("CPU"),
    }


def _live_run(name: str, key: tuple[str, str], line: int, samples: list[_Sample], warnings: list[str]) -> Run:
    label, phase = key
    last = samples[-1]
    # A live CSV has no end line nor final result: a copy cut after any sample looks whole.
    warnings.append(
        f"{name}:{last['line']}: {phase} (line {line}) comes from live statistics: its figures are averages up to "
        f"the last sample (line {last['line']}) at {last['runtime_ms'] or 0:.0f} ms, not elbencho's final result "
        "(see the --csvfile or --resfile); a live CSV states no end, so later samples are missing if it was cut"
    )
    elapsed_s = convert_time(last["runtime_ms"] or 0, "ms", "s")
    active = max((s["active"] for s in samples if s["active"] is not None), default=None)
    point = Point(
        load={"threads": int(active)} if active else {},
        iops=_time_weighted_mean(samples, "iops"),
        mbps=last["done_bytes"] / elapsed_s / MB if elapsed_s and last["done_bytes"] is not None else None,
        cpu_pct=_time_weighted_mean(samples, "cpu_pct"),
        metrics={"live": {key: [s[key] for s in samples] for key in samples[0] if key not in ("done_bytes", "line")}},
    )
    point.metrics["live"]["mbps"] = [mib_to_mbps(v) for v in point.metrics["live"].pop("mib_per_s")]
    return Run(
        name=" ".join(filter(None, [label, phase])),
        description="elbencho live statistics (--livecsv)",
        workload=Workload(read_pct=_phase_read_pct(phase, None)),
        params={"operation": phase, "source": "livecsv"},
        points=[point],
    )


def _time_weighted_mean(samples: list[_Sample], key: str) -> float | None:
    """Mean of per-interval rates weighted by interval length: the average since the phase began."""
    total, weight, previous_ms = 0.0, 0.0, 0.0
    for sample in samples:
        value, runtime_ms = sample[key], sample["runtime_ms"]
        if value is None or runtime_ms is None:
            return None
        interval_ms = runtime_ms - previous_ms
        total += value * interval_ms
        weight += interval_ms
        previous_ms = runtime_ms
    return total / weight if weight > 0 else None
