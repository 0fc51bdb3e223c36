"""Reading a comparison's workloads and figures from the database: each side's workloads by key, their
figures summed up in SQL as replicates whatever the number of runs, and the response times their curves
are measured between."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.postgres.aggregates import ArrayAgg
from django.contrib.postgres.fields import ArrayField
from django.db.models import (
    Avg,
    BooleanField,
    CharField,
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    Func,
    Max,
    Min,
    Q,
    QuerySet,
    Value,
    Variance,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from portal.analysis.compare import replicates_summed
from portal.analysis.curves import Status
from portal.analysis.pairing import WorkloadKey, workload_key_of, workload_names, workload_title
from portal.analysis.vocabulary import cache_setting_name
from portal.models import Point, Run, System, Workload

from .at_threshold import replicate_rows_at
from .figures import (
    IO500,
    MEASURED_AS_IS,
    ConfigGroup,
    FigureReading,
    FiguresOnDemand,
    ReplicateGroup,
    compared_figures,
    replicates_of,
)
from .filters import KEY_COLUMNS


@dataclass
class Side:
    """One side's figures for one compared workload, what it is called there, the names it is known
    by, the condition that selects its runs, and the lowest and highest average response time of their
    points (None: none known)."""

    name: str
    names: set[object] = field(default_factory=set)
    runs: Q = field(default_factory=lambda: Q(pk__in=[]))
    figures: list[ReplicateGroup] = field(default_factory=list)
    avg_response_ms: tuple[float, float] | None = None
    # What measured its runs, by the run columns a kind of figure is decided from (:mod:`.kinds`): tool,
    # ``params.figure`` ('' where not stated) and workload name.
    measured_by: set[tuple[str, str, str]] = field(default_factory=set)


Sides = dict[WorkloadKey, Side]

# What measured a group's runs (tool and stated figure, ``params.figure``), read with its workloads in the same
# query as columns it is grouped by: each pair a row, hashed, where gathering the distinct pairs of each
# workload sorted every run of it (a 50 MB Iometer upload: 6,726 runs, 12 ms of the compare page's 45 ms).
_MEASURED_BY = ("tool", "stated_figure")


def sides(*systems_runs: QuerySet[Run], family: bool) -> list[Sides]:
    """The workloads of each of ``systems_runs`` by key, without their figures: a query per system grouped
    by the key columns (from the index of comparable runs), so its rows grow with the workloads and names a
    system has, not with its runs, with the response times each group's runs were measured between; and one
    for the names of all their workloads. A workload's names are read once, not with each name its runs were
    stored under: a 50 MB Iometer file stores thousands of run names under a few workloads, each of which is
    then known by all of them."""
    keys = [
        sorted(
            runs.order_by()
            .annotate(stated_figure=Coalesce(KT("params__figure"), Value(""), output_field=CharField()))
            .values_list(*KEY_COLUMNS, *_MEASURED_BY)
            .annotate(low=Min("min_avg_response_ms"), high=Max("max_avg_response_ms")),
            key=_in_key_order,
        )
        for runs in systems_runs
    ]
    workload_ids = {columns[0] for found in keys for columns in found if columns[0] is not None}
    workloads = {
        workload_id: (name, names)
        for workload_id, name, names in Workload.objects.filter(id__in=workload_ids).values_list("id", "name", "names")
    }
    return [_sides_of(found, workloads, family=family) for found in keys]


def _in_key_order(row: Sequence[Any]) -> tuple[Any, ...]:
    """A row of key columns in their order ascending, a missing value last (as PostgreSQL orders them)."""
    return tuple((value is None, value) for value in row[: len(KEY_COLUMNS)])


def _sides_of(keys: Iterable[tuple[Any, ...]], workloads: dict[int, tuple[str, list[str]]], *, family: bool) -> Sides:
    found: Sides = {}
    grouped = set()
    for *columns, tool, figure, low, high in keys:
        key = workload_key_of(*columns, family=family)
        side = found.get(key)
        if side is None:
            stored_name, names = workloads.get(columns[0], ("", []))
            side = found[key] = Side(name=workload_title(key, stored_name), names=workload_names(key, names))
        if key[0] == "workload" and not family:
            # Every run of the workload has this key: one condition, not one per name it was stored under.
            side.runs = Q(workload_id=key[1])
        elif tuple(columns) not in grouped:
            # Equal to None is IS NULL in a filter, so a run without a workload or mix is found too.
            side.runs |= Q(**dict(zip(KEY_COLUMNS, columns, strict=True)))
        grouped.add(tuple(columns))
        side.measured_by.add((tool, figure, columns[1] or ""))
        if low is not None:
            known = side.avg_response_ms or (low, high)
            side.avg_response_ms = (min(known[0], low), max(known[1], high))
    return found


@dataclass
class SideWorkloads:
    """One side's system, its workloads by key, the keys of those compared and the runs they come from."""

    system: System
    sides: Sides
    keys: list[WorkloadKey]
    runs: QuerySet[Run]


