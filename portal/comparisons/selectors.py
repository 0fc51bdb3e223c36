"""Selectors of comparisons: system A against system B per workload at a threshold, and several
systems against one baseline (one set of numbers for pages, exports, the API and commands)."""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.db.models import FloatField, Prefetch, Q, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from portal.analysis.compare import compare_replicates, improvement_range, summary_sentence
from portal.analysis.pairing import (
    MATCHED_BY,
    WorkloadKey,
    ambiguities,
    config_key_order,
    match_workloads,
    pair_configs,
    pair_label,
    workload_key_of,
    workload_names,
    workload_title,
)
from portal.models import Run, System
from portal.results.selectors import (
    FIGURE_ORDER,
    curve_points,
    named,
    raid_level_asked,
    run_figure,
    runs_filtered,
)


@dataclass
class ComparisonRow:
    raid_level: str
    drive_count_a: int | None
    drive_count_b: int | None
    cache_a: str
    cache_b: str
    a: list
    b: list
    a_value: float
    b_value: float
    pct: float
    confidence: object = None
    notes: list = field(default_factory=list)

    @property
    def label(self):
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


def _groups(figures, metric, *, best=False):
    """Figures with a value, by (RAID level, drive count, cache setting); replicates together, or
    only the best figure of each configuration (``best``: a family of workloads at its best)."""
    groups = defaultdict(list)
    for figure in figures:
        if figure.metric == metric and figure.value is not None:
            config = figure.config
            groups[(config.raid_level, config.drive_count, figure.cache_setting)].append(figure)
    if best:
        return {key: [max(found, key=lambda figure: figure.value)] for key, found in groups.items()}
    return groups


def _row(a_key, b_key, a_figures, b_figures, adjust_b, threshold_ms):
    a_values = [f.value for f in a_figures]
    b_values = [f.value for f in b_figures]
    row = ComparisonRow(
        raid_level=a_key[0],
        drive_count_a=a_key[1],
        drive_count_b=b_key[1],
        cache_a=a_key[2],
        cache_b=b_key[2],
        a=a_figures,
        b=b_figures,
        a_value=sum(a_values) / len(a_values),
        b_value=sum(b_values) / len(b_values),
        pct=0.0,
    )
    row.pct = (row.a_value - row.b_value * adjust_b) / (row.b_value * adjust_b) * 100
    if len(a_values) > 1 and len(b_values) > 1:
        row.confidence = compare_replicates(a_values, b_values, adjust_b=adjust_b)
    if a_key[1] != b_key[1]:
        row.notes.append(f"different drive counts: {a_key[1]} vs {b_key[1]}")
    row.notes.extend(_as_published(figure) for figure in a_figures + b_figures if _as_published(figure))
    row.notes.extend(_published_at(figure, threshold_ms) for figure in a_figures + b_figures)
    row.notes = [note for note in row.notes if note]
    for figure in a_figures + b_figures:
        if not figure.reached:
            row.notes.append(f"{figure.run.config.system.name}: {figure.status_text}")
    return row


def _published_at(figure, threshold_ms):
    """A published figure shown at another threshold than the one it was published at is marked."""
    stated = figure.run.published_at_ms
    if figure.run.origin != Run.Origin.PUBLISHED or stated is None or stated == threshold_ms:
        return ""
    return f"{figure.run.config.system.name}: published at {stated:g} ms, shown as published"


def _as_published(figure):
    """A note giving a published MB/s figure as the paper printed it, when that was binary."""
    printed = [p.published_mbps_binary for p in figure.run.points.all()]
    if figure.metric != "mbps" or len(printed) != 1 or printed[0] is None:
        return ""
    return f"{figure.run.config.system.name} published {printed[0]:g} MBps (2^20 bytes/s)"


@dataclass
class _Side:
    """One side's figures for one compared workload, what it is called there, the names it is known
    by, and the condition that selects its runs."""

    name: str
    names: set = field(default_factory=set)
    runs: Q = field(default_factory=lambda: Q(pk__in=[]))
    figures: list = field(default_factory=list)


