"""Selectors of results: one run's curve and its throughput at a threshold, a system's runs and figures."""

import itertools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import reduce
from typing import Any, NamedTuple

from django.db.models import Case, FloatField, Prefetch, Q, QuerySet, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from portal.analysis.curves import CurvePoint, Status, ThroughputAtThreshold, throughput_at
from portal.analysis.vocabulary import cache_setting_name, raid_level_canonical
from portal.models import Config, Point, Run, System
from portal.results.as_is import run_as_is
from portal.results.workloads import named_by_team
from portal.teams.selectors import Viewer, visible

# Who reads: a signed-in user or an anonymous visitor.

METRICS = {"iops": "IOPS", "mbps": "MB/s"}
# A point's figures and load axes as tables and charts head them.
FIGURE_TITLES = {
    "iops": "IOPS",
    "read_iops": "Read IOPS",
    "write_iops": "Write IOPS",
    "mbps": "MB/s",
    "read_mbps": "Read MB/s",
    "write_mbps": "Write MB/s",
    "avg_response_ms": "Average response time (ms)",
    "avg_read_response_ms": "Average read response time (ms)",
    "avg_write_response_ms": "Average write response time (ms)",
    "max_response_ms": "Maximum response time (ms)",
    "cpu_pct": "CPU %",
}
LOAD_TITLES = {
    "outstanding_io": "Outstanding I/Os",
    "threads": "Threads",
    "small_outstanding": "Small I/Os outstanding",
    "large_outstanding": "Large I/Os outstanding",
    "iodepth": "I/O depth",
    "numjobs": "Jobs",
    "hosts": "Hosts",
}


def load_title(*, key: str) -> str:
    """A load axis in words: known ones by name, others with their underscores as spaces."""
    return LOAD_TITLES.get(key, key.replace("_", " ").capitalize())


def cache_setting(*, config: Config) -> str:
    """The cache setting in the papers' words, derived from the read and write cache flags ('' if unknown)."""
    return cache_setting_name(read_cache=config.read_cache, write_cache=config.write_cache)


class PointFigures(NamedTuple):
    """The columns of a point a threshold figure reads, as ``values_list(*POINT_FIGURE_COLUMNS)`` gives
    them (or as a stored run's point is written): a :class:`Point` without the model around it."""

    seq: int
    outstanding_io: float | None
    threads: int | None
    iops: float | None
    mbps: float | None
    avg_response_ms: float | None
    max_response_ms: float | None
    # Read only for a percentile latency.
    latency_percentiles_ms: dict | None = None


POINT_FIGURE_COLUMNS = PointFigures._fields

# A point as the figures read it: the model instance, or its columns as a tuple.
CurveSource = Point | PointFigures


def run_metric(*, run: Run) -> str:
    """The throughput a run is judged by: IOPS when its points have them, else MB/s."""
    return points_metric(points=list(run.points.all()))


def points_metric(*, points: Sequence[CurveSource]) -> str:
    """The throughput a run with these points is judged by: MB/s when a point states MB/s but no IOPS (or
    there is no point), else IOPS. A run whose points state no rate (a test bonnie++ found too fast to time,
    '+++++') is judged by operations: its kind is its test's (bonnie++'s file stat: metadata ops/s)."""
    if not points or any(p.iops is None and p.mbps is not None for p in points):
        return "mbps"
    return "iops"


# What a response-time threshold applies to: the papers' average, or a percentile of all I/O.
LATENCIES = {
    "avg": "average",
    "p50": "50th percentile",
    "p90": "90th percentile",
    "p95": "95th percentile",
    "p99": "99th percentile",
    "p99.9": "99.9th percentile",
    "max": "maximum",
}


def response_ms(*, point: CurveSource, latency: str = "avg") -> float | None:
    """A point's response time as ``latency`` asks: average, a percentile, or the maximum (None if unknown)."""
    if latency == "avg":
        return point.avg_response_ms
    if latency == "max":
        return point.max_response_ms
    return (point.latency_percentiles_ms or {}).get(latency.removeprefix("p"))