def fill(compared: Sequence[SideWorkloads], reading: FigureReading, *, best: bool) -> None:
    """Give each side of ``compared`` the figures of its workloads ``keys`` as :class:`ReplicateGroup`, both
    sides in the same queries, summed up in SQL (one query, a row per configuration group, whatever the
    number of runs): at the stored default from the runs' stored figures, at another threshold or latency
    from each measured run's curve read in the database; one by one (:func:`compared_figures`) for runs
    whose figures are not stored and, away from the default, published figures. ``best`` compares one
    figure of each group: one by one."""
    runs = Run.objects.none()
    for side in compared:
        runs |= side.runs.filter(runs_of(side.sides, side.keys))
    # At another threshold or latency, measured runs with a known metric are summed up in the database too;
    # published figures (a few, each stated at its paper's threshold) are read one by one.
    apart = Q(throughput_metric="") if reading.stored else Q(throughput_metric="") | Q(origin=Run.Origin.PUBLISHED)
    if any(IO500 in (side.system.run_tools or ()) for side in compared):
        # A measured IO500 figure states no response time: read from its one point, as a published one is.
        apart |= MEASURED_AS_IS
    summed = runs.exclude(apart)
    one_by_one = runs if best else runs.filter(apart)
    found = [replicates_of(figure, latency=reading.latency) for figure in compared_figures(one_by_one, reading)]
    if not best:
        on_demand = FiguresOnDemand(runs, reading)
        if reading.stored:
            found += stored_replicates(summed, family=reading.family)
        else:
            found += _replicates_at(summed, reading)
        for replicates in found:
            replicates.on_demand = on_demand
    for side in compared:
        for replicates in found:
            if replicates.system_id == side.system.id:
                side.sides[replicates.workload_key].figures.append(replicates)


def _replicates_at(runs: QuerySet[Run], reading: FigureReading) -> list[ReplicateGroup]:
    """The replicates of ``runs`` away from the stored default, with the range of response times each group's
    figures are read from (:func:`~portal.comparisons.at_threshold.replicate_rows_at`)."""
    rows = replicate_rows_at(runs, threshold_ms=reading.threshold_ms, latency=reading.latency)
    found = replicates_of_rows((row[:-2] for row in rows), family=reading.family)
    for replicates, (*_, low, high) in zip(found, rows, strict=True):
        replicates.ranged, replicates.measured_ms = True, None if low is None else (low, high)
    return found


def runs_of(found: Sides, keys: Iterable[WorkloadKey]) -> Q:
    """The runs of the workloads ``keys`` of ``found``: every run when every workload is compared (a
    system with a page of workloads or fewer), so the rows are not tested one by one."""
    keys = list(keys)
    if set(keys) == set(found):
        return Q()
    wanted = Q(pk__in=[])
    for key in dict.fromkeys(keys):
        wanted |= found[key].runs
    return wanted


# The run columns replicates are summed up by: the workload key, the configuration, the metric.
_REPLICATE_COLUMNS = (
    *KEY_COLUMNS,
    *("config__raid_level", "config__drive_count", "config__read_cache", "config__write_cache"),
    "throughput_metric",
    "config__system_id",
)


def stored_replicates(runs: QuerySet[Run], *, family: bool) -> list[ReplicateGroup]:
    """The stored figures of ``runs`` summed up per workload, configuration and metric in one query over the
    index of comparable runs: each group's count, mean and variance, how many of its figures have each status
    the notes name (those that did not reach the threshold; every status where no figure has a value), and
    the few published figures the notes name, in run order. Runs without a value at the threshold are a group
    of their own: only their metric counts.

    The published runs, and any with a figure printed in binary MB/s, are summed up apart (in the same query):
    the figures gathered for their notes keep them from being hashed, and thousands of measured runs are."""
    valued = ExpressionWrapper(Q(throughput_at_20ms__isnull=False), output_field=BooleanField())
    # Counted per status, not gathered run by run: a lab's workload holds thousands of unreached figures.
    noted = Q(throughput_at_20ms__isnull=True) | Q(reached_20ms=False)
    counted = {f"status_{status}": Count("id", filter=noted & Q(throughput_at_20ms_status=status)) for status in Status}
    summed = {
        "n": Count("throughput_at_20ms"),
        "mean": Avg("throughput_at_20ms"),
        "variance": Variance("throughput_at_20ms", sample=True),
    }
    columns = (*_REPLICATE_COLUMNS, "valued", *summed, "printed", "stated", *counted)
    published = Q(origin=Run.Origin.PUBLISHED, published_at_ms__isnull=False)
    with_notes = Q(origin=Run.Origin.PUBLISHED) | Q(published_mbps_binary__isnull=False)
    by_group = runs.annotate(valued=valued).order_by().values(*_REPLICATE_COLUMNS, "valued")
    figures = ArrayField(ArrayField(FloatField()))
    measured = by_group.exclude(with_notes).annotate(
        **summed, printed=Value(None, figures), stated=Value(None, figures), **counted
    )
    noted_runs = by_group.filter(with_notes).annotate(
        **summed,
        printed=ArrayAgg(_with_id("published_mbps_binary"), filter=Q(published_mbps_binary__isnull=False)),
        stated=ArrayAgg(_with_id("published_at_ms"), filter=published),
        **counted,
    )
    groups = measured.values_list(*columns).union(noted_runs.values_list(*columns), all=True)
    width = len(columns) - len(counted)
    rows = []
    for row in groups:
        counts = {status: n for status, n in zip(Status, row[width:], strict=True) if n}
        statuses = [str(status) for status in sorted(counts)]
        # Where figures have values, the statuses counted are those of figures that did not reach the threshold.
        not_reached = [status for status in statuses for _ in range(counts[Status(status)])]
        rows.append((*row[:width], not_reached, statuses))
    return replicates_of_rows(rows, family=family)


