"""Selectors of comparisons: system A against system B per workload at a threshold, and several
systems against one baseline (one set of numbers for pages, exports, the API and commands).

The rows and statistics are in :mod:`~portal.comparisons.rows`, the reading of workloads and figures in
:mod:`~portal.comparisons.loading` and :mod:`~portal.comparisons.figures`, the words in
:mod:`~portal.comparisons.sentences`; the names callers use are importable from here."""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from django.core.paginator import Paginator
from django.db.models import Q, QuerySet

from portal.analysis.curves import Status
from portal.analysis.pairing import MATCHED_BY, WorkloadKey, match_workloads, pair_label
from portal.analysis.thresholds import thresholds_within
from portal.models import Config, Run, System
from portal.results.selectors import named, raid_level_asked, runs_filtered

from .comparison import Comparison, ComparisonOptions, ComparisonRow, WorkloadComparison
from .details import stated_details
from .figures import (
    ComparedFigure,
    ConfigGroup,
    FigureReading,
    ReplicateGroup,
    RunsOnDemand,
    compared_figures,
    replicates_of,
)
from .filters import (
    SideFilters,
    Viewer,
    check_both_sides,
    check_firmware,
    check_side,
    runs_of_side,
    side_choices,
    what_filters_left_out,
)
from .kinds import iops_unit, measured_by_of, with_kinds
from .loading import Side, Sides, SideWorkloads, figures_measured_ms, fill, measured_ms, sides
from .multi import MultiComparison, MultiRow, MultiWorkload, multi_table
from .published import compared_as_published
from .query import DEFAULT_QUERY, ComparisonQuery
from .rows import workload_comparison

__all__ = [
    "ComparedFigure",
    "Comparison",
    "ComparisonOptions",
    "ComparisonQuery",
    "ComparisonRow",
    "ConfigGroup",
    "MultiComparison",
    "MultiRow",
    "MultiWorkload",
    "WorkloadComparison",
    "comparison",
    "multi_comparison",
]


def comparison(
    *,
    a: System,
    b: System,
    query: ComparisonQuery = DEFAULT_QUERY,
    label: str | None = None,
    workloads_per_page: int | None = None,
    offer_choices: bool = False,
    viewer: Viewer | None = None,
) -> Comparison:
    """System A against system B for every workload both have, as ``query`` asks (its threshold, latency,
    adjustment, filters, workloads and page; its system names are not read: ``a`` and ``b`` are the systems).

    Runs are the same workload when they do the same thing (:func:`~portal.analysis.pairing.workload_key_of`),
    whatever they were called; ``query.best_of_sizes`` compares the best figure over transfer sizes of each
    family; ``query.pairs`` (``((A's workload name, B's workload name), ...)``) compares named workloads by
    hand. Workloads only one side has are listed, not dropped; so are unmatched configurations.

    ``query.both_sides`` narrows both sides; ``query.a_side`` and ``query.b_side`` narrow one side (in place
    of the filter of both sides), and may choose one configuration or firmware version. A value a side has
    no comparable run with raises :class:`ApplicationError`; what the filters leave out is said in
    ``left_out``.

    ``offer_choices`` reads each side's values (``a_choices``, ``b_choices``) even when nothing is filtered.

    The workloads both sides have are found first from their key columns, and points are read only
    for the runs of those compared: ``label`` keeps one workload, ``workloads_per_page`` compares
    page ``query.page`` of them in label order (the rest stay counted in ``page``). With ``viewer``,
    ``query.workload`` also names a workload by the name one of their teams gave it.
    """
    a_firmware, b_firmware = query.a_side.firmware, query.b_side.firmware
    options = ComparisonOptions(
        query.threshold_ms,
        query.adjust_b,
        query.latency,
        query.best_of_sizes,
        a_firmware or "",
        b_firmware or "",
        drive_types(a, b),
        stated_details(a, b),
    )
    shared, a_asked, b_asked = (_asked(filters) for filters in (query.both_sides, query.a_side, query.b_side))
    a_filters, b_filters = _side_filters(a_asked, shared), _side_filters(b_asked, shared)
    check_firmware(a_firmware, letter="A", system=a)
    check_firmware(b_firmware, letter="B", system=b)
    a_choices = b_choices = None
    if offer_choices or a_filters != SideFilters() or b_filters != SideFilters():
        a_choices, b_choices = side_choices(system=a), side_choices(system=b)
        check_both_sides(shared, a_choices, b_choices, a, b)
        check_side(replace(a_asked, firmware=None), a_choices, letter="A", system=a)
        check_side(replace(b_asked, firmware=None), b_choices, letter="B", system=b)
    workloads = (query.workload,) if query.workload else ()
    a_all, b_all = (
        runs_filtered(system=system, workloads=workloads, comparable=True, viewer=viewer) for system in (a, b)
    )
    a_runs, b_runs = (
        runs_of_side(system=system, workloads=workloads, filters=filters, viewer=viewer)
        for system, filters in ((a, a_filters), (b, b_filters))
    )
    a_name, b_name = options.side_names(a, b)
    left_out = [
        *what_filters_left_out(runs=a_all, filters=a_filters, side=f"A ({a_name})", family=query.best_of_sizes),
        *what_filters_left_out(runs=b_all, filters=b_filters, side=f"B ({b_name})", family=query.best_of_sizes),
    ]
    if query.pairs:
        result = _paired_comparison(a, b, query.pairs, (a_runs, b_runs), options)
    else:
        chosen = query.a_side.config_id is not None and query.b_side.config_id is not None
        result = _matched_comparison(a, b, (a_runs, b_runs), options, label=label, chosen=chosen,
                                     page=(workloads_per_page, query.page))  # fmt: skip
    result.left_out, result.a_choices, result.b_choices = left_out, a_choices, b_choices
    result.a_firmware, result.b_firmware = a_firmware or "", b_firmware or ""
    return result