def run_curve(*, run: Run, metric: str, latency: str = "avg") -> list[CurvePoint]:
    """The run's points as curve points (load, throughput, response time) in load order.

    ``latency`` chooses the response time: the average (the papers' rule), a percentile ("p99")
    or the maximum; points without it are left out. A published figure stated at a response time
    ("results correspond to an average response time of 20 ms") without its own measured response
    time is placed at that stated time, for the average only.
    """
    stated_ms = stated_response_ms(origin=run.origin, published_at_ms=run.published_at_ms, latency=latency)
    return points_curve(points=run.points.all(), metric=metric, latency=latency, stated_ms=stated_ms)


def stated_response_ms(*, origin: str, published_at_ms: float | None, latency: str) -> float | None:
    """The response time a published figure is placed at when it has none of its own (average only)."""
    return published_at_ms if origin == Run.Origin.PUBLISHED and latency == "avg" else None


def points_curve(
    *, points: Iterable[CurveSource], metric: str, latency: str = "avg", stated_ms: float | None = None
) -> list[CurvePoint]:
    """Points in load order as curve points, as :func:`run_curve` describes (``stated_ms``: a published
    figure's stated response time)."""
    curve = []
    throughput_of = operator.attrgetter(metric)
    for p in points:
        throughput = throughput_of(p)
        if throughput is None:
            continue
        response = p.avg_response_ms if latency == "avg" else response_ms(point=p, latency=latency)
        if response is None:
            response = stated_ms
            if response is None and latency != "avg":
                continue
        load = p.outstanding_io if p.outstanding_io is not None else (p.threads if p.threads else p.seq)
        curve.append(CurvePoint(load=load, throughput=throughput, response_ms=response))
    return curve


def points_by_run(run_ids: Sequence[int], *, latency: str = "avg") -> dict[int, tuple[list[PointFigures], list]]:
    """The points of ``run_ids`` as :class:`PointFigures` in load order, by run (none for a run without
    points), with each point's MB/s as a paper printed it in binary units (:func:`published_mbps_binary`):
    one query over the columns a threshold reads at ``latency``, in the order of the (run, seq) index, so
    its cost follows the points read."""
    if not run_ids:
        return {}
    columns = POINT_FIGURE_COLUMNS if latency not in ("avg", "max") else POINT_FIGURE_COLUMNS[:-1]
    # Only a run's first point is asked for it: a run with more points has no printed figure.
    printed = Case(When(seq=0, then=Cast(KT("metrics__published_mbps_binary"), FloatField())))
    rows = Point.objects.filter(run_id__in=run_ids).order_by("run_id", "seq").values_list("run_id", *columns, printed)
    found: dict[int, tuple[list[PointFigures], list]] = {run_id: ([], []) for run_id in run_ids}
    for run_id, group in itertools.groupby(rows, key=operator.itemgetter(0)):
        read = list(group)
        found[run_id] = ([PointFigures(*row[1:-1]) for row in read], [row[-1] for row in read])
    return found


def published_mbps_binary(*, printed: Sequence[float | None]) -> float | None:
    """A one-point published run's MB/s as its paper printed it, from its points' ``published_mbps_binary``
    metric (None when the run has several points or the paper printed decimal MB/s)."""
    return printed[0] if len(printed) == 1 else None


def run_threshold(
    *, run: Run, threshold_ms: float, metric: str | None = None, latency: str = "avg"
) -> tuple[str, ThroughputAtThreshold]:
    """Throughput of a run at ``threshold_ms`` of ``latency`` by the run's rule (a published run with one
    point: its figure as published; a measured IO500 run, :func:`measured_as_is`: its figure as measured)."""
    return points_threshold(
        points=list(run.points.all()),
        threshold_ms=threshold_ms,
        rule=run_rule(params=run.params),
        stated_ms=stated_response_ms(origin=run.origin, published_at_ms=run.published_at_ms, latency=latency),
        metric=metric,
        latency=latency,
        published=run.origin == Run.Origin.PUBLISHED,
        as_is=run_as_is(run),
    )


def run_rule(*, params: dict | None) -> str:
    """The rule a run's figure at a threshold is read by (its ``params.threshold_rule``, else interpolation)."""
    return (params or {}).get("threshold_rule") or "interpolate"