def _workload_comparison(a, b, label, a_figures, b_figures, adjust_b, threshold_ms, *, matched_by, best=False):
    metric = "iops" if all(f.metric == "iops" for f in a_figures + b_figures) else "mbps"
    a_groups, b_groups = _groups(a_figures, metric, best=best), _groups(b_figures, metric, best=best)
    pairs, only_a, only_b = pair_configs(sorted(a_groups, key=config_key_order), sorted(b_groups, key=config_key_order))
    rows = [_row(ak, bk, a_groups[ak], b_groups[bk], adjust_b, threshold_ms) for ak, bk in pairs]
    rows.sort(key=lambda r: (r.raid_level, r.drive_count_a or 0, r.cache_a))
    summaries = []
    for raid in sorted({r.raid_level for r in rows}):
        matched = {r.label: r.a_value for r in rows if r.raid_level == raid}
        against = {r.label: r.b_value for r in rows if r.raid_level == raid}
        improvements = improvement_range(matched, against, adjust_b=adjust_b)
        subject = f"{raid + ' ' if raid else ''}{label}"
        summaries.append(summary_sentence(a.name, b.name, subject, improvements))
    sentences, choices = ambiguities(only_a, only_b)
    return WorkloadComparison(label, metric, rows, only_a, only_b, summaries, sentences, matched_by, choices)


def _workload_key(run: Run, *, family: bool) -> WorkloadKey:
    return workload_key_of(run.workload_id, run.workload_name, run.read_pct, run.random_pct, family=family)


# The run columns a workload key is made of, then its workload's name and names.
_KEY_COLUMNS = ("workload_id", "workload_name", "read_pct", "random_pct")
_SIDE_COLUMNS = (*_KEY_COLUMNS, "workload__name", "workload__names")


def _sides(runs, *, family) -> dict:
    """The workloads of ``runs`` by key, without their figures: one query over the distinct key
    columns, so its rows grow with the workloads and names a system has, not with its runs."""
    sides: dict = {}
    for *columns, stored_name, names in runs.order_by().values_list(*_SIDE_COLUMNS).distinct():
        key = workload_key_of(*columns, family=family)
        side = sides.setdefault(key, _Side(name=workload_title(key, stored_name), names=workload_names(key, names)))
        # Equal to None is IS NULL in a filter, so a run without a workload or mix is found too.
        side.runs |= Q(**dict(zip(_KEY_COLUMNS, columns, strict=True)))
    return sides


def _comparison_runs(runs: QuerySet[Run], *, latency: str) -> QuerySet[Run]:
    """Runs as a comparison reads them: configuration, system and workload joined, points with only
    the columns a threshold figure needs (and a published figure's MB/s as the paper printed it)."""
    printed = Cast(KT("metrics__published_mbps_binary"), FloatField())
    points = curve_points(latency=latency).annotate(published_mbps_binary=printed)
    return (
        runs.select_related("config__system", "workload")
        .order_by(*FIGURE_ORDER)
        .prefetch_related(Prefetch("points", queryset=points))
    )


def _fill(sides, keys, runs, *, family, threshold_ms, latency):
    """Give the sides ``keys`` their figures: one query for their runs, one for their points."""
    wanted = Q(pk__in=[])
    for key in dict.fromkeys(keys):
        wanted |= sides[key].runs
    for run in _comparison_runs(runs.filter(wanted), latency=latency):
        figure = run_figure(run=run, threshold_ms=threshold_ms, latency=latency)
        sides[_workload_key(run, family=family)].figures.append(figure)