def _asked(filters: SideFilters) -> SideFilters:
    """Filters as asked, their RAID level in the spelling runs are stored under ("RAID 5" is "RAID-5")."""
    return replace(filters, raid_level=raid_level_asked(raid_level=filters.raid_level))


def drive_types(*systems: System) -> dict[tuple[int, str, int | None], str]:
    """Each system's drive type by RAID level and drive count, where its configurations of those state one
    type only (one query)."""
    stated: dict[tuple[int, str, int | None], set[str]] = defaultdict(set)
    rows = Config.objects.filter(system__in=systems).values_list("system_id", "raid_level", "drive_count", "drive_type")
    for system_id, raid_level, drive_count, drive_type in rows:
        stated[(system_id, raid_level, drive_count)].add(drive_type or "")
    return {key: types.pop() for key, types in stated.items() if len(types) == 1}


def _side_filters(asked: SideFilters, shared: SideFilters) -> SideFilters:
    """What narrows one side: its own filters, else those of both sides."""
    return SideFilters(
        asked.raid_level or shared.raid_level,
        asked.drive_count or shared.drive_count,
        asked.cache or shared.cache,
        asked.config_id,
        asked.firmware,
    )


def _matched_comparison(
    a: System,
    b: System,
    runs: tuple[QuerySet[Run], QuerySet[Run]],
    options: ComparisonOptions,
    *,
    label: str | None,
    chosen: bool,
    page: tuple[int | None, int | str],
) -> Comparison:
    """The workloads both sides do, found by what they do (:func:`~portal.analysis.pairing.match_workloads`):
    those of one page read and compared, the others counted."""
    a_runs, b_runs = runs
    family = options.best_of_sizes
    a_sides, b_sides = sides(a_runs, b_runs, family=family)
    matched = sorted(
        match_workloads(
            {key: side.names for key, side in a_sides.items()}, {key: side.names for key, side in b_sides.items()}
        ),
        key=lambda keys: _label(a_sides[keys[0]], b_sides[keys[1]]),
    )
    shown = [keys for keys in matched if label is None or _label(a_sides[keys[0]], b_sides[keys[1]]) == label]
    per_page, page_number = page
    shown_page = Paginator(shown, per_page or max(len(shown), 1)).get_page(page_number)
    compared = [
        SideWorkloads(a, a_sides, [ak for ak, _ in shown_page], a_runs),
        SideWorkloads(b, b_sides, [bk for _, bk in shown_page], b_runs),
    ]
    reading = FigureReading(options.threshold_ms, options.latency, family, RunsOnDemand(latency=options.latency))
    # Figures are told apart by system: two firmware versions of one system are read side by side.
    for filled in [compared[:1], compared[1:]] if a.id == b.id else [compared]:
        fill(filled, reading, best=family)
    workloads = [
        workload_comparison(
            a, b, _label(a_sides[ak], b_sides[bk]), (a_sides[ak].figures, b_sides[bk].figures), options,
            matched_by=MATCHED_BY["name" if "name" in (ak[0], bk[0]) else ak[0]], best=family, chosen=chosen,
            iops_unit=iops_unit((a_sides[ak].measured_by, b_sides[bk].measured_by)),
        )
        for ak, bk in shown_page
    ]  # fmt: skip
    for workload, (ak, bk) in zip(workloads, shown_page, strict=True):
        kinds_sides = (a_runs.filter(a_sides[ak].runs), b_runs.filter(b_sides[bk].runs))
        measured_by = (a_sides[ak].measured_by, b_sides[bk].measured_by)
        with_kinds(workload, kinds_sides, measured_by, options.side_names(a, b))
    compared_as_published(workloads, systems=(a, b), names=options.side_names(a, b), adjust_b=options.adjust_b)
    _offer_thresholds(
        [(workload, ak, bk) for workload, (ak, bk) in zip(workloads, shown_page, strict=True)],
        sides=(a_sides, b_sides), runs=runs, options=options,
    )  # fmt: skip
    a_done, b_done = {ak for ak, _ in matched}, {bk for _, bk in matched}
    return Comparison(
        a=a,
        b=b,
        threshold_ms=options.threshold_ms,
        adjust_b=options.adjust_b,
        workloads=workloads,
        only_a_workloads=sorted(side.name for key, side in a_sides.items() if key not in a_done),
        only_b_workloads=sorted(side.name for key, side in b_sides.items() if key not in b_done),
        latency=options.latency,
        page=shown_page,
    )


