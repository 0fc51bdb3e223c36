"""A system's runs as its page lists them: its workloads with their run counts, and figures for only the runs a
page shows.

A system may hold tens of thousands of runs (one Iometer file stores thousands), so its workloads are
counted with one grouped COUNT (an index-only scan) and the runs shown are picked by index, the first few
of each workload and configuration, never numbering every run of a workload.
"""

import itertools
import operator
from collections.abc import Iterable
from typing import NamedTuple

from django.db.models import Count
from django.db.models.expressions import RawSQL

from portal.models import Point, Run, System

from .figures import STORED_FIGURE_COLUMNS
from .selectors import POINT_FIGURE_COLUMNS, Figure, PointFigures, points_threshold, run_rule, stated_response_ms

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
# What the runs table shows of a run and its configuration, and what its figure is read by.
_RUN_COLUMNS = ("id", "config_id", "workload_name", "tool", "origin", "params", "published_at_ms", "phase")
# A maintainer's exclusion from comparisons, marked on its row.
_EXCLUSION_COLUMNS = ("excluded_reason", "excluded_at", "excluded_by__username")
_CONFIG_COLUMNS = ("raid_level", "drive_count", "drive_type", "read_cache", "write_cache", "extra", "stroke_pct")


def workload_run_counts(*, system: System) -> tuple[list[tuple[str, int]], list[str]]:
    """(workload name, runs) of every workload of the system, in name order, and the workloads a drive
    count or stroke sweep can draw (measured in more than one configuration), at most
    :data:`SWEPT_WORKLOADS_SHOWN` of them: one COUNT grouped by workload. A file can name every run
    apart (an Iometer file's tests), so the sweep's choices are bounded, not one per name."""
    runs = Run.objects.filter(config__system=system).values("workload_name")
    rows = runs.annotate(runs=Count("id"), configs=Count("config_id", distinct=True)).order_by("workload_name")
    counts: list[tuple[str, int]] = []
    swept: list[str] = []
    for name, count, configs in rows.values_list("workload_name", "runs", "configs"):
        counts.append((name, count))
        if configs > 1 and len(swept) < SWEPT_WORKLOADS_SHOWN:
            swept.append(name)
    return counts, swept


class NamedWorkload(NamedTuple):
    """A name a system's runs were stored under, and one workload (id and title) runs of that name are of."""

    name: str
    workload_id: int | None
    title: str | None


def named_workloads(*, system: System, names: list[str]) -> list[NamedWorkload]:
    """The workloads the runs of each of ``names`` (a page of a system's stored names) are of: one query over
    the runs of those names, read by the section titles and the team's names for them."""
    rows = (
        Run.objects.filter(config__system=system, workload_name__in=names)
        .order_by()
        .values_list("workload_name", "workload_id", "workload__name")
        .distinct()
    )
    return [NamedWorkload(*row) for row in rows]


def workload_figures(
    *,
    system: System,
    workloads: list[str],
    threshold_ms: float,
    latency: str = "avg",
    sort: str = DEFAULT_SORT,
    first: int = 0,
    limit: int = RUNS_PER_WORKLOAD,
) -> dict[str, list[Figure]]:
    """Figures of runs ``first`` to ``first + limit`` of each workload in ``sort`` order, by workload.

    Two queries whatever the system holds: the runs shown with their configurations, and the
    columns of their points a figure reads (none at the default threshold for runs whose figures
    are stored with them). What they cost grows with the runs shown and the system's
    configurations, not with its runs.
    """
    within, across = _SQL_SORTS[sort]
    shown = RawSQL(
        _SHOWN_RUNS_SQL.format(within=within, across=across), (workloads, first + limit, system.id, limit, first)
    )
    runs = list(
        Run.objects.filter(id__in=shown)
        .select_related("config", "excluded_by")
        .only(
            *_RUN_COLUMNS,
            *STORED_FIGURE_COLUMNS,
            *_EXCLUSION_COLUMNS,
            *(f"config__{name}" for name in _CONFIG_COLUMNS),
        )
        .order_by("workload_name", *RUN_SORTS[sort][1])
    )
    at_stored = threshold_ms == Run.STORED_FIGURES_AT_MS and latency == Run.STORED_FIGURES_LATENCY
    stored = {run.id: _stored_figure(run) for run in runs if at_stored and run.throughput_metric}
    points = _points_by_run(run_ids=[run.id for run in runs if run.id not in stored], latency=latency)
    by_workload: dict[str, list[Figure]] = {name: [] for name in workloads}
    for run in runs:
        figure = stored.get(run.id) or _figure(run, points.get(run.id, []), threshold_ms=threshold_ms, latency=latency)
        by_workload[run.workload_name].append(figure)
    return by_workload


def _stored_figure(run: Run) -> Figure:
    """The run's figure at the default threshold as stored with it (the runs table shows no warnings)."""
    metric = run.throughput_metric
    value, status = getattr(run, f"{metric}_at_20ms"), getattr(run, f"{metric}_at_20ms_status")
    return Figure(run, metric, value, bool(run.reached_20ms), status, ())


def _points_by_run(*, run_ids: Iterable[int], latency: str) -> dict[int, list[PointFigures]]:
    """The runs' points in load order as tuples of the columns a figure reads (percentiles only when asked)."""
    columns = POINT_FIGURE_COLUMNS if latency not in ("avg", "max") else POINT_FIGURE_COLUMNS[:-1]
    rows = Point.objects.filter(run_id__in=list(run_ids)).order_by("run_id", "seq").values_list("run_id", *columns)
    return {
        run_id: [PointFigures(*row[1:]) for row in found]
        for run_id, found in itertools.groupby(rows, key=operator.itemgetter(0))
    }


def _figure(run: Run, points: list[PointFigures], *, threshold_ms: float, latency: str) -> Figure:
    metric, answer = points_threshold(
        points=points,
        threshold_ms=threshold_ms,
        rule=run_rule(params=run.params),
        stated_ms=stated_response_ms(origin=run.origin, published_at_ms=run.published_at_ms, latency=latency),
        latency=latency,
        published=run.origin == Run.Origin.PUBLISHED,
    )
    return Figure(run, metric, answer.value, answer.reached, str(answer.status), tuple(answer.warnings))
