"""What each compared workload's figures count (:mod:`portal.analysis.figure_kinds`): a workload whose two
sides count different things (metadata operations against block I/Os) is not compared, and AI training
throughputs are compared as MLPerf Storage states them, by the accelerators each system supports at the
benchmark's utilisation rule and the throughput, not at a response time."""

from django.db.models import Avg, Count, Q, QuerySet, TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from portal import formatting
from portal.analysis.figure_kinds import (
    FILES_CREATED,
    METADATA_OPERATIONS,
    OBJECT_OPERATIONS,
    TRAINING_THROUGHPUT,
    FigureKind,
    figure_kind,
)
from portal.models import Point, Run
from portal.results.kinds import TrainingFigures, training_figures

from .comparison import WorkloadComparison

# Rates of operations other than I/Os: their tools (mdtest, fs_mark, bonnie++'s file tests) state no response
# time, so no figure is read at a threshold and the measured rates are compared as measured.
RATES = (METADATA_OPERATIONS, FILES_CREATED, OBJECT_OPERATIONS)


def side_kinds(measured_by: set[tuple[str, str, str]], metric: str) -> set[FigureKind]:
    """The kinds of figure in ``metric`` of one side's runs, by what measured them (tool, ``params.figure``,
    workload name: :attr:`~portal.comparisons.loading.Side.measured_by`)."""
    return {
        figure_kind(tool=tool, params={"figure": figure}, workload_name=name, metric=metric)
        for tool, figure, name in measured_by
    }


def iops_unit(measured_by: tuple[set[tuple[str, str, str]], set[tuple[str, str, str]]]) -> str | None:
    """The unit of the operations both sides count where they are of one kind and a rate of other operations
    than I/Os (:data:`RATES`: "object ops/s", "metadata ops/s", "files/s"), for the sentences and notes that
    state a figure; None otherwise."""
    a_kinds, b_kinds = (side_kinds(measured, "iops") for measured in measured_by)
    kind = next(iter(a_kinds)) if len(a_kinds) == 1 and a_kinds == b_kinds else None
    return kind.unit if kind in RATES else None


def measured_by_of(runs: QuerySet[Run]) -> set[tuple[str, str, str]]:
    """What measured ``runs`` (tool, ``params.figure``, workload name), read in one query: for workloads
    paired by hand, whose runs are not read with their workloads."""
    found = runs.order_by().annotate(figure=Coalesce(KT("params__figure"), Value(""), output_field=TextField()))
    return set(found.values_list("tool", "figure", "workload_name").distinct())


def with_kinds(
    workload: WorkloadComparison,
    sides: tuple[QuerySet[Run], QuerySet[Run]],
    measured_by: tuple[set[tuple[str, str, str]], set[tuple[str, str, str]]],
    names: tuple[str, str],
) -> None:
    """Name ``workload``'s kind of figure from what measured both sides' runs (``measured_by``: tool, stated
    figure, workload name); leave it uncompared where they count different things; compare rates that state
    no response time as measured, and AI training throughputs as MLPerf Storage does, from the runs
    ``sides``."""
    a_kinds, b_kinds = (side_kinds(measured, workload.metric) for measured in measured_by)
    if len(a_kinds) == len(b_kinds) == 1 and a_kinds == b_kinds:
        workload.kind = next(iter(a_kinds))
    elif a_kinds and b_kinds and a_kinds != b_kinds:
        a_words, b_words = (" and ".join(sorted(kind.words for kind in kinds)) for kinds in (a_kinds, b_kinds))
        said = (
            f"Not compared: {names[0]}'s figures are {a_words}, {names[1]}'s {b_words}; figures of different kinds"
            " are not compared."
        )
        workload.rows, workload.summaries, workload.empty, workload.printed_empty = [], [], [said], [said]
        return
    if workload.kind in RATES and not workload.rows:
        said = rates_sentence(workload.kind, *sides, names=names, metric=workload.metric)
        if said:
            workload.rates = [said]
            workload.summaries = [said, *workload.summaries]
    if workload.kind == TRAINING_THROUGHPUT:
        a, b = (supported(runs) for runs in sides)
        if a is not None and b is not None:
            workload.training = [training_sentence(a, b, names)]
            workload.summaries = list(workload.training)


def supported(runs: QuerySet[Run]) -> TrainingFigures | None:
    """A side's training figures: those of its run supporting the most accelerators among those that met the
    utilisation rule (the figure MLPerf Storage submissions are compared by), None where it has none."""
    passed = runs.filter(Q(verdict="pass") | Q(verdict__isnull=True) | Q(verdict=""))
    found = [training_figures(run, next(iter(run.points.all()), None)) for run in passed.prefetch_related("points")]
    found = [figures for figures in found if figures.accelerators]
    return max(found, key=lambda figures: (figures.accelerators or 0, figures.mbps or 0), default=None)


def training_sentence(a: TrainingFigures, b: TrainingFigures, names: tuple[str, str]) -> str:
    """ "A supports 255 accelerators (unet3d, h100) at 729,264 MB/s, ...; B 255 accelerators ... : throughput
    +15.9 %, accelerators supported +0.0 %, throughput per accelerator +15.9 %"."""
    changes = [
        (what, _change(a_value, b_value))
        for what, a_value, b_value in (
            ("throughput", a.mbps, b.mbps),
            ("accelerators supported", a.accelerators, b.accelerators),
            ("throughput per accelerator", a.mbps_per_accelerator, b.mbps_per_accelerator),
        )
    ]
    stated = ", ".join(f"{what} {change}" for what, change in changes if change)
    a_words, b_words = (f"{side.words()}{f' (cited: {side.citation})' if side.citation else ''}" for side in (a, b))
    return (
        f"{names[0]} supports {a_words}; {names[1]} {b_words}. {names[0]} against {names[1]}: {stated}"
        " (at the benchmark's utilisation rule, no response-time threshold)."
    )


def _change(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return ""
    return formatting.improvement((a - b) / b * 100)


def rates_sentence(
    kind: FigureKind, a_runs: QuerySet[Run], b_runs: QuerySet[Run], *, names: tuple[str, str], metric: str
) -> str:
    """Each side's mean measured rate of the points that state no response time, and A's difference from B
    ('' where a side has none): "A 8,252,637 metadata ops/s (mean of 1 point), B 49,741 metadata ops/s (mean of
    1 point): A +16,491.0 % against B (no response time was measured, so none is read at a threshold)"."""
    found = []
    for runs in (a_runs, b_runs):
        points = Point.objects.filter(run__in=runs, avg_response_ms__isnull=True, **{f"{metric}__isnull": False})
        summed = points.aggregate(mean=Avg(metric), n=Count("id"))
        if not summed["n"]:
            return ""
        found.append((summed["mean"], summed["n"]))
    (a_mean, a_n), (b_mean, b_n) = found
    sides = ", ".join(
        f"{name} {formatting.throughput(mean, metric, unit=kind.unit)} (mean of {formatting.count(n, 'point')})"
        for name, (mean, n) in zip(names, found, strict=True)
    )
    change = _change(a_mean, b_mean)
    against = f": {names[0]} {change} against {names[1]}" if change else ""
    unmeasured = "no response time was measured, so none is read at a threshold"
    return f"{kind.words.capitalize()} as measured: {sides}{against} ({unmeasured})."