def _crosses(workload: WorkloadComparison) -> bool:
    """Whether every compared figure of ``workload`` was read where its curve crosses the threshold."""
    found = [found for row in workload.rows for found in (row.a_figures, row.b_figures) if found is not None]
    over = Status.FIRST_POINT_OVER.words
    if any(replicates.not_reached for replicates in found):
        return False
    return not any(over in sentence for sentence in workload.empty)


def _side_measured(letter: str, ranged: tuple[float, float], threshold_ms: float) -> str:
    """Where side ``letter``'s curve is measured (``ranged``: lowest and highest response time, ms), saying
    when it lies wholly under or over ``threshold_ms``."""
    low, high = ranged
    words = f"{letter}'s curve is measured from {_ms_3(low)} to {_ms_3(high)} ms"
    if low == high:
        words = f"{letter} is measured at one response time, {_ms_3(low)} ms"
    if high < threshold_ms:
        return f"{words}, short of {threshold_ms:g} ms"
    if low > threshold_ms:
        return f"{words}, all over {threshold_ms:g} ms"
    return words


def _ms_3(value: float) -> str:
    """A response time to three significant digits, zeros kept ("0.920", "29.2"), whole from 100 on ("675",
    "1,250"): never "675." or "1.25e+03"."""
    return f"{value:#.3g}" if value < 100 else f"{value:,.0f}"


def _offer_thresholds(
    compared: list[tuple[WorkloadComparison, WorkloadKey, WorkloadKey]],
    *,
    sides: tuple[Sides, Sides],
    runs: tuple[QuerySet[Run], QuerySet[Run]],
    options: ComparisonOptions,
) -> None:
    """For each compared workload (``[(workload, A's key, B's key), ...]``) whose curves do not cross the
    threshold, the response times both sides' curves are measured between and thresholds within them: read
    with the figures, else one query per side, whatever the number of workloads and runs."""
    missing = [
        (workload, a_key, b_key)
        for workload, a_key, b_key in compared
        if not _crosses(workload) and workload.figure_kind.at_threshold
    ]
    if not missing:
        return
    family, latency = options.best_of_sizes, options.latency
    a_keys, b_keys = [a_key for _, a_key, _ in missing], [b_key for _, _, b_key in missing]
    # Away from the stored default the ranges come with the figures: no query.
    a_ranges = figures_measured_ms(sides[0], a_keys)
    b_ranges = figures_measured_ms(sides[1], b_keys)
    if a_ranges is None:
        a_ranges = measured_ms(runs[0], sides[0], a_keys, family=family, latency=latency)
    if b_ranges is None:
        b_ranges = measured_ms(runs[1], sides[1], b_keys, family=family, latency=latency)
    for workload, a_key, b_key in missing:
        workload.no_crossing = True
        if a_key not in a_ranges or b_key not in b_ranges:
            continue
        workload.sides_measured = [
            _side_measured(letter, ranged, options.threshold_ms)
            for letter, ranged in (("A", a_ranges[a_key]), ("B", b_ranges[b_key]))
        ]
        low, high = max(a_ranges[a_key][0], b_ranges[b_key][0]), min(a_ranges[a_key][1], b_ranges[b_key][1])
        if low <= high:
            workload.measured_ms = (low, high)
            workload.thresholds = [value for value in thresholds_within(low, high) if value != options.threshold_ms]