def points_threshold(
    *,
    points: Sequence[CurveSource],
    threshold_ms: float,
    rule: str,
    stated_ms: float | None = None,
    metric: str | None = None,
    latency: str = "avg",
    published: bool = False,
    as_is: bool = False,
) -> tuple[str, ThroughputAtThreshold]:
    """Throughput at ``threshold_ms`` of a run with these points (in load order), as :func:`run_threshold`
    (``published``: figures a paper stated, a single one used as is; a single measured point is a measurement
    at its own response time; ``as_is``: a measured run whose one point states no response time, used as is at
    any threshold, :func:`measured_as_is`, its status "measured")."""
    metric = metric or points_metric(points=points)
    curve = points_curve(points=points, metric=metric, latency=latency, stated_ms=stated_ms)
    answer = throughput_at(curve, threshold_ms=threshold_ms, rule=rule, published=published or as_is)
    if as_is and answer.status is Status.SINGLE_POINT:
        # Its one point, measured: no paper published it.
        answer = replace(answer, status=Status.MEASURED)
    return metric, answer


def runs_with_points(*, runs: QuerySet[Run]) -> QuerySet[Run]:
    """Runs with their config, system and points in load order: three queries whatever the count."""
    return runs.select_related("config__system").prefetch_related(
        Prefetch("points", queryset=Point.objects.order_by("seq"))
    )


# The point columns a threshold figure reads; ``metrics`` and ``load`` can be large and are not needed.
CURVE_POINT_FIELDS = (
    "run_id",
    "seq",
    "outstanding_io",
    "threads",
    "iops",
    "mbps",
    "avg_response_ms",
    "max_response_ms",
)


def curve_points(*, latency: str = "avg") -> QuerySet[Point]:
    """Points in load order with only the columns ``run_threshold`` reads at ``latency``."""
    fields = CURVE_POINT_FIELDS if latency in ("avg", "max") else (*CURVE_POINT_FIELDS, "latency_percentiles_ms")
    return Point.objects.only(*fields).order_by("seq")


def runs_with_curve_points(*, runs: QuerySet[Run], latency: str = "avg") -> QuerySet[Run]:
    """Runs with their config, system and only the point columns ``run_threshold`` reads at ``latency``."""
    return runs.select_related("config__system").prefetch_related(
        Prefetch("points", queryset=curve_points(latency=latency))
    )


@dataclass
class Figure:
    """A run's throughput at the threshold, with what identifies its configuration."""

    run: Run
    metric: str
    value: float | None
    reached: bool
    status: str
    warnings: tuple

    @property
    def config(self) -> Any:
        # The run's Config, read by sizing as set (its drive count and rule of thumb are checked there).
        return self.run.config

    @property
    def cache_setting(self) -> str:
        return cache_setting(config=self.run.config)

    @property
    def status_text(self) -> str:
        return Status(self.status).words


# Runs a comparison, a table or a sweep may use: measurements (not a preparation or warm-up step) that no
# maintainer excluded. Excluded and preparation runs stay stored and shown on their system's page.
COMPARABLE = Q(phase=Run.Phase.MEASUREMENT, excluded_reason="")


def named(*, name: str, viewer: Viewer | None = None) -> Q:
    """Runs stored under this workload name, or of a workload known by it (another tool's name for it, or
    the name pages show it by); with ``viewer``, also those of a workload one of their teams calls so."""
    found = Q(workload_name=name) | Q(workload__names__contains=[name]) | Q(workload__name=name)
    if viewer is not None:
        found |= named_by_team(name=name, viewer=viewer)
    return found


