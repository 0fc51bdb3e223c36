"""A system page's runs: its workloads with their run counts, and figures for only the runs a page shows.

A system may hold tens of thousands of runs (one Iometer file stores thousands), so the page lists
every workload with its count from one grouped COUNT and reads points only for the runs it shows.
"""

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber

from portal.models import Run, System
from portal.results.selectors import Figure, run_figure, runs_with_curve_points

# The overview shows this many workloads a page and the first runs of each.
WORKLOADS_PER_PAGE = 10
RUNS_PER_WORKLOAD = 20
# One workload's runs, page by page.
RUNS_PER_PAGE = 50
# Orders of the runs within a workload: (label, order of the rows).
RUN_SORTS = {
    "config": ("configuration", ("config__raid_level", "config__drive_count", "config_id", "id")),
    "tool": ("tool", ("tool", "config__raid_level", "config__drive_count", "id")),
    "newest": ("newest first", ("-id",)),
}
DEFAULT_SORT = "config"


def workload_run_counts(*, system: System) -> list[tuple[str, int]]:
    """(workload name, runs) of every workload of the system, in name order: one COUNT grouped by workload."""
    runs = Run.objects.filter(config__system=system).values("workload_name").annotate(runs=Count("id"))
    return list(runs.order_by("workload_name").values_list("workload_name", "runs"))


def workloads_page(counts: list[tuple[str, int]], *, number) -> Page:
    """The page ``number`` of the workloads (a bad or out-of-range number gives the first or last)."""
    return Paginator(counts, WORKLOADS_PER_PAGE).get_page(number)


def runs_page(count: int, *, number) -> Page:
    """Page ``number`` of one workload's ``count`` runs: which rows to show, without a query."""
    return Paginator(range(count), RUNS_PER_PAGE).get_page(number)


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

    Two queries whatever the system holds: the runs (numbered within their workload by the
    database), and the columns of their points a figure needs.
    """
    order = RUN_SORTS[sort][1]
    position = Window(RowNumber(), partition_by=[F("workload_name")], order_by=list(order))
    runs = (
        Run.objects.filter(config__system=system, workload_name__in=workloads)
        .annotate(position=position)
        .filter(position__gt=first, position__lte=first + limit)
        .select_related("workload")
        .order_by("workload_name", *order)
    )
    by_workload: dict[str, list[Figure]] = {name: [] for name in workloads}
    for run in runs_with_curve_points(runs=runs, latency=latency):
        by_workload[run.workload_name].append(run_figure(run=run, threshold_ms=threshold_ms, latency=latency))
    return by_workload
