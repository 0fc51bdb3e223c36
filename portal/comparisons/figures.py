"""The figures a comparison reads: each run's throughput at the threshold (:class:`ComparedFigure`), and
the figures of one side's configuration group summed up as replicates (:class:`ReplicateGroup`), with
the runs and figures behind them read only when a chart or an export asks for them."""

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db.models import Case, Q, QuerySet, When
from django.db.models.fields.json import KT

from portal.analysis.compare import Replicates, replicates_summed
from portal.analysis.curves import Status
from portal.analysis.pairing import WorkloadKey, workload_key_of
from portal.analysis.vocabulary import cache_setting_name
from portal.models import Config, Run
from portal.results.as_is import IO500, measured_as_is
from portal.results.figures import STORED_FIGURE_COLUMNS
from portal.results.selectors import (
    FIGURE_ORDER,
    PointFigures,
    points_by_run,
    points_threshold,
    published_mbps_binary,
    run_rule,
    runs_with_curve_points,
    stated_response_ms,
)

from .filters import KEY_COLUMNS


class ConfigGroup(NamedTuple):
    """What replicates of one side share: RAID level, drive count and cache setting ("" or None where the
    configuration does not state it)."""

    raid_level: str
    drive_count: int | None
    cache_setting: str


class RunsOnDemand:
    """The runs of a comparison's figures as model instances (configuration, system, workload and the point
    columns a curve reads at the comparison's latency), those known so far read together the first time
    one is asked for: charts draw curves and exports list runs, the tables need none."""

    def __init__(self, *, latency: str) -> None:
        self.latency = latency
        self.ids: list[int] = []
        self._runs: dict[int, Run] = {}

    def run(self, run_id: int) -> Run:
        if run_id not in self._runs:
            wanted = Run.objects.filter(id__in=[known for known in self.ids if known not in self._runs])
            runs = runs_with_curve_points(runs=wanted, latency=self.latency).select_related("workload")
            self._runs |= {run.id: run for run in runs}
        return self._runs[run_id]


@dataclass(frozen=True)
class FigureReading:
    """How a comparison reads its figures: at ``threshold_ms`` of ``latency``, workloads keyed by family
    (the best over transfer sizes) or not, and the runs behind them read on demand."""

    threshold_ms: float
    latency: str
    family: bool
    runs_on_demand: RunsOnDemand

    @property
    def stored(self) -> bool:
        """Whether figures at this threshold and latency are those stored on the runs."""
        return self.threshold_ms == Run.STORED_FIGURES_AT_MS and self.latency == Run.STORED_FIGURES_LATENCY


@dataclass(eq=False)
class ComparedFigure:
    """A run's throughput at the threshold as a comparison reads it: at the papers' default from the figures
    stored on the run, at another threshold or latency from its points read as tuples (as
    :class:`~portal.results.selectors.Figure`, with ``run`` read on demand)."""

    run_id: int
    metric: str
    value: float | None
    reached: bool
    status: str
    # Replicates share it.
    group: ConfigGroup
    system_id: int
    system_name: str
    origin: str
    published_at_ms: float | None
    published_mbps_binary: float | None
    workload_key: WorkloadKey
    # The names the run's workload is known by (read for workloads paired by hand).
    names: frozenset[str]
    runs: RunsOnDemand = field(repr=False)

    @property
    def run(self) -> Run:
        return self.runs.run(self.run_id)

    @property
    def config(self) -> Config:
        return self.run.config

    @property
    def cache_setting(self) -> str:
        return self.group.cache_setting

    @property
    def status_text(self) -> str:
        return Status(self.status).words


# A measured run whose figure is its one point used as is, at any threshold (:func:`measured_as_is`).
_MEASURED_AS_IS = {"origin": Run.Origin.MEASURED, "tool": IO500, "min_avg_response_ms__isnull": True}
MEASURED_AS_IS = Q(**_MEASURED_AS_IS)


def measured_as_is_of(relation: str) -> Q:
    """:data:`MEASURED_AS_IS` for the run of ``relation`` ("run": a point's)."""
    return Q(**{f"{relation}__{lookup}": value for lookup, value in _MEASURED_AS_IS.items()})


