"""Selectors of comparisons: system A against system B per workload at a threshold, and several
systems against one baseline (one set of numbers for pages, exports, the API and commands)."""

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.postgres.aggregates import ArrayAgg
from django.contrib.postgres.fields import ArrayField
from django.core.paginator import Page, Paginator
from django.db.models import (
    Avg,
    BooleanField,
    Case,
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
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from portal import formatting
from portal.analysis.compare import (
    Replicates,
    compare_summaries,
    improvement_pct,
    improvement_range,
    replicates_summed,
    replicates_together,
    summary_sentence,
)
from portal.analysis.curves import Status
from portal.analysis.pairing import (
    MATCHED_BY,
    WorkloadKey,
    ambiguities,
    config_key_label,
    config_key_order,
    match_workloads,
    pair_configs,
    pair_label,
    workload_key_of,
    workload_names,
    workload_title,
)
from portal.analysis.thresholds import thresholds_within
from portal.analysis.vocabulary import cache_setting_name
from portal.models import Point, Run, System, Workload
from portal.results.figures import STORED_FIGURE_COLUMNS
from portal.results.selectors import (
    FIGURE_ORDER,
    named,
    points_by_run,
    points_threshold,
    published_mbps_binary,
    raid_level_asked,
    run_rule,
    runs_filtered,
    runs_with_curve_points,
    stated_response_ms,
)

from .at_threshold import replicate_rows_at
from .filters import (
    KEY_COLUMNS,
    SideChoices,
    SideFilters,
    check_both_sides,
    check_firmware,
    check_side,
    runs_of_side,
    side_choices,
    what_filters_left_out,
)


@dataclass
class ComparisonRow:
    raid_level: str
    drive_count_a: int | None
    drive_count_b: int | None
    cache_a: str
    cache_b: str
    a_value: float
    b_value: float
    # None when B's figure is 0 (there is nothing to improve on; the row's notes say so).
    pct: float | None
    confidence: object = None
    notes: list = field(default_factory=list)
    # Each side's figures (:class:`ComparedFigure`), read when first asked for: charts and exports
    # draw and list them, the tables need only the values.
    a_figures: "_Replicates | None" = field(default=None, repr=False)
    b_figures: "_Replicates | None" = field(default=None, repr=False)
    # B's RAID level when it differs from A's (configurations chosen by hand), else None.
    raid_level_b: str | None = None

    @property
    def a_label(self) -> str:
        return config_key_label((self.raid_level, self.drive_count_a, self.cache_a))

    @property
    def b_label(self) -> str:
        raid_level = self.raid_level if self.raid_level_b is None else self.raid_level_b
        return config_key_label((raid_level, self.drive_count_b, self.cache_b))

    @property
    def a(self) -> list:
        return self.a_figures.figures() if self.a_figures else []

    @property
    def b(self) -> list:
        return self.b_figures.figures() if self.b_figures else []

    @property
    def label(self):
        if self.raid_level_b is not None:
            return f"{self.a_label} vs {self.b_label}"
        if self.drive_count_a == self.drive_count_b:
            drives = f"{self.drive_count_a} drives" if self.drive_count_a else ""
        else:
            drives = f"{self.drive_count_a or 'unstated'} vs {self.drive_count_b or 'unstated'} drives"
        cache = self.cache_a or self.cache_b
        return ", ".join(part for part in (self.raid_level or "RAID level not stated", drives, cache) if part)


@dataclass
class WorkloadComparison:
    workload: str
    metric: str
    rows: list
    only_a: list
    only_b: list
    summaries: list
    ambiguous: list = field(default_factory=list)
    # How the two sides' runs were found to be the same workload, in words.
    matched_by: str = ""
    # Cache settings that would pair configurations one side states no cache setting for.
    cache_choices: list = field(default_factory=list)
    # Why no configuration is compared (sentences), when ``rows`` is empty.
    empty: list = field(default_factory=list)
    # When a side's curve does not cross the threshold: the response times (ms) both sides' curves are
    # measured between, None when they share none, and thresholds within them to compare at instead.
    no_crossing: bool = False
    measured_ms: tuple[float, float] | None = None
    thresholds: list = field(default_factory=list)


@dataclass
class Comparison:
    a: System
    b: System
    threshold_ms: float
    adjust_b: float
    workloads: list
    only_a_workloads: list
    only_b_workloads: list
    latency: str = "avg"
    # The compared workloads' page among all both systems have (None: every one, as pairs compare).
    page: Page | None = None
    # What each side's filters left out, in sentences, and the values each side offers to filter by.
    left_out: list = field(default_factory=list)
    a_choices: "SideChoices | None" = None
    b_choices: "SideChoices | None" = None
    # The firmware version each side's runs were measured under, when one was chosen.
    a_firmware: str = ""
    b_firmware: str = ""


@dataclass
class _Replicates:
    """Figures of one side of a compared workload with one configuration group (RAID level, drive count,
    cache setting) and metric: the count, mean and variance of their values and what the row's notes say
    of them, from the figures themselves or summed up in SQL from the runs' stored figures
    (:func:`_stored_replicates`), whatever the number of runs."""

    system_id: int
    workload_key: WorkloadKey
    group: tuple
    metric: str
    # None: no figure has a value (only the metric counts).
    summary: Replicates | None
    # A one-point published run's MB/s as its paper printed it in binary units, for each that has one.
    printed_mbps: list
    # The response times the published figures were stated at.
    stated_ms: list
    # The status of each figure that did not reach the threshold.
    not_reached: list
    # The figures (None: read on demand, by ``on_demand``).
    found: list | None = None
    on_demand: "_FiguresOnDemand | None" = field(default=None, repr=False)
    # Why figures have no value at the threshold, in words (one per reason).
    no_value: list = field(default_factory=list)

    @property
    def valued(self) -> Replicates:
        """The summary of replicates with values (those :func:`_groups` keeps)."""
        assert self.summary is not None
        return self.summary

    def figures(self) -> list:
        if self.found is None:
            assert self.on_demand is not None
            self.found = self.on_demand.figures(self.system_id, self.workload_key, self.group, self.metric)
        return self.found


def _no_value_words(figure: "ComparedFigure", latency: str) -> str:
    """Why ``figure`` has no value at the threshold, as the page says it."""
    if figure.origin == Run.Origin.PUBLISHED and latency != "avg":
        missing = "no maximum" if latency == "max" else "no percentiles"
        return f"published figures are stated at an average response time; {missing}"
    return Status(figure.status).words


def _replicates_of(figure: "ComparedFigure", *, latency: str) -> _Replicates:
    """One figure as replicates of its own (with no value: only its metric counts)."""
    valued = figure.value is not None
    published = figure.origin == Run.Origin.PUBLISHED and figure.published_at_ms is not None
    return _Replicates(
        system_id=figure.system_id,
        workload_key=figure.workload_key,
        group=figure.group,
        metric=figure.metric,
        summary=None if figure.value is None else replicates_summed(n=1, mean=figure.value, variance=None),
        printed_mbps=[figure.published_mbps_binary] if valued and figure.published_mbps_binary is not None else [],
        stated_ms=[figure.published_at_ms] if valued and published else [],
        not_reached=[figure.status] if valued and not figure.reached else [],
        found=[figure],
        no_value=[] if valued else [_no_value_words(figure, latency)],
    )


def _groups(found: list[_Replicates], metric, *, best=False) -> dict:
    """Replicates with a value, by configuration group, those of one group together; or only the best
    figure of each configuration (``best``: a family of workloads at its best; figures one by one)."""
    groups = defaultdict(list)
    for replicates in found:
        if replicates.metric == metric and replicates.summary is not None:
            groups[replicates.group].append(replicates)
    if best:
        return {key: max(parts, key=lambda part: part.valued.mean) for key, parts in groups.items()}
    return {key: _together(parts) for key, parts in groups.items()}


def _together(parts: list[_Replicates]) -> _Replicates:
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    found = [part.found for part in parts]
    return _Replicates(
        system_id=first.system_id,
        workload_key=first.workload_key,
        group=first.group,
        metric=first.metric,
        summary=replicates_together([part.valued for part in parts]),
        printed_mbps=[value for part in parts for value in part.printed_mbps],
        stated_ms=[value for part in parts for value in part.stated_ms],
        not_reached=[status for part in parts for status in part.not_reached],
        found=None if None in found else [figure for figures in found if figures for figure in figures],
        on_demand=next((part.on_demand for part in parts if part.on_demand), None),
        no_value=list(dict.fromkeys(words for part in parts for words in part.no_value)),
    )


def _row(a, b, a_key, b_key, a_found: _Replicates, b_found: _Replicates, adjust_b, threshold_ms):
    a_summary, b_summary = a_found.valued, b_found.valued
    row = ComparisonRow(
        raid_level=a_key[0],
        drive_count_a=a_key[1],
        drive_count_b=b_key[1],
        cache_a=a_key[2],
        cache_b=b_key[2],
        a_value=a_summary.mean,
        b_value=b_summary.mean,
        pct=0.0,
        a_figures=a_found,
        b_figures=b_found,
        raid_level_b=None if b_key[0] == a_key[0] else b_key[0],
    )
    if row.b_value * adjust_b > 0:
        row.pct = improvement_pct(row.a_value, row.b_value, adjust_b=adjust_b)
    else:
        # Nothing to improve on: B did no I/O at the threshold (a failed run, a step that writes nothing).
        row.pct = None
        row.notes.append(f"no improvement: {b.name}'s figure is 0")
    if a_summary.n > 1 and b_summary.n > 1:
        row.confidence = compare_summaries(a_summary, b_summary, adjust_b=adjust_b)
    if a_key[1] != b_key[1]:
        row.notes.append(f"different drive counts: {a_key[1]} vs {b_key[1]}")
    sides = ((a.name, a_found), (b.name, b_found))
    # A published MB/s figure as the paper printed it, when that was binary.
    if a_found.metric == "mbps":
        row.notes += [
            f"{name} published {mbps:g} MBps (2^20 bytes/s)" for name, found in sides for mbps in found.printed_mbps
        ]
    # A published figure shown at another threshold than the one it was published at.
    row.notes += [
        f"{name}: published at {stated:g} ms, shown as published"
        for name, found in sides
        for stated in found.stated_ms
        if stated != threshold_ms
    ]
    row.notes += [note for name, found in sides for note in _not_reached_notes(name, found.not_reached)]
    return row


def _not_reached_notes(name: str, statuses: list) -> list[str]:
    """One note per way figures were read without reaching the threshold, with how many when several (a
    lab's upload holds thousands of replicates of a workload)."""
    return [
        f"{name}{'' if n == 1 else ', ' + formatting.count(n, 'figure')}: {Status(status).words}"
        for status, n in Counter(statuses).items()
    ]


@dataclass
class _Side:
    """One side's figures for one compared workload, what it is called there, the names it is known
    by, and the condition that selects its runs."""

    name: str
    names: set = field(default_factory=set)
    runs: Q = field(default_factory=lambda: Q(pk__in=[]))
    figures: list = field(default_factory=list)


def _workload_comparison(
    a, b, label, a_figures, b_figures, adjust_b, threshold_ms, *, matched_by, best=False, chosen=False
):
    """One compared workload from each side's :class:`_Replicates` (one per figure, or summed up);
    ``chosen``: one configuration of each side was chosen, and they are compared whatever they are."""
    metric = "iops" if all(found.metric == "iops" for found in a_figures + b_figures) else "mbps"
    a_groups, b_groups = _groups(a_figures, metric, best=best), _groups(b_figures, metric, best=best)
    pairs, only_a, only_b = pair_configs(sorted(a_groups, key=config_key_order), sorted(b_groups, key=config_key_order))
    if chosen and not pairs and len(a_groups) == len(b_groups) == 1:
        pairs, only_a, only_b = [(next(iter(a_groups)), next(iter(b_groups)))], [], []
    rows = [_row(a, b, ak, bk, a_groups[ak], b_groups[bk], adjust_b, threshold_ms) for ak, bk in pairs]
    rows.sort(key=lambda r: (r.raid_level, r.drive_count_a or 0, r.cache_a))
    summaries = []
    for raid in sorted({r.raid_level for r in rows}):
        # A row with no improvement (B's figure is 0) has nothing to say in the range.
        matched = {r.label: r.a_value for r in rows if r.raid_level == raid and r.pct is not None}
        against = {r.label: r.b_value for r in rows if r.raid_level == raid and r.pct is not None}
        improvements = improvement_range(matched, against, adjust_b=adjust_b)
        subject = f"{raid + ' ' if raid else ''}{label}"
        sentence = summary_sentence(a.name, b.name, subject, improvements)
        bounded = [
            name
            for name, side in ((a.name, "a_figures"), (b.name, "b_figures"))
            if any(getattr(r, side) is not None and getattr(r, side).not_reached for r in rows if r.raid_level == raid)
        ]
        if bounded and improvements.low_pct is not None:
            # A lower bound says how much at least: a difference between bounds is no finding at the threshold.
            whose = " and ".join(bounded)
            sentence += (
                f"; not a finding at {formatting.threshold(threshold_ms)}: {whose} did not reach it, so "
                f"{'their figures are' if len(bounded) > 1 else 'its figure is a'} lower bound"
                f"{'s' if len(bounded) > 1 else ''}"
            )
        summaries.append(sentence)
    sentences, choices = ambiguities(only_a, only_b)
    empty = [] if rows else _why_empty(a, b, a_figures, b_figures, metric)
    return WorkloadComparison(
        label, metric, rows, only_a, only_b, summaries, sentences, matched_by, choices, empty=empty
    )


def _why_empty(a, b, a_figures, b_figures, metric) -> list[str]:
    """Why a workload both sides have compares no configuration, in sentences."""
    why = []
    for letter, system, figures in (("A", a, a_figures), ("B", b, b_figures)):
        if not any(found.metric == metric and found.summary is not None for found in figures):
            reasons = dict.fromkeys(words for found in figures for words in found.no_value)
            why.append(f"No figure of {letter} ({system.name}) at the threshold: {'; '.join(reasons) or 'no value'}.")
    if not why:
        why.append(
            f"No configuration of A ({a.name}) pairs with one of B ({b.name}): "
            "choose a configuration of each side above to compare them."
        )
    return why


def _sides(*systems_runs, family) -> list[dict]:
    """The workloads of each of ``systems_runs`` by key, without their figures: a query per system over
    the distinct key columns, so its rows grow with the workloads and names a system has, not with its
    runs, and one for the names of all their workloads. A workload's names are read once, not with each
    name its runs were stored under: a 50 MB Iometer file stores thousands of run names under a few
    workloads, each of which is then known by all of them."""
    keys = [list(runs.order_by().values_list(*KEY_COLUMNS).distinct()) for runs in systems_runs]
    workload_ids = {columns[0] for found in keys for columns in found if columns[0] is not None}
    workloads = {
        workload_id: (name, names)
        for workload_id, name, names in Workload.objects.filter(id__in=workload_ids).values_list("id", "name", "names")
    }
    return [_sides_of(found, workloads, family=family) for found in keys]


def _sides_of(keys, workloads, *, family) -> dict:
    sides: dict = {}
    for columns in keys:
        key = workload_key_of(*columns, family=family)
        side = sides.get(key)
        if side is None:
            stored_name, names = workloads.get(columns[0], ("", ()))
            side = sides[key] = _Side(name=workload_title(key, stored_name), names=workload_names(key, names))
        if key[0] == "workload" and not family:
            # Every run of the workload has this key: one condition, not one per name it was stored under.
            side.runs = Q(workload_id=key[1])
        else:
            # Equal to None is IS NULL in a filter, so a run without a workload or mix is found too.
            side.runs |= Q(**dict(zip(KEY_COLUMNS, columns, strict=True)))
    return sides


class _RunsOnDemand:
    """The runs of a comparison's figures as model instances (configuration, system, workload and the point
    columns a curve reads at the comparison's latency), those known so far read together the first time
    one is asked for: charts draw curves and exports list runs, the tables need none."""

    def __init__(self, *, latency: str):
        self.latency = latency
        self.ids: list[int] = []
        self._runs: dict[int, Run] = {}

    def run(self, run_id: int) -> Run:
        if run_id not in self._runs:
            wanted = Run.objects.filter(id__in=[known for known in self.ids if known not in self._runs])
            runs = runs_with_curve_points(runs=wanted, latency=self.latency).select_related("workload")
            self._runs |= {run.id: run for run in runs}
        return self._runs[run_id]


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
    # (RAID level, drive count, cache setting): replicates share it.
    group: tuple
    system_id: int
    system_name: str
    origin: str
    published_at_ms: float | None
    published_mbps_binary: float | None
    workload_key: WorkloadKey
    # The names the run's workload is known by (read for workloads paired by hand).
    names: frozenset
    runs: _RunsOnDemand = field(repr=False)

    @property
    def run(self) -> Run:
        return self.runs.run(self.run_id)

    @property
    def config(self):
        return self.run.config

    @property
    def cache_setting(self) -> str:
        return self.group[2]

    @property
    def status_text(self) -> str:
        return Status(self.status).words


# The run columns a compared figure is made of: its workload key, configuration, system, what a published
# figure is stated at, and the stored figures.
_FIGURE_COLUMNS = (
    "id",
    *KEY_COLUMNS,
    *("config__raid_level", "config__drive_count", "config__read_cache", "config__write_cache"),
    *("config__system_id", "config__system__name", "origin", "published_at_ms"),
    *STORED_FIGURE_COLUMNS,
)


def _compared_figures(runs, *, threshold_ms, latency, family, runs_on_demand, names=False) -> list[ComparedFigure]:
    """The figures of ``runs`` in :data:`FIGURE_ORDER`, in two queries whatever their number: their run
    columns and, for those whose figures are not stored (or away from the stored default), the point
    columns the threshold reads (:func:`~portal.results.selectors.points_by_run`). ``names``: read the
    names of their workloads too."""
    stored = _stored_default(threshold_ms, latency)
    rule = KT("params__threshold_rule")
    # A run's rule is read only where its figure is read from its points.
    runs = runs.annotate(rule=Case(When(throughput_metric="", then=rule)) if stored else rule)
    columns = (*_FIGURE_COLUMNS, "rule", *(("workload__names",) if names else ()))
    rows = list(runs.order_by(*FIGURE_ORDER).values_list(*columns, named=True))
    points = points_by_run([row.id for row in rows if not (stored and row.throughput_metric)], latency=latency)
    runs_on_demand.ids.extend(row.id for row in rows)
    read = {"threshold_ms": threshold_ms, "latency": latency, "family": family, "runs_on_demand": runs_on_demand}
    cache_settings: dict = {}
    return [_compared_figure(row, points.get(row.id), cache_settings=cache_settings, **read) for row in rows]


def _compared_figure(row, points, *, threshold_ms, latency, family, runs_on_demand, cache_settings) -> ComparedFigure:
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
        metric, answer = points_threshold(
            points=read,
            threshold_ms=threshold_ms,
            rule=run_rule(params={"threshold_rule": row.rule}),
            stated_ms=stated_response_ms(origin=row.origin, published_at_ms=row.published_at_ms, latency=latency),
            latency=latency,
            published=row.origin == Run.Origin.PUBLISHED,
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
        group=(row.config__raid_level, row.config__drive_count, cache_settings[flags]),
        system_id=row.config__system_id,
        system_name=row.config__system__name,
        origin=row.origin,
        published_at_ms=row.published_at_ms,
        published_mbps_binary=printed,
        workload_key=workload_key_of(row.workload_id, row.workload_name, row.read_pct, row.random_pct, family=family),
        names=frozenset((row.workload_name, *(getattr(row, "workload__names", None) or ()))),
        runs=runs_on_demand,
    )


class _FiguresOnDemand:
    """Both sides' figures of the compared workloads (:func:`_compared_figures`), read the first time a
    row's figures are asked for."""

    def __init__(self, runs: QuerySet[Run], read: dict) -> None:
        self.runs = runs
        self.read = read
        self._figures: list[ComparedFigure] | None = None

    def figures(self, system_id, workload_key, group, metric) -> list:
        if self._figures is None:
            self._figures = _compared_figures(self.runs, **self.read)
        wanted = (system_id, workload_key, group, metric)
        return [
            figure
            for figure in self._figures
            if (figure.system_id, figure.workload_key, figure.group, figure.metric) == wanted
            and figure.value is not None
        ]


def _fill(compared, *, best, **read):
    """Give each side of ``compared`` (``[(system, sides, keys, runs), ...]``) the figures of its workloads
    ``keys`` as :class:`_Replicates`, both sides in the same queries, summed up in SQL (one query, a row per
    configuration group, whatever the number of runs): at the stored default from the runs' stored figures,
    at another threshold or latency from each measured run's curve read in the database; one by one
    (:func:`_compared_figures`) for runs whose figures are not stored and, away from the default, published
    figures. ``best`` compares one figure of each group: one by one."""
    runs = Run.objects.none()
    for _system, sides, keys, side_runs in compared:
        runs |= side_runs.filter(_runs_of(sides, keys))
    stored = _stored_default(read["threshold_ms"], read["latency"])
    # At another threshold or latency, measured runs with a known metric are summed up in the database too;
    # published figures (a few, each stated at its paper's threshold) are read one by one.
    apart = Q(throughput_metric="") if stored else Q(throughput_metric="") | Q(origin=Run.Origin.PUBLISHED)
    summed = runs.exclude(apart)
    one_by_one = runs if best else runs.filter(apart)
    found = [_replicates_of(figure, latency=read["latency"]) for figure in _compared_figures(one_by_one, **read)]
    if not best:
        on_demand = _FiguresOnDemand(runs, read)
        if stored:
            found += _stored_replicates(summed, family=read["family"])
        else:
            rows = replicate_rows_at(summed, threshold_ms=read["threshold_ms"], latency=read["latency"])
            found += _replicates_of_rows(rows, family=read["family"])
        for replicates in found:
            replicates.on_demand = on_demand
    for system, sides, _keys, _runs in compared:
        for replicates in found:
            if replicates.system_id == system.id:
                sides[replicates.workload_key].figures.append(replicates)


def _runs_of(sides, keys) -> Q:
    """The runs of the workloads ``keys`` of ``sides``: every run when every workload is compared (a
    system with a page of workloads or fewer), so the rows are not tested one by one."""
    if set(keys) == set(sides):
        return Q()
    wanted = Q(pk__in=[])
    for key in dict.fromkeys(keys):
        wanted |= sides[key].runs
    return wanted


def _stored_default(threshold_ms: float, latency: str) -> bool:
    """Whether figures at this threshold and latency are those stored on the runs."""
    return threshold_ms == Run.STORED_FIGURES_AT_MS and latency == Run.STORED_FIGURES_LATENCY


# The run columns replicates are summed up by: the workload key, the configuration, the metric.
_REPLICATE_COLUMNS = (
    *KEY_COLUMNS,
    *("config__raid_level", "config__drive_count", "config__read_cache", "config__write_cache"),
    "throughput_metric",
    "config__system_id",
)


def _stored_replicates(runs, *, family) -> list[_Replicates]:
    """The stored figures of ``runs`` summed up per workload, configuration and metric in one query (hashed,
    not sorted): each group's count, mean and variance, and the few published or unreached figures the
    notes name, in run order. Runs without a value at the threshold are a group of their own: only their
    metric counts."""
    value = Case(When(throughput_metric="iops", then=F("iops_at_20ms")), default=F("mbps_at_20ms"))
    status = Case(When(throughput_metric="iops", then=F("iops_at_20ms_status")), default=F("mbps_at_20ms_status"))
    valued = ExpressionWrapper(Q(value__isnull=False), output_field=BooleanField())
    published = Q(origin=Run.Origin.PUBLISHED, published_at_ms__isnull=False)
    groups = (
        runs.annotate(value=value, status=status, valued=valued)
        .order_by()
        .values(*_REPLICATE_COLUMNS, "valued")
        .annotate(
            n=Count("value"),
            mean=Avg("value"),
            variance=Variance("value", sample=True),
            printed=ArrayAgg(_with_id("published_mbps_binary"), filter=Q(published_mbps_binary__isnull=False)),
            stated=ArrayAgg(_with_id("published_at_ms"), filter=published),
            not_reached=ArrayAgg("status", filter=Q(reached_20ms=False)),
            statuses=ArrayAgg("status", distinct=True),
        )
        .values_list(
            *_REPLICATE_COLUMNS, "valued", "n", "mean", "variance", "printed", "stated", "not_reached", "statuses"
        )
    )
    return _replicates_of_rows(groups, family=family)


def _replicates_of_rows(groups, *, family) -> list[_Replicates]:
    """Replicates from rows of figures summed up in the database (:func:`_stored_replicates`,
    :func:`~portal.comparisons.at_threshold.replicate_rows_at`)."""
    cache_settings: dict = {}
    found = []
    for *row, statuses in groups:
        *key, raid_level, drive_count, read_cache, write_cache, metric, system_id, valued, n, mean, variance = row[:-3]
        flags = (read_cache, write_cache)
        if flags not in cache_settings:
            cache_settings[flags] = cache_setting_name(read_cache=read_cache, write_cache=write_cache)
        printed, stated, not_reached = (figures or [] for figures in row[-3:]) if valued else ([], [], [])
        found.append(
            _Replicates(
                system_id=system_id,
                workload_key=workload_key_of(*key, family=family),
                group=(raid_level, drive_count, cache_settings[flags]),
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


def comparison(
    *,
    a: System,
    b: System,
    threshold_ms: float = 20.0,
    adjust_b: float = 1.0,
    raid_level: str | None = None,
    drive_count: int | None = None,
    cache: str | None = None,
    a_raid_level: str | None = None,
    b_raid_level: str | None = None,
    a_drive_count: int | None = None,
    b_drive_count: int | None = None,
    a_cache: str | None = None,
    b_cache: str | None = None,
    a_config: int | None = None,
    b_config: int | None = None,
    a_firmware: str | None = None,
    b_firmware: str | None = None,
    workload: str | None = None,
    pairs: Sequence[tuple[str, str]] = (),
    best_of_sizes: bool = False,
    latency: str = "avg",
    label: str | None = None,
    workloads_per_page: int | None = None,
    workload_page: int | str = 1,
    offer_choices: bool = False,
    viewer=None,
) -> Comparison:
    """System A against system B for every workload both have, at the threshold.

    Runs are the same workload when they do the same thing (:func:`~portal.analysis.pairing.workload_key_of`),
    whatever they were called; ``best_of_sizes`` compares the best figure over transfer sizes of each
    family; ``pairs`` (``[(A's workload name, B's workload name), ...]``) compares named workloads by hand.
    Workloads only one side has are listed, not dropped; so are unmatched configurations.

    ``raid_level``, ``drive_count`` and ``cache`` narrow both sides; ``a_raid_level``, ``a_config`` (a
    configuration's id) and the others narrow one side (in place of the filter of both sides). A value
    a side has no comparable run with raises :class:`ApplicationError`; what the filters leave out is
    said in ``left_out``.

    ``offer_choices`` reads each side's values (``a_choices``, ``b_choices``) even when nothing is filtered.

    The workloads both sides have are found first from their key columns, and points are read only
    for the runs of those compared: ``label`` keeps one workload, ``workloads_per_page`` compares
    page ``workload_page`` of them in label order (the rest stay counted in ``page``). With ``viewer``,
    ``workload`` also names a workload by the name one of their teams gave it.
    """
    shared = SideFilters(raid_level_asked(raid_level=raid_level), drive_count, cache)
    a_filters, b_filters = (
        SideFilters(
            raid_level_asked(raid_level=side_raid_level) or shared.raid_level,
            side_drive_count or shared.drive_count,
            side_cache or shared.cache,
            side_config,
            side_firmware,
        )
        for side_raid_level, side_drive_count, side_cache, side_config, side_firmware in (
            (a_raid_level, a_drive_count, a_cache, a_config, a_firmware),
            (b_raid_level, b_drive_count, b_cache, b_config, b_firmware),
        )
    )
    check_firmware(a_firmware, letter="A", system=a)
    check_firmware(b_firmware, letter="B", system=b)
    a_choices = b_choices = None
    if offer_choices or a_filters != SideFilters() or b_filters != SideFilters():
        a_choices, b_choices = side_choices(system=a), side_choices(system=b)
        check_both_sides(shared, a_choices, b_choices, a, b)
        check_side(SideFilters(raid_level_asked(raid_level=a_raid_level), a_drive_count, a_cache, a_config),
                 a_choices, letter="A", system=a)  # fmt: skip
        check_side(SideFilters(raid_level_asked(raid_level=b_raid_level), b_drive_count, b_cache, b_config),
                 b_choices, letter="B", system=b)  # fmt: skip
    workloads = (workload,) if workload else ()
    a_all, b_all = (
        runs_filtered(system=system, workloads=workloads, comparable=True, viewer=viewer) for system in (a, b)
    )
    a_runs, b_runs = (
        runs_of_side(system=system, workloads=workloads, filters=filters, viewer=viewer)
        for system, filters in ((a, a_filters), (b, b_filters))
    )
    left_out = [
        *what_filters_left_out(runs=a_all, filters=a_filters, side=f"A ({a.name})", family=best_of_sizes),
        *what_filters_left_out(runs=b_all, filters=b_filters, side=f"B ({b.name})", family=best_of_sizes),
    ]
    chosen = a_config is not None and b_config is not None
    figures = {"threshold_ms": threshold_ms, "latency": latency, "runs_on_demand": _RunsOnDemand(latency=latency)}
    if pairs:
        paired = {**figures, "family": False, "names": True}
        a_figures = _compared_figures(a_runs.filter(_named_any(a_name for a_name, _ in pairs)), **paired)
        b_figures = _compared_figures(b_runs.filter(_named_any(b_name for _, b_name in pairs)), **paired)
        paired_result = _paired_comparison(a, b, pairs, a_figures, b_figures, adjust_b, threshold_ms, latency)
        paired_result.left_out, paired_result.a_choices, paired_result.b_choices = left_out, a_choices, b_choices
        paired_result.a_firmware, paired_result.b_firmware = a_firmware or "", b_firmware or ""
        return paired_result
    a_sides, b_sides = _sides(a_runs, b_runs, family=best_of_sizes)
    matched = sorted(
        match_workloads(
            {key: side.names for key, side in a_sides.items()}, {key: side.names for key, side in b_sides.items()}
        ),
        key=lambda keys: _label(a_sides[keys[0]], b_sides[keys[1]]),
    )
    shown = [keys for keys in matched if label is None or _label(a_sides[keys[0]], b_sides[keys[1]]) == label]
    page = Paginator(shown, workloads_per_page or max(len(shown), 1)).get_page(workload_page)
    compared = [(a, a_sides, [ak for ak, _ in page], a_runs), (b, b_sides, [bk for _, bk in page], b_runs)]
    # Figures are told apart by system: two firmware versions of one system are read side by side.
    for filled in [compared[:1], compared[1:]] if a.id == b.id else [compared]:
        _fill(filled, family=best_of_sizes, best=best_of_sizes, **figures)
    compared = [
        _workload_comparison(
            a, b, _label(a_sides[ak], b_sides[bk]), a_sides[ak].figures, b_sides[bk].figures, adjust_b, threshold_ms,
            matched_by=MATCHED_BY["name" if "name" in (ak[0], bk[0]) else ak[0]], best=best_of_sizes,
            chosen=chosen,
        )
        for ak, bk in page
    ]  # fmt: skip
    _offer_thresholds(
        [(workload, ak, bk) for workload, (ak, bk) in zip(compared, page, strict=True)],
        sides=(a_sides, b_sides), runs=(a_runs, b_runs), family=best_of_sizes, latency=latency,
        threshold_ms=threshold_ms,
    )  # fmt: skip
    a_done, b_done = {ak for ak, _ in matched}, {bk for _, bk in matched}
    return Comparison(
        a=a,
        b=b,
        threshold_ms=threshold_ms,
        adjust_b=adjust_b,
        workloads=compared,
        only_a_workloads=sorted(side.name for key, side in a_sides.items() if key not in a_done),
        only_b_workloads=sorted(side.name for key, side in b_sides.items() if key not in b_done),
        latency=latency,
        page=page,
        left_out=left_out,
        a_choices=a_choices,
        b_choices=b_choices,
        a_firmware=a_firmware or "",
        b_firmware=b_firmware or "",
    )


def _crosses(workload: WorkloadComparison) -> bool:
    """Whether every compared figure of ``workload`` was read where its curve crosses the threshold."""
    sides = [found for row in workload.rows for found in (row.a_figures, row.b_figures) if found is not None]
    over = Status.FIRST_POINT_OVER.words
    if any(found.not_reached for found in sides):
        return False
    return not any(over in sentence for sentence in workload.empty)


def _offer_thresholds(compared: list, *, sides: tuple, runs: tuple, family: bool, latency: str, threshold_ms: float):
    """For each compared workload (``[(workload, A's key, B's key), ...]``) whose curves do not cross the
    threshold, the response times both sides' curves are measured between and thresholds within them: one
    query per side, whatever the number of workloads and runs."""
    missing = [(workload, a_key, b_key) for workload, a_key, b_key in compared if not _crosses(workload)]
    if not missing:
        return
    a_ranges = _measured_ms(runs[0], sides[0], [a_key for _, a_key, _ in missing], family=family, latency=latency)
    b_ranges = _measured_ms(runs[1], sides[1], [b_key for _, _, b_key in missing], family=family, latency=latency)
    for workload, a_key, b_key in missing:
        workload.no_crossing = True
        if a_key not in a_ranges or b_key not in b_ranges:
            continue
        low, high = max(a_ranges[a_key][0], b_ranges[b_key][0]), min(a_ranges[a_key][1], b_ranges[b_key][1])
        if low <= high:
            workload.measured_ms = (low, high)
            workload.thresholds = [value for value in thresholds_within(low, high) if value != threshold_ms]


def _measured_ms(runs: QuerySet[Run], sides: dict, keys: list, *, family: bool, latency: str) -> dict:
    """The lowest and highest response time at ``latency`` of the points of each workload ``keys`` of
    ``sides``, by key (a workload without response times is left out)."""
    wanted = Q(pk__in=[])
    for key in keys:
        wanted |= sides[key].runs
    if latency == "avg":
        # Each run's summary holds its lowest and highest average response time: no point is read.
        summed = (
            runs.filter(wanted)
            .order_by()
            .values_list(*KEY_COLUMNS)
            .annotate(
                low=Min(Cast(KT("summary__min_response_ms"), FloatField())),
                high=Max(Cast(KT("summary__max_response_ms"), FloatField())),
            )
        )
        return _ranges(summed, keys, family=family)
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


def _ranges(rows, keys: list, *, family: bool) -> dict:
    """The lowest and highest response time of each workload ``keys`` from rows of key columns, low, high."""
    ranges: dict = {}
    for *columns, low, high in rows:
        key = workload_key_of(*columns, family=family)
        if low is None or key not in keys:
            continue
        known = ranges.get(key, (low, high))
        ranges[key] = (min(known[0], low), max(known[1], high))
    return ranges


def _label(a_side: _Side, b_side: _Side) -> str:
    return pair_label(a_side.name, b_side.name)


def _named_any(names) -> Q:
    """Runs stored under, or of a workload known by, any of ``names``."""
    found = Q(pk__in=[])
    for name in names:
        found |= named(name=name)
    return found


def _paired_comparison(a, b, pairs, a_figures, b_figures, adjust_b, threshold_ms, latency):
    compared = []
    for a_name, b_name in pairs:
        a_found = [_replicates_of(f, latency=latency) for f in a_figures if a_name in f.names]
        b_found = [_replicates_of(f, latency=latency) for f in b_figures if b_name in f.names]
        if a_found and b_found:
            label = f"{a_name} vs {b_name}"
            compared.append(
                _workload_comparison(
                    a, b, label, a_found, b_found, adjust_b, threshold_ms, matched_by=MATCHED_BY["pair"]
                )
            )
    return Comparison(
        a=a,
        b=b,
        threshold_ms=threshold_ms,
        adjust_b=adjust_b,
        workloads=compared,
        only_a_workloads=[a_name for a_name, _ in pairs if not any(a_name in f.names for f in a_figures)],
        only_b_workloads=[b_name for _, b_name in pairs if not any(b_name in f.names for f in b_figures)],
        latency=latency,
    )


@dataclass
class MultiRow:
    """One configuration of the baseline in one workload: the baseline's figure and each candidate's, with
    its improvement."""

    label: str
    baseline: float | None
    # One (value, improvement %) per candidate, None where the candidate has no counterpart.
    cells: list
    # Per candidate: its configuration where it is not the baseline's, else "".
    configs: list = field(default_factory=list)
    # Per candidate: why its cell is empty, else "".
    reasons: list = field(default_factory=list)

    @property
    def entries(self) -> list[tuple]:
        """Per candidate: its cell, its configuration where it differs, why the cell is empty."""
        return list(zip(self.cells, self.configs, self.reasons, strict=True))


@dataclass
class MultiWorkload:
    workload: str
    metric: str
    rows: list


@dataclass
class MultiComparison:
    baseline: System
    candidates: list
    threshold_ms: float
    workloads: list
    pairs: list = field(default_factory=list)
    # Each candidate's summary sentences, and the workloads only it or only the baseline has, in sentences.
    summaries: list = field(default_factory=list)
    only_one: list = field(default_factory=list)


def multi_comparison(*, candidates: Sequence[System], baseline: System, **selection) -> MultiComparison:
    """Several systems each against one baseline (the papers' predecessor, a buyer's reference),
    through :func:`comparison`, gathered into one table per workload with a row per configuration of
    the baseline: the same numbers as the two-system comparisons. An empty cell says why."""
    pairs = [comparison(a=candidate, b=baseline, **selection) for candidate in candidates]
    tables: dict = {}
    for index, result in enumerate(pairs):
        for workload in result.workloads:
            table = tables.setdefault(workload.workload, (workload.metric, {}))[1]
            for row in workload.rows:
                found = table.setdefault(row.b_label, _multi_row(row.b_label, row.b_value, len(pairs)))
                found.cells[index] = (row.a_value, row.pct)
                found.configs[index] = "" if row.a_label == row.b_label else row.a_label
    # A workload none of the candidates could be paired in (no rows) is left out of the table.
    shown = sorted((label, metric, rows) for label, (metric, rows) in tables.items() if rows)
    workloads = [MultiWorkload(label, metric, list(rows.values())) for label, metric, rows in shown]
    for workload in workloads:
        for row in workload.rows:
            row.reasons = [
                "" if cell else _empty_cell_reason(result, workload.workload)
                for cell, result in zip(row.cells, pairs, strict=True)
            ]
    threshold_ms = pairs[0].threshold_ms if pairs else selection.get("threshold_ms", 20.0)
    summaries = [sentence for result in pairs for workload in result.workloads for sentence in workload.summaries]
    return MultiComparison(
        baseline, list(candidates), threshold_ms, workloads, pairs, summaries, _only_one(pairs, baseline)
    )


def _multi_row(label: str, baseline: float, candidates: int) -> MultiRow:
    return MultiRow(label, baseline, [None] * candidates, [""] * candidates, [""] * candidates)


def _empty_cell_reason(result: Comparison, label: str) -> str:
    """Why the candidate of ``result`` has no figure for a configuration of the baseline in workload ``label``."""
    filtered = " with these filters" if result.left_out else ""
    compared = next((workload for workload in result.workloads if workload.workload == label), None)
    if compared is None:
        return f"no run of this workload{filtered}"
    if not compared.rows:
        return " ".join(compared.empty)
    if compared.only_a:
        configurations = "; ".join(config_key_label(key) for key in compared.only_a)
        return f"no configuration paired with this one (its configurations left unpaired: {configurations})"
    return f"no configuration paired with this one{filtered}"


def _only_one(pairs: list[Comparison], baseline: System) -> list[str]:
    """The workloads each candidate has and the baseline not, and those the baseline has and it not."""
    sentences = []
    for result in pairs:
        shown, more = result.only_a_workloads[:50], max(len(result.only_a_workloads) - 50, 0)
        if shown:
            sentences.append(f"Only {result.a.name}: {', '.join(shown)}{f' and {more} more' if more else ''}.")
        shown, more = result.only_b_workloads[:50], max(len(result.only_b_workloads) - 50, 0)
        if shown:
            sentences.append(
                f"Only {baseline.name} (baseline), not {result.a.name}: "
                f"{', '.join(shown)}{f' and {more} more' if more else ''}."
            )
    return sentences