def _label(a_side: Side, b_side: Side) -> str:
    return pair_label(a_side.name, b_side.name)


def _named_any(names: Iterable[str]) -> Q:
    """Runs stored under, or of a workload known by, any of ``names``."""
    found = Q(pk__in=[])
    for name in names:
        found |= named(name=name)
    return found


def _paired_comparison(
    a: System,
    b: System,
    pairs: Sequence[tuple[str, str]],
    runs: tuple[QuerySet[Run], QuerySet[Run]],
    options: ComparisonOptions,
) -> Comparison:
    """The workloads named in ``pairs`` (``[(A's workload name, B's workload name), ...]``) compared."""
    reading = FigureReading(options.threshold_ms, options.latency, False, RunsOnDemand(latency=options.latency))
    a_figures = compared_figures(runs[0].filter(_named_any(a_name for a_name, _ in pairs)), reading, names=True)
    b_figures = compared_figures(runs[1].filter(_named_any(b_name for _, b_name in pairs)), reading, names=True)
    compared = []
    for a_name, b_name in pairs:
        a_found = _replicates_named(a_figures, a_name, latency=options.latency)
        b_found = _replicates_named(b_figures, b_name, latency=options.latency)
        if a_found and b_found:
            label = f"{a_name} vs {b_name}"
            # Workloads paired by hand are of one kind too: metadata rates are not compared with block I/Os.
            sides = (runs[0].filter(named(name=a_name)), runs[1].filter(named(name=b_name)))
            measured_by = (measured_by_of(sides[0]), measured_by_of(sides[1]))
            unit = iops_unit(measured_by)
            found = (a_found, b_found)
            workload = workload_comparison(a, b, label, found, options, matched_by=MATCHED_BY["pair"], iops_unit=unit)
            with_kinds(workload, sides, measured_by, options.side_names(a, b))
            compared.append(workload)
    compared_as_published(compared, systems=(a, b), names=options.side_names(a, b), adjust_b=options.adjust_b)
    return Comparison(
        a=a,
        b=b,
        threshold_ms=options.threshold_ms,
        adjust_b=options.adjust_b,
        workloads=compared,
        only_a_workloads=[a_name for a_name, _ in pairs if not any(a_name in f.names for f in a_figures)],
        only_b_workloads=[b_name for _, b_name in pairs if not any(b_name in f.names for f in b_figures)],
        latency=options.latency,
    )


def _replicates_named(figures: list[ComparedFigure], name: str, *, latency: str) -> list[ReplicateGroup]:
    return [replicates_of(figure, latency=latency) for figure in figures if name in figure.names]


def multi_comparison(
    *,
    candidates: Sequence[System],
    baseline: System,
    query: ComparisonQuery = DEFAULT_QUERY,
    label: str | None = None,
    workloads_per_page: int | None = None,
    viewer: Viewer | None = None,
) -> MultiComparison:
    """Several systems each against one baseline (the papers' predecessor, a buyer's reference),
    through :func:`comparison` with one ``query``, gathered into one table per workload with a row per
    configuration of the baseline: the same numbers as the two-system comparisons. An empty cell says why."""
    pairs = [
        comparison(a=candidate, b=baseline, query=query, label=label, workloads_per_page=workloads_per_page,
                   viewer=viewer)
        for candidate in candidates
    ]  # fmt: skip
    return multi_table(pairs, candidates=candidates, baseline=baseline, threshold_ms=query.threshold_ms)