# The run columns a compared figure is made of: its workload key, configuration, system, what a published
# figure is stated at, what measured it, and the stored figures.
_FIGURE_COLUMNS = (
    "id",
    *KEY_COLUMNS,
    *("config__raid_level", "config__drive_count", "config__read_cache", "config__write_cache"),
    *("config__system_id", "config__system__name", "origin", "published_at_ms", "tool", "min_avg_response_ms"),
    *STORED_FIGURE_COLUMNS,
)


def compared_figures(runs: QuerySet[Run], reading: FigureReading, *, names: bool = False) -> list[ComparedFigure]:
    """The figures of ``runs`` in :data:`FIGURE_ORDER`, in two queries whatever their number: their run
    columns and, for those whose figures are not stored (or away from the stored default), the point
    columns the threshold reads (:func:`~portal.results.selectors.points_by_run`). ``names``: read the
    names of their workloads too. A measured IO500 run (:data:`MEASURED_AS_IS`) is read from its one point,
    used as is: its stored figure is that of a run with no response time."""
    rule = KT("params__threshold_rule")
    # A run's rule is read only where its figure is read from its points.
    runs = runs.annotate(rule=Case(When(throughput_metric="", then=rule)) if reading.stored else rule)
    columns = (*_FIGURE_COLUMNS, "rule", *(("workload__names", "workload__name") if names else ()))
    rows = list(runs.order_by(*FIGURE_ORDER).values_list(*columns, named=True))
    on_points = [row.id for row in rows if not (reading.stored and row.throughput_metric) or _as_is(row)]
    points = points_by_run(on_points, latency=reading.latency)
    reading.runs_on_demand.ids.extend(row.id for row in rows)
    cache_settings: dict[tuple[bool | None, bool | None], str] = {}
    return [_compared_figure(row, points.get(row.id), reading, cache_settings=cache_settings) for row in rows]


def _compared_figure(
    row: Any,
    points: tuple[list[PointFigures], list] | None,
    reading: FigureReading,
    *,
    cache_settings: dict[tuple[bool | None, bool | None], str],
) -> ComparedFigure:
    """One run's figure from its row: the stored figure, or the one its ``points`` give."""
    if points is None:
        metric = row.throughput_metric
        value, status = (
            (row.iops_at_20ms, row.iops_at_20ms_status)
            if metric == "iops"
            else (row.mbps_at_20ms, row.mbps_at_20ms_status)
        )
        reached, printed = row.reached_20ms, row.published_mbps_binary
    else:
        read, printed_mbps = points
        as_is = _as_is(row)
        metric, answer = points_threshold(
            points=read,
            threshold_ms=reading.threshold_ms,
            rule=run_rule(params={"threshold_rule": row.rule}),
            stated_ms=stated_response_ms(
                origin=row.origin, published_at_ms=row.published_at_ms, latency=reading.latency
            ),
            latency=reading.latency,
            published=row.origin == Run.Origin.PUBLISHED,
            as_is=as_is,
        )
        value, status, reached = answer.value, str(answer.status), answer.reached
        printed = published_mbps_binary(printed=printed_mbps)
    flags = (row.config__read_cache, row.config__write_cache)
    if flags not in cache_settings:
        cache_settings[flags] = cache_setting_name(read_cache=flags[0], write_cache=flags[1])
    return ComparedFigure(
        run_id=row.id,
        metric=metric,
        value=value,
        reached=reached,
        status=status,
        group=ConfigGroup(row.config__raid_level, row.config__drive_count, cache_settings[flags]),
        system_id=row.config__system_id,
        system_name=row.config__system__name,
        origin=row.origin,
        published_at_ms=row.published_at_ms,
        published_mbps_binary=printed,
        workload_key=workload_key_of(
            row.workload_id, row.workload_name, row.read_pct, row.random_pct, family=reading.family
        ),
        names=frozenset(
            (row.workload_name, *(getattr(row, "workload__names", None) or ()), getattr(row, "workload__name", None))
        )
        - {None},
        runs=reading.runs_on_demand,
    )