def runs_filtered(
    *,
    system: System,
    workloads: Sequence[str] = (),
    raid_level: str | None = None,
    drive_count: int | None = None,
    cache: str | None = None,
    source_table: str | None = None,
    tool: str | None = None,
    stroke_stated: bool = False,
    comparable: bool = False,
    viewer: Viewer | None = None,
) -> QuerySet[Run]:
    """A system's runs narrowed in SQL: by workload names (any of them), RAID level as stored, drive
    count, cache setting, the paper table they were published in, tool, or a stated stroke %;
    ``comparable`` keeps only the runs a comparison may use (:data:`COMPARABLE`); with ``viewer``, a
    workload is also found by the names their teams gave it."""
    runs = Run.objects.filter(config__system=system)
    if comparable:
        runs = runs.filter(COMPARABLE)
    if workloads:
        runs = runs.filter(reduce(operator.or_, (named(name=name, viewer=viewer) for name in workloads)))
    if raid_level is not None:
        runs = runs.filter(config__raid_level=raid_level)
    if drive_count:
        runs = runs.filter(config__drive_count=drive_count)
    if cache:
        runs = runs.filter(_cache_comparable(cache))
    if source_table:
        runs = runs.filter(origin=Run.Origin.PUBLISHED, citation_table=source_table)
    if tool:
        runs = runs.filter(tool=tool)
    if stroke_stated:
        runs = runs.filter(config__stroke_pct__isnull=False)
    return runs


def raid_level_asked(*, raid_level: str | None) -> str | None:
    """A RAID level asked for in any spelling, as :func:`runs_filtered` matches it (None: any)."""
    return raid_level_canonical(raid_level) if raid_level else None


def _cache_comparable(cache: str) -> Q:
    """Configurations whose cache setting is ``cache`` or unknown (an unknown one stays comparable),
    as the flag combinations :func:`cache_setting` names so."""
    flags = (True, False, None)
    allowed = Q(pk__in=[])
    for read_cache in flags:
        for write_cache in flags:
            if cache_setting_name(read_cache=read_cache, write_cache=write_cache) in (cache, ""):
                allowed |= Q(config__read_cache=read_cache, config__write_cache=write_cache)
    return allowed


def run_raid_levels(*, system: System, source_table: str | None = None) -> set[str]:
    """The RAID levels a system's runs were measured at (those published in ``source_table``, when given)."""
    return set(runs_filtered(system=system, source_table=source_table).values_list("config__raid_level", flat=True))


def run_citation_tables(*, system: System, prefix: str = "") -> set[str]:
    """The paper tables a system's published runs are cited from, those starting with ``prefix``."""
    cited = runs_filtered(system=system).filter(origin=Run.Origin.PUBLISHED, citation_table__startswith=prefix)
    return set(cited.values_list("citation_table", flat=True))


# The order of a system's figures: replicates keep it within a configuration (the best of ties is the first).
FIGURE_ORDER = ("workload_name", "config__drive_count", "id")


def threshold_figures(
    *,
    system: System,
    threshold_ms: float,
    workload: str | None = None,
    raid_level: str | None = None,
    drive_count: int | None = None,
    cache: str | None = None,
    latency: str = "avg",
) -> list[Figure]:
    """Every run of a system at the threshold (of ``latency``: the average, or a percentile), optionally filtered."""
    runs = runs_filtered(
        system=system,
        workloads=(workload,) if workload else (),
        raid_level=raid_level_asked(raid_level=raid_level),
        drive_count=drive_count,
        cache=cache,
    )
    runs = runs_with_points(runs=runs.select_related("workload").order_by(*FIGURE_ORDER))
    return [run_figure(run=run, threshold_ms=threshold_ms, latency=latency) for run in runs]


def run_figure(*, run: Run, threshold_ms: float, latency: str = "avg") -> Figure:
    """The run's throughput at the threshold as a :class:`Figure` (its points prefetched)."""
    metric, answer = run_threshold(run=run, threshold_ms=threshold_ms, latency=latency)
    return Figure(run, metric, answer.value, answer.reached, str(answer.status), tuple(answer.warnings))


def run_detail(*, run_id: int, viewer: Viewer) -> Run:
    """One run ``viewer`` may read, with its config, system, upload, workload and points: two queries
    (``Run.DoesNotExist`` for a run of a system they may not read)."""
    return (
        visible(Run.objects.all(), viewer=viewer, prefix="config__system__")
        .select_related("config__system__team", "upload", "workload", "excluded_by")
        .prefetch_related(Prefetch("points", queryset=Point.objects.order_by("seq")))
        .get(pk=run_id)
    )