def comparison(
    *,
    a: System,
    b: System,
    threshold_ms: float = 20.0,
    adjust_b: float = 1.0,
    raid_level: str | None = None,
    drive_count: int | None = None,
    cache: str | None = None,
    workload: str | None = None,
    pairs: Sequence[tuple[str, str]] = (),
    best_of_sizes: bool = False,
    latency: str = "avg",
    label: str | None = None,
    workloads_per_page: int | None = None,
    workload_page: int | str = 1,
) -> Comparison:
    """System A against system B for every workload both have, at the threshold.

    Runs are the same workload when they do the same thing (:func:`~portal.analysis.pairing.workload_key_of`),
    whatever they were called; ``best_of_sizes`` compares the best figure over transfer sizes of each
    family; ``pairs`` (``[(A's workload name, B's workload name), ...]``) compares named workloads by hand.
    Workloads only one side has are listed, not dropped; so are unmatched configurations.

    The workloads both sides have are found first from their key columns, and points are read only
    for the runs of those compared: ``label`` keeps one workload, ``workloads_per_page`` compares
    page ``workload_page`` of them in label order (the rest stay counted in ``page``).
    """
    a_runs, b_runs = (
        runs_filtered(
            system=system,
            workloads=(workload,) if workload else (),
            raid_level=raid_level_asked(raid_level=raid_level),
            drive_count=drive_count,
            cache=cache,
        )
        for system in (a, b)
    )
    figures = {"threshold_ms": threshold_ms, "latency": latency}
    if pairs:
        a_figures = _figures(a_runs.filter(_named_any(a_name for a_name, _ in pairs)), **figures)
        b_figures = _figures(b_runs.filter(_named_any(b_name for _, b_name in pairs)), **figures)
        return _paired_comparison(a, b, pairs, a_figures, b_figures, adjust_b, threshold_ms, latency)
    a_sides, b_sides = _sides(a_runs, family=best_of_sizes), _sides(b_runs, family=best_of_sizes)
    matched = sorted(
        match_workloads(
            {key: side.names for key, side in a_sides.items()}, {key: side.names for key, side in b_sides.items()}
        ),
        key=lambda keys: _label(a_sides[keys[0]], b_sides[keys[1]]),
    )
    shown = [keys for keys in matched if label is None or _label(a_sides[keys[0]], b_sides[keys[1]]) == label]
    page = Paginator(shown, workloads_per_page or max(len(shown), 1)).get_page(workload_page)
    _fill(a_sides, [ak for ak, _ in page], a_runs, family=best_of_sizes, **figures)
    _fill(b_sides, [bk for _, bk in page], b_runs, family=best_of_sizes, **figures)
    compared = [
        _workload_comparison(
            a, b, _label(a_sides[ak], b_sides[bk]), a_sides[ak].figures, b_sides[bk].figures, adjust_b, threshold_ms,
            matched_by=MATCHED_BY["name" if "name" in (ak[0], bk[0]) else ak[0]], best=best_of_sizes,
        )
        for ak, bk in page
    ]  # fmt: skip
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
    )


def _label(a_side: _Side, b_side: _Side) -> str:
    return pair_label(a_side.name, b_side.name)


def _figures(runs, *, threshold_ms, latency):
    runs = _comparison_runs(runs, latency=latency)
    return [run_figure(run=run, threshold_ms=threshold_ms, latency=latency) for run in runs]


def _named_any(names) -> Q:
    """Runs stored under, or of a workload known by, any of ``names``."""
    found = Q(pk__in=[])
    for name in names:
        found |= named(name=name)
    return found


def _paired_comparison(a, b, pairs, a_figures, b_figures, adjust_b, threshold_ms, latency):
    compared = []
    for a_name, b_name in pairs:
        a_found = [f for f in a_figures if a_name in _run_names(f.run)]
        b_found = [f for f in b_figures if b_name in _run_names(f.run)]
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
        only_a_workloads=[a_name for a_name, _ in pairs if not any(a_name in _run_names(f.run) for f in a_figures)],
        only_b_workloads=[b_name for _, b_name in pairs if not any(b_name in _run_names(f.run) for f in b_figures)],
        latency=latency,
    )


def _run_names(run):
    return {run.workload_name, *(run.workload.names if run.workload_id else ())}


@dataclass
class MultiRow:
    """One configuration of one workload: the baseline's figure and each candidate's, with its improvement."""

    label: str
    baseline: float | None
    # One (value, improvement %) per candidate, None where the candidate has no counterpart.
    cells: list


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


def multi_comparison(*, candidates: Sequence[System], baseline: System, **selection) -> MultiComparison:
    """Several systems each against one baseline (the papers' predecessor, a buyer's reference),
    through :func:`comparison`, gathered into one table per workload: the same numbers as the
    two-system comparisons."""
    pairs = [comparison(a=candidate, b=baseline, **selection) for candidate in candidates]
    tables: dict = {}
    for index, result in enumerate(pairs):
        for workload in result.workloads:
            table = tables.setdefault(workload.workload, (workload.metric, {}))[1]
            for row in workload.rows:
                found = table.setdefault(row.label, MultiRow(row.label, row.b_value, [None] * len(pairs)))
                found.cells[index] = (row.a_value, row.pct)
    # A workload none of the candidates could be paired in (no rows) is left out of the table.
    shown = sorted((label, metric, rows) for label, (metric, rows) in tables.items() if rows)
    workloads = [MultiWorkload(label, metric, list(rows.values())) for label, metric, rows in shown]
    threshold_ms = pairs[0].threshold_ms if pairs else selection.get("threshold_ms", 20.0)
    return MultiComparison(baseline, list(candidates), threshold_ms, workloads, pairs)
