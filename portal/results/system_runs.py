"""A system's runs as its page lists them: its workloads with their run counts, and figures for only the runs a
page shows.

A system may hold tens of thousands of runs (one Iometer file stores thousands), so its workloads are
counted with one grouped COUNT (an index-only scan) and the runs shown are picked by index, the first few
of each workload and configuration, never numbering every run of a workload.
"""

import itertools
import operator
from collections.abc import Iterable
from datetime import datetime
from typing import NamedTuple

from django.db.models import Count
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KT

from portal.analysis.curves import Status
from portal.analysis.figure_kinds import figure_kind
from portal.models import Config, Point, Run, System, Workload

from .as_is import IO500, measured_as_is
from .figures import STORED_FIGURE_COLUMNS
from .selectors import (
    POINT_FIGURE_COLUMNS,
    PointFigures,
    points_threshold,
    run_rule,
    stated_response_ms,
)

# The workloads the sweep offers to choose from, at the most (another is asked for by its name in the address).
SWEPT_WORKLOADS_SHOWN = 200
# The first runs of each workload a page shows.
RUNS_PER_WORKLOAD = 20
# Orders of the runs within a workload: (label, order of the rows).
RUN_SORTS = {
    "config": ("configuration", ("config__raid_level", "config__drive_count", "config_id", "id")),
    "tool": ("tool", ("tool", "config__raid_level", "config__drive_count", "id")),
    "newest": ("newest first", ("-id",)),
}
DEFAULT_SORT = "config"
# The same orders in SQL: within one configuration (what the indexes on runs give in order) and across
# the system's configurations. Within a configuration the order across them reduces to the first, so
# the first runs of a workload are among the first runs of each of its configurations.
_SQL_SORTS = {
    "config": ("run.id", "config.raid_level, config.drive_count, config.id, run.id"),
    "tool": ("run.tool, run.id", "run.tool, config.raid_level, config.drive_count, run.id"),
    "newest": ("run.id DESC", "run.id DESC"),
}
# Runs ``first`` to ``first + limit`` of each workload: per configuration at most ``first + limit`` runs,
# read in order from the index on (config, workload_name, id) or (config, workload_name, tool, id).
_SHOWN_RUNS_SQL = """
    SELECT shown.id FROM unnest(%s::text[]) AS wanted(workload_name)
    CROSS JOIN LATERAL (
        SELECT run.id FROM portal_config AS config
        CROSS JOIN LATERAL (
            SELECT run.id, run.tool FROM portal_run AS run
            WHERE run.config_id = config.id AND run.workload_name = wanted.workload_name
            ORDER BY {within} LIMIT %s
        ) AS run
        WHERE config.system_id = %s
        ORDER BY {across} LIMIT %s OFFSET %s
    ) AS shown
"""
# What the runs table shows of a run (:class:`ShownRun`, its configuration by id) and its exclusion.
_ROW_COLUMNS = (
    "id",
    "config_id",
    "workload_name",
    "workload_id",
    "tool",
    "origin",
    "phase",
    "excluded_reason",
    "excluded_at",
    "excluded_by__username",
)
_CONFIG_COLUMNS = ("raid_level", "drive_count", "drive_type", "read_cache", "write_cache", "extra", "stroke_pct")


class WorkloadRuns(NamedTuple):
    """A system's runs by the name they were stored under (:func:`workload_run_counts`)."""

    # (name, runs) of every name, in name order
    counts: list[tuple[str, int]]
    # The names a drive count or stroke sweep can draw (runs in more than one configuration).
    swept: list[str]
    # The workloads the runs of each name are of (None for runs of none).
    workload_ids: dict[str, set[int | None]]
    # The runs of each name and workload.
    workload_counts: dict[tuple[str, int | None], int]


