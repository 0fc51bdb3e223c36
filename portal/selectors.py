"""Selectors: read-only queries shaped for pages, exports and commands (one set of numbers)."""

import difflib
import json
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Count, FloatField, OuterRef, Prefetch, Q, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.utils.text import slugify

from portal.analysis.compare import compare_replicates, improvement_range, summary_sentence
from portal.analysis.curves import CurvePoint, Status, throughput_at
from portal.analysis.stroke import StrokeRun, stroke_multipliers
from portal.analysis.vocabulary import cache_setting_name, raid_level_canonical
from portal.analysis.workloads import describe_family, signature

from .models import Config, Point, Run, System, Upload, document_title

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


def load_title(key):
    """A load axis in words: known ones by name, others with their underscores as spaces."""
    return LOAD_TITLES.get(key, key.replace("_", " ").capitalize())


class SystemNotFound(LookupError):
    """An unknown system name; the message lists close matches."""


def system_by_name(name):
    """The system named ``name`` (case-insensitive), or :class:`SystemNotFound` naming close matches."""
    found = System.objects.filter(name__iexact=name.strip()).first()
    if found:
        return found
    names = list(System.objects.values_list("name", flat=True))
    close = difflib.get_close_matches(name, names, n=5, cutoff=0.4)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else f"; known: {', '.join(names)}"
    raise SystemNotFound(f"no system named {name!r}{hint}")


def cache_setting(config):
    """The cache setting in the papers' words, derived from the read and write cache flags ('' if unknown)."""
    return cache_setting_name(read_cache=config.read_cache, write_cache=config.write_cache)


def run_metric(run):
    """The throughput a run is judged by: IOPS when its points have them, else MB/s."""
    points = list(run.points.all())
    return "iops" if points and all(p.iops is not None for p in points) else "mbps"


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


def response_ms(point, latency="avg"):
    """A point's response time as ``latency`` asks: average, a percentile, or the maximum (None if unknown)."""
    if latency == "avg":
        return point.avg_response_ms
    if latency == "max":
        return point.max_response_ms
    return (point.latency_percentiles_ms or {}).get(latency.removeprefix("p"))


def run_curve(run, *, metric, latency="avg"):
    """The run's points as curve points (load, throughput, response time) in load order.

    ``latency`` chooses the response time: the average (the papers' rule), a percentile ("p99")
    or the maximum; points without it are left out. A published figure stated at a response time
    ("results correspond to an average response time of 20 ms") without its own measured response
    time is placed at that stated time, for the average only.
    """
    stated_ms = run.published_at_ms if run.origin == Run.Origin.PUBLISHED and latency == "avg" else None
    curve = []
    for p in run.points.all():
        response = response_ms(p, latency)
        response = response if response is not None else stated_ms
        if getattr(p, metric) is None or (latency != "avg" and response is None):
            continue
        load = p.outstanding_io if p.outstanding_io is not None else (p.threads if p.threads else p.seq)
        curve.append(CurvePoint(load=load, throughput=getattr(p, metric), response_ms=response))
    return curve


def run_threshold(run, *, threshold_ms, metric=None, latency="avg"):
    """Throughput of a run at ``threshold_ms`` of ``latency`` by the run's rule (published runs: their figure)."""
    metric = metric or run_metric(run)
    rule = (run.params or {}).get("threshold_rule") or "interpolate"
    curve = run_curve(run, metric=metric, latency=latency)
    return metric, throughput_at(curve, threshold_ms=threshold_ms, rule=rule)