def replicates_of_rows(groups: Iterable[Sequence[Any]], *, family: bool) -> list[ReplicateGroup]:
    """Replicates from rows of figures summed up in the database (:func:`stored_replicates`,
    :func:`~portal.comparisons.at_threshold.replicate_rows_at`)."""
    cache_settings: dict[tuple[bool | None, bool | None], str] = {}
    found = []
    for *row, statuses in groups:
        *key, raid_level, drive_count, read_cache, write_cache, metric, system_id, valued, n, mean, variance = row[:-3]
        flags = (read_cache, write_cache)
        if flags not in cache_settings:
            cache_settings[flags] = cache_setting_name(read_cache=read_cache, write_cache=write_cache)
        printed, stated, not_reached = (figures or [] for figures in row[-3:]) if valued else ([], [], [])
        found.append(
            ReplicateGroup(
                system_id=system_id,
                workload_key=workload_key_of(*key, family=family),
                group=ConfigGroup(raid_level, drive_count, cache_settings[flags]),
                metric=metric,
                summary=replicates_summed(n=n, mean=mean, variance=variance) if valued else None,
                printed_mbps=[figure for _, figure in sorted(printed)],
                stated_ms=[figure for _, figure in sorted(stated)],
                not_reached=not_reached,
                no_value=[] if valued else [Status(status).words for status in statuses or () if status],
            )
        )
    return found


def _with_id(column: str) -> Func:
    """A run's figure with its id in front, to put the figures an aggregate gathers in run order."""
    return Func(
        F("id"),
        F(column),
        function="ARRAY",
        template="%(function)s[%(expressions)s]",
        output_field=ArrayField(FloatField()),
    )


def measured_ms(
    runs: QuerySet[Run], found: Sides, keys: list[WorkloadKey], *, family: bool, latency: str
) -> dict[WorkloadKey, tuple[float, float]]:
    """The lowest and highest response time at ``latency`` of the points of each workload ``keys`` of
    ``found``, by key (a workload without response times is left out)."""
    if latency == "avg":
        # Read with the workloads (:func:`sides`), from each run's lowest and highest: no query.
        return {key: ranged for key in keys if (ranged := found[key].avg_response_ms) is not None}
    wanted = Q(pk__in=[])
    for key in keys:
        wanted |= found[key].runs
    if latency == "max":
        response: F | Cast = F(f"{latency}_response_ms")
    else:
        # A key path, not KT: KT reads a key of digits ("99") as an array index.
        percentile = Func(
            F("latency_percentiles_ms"), Value(latency.removeprefix("p")), function="jsonb_extract_path_text"
        )
        response = Cast(percentile, FloatField())
    rows = (
        Point.objects.filter(run__in=runs.filter(wanted))
        .order_by()
        .values_list(*(f"run__{column}" for column in KEY_COLUMNS))
        .annotate(low=Min(response), high=Max(response))
    )
    return _ranges(rows, keys, family=family)


def figures_measured_ms(found: Sides, keys: list[WorkloadKey]) -> dict[WorkloadKey, tuple[float, float]] | None:
    """As :func:`measured_ms`, from the ranges read with the figures of each workload ``keys`` of ``found``
    (None when some figures were read without theirs: published ones, or at the stored default)."""
    ranges: dict[WorkloadKey, tuple[float, float]] = {}
    for key in keys:
        if not all(replicates.ranged for replicates in found[key].figures):
            return None
        known = [replicates.measured_ms for replicates in found[key].figures if replicates.measured_ms is not None]
        if known:
            ranges[key] = (min(low for low, _ in known), max(high for _, high in known))
    return ranges


def _ranges(
    rows: Iterable[Sequence[Any]], keys: list[WorkloadKey], *, family: bool
) -> dict[WorkloadKey, tuple[float, float]]:
    """The lowest and highest response time of each workload ``keys`` from rows of key columns, low, high."""
    ranges: dict[WorkloadKey, tuple[float, float]] = {}
    for *columns, low, high in rows:
        key = workload_key_of(*columns, family=family)
        if low is None or key not in keys:
            continue
        known = ranges.get(key, (low, high))
        ranges[key] = (min(known[0], low), max(known[1], high))
    return ranges