def workload_run_counts(*, system: System) -> WorkloadRuns:
    """(workload name, runs) of every workload of the system, in name order, the workloads a drive count or
    stroke sweep can draw (measured in more than one configuration), at most :data:`SWEPT_WORKLOADS_SHOWN`
    of them, and the workloads of each name: one COUNT, grouped by configuration, name and workload as the
    index of a configuration's runs by name holds them (no sort of every run by name), summed up by name
    here. A file can name every run apart (an Iometer file's tests), so the sweep's choices are bounded,
    not one per name."""
    runs = Run.objects.filter(config__system=system).values("config_id", "workload_name", "workload_id")
    rows = runs.annotate(runs=Count("id")).order_by("workload_name")
    found = WorkloadRuns([], [], {}, {})
    rows_by_name = itertools.groupby(
        rows.values_list("workload_name", "config_id", "workload_id", "runs"), key=operator.itemgetter(0)
    )
    for name, group in rows_by_name:
        of_name = list(group)
        found.counts.append((name, sum(count for *_, count in of_name)))
        found.workload_ids[name] = {workload_id for _, _, workload_id, _ in of_name}
        for _, _, workload_id, count in of_name:
            found.workload_counts[name, workload_id] = found.workload_counts.get((name, workload_id), 0) + count
        if len({config_id for _, config_id, _, _ in of_name}) > 1 and len(found.swept) < SWEPT_WORKLOADS_SHOWN:
            found.swept.append(name)
    return found


class NamedWorkload(NamedTuple):
    """A name a system's runs were stored under, and one workload (id and title) runs of that name are of."""

    name: str
    workload_id: int | None
    title: str | None


def named_workloads(*, workload_ids: dict[str, set[int | None]], names: list[str]) -> list[NamedWorkload]:
    """The workloads the runs of each of ``names`` (a page of a system's stored names) are of, with their
    titles (``workload_ids``: of each name, :func:`workload_run_counts`): one query of those workloads,
    read by the section titles and the team's names for them."""
    wanted = {workload_id for name in names for workload_id in workload_ids[name] if workload_id is not None}
    titles = dict(Workload.objects.filter(id__in=wanted).order_by().values_list("id", "name"))
    return [
        NamedWorkload(name, workload_id, titles.get(workload_id) if workload_id is not None else None)
        for name in names
        for workload_id in workload_ids[name]
    ]


class ShownRun(NamedTuple):
    """A run as a system page's runs table shows it: read as a row of values, as a page shows hundreds."""

    id: int
    config: Config
    workload_name: str
    # None for a run whose file did not say what it does.
    workload_id: int | None
    tool: str
    origin: str
    phase: str
    excluded_reason: str
    excluded_at: datetime | None
    # Who excluded it (None when that user is gone).
    excluded_by: str | None


class RunFigure(NamedTuple):
    """A shown run's throughput at the threshold."""

    run: ShownRun
    metric: str
    value: float | None
    status: str
    # Whether the figure is the run's one point used as is, with no response time, the same at any threshold
    # (a lab's own IO500 run: :func:`~portal.results.as_is.measured_as_is`).
    as_is: bool = False
    # The unit of its kind of figure ("IOPS", "MB/s", "metadata ops/s": :mod:`portal.analysis.figure_kinds`).
    unit: str = ""

    @property
    def stated_as(self) -> str:
        """How a figure with no response time, the same at any threshold, was stated: "as measured" (a lab's own
        IO500 run), "as published" (a catalogue's IO500 submission); '' for a figure read at the threshold."""
        if self.as_is:
            return "as measured"
        published = self.run.origin == Run.Origin.PUBLISHED and self.run.tool == IO500
        return "as published" if published and self.status == Status.SINGLE_POINT else ""