def _as_is(row: Any) -> bool:
    """Whether the run of ``row`` (:data:`_FIGURE_COLUMNS`) is one of :data:`MEASURED_AS_IS`."""
    return measured_as_is(origin=row.origin, tool=row.tool, min_avg_response_ms=row.min_avg_response_ms)


class FiguresOnDemand:
    """Both sides' figures of the compared workloads (:func:`compared_figures`), read the first time a
    row's figures are asked for."""

    def __init__(self, runs: QuerySet[Run], reading: FigureReading) -> None:
        self.runs = runs
        self.reading = reading
        self._figures: list[ComparedFigure] | None = None

    def figures(
        self, system_id: int, workload_key: WorkloadKey, group: ConfigGroup, metric: str
    ) -> list[ComparedFigure]:
        if self._figures is None:
            self._figures = compared_figures(self.runs, self.reading)
        wanted = (system_id, workload_key, group, metric)
        return [
            figure
            for figure in self._figures
            if (figure.system_id, figure.workload_key, figure.group, figure.metric) == wanted
            and figure.value is not None
        ]


@dataclass
class ReplicateGroup:
    """Figures of one side of a compared workload with one configuration group and metric: the count, mean
    and variance of their values and what the row's notes say of them, from the figures themselves or
    summed up in SQL from the runs' stored figures (:func:`~portal.comparisons.loading.stored_replicates`),
    whatever the number of runs."""

    system_id: int
    workload_key: WorkloadKey
    group: ConfigGroup
    metric: str
    # None: no figure has a value (only the metric counts).
    summary: Replicates | None
    # A one-point published run's MB/s as its paper printed it in binary units, for each that has one.
    printed_mbps: list[float]
    # The response times the published figures were stated at.
    stated_ms: list[float]
    # The status of each figure that did not reach the threshold.
    not_reached: list[str]
    # The figures (None: read on demand, by ``on_demand``).
    found: list[ComparedFigure] | None = None
    on_demand: FiguresOnDemand | None = field(default=None, repr=False)
    # Why figures have no value at the threshold, in words (one per reason).
    no_value: list[str] = field(default_factory=list)
    # Whether the lowest and highest response time of the points the figures are read from were read with
    # them (``measured_ms``; None: no such point).
    ranged: bool = False
    measured_ms: tuple[float, float] | None = None

    @property
    def valued(self) -> Replicates:
        """The summary of replicates with values (those :func:`~portal.comparisons.rows.groups` keeps)."""
        assert self.summary is not None
        return self.summary

    def figures(self) -> list[ComparedFigure]:
        if self.found is None:
            assert self.on_demand is not None
            self.found = self.on_demand.figures(self.system_id, self.workload_key, self.group, self.metric)
        return self.found


def no_value_words(figure: ComparedFigure, latency: str) -> str:
    """Why ``figure`` has no value at the threshold, as the page says it."""
    if figure.origin == Run.Origin.PUBLISHED and latency != "avg":
        missing = "no maximum" if latency == "max" else "no percentiles"
        return f"published figures are stated at an average response time; {missing}"
    return Status(figure.status).words


def replicates_of(figure: ComparedFigure, *, latency: str) -> ReplicateGroup:
    """One figure as replicates of its own (with no value: only its metric counts)."""
    valued = figure.value is not None
    published = figure.origin == Run.Origin.PUBLISHED and figure.published_at_ms is not None
    return ReplicateGroup(
        system_id=figure.system_id,
        workload_key=figure.workload_key,
        group=figure.group,
        metric=figure.metric,
        summary=None if figure.value is None else replicates_summed(n=1, mean=figure.value, variance=None),
        printed_mbps=[figure.published_mbps_binary] if valued and figure.published_mbps_binary is not None else [],
        stated_ms=[figure.published_at_ms] if valued and published and figure.published_at_ms is not None else [],
        not_reached=[figure.status] if valued and not figure.reached else [],
        found=[figure],
        no_value=[] if valued else [no_value_words(figure, latency)],
    )
