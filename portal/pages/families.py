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
from statistics import fmean

from django.db.models import Prefetch

from portal.models import Config, Point, Run, System
from portal.results.selectors import cache_setting

from .charts import DASHES, Chart, Series

METRIC_TITLES = {"mbps": "MB/s (10^6 bytes/s)", "iops": "IOPS (I/O operations/s)"}
X_TITLE = "Transfer size (bytes)"
# Curves without cache first, so they take the solid line.
CACHE_ORDER = ("cache off", "cache on")


@dataclass(frozen=True)
class SweepPoint:
    """One measured point of a sweep: a transfer size, a thread count, a cache setting, its figures."""

    transfer_bytes: int
    threads: int
    cache: str
    mbps: float | None
    iops: float | None
    run_id: int


@dataclass
class Curve:
    threads: int
    cache: str
    # (transfer size in bytes, value, ids of the runs averaged), in increasing size
    points: list[tuple[int, float, tuple[int, ...]]]

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


def size_label(size_bytes: int) -> str:
    """512 B, 1 KB, 8 KB, 1 MB: binary units, as the papers and FFSB print block sizes."""
    for unit, power in (("MB", 2), ("KB", 1)):
        if size_bytes >= 1024**power and size_bytes % 1024**power == 0:
            return f"{size_bytes // 1024**power} {unit}"
    return f"{size_bytes} B"


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

    Repeated measurements of one size, thread count and cache setting are averaged, so a curve
    has one value per size.
    """
    # (cache, threads) -> transfer size -> [(figure, run id)]
    values: defaultdict[tuple[str, int], defaultdict[int, list[tuple[float, int]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for point in points:
        value = getattr(point, metric)
        if value is not None:
            values[(point.cache, point.threads)][point.transfer_bytes].append((value, point.run_id))
    curves = []
    for (cache, threads), by_size in values.items():
        measured = [
            (size, fmean(v for v, _ in found), tuple(sorted({run for _, run in found})))
            for size, found in sorted(by_size.items())
        ]
        curves.append(Curve(threads, cache, measured))
    return sorted(curves, key=lambda c: (_cache_rank(c.cache), c.threads))


def _cache_rank(cache: str) -> tuple[int, str]:
    return (CACHE_ORDER.index(cache) if cache in CACHE_ORDER else len(CACHE_ORDER) + (not cache), cache)


def _single_size(run: Run) -> int | None:
    """The run's one transfer size in bytes; None for a mix or an unknown size."""
    sizes = [s.get("bytes") for s in run.transfer_sizes or [] if isinstance(s, dict)]
    return sizes[0] if len(sizes) == 1 and isinstance(sizes[0], int) and sizes[0] > 0 else None


def _threads(point) -> int | None:
    threads = point.threads if point.threads is not None else (point.load or {}).get("threads")
    return threads if isinstance(threads, int) and threads > 0 else None


def _pct_label(value: float | None, *, all_of: str, none_of: str, share: str) -> str:
    if value is None:
        return ""
    return {100.0: all_of, 0.0: none_of}.get(float(value), f"{value:g}% {share}")


def _family_title(run: Run) -> str:
    access = _pct_label(run.random_pct, all_of="random", none_of="sequential", share="random")
    direction = _pct_label(run.read_pct, all_of="reads", none_of="writes", share="reads")
    config = run.config
    drives = f"{config.drive_count} drives" if config.drive_count else ""
    what = " ".join(part for part in (run.tool, access, direction) if part)
    return ", ".join(part for part in (what, config.raid_level, drives) if part)


def transfer_size_families(*, system: System) -> list[Family]:
    """The system's thread-count x transfer-size sweeps, by title; runs of one size each."""
    families: dict[str, Family] = {}
    # Only runs of one transfer size can be on a size axis; their points without the metrics JSON.
    runs = Run.objects.filter(config__system=system, transfer_sizes__0__isnull=False, transfer_sizes__1__isnull=True)
    points = Point.objects.only("id", "run_id", "seq", "threads", "load", "mbps", "iops").order_by("seq")
    for run in runs.select_related("config").prefetch_related(Prefetch("points", queryset=points)).order_by("id"):
        size = _single_size(run)
        if size is None:
            continue
        family = families.setdefault(_family_title(run), Family(_family_title(run)))
        cache = cache_label(run.config)
        for point in run.points.all():
            threads = _threads(point)
            if threads is not None and (point.mbps is not None or point.iops is not None):
                family.points.append(SweepPoint(size, threads, cache, point.mbps, point.iops, run.id))
    return [families[title] for title in sorted(families) if is_family(families[title].points)]


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
                f"{size_label(size)}: {value:,.4g} {unit} (run {', '.join(f'#{r}' for r in runs)})"
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
    return Chart(title, X_TITLE, METRIC_TITLES[metric], series, x_log=True, x_ticks=[(s, size_label(s)) for s in sizes])