def workload_figures(
    *,
    system: System,
    workloads: list[str],
    threshold_ms: float,
    latency: str = "avg",
    sort: str = DEFAULT_SORT,
    first: int = 0,
    limit: int = RUNS_PER_WORKLOAD,
) -> dict[str, list[RunFigure]]:
    """Figures of runs ``first`` to ``first + limit`` of each workload in ``sort`` order, by workload.

    Three queries whatever the system holds: the runs shown (as rows of values, not model instances), their
    configurations, and the columns of their points a figure reads (none at the default threshold for runs
    whose figures are stored with them). What they cost grows with the runs shown and the system's
    configurations, not with its runs.
    """
    within, across = _SQL_SORTS[sort]
    shown = RawSQL(
        _SHOWN_RUNS_SQL.format(within=within, across=across), (workloads, first + limit, system.id, limit, first)
    )
    shown_count = len(_ROW_COLUMNS)
    rows = [
        _ShownRow(
            row[:shown_count],
            row[shown_count],
            row[shown_count + 1],
            row[shown_count + 4 :],
            measured_as_is(
                origin=row[_ROW_COLUMNS.index("origin")],
                tool=row[_ROW_COLUMNS.index("tool")],
                min_avg_response_ms=row[shown_count + 2],
            ),
            row[shown_count + 3] or "",
        )
        for row in Run.objects.filter(id__in=shown)
        .annotate(threshold_rule=KT("params__threshold_rule"), figure_named=KT("params__figure"))
        .order_by("workload_name", *RUN_SORTS[sort][1])
        .values_list(
            *_ROW_COLUMNS,
            "threshold_rule",
            "published_at_ms",
            "min_avg_response_ms",
            "figure_named",
            *STORED_FIGURE_COLUMNS,
        )
    ]
    # A configuration once, however many of its runs are shown (a lab's file puts them all in one).
    configs = Config.objects.filter(id__in={row.values[1] for row in rows}).only(*_CONFIG_COLUMNS).order_by().in_bulk()
    at_stored = threshold_ms == Run.STORED_FIGURES_AT_MS and latency == Run.STORED_FIGURES_LATENCY
    # The figure at the default threshold is stored with a run once its throughput metric is; a run's used as
    # is (with no response time) is read from its one point.
    points = _points_by_run(
        run_ids=[row.values[0] for row in rows if not (at_stored and row.stored[0]) or row.as_is], latency=latency
    )
    by_workload: dict[str, list[RunFigure]] = {name: [] for name in workloads}
    for row in rows:
        run_id, config_id, *shown_values = row.values
        run = ShownRun(run_id, configs[config_id], *shown_values)
        if at_stored and row.stored[0] and not row.as_is:
            figure = _stored_figure(run, dict(zip(STORED_FIGURE_COLUMNS, row.stored, strict=True)))
        else:
            figure = _figure(
                run,
                points.get(run_id, []),
                rule=row.rule,
                published_at_ms=row.published_at_ms,
                threshold_ms=threshold_ms,
                latency=latency,
                as_is=row.as_is,
            )
        kind = figure_kind(
            tool=run.tool, params={"figure": row.figure_named}, workload_name=run.workload_name, metric=figure.metric
        )
        by_workload[run.workload_name].append(figure._replace(unit=kind.unit))
    return by_workload


class _ShownRow(NamedTuple):
    """A shown run's row: what the table shows (``_ROW_COLUMNS``), what its figure is read by, and its
    stored figures (``STORED_FIGURE_COLUMNS``, its throughput metric first)."""

    values: tuple
    rule: str | None
    published_at_ms: float | None
    stored: tuple
    # Whether its figure is its one point used as is (:func:`~portal.results.as_is.measured_as_is`).
    as_is: bool
    # What its file says its figure is (mdtest's and IO500's ``params.figure``), for the figure's unit.
    figure_named: str


def _stored_figure(run: ShownRun, stored: dict) -> RunFigure:
    """The run's figure at the default threshold as stored with it (the runs table shows no warnings)."""
    metric = stored["throughput_metric"]
    return RunFigure(run, metric, stored[f"{metric}_at_20ms"], stored[f"{metric}_at_20ms_status"])


def _points_by_run(*, run_ids: Iterable[int], latency: str) -> dict[int, list[PointFigures]]:
    """The runs' points in load order as tuples of the columns a figure reads (percentiles only when asked)."""
    columns = POINT_FIGURE_COLUMNS if latency not in ("avg", "max") else POINT_FIGURE_COLUMNS[:-1]
    rows = Point.objects.filter(run_id__in=list(run_ids)).order_by("run_id", "seq").values_list("run_id", *columns)
    return {
        run_id: [PointFigures(*row[1:]) for row in found]
        for run_id, found in itertools.groupby(rows, key=operator.itemgetter(0))
    }


def _figure(
    run: ShownRun,
    points: list[PointFigures],
    *,
    rule: str | None,
    published_at_ms: float | None,
    threshold_ms: float,
    latency: str,
    as_is: bool,
) -> RunFigure:
    metric, answer = points_threshold(
        points=points,
        threshold_ms=threshold_ms,
        rule=run_rule(params={"threshold_rule": rule}),
        stated_ms=stated_response_ms(origin=run.origin, published_at_ms=published_at_ms, latency=latency),
        latency=latency,
        published=run.origin == Run.Origin.PUBLISHED,
        as_is=as_is,
    )
    return RunFigure(run, metric, answer.value, str(answer.status), as_is)