def runs_with_points(queryset):
    """Runs with their config, system and points in load order: three queries whatever the count."""
    return queryset.select_related("config__system").prefetch_related(
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


def curve_points(*, latency: str = "avg"):
    """Points in load order with only the columns ``run_threshold`` reads at ``latency``."""
    fields = CURVE_POINT_FIELDS if latency in ("avg", "max") else (*CURVE_POINT_FIELDS, "latency_percentiles_ms")
    return Point.objects.only(*fields).order_by("seq")


def runs_with_curve_points(queryset, *, latency: str = "avg"):
    """Runs with their config, system and only the point columns ``run_threshold`` reads at ``latency``."""
    return queryset.select_related("config__system").prefetch_related(
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
    def config(self):
        return self.run.config

    @property
    def cache_setting(self):
        return cache_setting(self.run.config)

    @property
    def status_text(self):
        return Status(self.status).words


def named(name):
    """Runs stored under this workload name, or of a workload known by it (another tool's name for it)."""
    return Q(workload_name=name) | Q(workload__names__contains=[name])


def _filtered_runs(*, system, workload=None, raid_level=None, drive_count=None, cache=None):
    """A system's runs narrowed by workload name, RAID level, drive count and cache setting, in SQL."""
    runs = Run.objects.filter(config__system=system)
    if workload:
        runs = runs.filter(named(workload))
    if raid_level:
        runs = runs.filter(config__raid_level=raid_level_canonical(raid_level))
    if drive_count:
        runs = runs.filter(config__drive_count=drive_count)
    if cache:
        runs = runs.filter(_cache_comparable(cache))
    return runs


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


def threshold_figures(
    *, system, threshold_ms, workload=None, raid_level=None, drive_count=None, cache=None, latency="avg"
):
    """Every run of a system at the threshold (of ``latency``: the average, or a percentile), optionally filtered."""
    runs = _filtered_runs(system=system, workload=workload, raid_level=raid_level, drive_count=drive_count, cache=cache)
    runs = runs_with_points(runs.select_related("workload").order_by(*FIGURE_ORDER))
    return [run_figure(run, threshold_ms=threshold_ms, latency=latency) for run in runs]


# The order of a system's figures: replicates keep it within a configuration (the best of ties is the first).
FIGURE_ORDER = ("workload_name", "config__drive_count", "id")


def run_figure(run, *, threshold_ms, latency="avg") -> Figure:
    """The run's throughput at the threshold as a :class:`Figure` (its points prefetched)."""
    metric, answer = run_threshold(run, threshold_ms=threshold_ms, latency=latency)
    return Figure(run, metric, answer.value, answer.reached, str(answer.status), tuple(answer.warnings))


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


def _compatible(a_key, b_key):
    """Same RAID level and drive count; cache settings equal, or unknown on one side."""
    return a_key[:2] == b_key[:2] and (not a_key[2] or not b_key[2] or a_key[2] == b_key[2])


def _pair(a_keys, b_keys):
    """Match configurations between A and B.

    First exactly (RAID level, drive count, cache setting), then with the cache setting unknown
    on one side when that is unambiguous, then, per RAID level, a lone configuration left on
    each side: arrays of different sizes at their best, as the papers compare them.
    Returns (pairs, unmatched A keys, unmatched B keys).
    """
    a_left, b_left = list(a_keys), list(b_keys)
    pairs = [(key, key) for key in a_left if key in b_left]
    for a_key, _ in pairs:
        a_left.remove(a_key)
        b_left.remove(a_key)
    for a_key in list(a_left):
        candidates = [b_key for b_key in b_left if _compatible(a_key, b_key)]
        rivals = [other for other in a_left if candidates and _compatible(other, candidates[0])]
        if len(candidates) == 1 and len(rivals) == 1:
            pairs.append((a_key, candidates[0]))
            a_left.remove(a_key)
            b_left.remove(candidates[0])
    for raid in {key[0] for key in a_left}:
        a_raid = [key for key in a_left if key[0] == raid]
        b_raid = [key for key in b_left if key[0] == raid]
        if len(a_raid) == 1 and len(b_raid) == 1:
            pairs.append((a_raid[0], b_raid[0]))
            a_left.remove(a_raid[0])
            b_left.remove(b_raid[0])
    return pairs, a_left, b_left


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


def config_key_label(key):
    """'RAID-5, 140 drives, All Caches Disabled' for a (RAID level, drive count, cache setting) key."""
    raid = key[0] or "RAID level not stated"
    return ", ".join(part for part in (raid, f"{key[1]} drives" if key[1] else "", key[2]) if part)


def _ambiguities(a_left, b_left):
    """Sentences for unmatched configurations that could match several on the other side because
    one side does not state its cache setting, and the settings the user can choose between."""
    sentences, choices = [], []
    for side, keys, others, other_side in (("A", a_left, b_left, "B"), ("B", b_left, a_left, "A")):
        for key in keys:
            matches = [other for other in others if _compatible(key, other)]
            if len(matches) > 1:
                settings_text = " or ".join(repr(m[2]) for m in matches if m[2])
                sentences.append(
                    f"{side}'s {config_key_label(key)} could match {other_side}'s {settings_text}: "
                    "choose a cache setting to compare them"
                )
                choices += [m[2] for m in matches if m[2] and m[2] not in choices]
    return sentences, choices


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
    pairs, only_a, only_b = _pair(sorted(a_groups, key=_key_order), sorted(b_groups, key=_key_order))
    rows = [_row(ak, bk, a_groups[ak], b_groups[bk], adjust_b, threshold_ms) for ak, bk in pairs]
    rows.sort(key=lambda r: (r.raid_level, r.drive_count_a or 0, r.cache_a))
    summaries = []
    for raid in sorted({r.raid_level for r in rows}):
        matched = {r.label: r.a_value for r in rows if r.raid_level == raid}
        against = {r.label: r.b_value for r in rows if r.raid_level == raid}
        improvements = improvement_range(matched, against, adjust_b=adjust_b)
        subject = f"{raid + ' ' if raid else ''}{label}"
        summaries.append(summary_sentence(a.name, b.name, subject, improvements))
    sentences, choices = _ambiguities(only_a, only_b)
    return WorkloadComparison(label, metric, rows, only_a, only_b, summaries, sentences, matched_by, choices)


def _key_order(key):
    return (key[0] or "", key[1] or 0, key[2] or "")


def workload_key(run, *, family=False):
    """What makes two runs the same workload: its identity when the file said what it does (or, for
    ``family``, its read % and random % whatever the transfer size), else its name."""
    return _key_of(run.workload_id, run.workload_name, run.read_pct, run.random_pct, family=family)


def _key_of(workload_id, workload_name, read_pct, random_pct, *, family):
    if family and read_pct is not None and random_pct is not None:
        sig = signature(read_pct=read_pct, random_pct=random_pct, transfer_sizes=[], sizes_required=False)
        return ("family", sig.family)
    if workload_id:
        return ("workload", workload_id)
    return ("name", workload_name)


# The run columns a workload key is made of, then its workload's name and names.
_KEY_COLUMNS = ("workload_id", "workload_name", "read_pct", "random_pct")
_SIDE_COLUMNS = (*_KEY_COLUMNS, "workload__name", "workload__names")


def _sides(runs, *, family) -> dict:
    """The workloads of ``runs`` by key, without their figures: one query over the distinct key
    columns, so its rows grow with the workloads and names a system has, not with its runs."""
    sides: dict = {}
    for *columns, stored_name, names in runs.order_by().values_list(*_SIDE_COLUMNS).distinct():
        key = _key_of(*columns, family=family)
        side = sides.setdefault(key, _Side(name=_side_name(key, stored_name), names=_side_names(key, names)))
        # Equal to None is IS NULL in a filter, so a run without a workload or mix is found too.
        side.runs |= Q(**dict(zip(_KEY_COLUMNS, columns, strict=True)))
    return sides


def _side_name(key, stored_name):
    if key[0] == "family":
        return describe_family(key[1])
    return stored_name if key[0] == "workload" else key[1]


def _side_names(key, names):
    """The names a side is found by: every name of its workload, else the one it was stored under."""
    return set(names) if key[0] == "workload" else {key[1]}


def comparison_runs(runs, *, latency: str = "avg"):
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
    for run in comparison_runs(runs.filter(wanted), latency=latency):
        figure = run_figure(run, threshold_ms=threshold_ms, latency=latency)
        sides[workload_key(run, family=family)].figures.append(figure)


MATCHED_BY = {
    "workload": "same workload: read %, random % and transfer sizes",
    "family": "best of each side over the transfer sizes of one read % and random %",
    "name": "by name only: the files do not say what the workload does",
    "pair": "paired by hand",
}


def _label(a_side, b_side):
    return a_side.name if a_side.name == b_side.name else f"{a_side.name} = {b_side.name}"


def _matched(a_sides, b_sides):
    """Keys of A and B that are the same workload: equal keys, then a name one side has as a name
    and the other as one of a workload's names."""
    pairs = [(key, key) for key in a_sides if key in b_sides]
    for a_key in [key for key in a_sides if key[0] == "name" and key not in b_sides]:
        found = [k for k, side in b_sides.items() if k[0] == "workload" and a_key[1] in side.names]
        pairs += [(a_key, found[0])] if len(found) == 1 else []
    for b_key in [key for key in b_sides if key[0] == "name" and key not in a_sides]:
        found = [k for k, side in a_sides.items() if k[0] == "workload" and b_key[1] in side.names]
        pairs += [(found[0], b_key)] if len(found) == 1 else []
    return pairs


def comparison(
    *,
    a,
    b,
    threshold_ms=20.0,
    adjust_b=1.0,
    raid_level=None,
    drive_count=None,
    cache=None,
    workload=None,
    pairs=(),
    best_of_sizes=False,
    latency="avg",
    label: str | None = None,
    workloads_per_page: int | None = None,
    workload_page: int | str = 1,
):
    """System A against system B for every workload both have, at the threshold.

    Runs are the same workload when they do the same thing (:func:`workload_key`), whatever they
    were called; ``best_of_sizes`` compares the best figure over transfer sizes of each family;
    ``pairs`` (``[(A's workload name, B's workload name), ...]``) compares named workloads by hand.
    Workloads only one side has are listed, not dropped; so are unmatched configurations.

    The workloads both sides have are found first from their key columns, and points are read only
    for the runs of those compared: ``label`` keeps one workload, ``workloads_per_page`` compares
    page ``workload_page`` of them in label order (the rest stay counted in ``page``).
    """
    filters = {"workload": workload, "raid_level": raid_level, "drive_count": drive_count, "cache": cache}
    a_runs, b_runs = _filtered_runs(system=a, **filters), _filtered_runs(system=b, **filters)
    figures = {"threshold_ms": threshold_ms, "latency": latency}
    if pairs:
        a_figures = _figures(a_runs.filter(_named_any(a_name for a_name, _ in pairs)), **figures)
        b_figures = _figures(b_runs.filter(_named_any(b_name for _, b_name in pairs)), **figures)
        return _paired_comparison(a, b, pairs, a_figures, b_figures, adjust_b, threshold_ms, latency)
    a_sides, b_sides = _sides(a_runs, family=best_of_sizes), _sides(b_runs, family=best_of_sizes)
    matched = sorted(_matched(a_sides, b_sides), key=lambda keys: _label(a_sides[keys[0]], b_sides[keys[1]]))
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


def _figures(runs, *, threshold_ms, latency):
    runs = comparison_runs(runs, latency=latency)
    return [run_figure(run, threshold_ms=threshold_ms, latency=latency) for run in runs]


def _named_any(names) -> Q:
    """Runs stored under, or of a workload known by, any of ``names``."""
    found = Q(pk__in=[])
    for name in names:
        found |= named(name)
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


def system_names(*, q="", limit=20):
    """Names of systems matching ``q`` (name, vendor or model), for a picker: at most ``limit``."""
    systems = System.objects.all()
    if q.strip():
        words = q.split()
        for word in words:
            systems = systems.filter(Q(name__icontains=word) | Q(vendor__icontains=word) | Q(model__icontains=word))
    return list(systems.order_by("name").values_list("name", flat=True)[:limit])


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


def multi_comparison(*, candidates, baseline, **selection):
    """Several systems each against one baseline (the papers' predecessor, a buyer's reference),
    through :func:`comparison`, gathered into one table per workload: the same numbers as the
    two-system comparisons."""
    pairs = [comparison(a=candidate, b=baseline, **selection) for candidate in candidates]
    tables = {}
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


# Pages: the systems list, a system's runs, sweeps and stroke tables, one run.

SWEEP_PARAMETERS = {
    "drive_count": "Drive count",
    "stroke_pct": "Stroke %",
    "read_pct": "Read %",
    "transfer_bytes": "Transfer size (bytes)",
}


def systems_overview(
    *, q="", vendor="", model="", raid_level="", drive_count=None, drive_type="", tool="", workload=""
):
    """Systems with their numbers of configs and runs and latest upload, filtered, in name order.

    The figures are per-system subqueries on indexed foreign keys, so a page of the list (a slice)
    costs what its own systems hold, not what every system holds.

    Configuration and run filters select the systems that have at least one matching config or run.
    """
    systems = System.objects.all()
    if q:
        systems = systems.filter(
            Q(name__icontains=q) | Q(vendor__icontains=q) | Q(model__icontains=q) | Q(notes__icontains=q)
        )
    if vendor:
        systems = systems.filter(vendor__iexact=vendor)
    if model:
        systems = systems.filter(model__iexact=model)
    config_filters = {
        "raid_level": raid_level_canonical(raid_level),
        "drive_count": drive_count,
        "drive_type": drive_type,
        "runs__tool": tool,
        "runs__workload_name": workload,
    }
    config_filters = {name: value for name, value in config_filters.items() if value not in (None, "")}
    if config_filters:
        systems = systems.filter(id__in=Config.objects.filter(**config_filters).values("system_id"))
    return systems.annotate(
        config_count=_count_of(Config.objects.filter(system=OuterRef("pk")), "system"),
        run_count=_count_of(Run.objects.filter(config__system=OuterRef("pk")), "config__system"),
        latest_upload_at=Subquery(
            Upload.objects.filter(system=OuterRef("pk")).order_by("-created_at").values("created_at")[:1]
        ),
    ).order_by("name")


def _count_of(rows, group):
    """The number of ``rows`` (correlated to the outer system) as a scalar subquery, 0 when none."""
    counted = rows.order_by().values(group).annotate(count=Count("*")).values("count")
    return Coalesce(Subquery(counted), 0)


def filter_choices():
    """The values the systems list can be filtered by, one query per filter."""

    def distinct(queryset, name):
        return [v for v in queryset.exclude(**{name: None}).values_list(name, flat=True).distinct().order_by(name) if v]

    return {
        "vendor": distinct(System.objects.all(), "vendor"),
        "model": distinct(System.objects.all(), "model"),
        "raid_level": distinct(Config.objects.all(), "raid_level"),
        "drive_count": distinct(Config.objects.all(), "drive_count"),
        "drive_type": distinct(Config.objects.all(), "drive_type"),
        # Runs are the many rows: their few distinct values are found by probing an index.
        "tool": _distinct_indexed(Run, "tool"),
        "workload": _distinct_indexed(Run, "workload_name"),
    }


def _distinct_indexed(model, column):
    """The distinct non-empty values of an indexed column, in order, with one index probe per value
    (a loose index scan: PostgreSQL has no skip scan, and DISTINCT would read every row).

    ``column`` is a name from this module, never user input.
    """
    table = model._meta.db_table
    sql = f"""
        WITH RECURSIVE found(value) AS (
            (SELECT {column} FROM {table} WHERE {column} IS NOT NULL ORDER BY {column} LIMIT 1)
            UNION ALL
            SELECT (SELECT {column} FROM {table} WHERE {column} > found.value ORDER BY {column} LIMIT 1)
            FROM found WHERE found.value IS NOT NULL
        )
        SELECT value FROM found WHERE value IS NOT NULL
    """
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [value for (value,) in cursor.fetchall() if value]


def recent_uploads(*, limit=10):
    return list(Upload.objects.select_related("system", "uploader")[:limit])


def system_configs(system):
    """A system's configurations with their run counts, one query."""
    return list(system.configs.annotate(run_count=Count("runs")).order_by("raid_level", "drive_count", "id"))


def transfer_bytes(run):
    """The run's single transfer size in bytes, or None for a mix or an unknown size."""
    sizes = run.transfer_sizes or []
    return sizes[0].get("bytes") if len(sizes) == 1 else None


def _sweep_x(figure, parameter):
    if parameter == "transfer_bytes":
        return transfer_bytes(figure.run)
    if parameter == "read_pct":
        return figure.run.read_pct
    return getattr(figure.config, parameter)


def _sweep_series_label(figure, parameter):
    """What stays fixed along one sweep line: everything but the swept parameter."""
    run, config = figure.run, figure.config
    if parameter in ("transfer_bytes", "read_pct"):
        threads = (run.params or {}).get("threads")
        mix = f"{run.read_pct:g} % read" if run.read_pct is not None and parameter != "read_pct" else ""
        random = f"{run.random_pct:g} % random" if run.random_pct is not None else ""
        parts = [mix, random, f"{threads} threads" if threads else ""]
    else:
        parts = [run.workload_name]
    parts += [config.raid_level, figure.cache_setting]
    if parameter != "drive_count" and config.drive_count:
        parts.append(f"{config.drive_count} drives")
    if parameter != "stroke_pct" and config.stroke_pct:
        parts.append(f"{config.stroke_pct:g} % stroke")
    return ", ".join(part for part in parts if part)


def sweep(*, system, parameter, threshold_ms, workload=None, raid_level=None, cache=None, latency="avg"):
    """Throughput at the threshold against one parameter, one series per combination of the others.

    Returns {metric: {series label: [(x, value, run id), ...] in x order}}; runs without the
    parameter or without a figure are left out.
    """
    if parameter not in SWEEP_PARAMETERS:
        raise ValueError(f"unknown sweep parameter {parameter!r}; choose one of: {', '.join(SWEEP_PARAMETERS)}")
    by_size = parameter in ("transfer_bytes", "read_pct")
    figures = threshold_figures(
        system=system,
        threshold_ms=threshold_ms,
        workload=None if by_size else workload,
        raid_level=raid_level,
        cache=cache,
        latency=latency,
    )
    series = defaultdict(lambda: defaultdict(list))
    for figure in figures:
        x = _sweep_x(figure, parameter)
        if x is None or figure.value is None:
            continue
        series[figure.metric][_sweep_series_label(figure, parameter)].append((x, figure.value, figure.run.id))
    return {
        metric: {label: sorted(points) for label, points in sorted(lines.items()) if len(points) > 1 or len(lines) == 1}
        for metric, lines in sorted(series.items())
    }


def run_detail(run_id):
    """One run with its config, system, upload, workload and points: two queries."""
    return (
        Run.objects.select_related("config__system", "upload", "workload")
        .prefetch_related(Prefetch("points", queryset=Point.objects.order_by("seq")))
        .get(pk=run_id)
    )


@dataclass
class StrokeTable:
    """Stroke multipliers for one RAID level and workload: measured from runs, or as a paper printed them."""

    raid_level: str
    workload: str
    source: str
    baseline_pct: float
    baseline_throughput: float | None
    multipliers: dict
    citation: str = ""

    @property
    def key(self):
        """The table's address on the stroke page: stable when tables are added ("raid-5-oltp-8k-published")."""
        return slugify(f"{self.raid_level} {self.workload} {self.source}")


def stroke_tables(*, system, threshold_ms, baseline_pct=8.0):
    """Measured tables (runs differing only in stroke %) followed by the published ones."""
    by_config = defaultdict(lambda: defaultdict(list))
    for figure in threshold_figures(system=system, threshold_ms=threshold_ms):
        config = figure.config
        if config.stroke_pct is None or figure.value is None:
            continue
        others = {k: v for k, v in config.properties().items() if k != "stroke_pct"}
        key = (config.raid_level, figure.run.workload_name, json_key(others))
        by_config[key][config.stroke_pct].append(figure.value)
    tables = []
    for (raid_level, workload, _), by_stroke in sorted(by_config.items()):
        if len(by_stroke) < 2 or baseline_pct not in by_stroke:
            continue
        runs = [StrokeRun(stroke, sum(values) / len(values)) for stroke, values in by_stroke.items()]
        measured = stroke_multipliers(runs, baseline_pct=baseline_pct)
        tables.append(
            StrokeTable(
                raid_level,
                workload,
                "measured",
                measured.baseline_pct,
                measured.baseline_throughput,
                {measured.baseline_pct: 1.0, **dict(measured.multipliers)},
            )
        )
    for published in system.stroke_tables.all():
        multipliers = {float(stroke): value for stroke, value in published.multipliers.items()}
        tables.append(
            StrokeTable(
                published.raid_level,
                published.workload_name,
                "published",
                published.baseline_stroke_pct,
                None,
                dict(sorted(multipliers.items())),
                f"{document_title(published.citation_document)}, {published.citation_table}",
            )
        )
    return tables


def json_key(properties):
    """A hashable, order-independent key for a dict of configuration properties."""
    return json.dumps(properties, sort_keys=True, default=str)
