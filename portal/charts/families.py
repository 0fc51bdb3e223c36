"""Families of curves: throughput against transfer size, one curve per thread count and cache setting.

A thread-count x transfer-size sweep is stored as one run per transfer size (FFSB starts a new run
whenever the block size changes) whose points are the thread counts. Runs of one system that do
the same thing (tool, read %, random %) on the same RAID level and drive count form a family;
the cache setting is what the curves are split by, not what families are split by, so "with and
without cache" land on one chart as solid and dashed lines.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from math import fsum

from portal import formatting
from portal.charts import DASHES, Chart, Series
from portal.models import Config, SweepCell, System
from portal.results.selectors import cache_setting
from portal.results.size_sweeps import transfer_size_sweep_cells

METRIC_TITLES = {"mbps": "MB/s (10^6 bytes/s)", "iops": "IOPS (I/O operations/s)"}
X_TITLE = "Transfer size (bytes)"
# Curves without cache first, so they take the solid line.
CACHE_ORDER = ("cache off", "cache on")
# The runs a point's hover names; a size measured by a thousand runs names the first few.
HOVER_RUNS = SweepCell.RUNS_NAMED


@dataclass(frozen=True)
class Runs:
    """The runs a value comes from: the first few by id and how many they are."""

    first: tuple[int, ...]
    count: int


@dataclass(frozen=True)
class Measured:
    """The values of one metric measured at one transfer size and thread count: their sum, how many
    they are and the runs they come from."""

    total: float
    count: int
    runs: Runs


@dataclass(frozen=True)
class SweepPoint:
    """What a sweep measured at a transfer size, a thread count and a cache setting in one configuration."""

    transfer_bytes: int
    threads: int
    cache: str
    mbps: Measured | None
    iops: Measured | None


@dataclass
class Curve:
    threads: int
    cache: str
    # (transfer size in bytes, value, the runs averaged), in increasing size
    points: list[tuple[int, float, Runs]]

    @property
    def name(self) -> str:
        threads = f"{self.threads} thread" + ("" if self.threads == 1 else "s")
        return f"{threads}, {self.cache}" if self.cache else threads


@dataclass
class Family:
    title: str
    points: list[SweepPoint] = field(default_factory=list)

    @property
    def metrics(self) -> list[str]:
        return [m for m in METRIC_TITLES if any(getattr(p, m) is not None for p in self.points)]


def cache_label(config: Config) -> str:
    """'cache on' / 'cache off' when the configuration says so; a named setting, or '' when unknown.

    A gateway's cache (``extra.gateway_cache``) is what a gateway study switches; the array's flags
    count only when read and write cache agree, since one on and one off is neither.
    """
    gateway = (config.extra or {}).get("gateway_cache")
    if isinstance(gateway, bool):
        return "cache on" if gateway else "cache off"
    if config.read_cache is not None and config.read_cache == config.write_cache:
        return "cache on" if config.read_cache else "cache off"
    return cache_setting(config=config)


def is_family(points: Iterable[SweepPoint]) -> bool:
    """A family needs at least two transfer sizes and two thread counts; fewer is one curve or one point."""
    points = list(points)
    return len({p.transfer_bytes for p in points}) > 1 and len({p.threads for p in points}) > 1


def family_curves(points: Iterable[SweepPoint], *, metric: str) -> list[Curve]:
    """One curve per (cache setting, thread count), points by transfer size.

    Repeated measurements of one size, thread count and cache setting are averaged (every value
    counts once, whichever configuration it was measured in), so a curve has one value per size. A run is of
    one configuration, tool, share and size: the runs of the cells merged into a point are distinct.
    """
    # (cache, threads) -> transfer size -> what each configuration measured there
    values: defaultdict[tuple[str, int], defaultdict[int, list[Measured]]] = defaultdict(lambda: defaultdict(list))
    for point in points:
        measured = getattr(point, metric)
        if measured is not None:
            values[(point.cache, point.threads)][point.transfer_bytes].append(measured)
    curves = []
    for (cache, threads), by_size in values.items():
        means = [
            (
                size,
                fsum(m.total for m in found) / sum(m.count for m in found),
                Runs(
                    tuple(sorted(run for m in found for run in m.runs.first)[:HOVER_RUNS]),
                    sum(m.runs.count for m in found),
                ),
            )
            for size, found in sorted(by_size.items())
        ]
        curves.append(Curve(threads, cache, means))
    return sorted(curves, key=lambda c: (_cache_rank(c.cache), c.threads))


def _cache_rank(cache: str) -> tuple[int, str]:
    return (CACHE_ORDER.index(cache) if cache in CACHE_ORDER else len(CACHE_ORDER) + (not cache), cache)


def _pct_label(value: float | None, *, all_of: str, none_of: str, share: str) -> str:
    if value is None:
        return ""
    return {100.0: all_of, 0.0: none_of}.get(float(value), f"{formatting.percent(value)} {share}")


def _family_title(*, tool: str, random_pct: float | None, read_pct: float | None, config: Config) -> str:
    access = _pct_label(random_pct, all_of="random", none_of="sequential", share="random")
    direction = _pct_label(read_pct, all_of="reads", none_of="writes", share="reads")
    drives = f"{config.drive_count} drives" if config.drive_count else ""
    what = " ".join(part for part in (tool, access, direction) if part)
    return ", ".join(part for part in (what, config.raid_level, drives) if part)


def _measured(total: float | None, count: int, runs: int, first_runs: list[int]) -> Measured | None:
    return Measured(total, count, Runs(tuple(first_runs), runs)) if count and total is not None else None


def transfer_size_families(*, system: System) -> list[Family]:
    """The system's thread-count x transfer-size sweeps, by title; runs of one size each.

    Read from the cells kept summed up as runs are written
    (:func:`~portal.results.size_sweeps.transfer_size_sweep_cells`), so a sweep repeated a thousand times
    costs what one does, and no point is read."""
    families: dict[str, Family] = {}
    for cell in transfer_size_sweep_cells(system=system):
        config = cell.config
        title = _family_title(tool=cell.tool, random_pct=cell.random_pct, read_pct=cell.read_pct, config=config)
        family = families.setdefault(title, Family(title))
        mbps = _measured(cell.mbps_sum, cell.mbps_count, cell.mbps_runs, cell.mbps_first_runs)
        iops = _measured(cell.iops_sum, cell.iops_count, cell.iops_runs, cell.iops_first_runs)
        family.points.append(SweepPoint(cell.transfer_bytes, cell.threads, cache_label(config), mbps, iops))
    return [families[title] for title in sorted(families) if is_family(families[title].points)]


def _runs_label(runs: Runs) -> str:
    """'run #7, #8', the first few of many runs and how many more."""
    shown = ", ".join(f"#{run}" for run in runs.first[:HOVER_RUNS])
    more = runs.count - HOVER_RUNS
    return f"run {shown} and {more:,} more" if more > 0 else f"run {shown}"


def family_chart(family: Family, *, metric: str) -> Chart:
    """The family as a chart: colour and symbol by thread count, dash by cache setting, log-2 sizes."""
    curves = family_curves(family.points, metric=metric)
    thread_counts = sorted({c.threads for c in curves})
    caches = sorted({c.cache for c in curves}, key=_cache_rank)
    unit = METRIC_TITLES[metric].split(" ")[0]
    series = [
        Series(
            curve.name,
            [size for size, _, _ in curve.points],
            [value for _, value, _ in curve.points],
            hover=[
                f"{formatting.transfer_size(size)}: {formatting.throughput(value, metric)} ({_runs_label(runs)})"
                for size, value, runs in curve.points
            ],
            style=thread_counts.index(curve.threads),
            group=curve.cache,
            dash=DASHES[caches.index(curve.cache) % len(DASHES)],
        )
        for curve in curves
    ]
    sizes = sorted({p.transfer_bytes for p in family.points})
    title = f"{family.title}: {unit} against transfer size, one curve per thread count"
    return Chart(
        title,
        X_TITLE,
        METRIC_TITLES[metric],
        series,
        x_log=True,
        x_ticks=[(s, formatting.transfer_size(s)) for s in sizes],
    )
