"""Figures a catalogue published with no response time, compared as published rather than at a threshold:
IO500's phases (ior-easy-write against ior-easy-write, ...) and its score.

A run of one published point whose point states no response time and whose run states none it was published
at (:func:`without_response_time`) has the same figure at any threshold: the comparison states it as
published, with the unit its file states (GiB/s, kIOPS) and the file it was read from, never "at 20 ms".
IO500's score is compared by the score itself and its bandwidth and metadata sub-scores, not by the metadata
sub-score the table's row holds (the score run's rate)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from portal import formatting
from portal.analysis.compare import improvement_size
from portal.models import Point, Run, System

from .comparison import WorkloadComparison

IO500 = "IO500"
IO500_SCORE = "IO500 score"
AS_PUBLISHED = "as published (no response time)"


@dataclass(frozen=True)
class PublishedFigure:
    """A run's one published point with no response time: what the file states, and where it was read."""

    run_id: int
    tool: str
    name: str
    metrics: dict[str, Any]
    citation: str


def without_response_time(run_ids: Sequence[int]) -> dict[int, PublishedFigure]:
    """The runs of ``run_ids`` whose figure has no response time (published, one point, none stated), by id,
    with their point's metrics and their citation: one query."""
    points = (
        Point.objects.filter(
            run_id__in=list(run_ids),
            run__origin=Run.Origin.PUBLISHED,
            run__published_at_ms__isnull=True,
            avg_response_ms__isnull=True,
        )
        .exclude(run__points__seq__gt=0)
        .values_list("run_id", "run__tool", "run__name", "metrics", "run__citation_document",
                     "run__citation_table", "run__citation_note", named=True)
    )  # fmt: skip
    return {
        point.run_id: PublishedFigure(
            point.run_id,
            point.run__tool,
            point.run__name,
            point.metrics or {},
            ", ".join(
                part
                for part in (point.run__citation_document, point.run__citation_table, point.run__citation_note)
                if part
            ),
        )
        for point in points
    }


def compared_as_published(
    workloads: list[WorkloadComparison],
    *,
    systems: tuple[System, System],
    names: tuple[str, str],
    adjust_b: float = 1.0,
) -> None:
    """State each compared workload whose figures are all IO500's, published with no response time, as IO500
    published them (:func:`io500_as_published`); the others are left as read at the threshold. Nothing is read
    unless both systems have IO500 runs (their ``run_tools``); ``adjust_b`` multiplies B's figures, as in the
    table."""
    if not all(IO500 in (system.run_tools or ()) for system in systems):
        return
    ids = [figure.run_id for workload in workloads for row in workload.rows for figure in (*row.a, *row.b)]
    if not ids:
        return
    published = without_response_time(ids)
    for workload in workloads:
        sides = [[published.get(figure.run_id) for figure in side] for row in workload.rows for side in (row.a, row.b)]
        if workload.rows and all(side and all(f is not None and f.tool == IO500 for f in side) for side in sides):
            io500_as_published(workload, published, names=names, adjust_b=adjust_b)


def io500_as_published(
    workload: WorkloadComparison,
    published: dict[int, PublishedFigure],
    *,
    names: tuple[str, str],
    adjust_b: float = 1.0,
) -> None:
    """IO500's figures as published: each row noting each side's figure in its file's unit and its citation,
    the score compared by the score and both sub-scores."""
    workload.as_published = AS_PUBLISHED
    said = []
    for row in workload.rows:
        a, b = published[row.a[0].run_id], published[row.b[0].run_id]
        if a.name == IO500_SCORE:
            said.append(_score_sentence(a, b, names, adjust_b))
            row.notes.append(
                "the table's figure is the metadata sub-score (operations per second); the score and the bandwidth "
                "sub-score are compared in the summary"
            )
        else:
            said.append(_phase_sentence(workload.workload, a, b, names, adjust_b))
        row.notes.extend(
            f"{name}: {_stated(figure)}, {figure.citation}" for name, figure in zip(names, (a, b), strict=True)
        )
    adjusted = f" (B's figures multiplied by {adjust_b:g})" if adjust_b != 1 else ""
    workload.summaries = [sentence + adjusted for sentence in said]


def _stated(figure: PublishedFigure) -> str:
    """A figure as IO500's file states it: "the IO500 phase figure as published, 1,313.924246 GiB/s"."""
    metrics = figure.metrics
    what = formatting.published_as(tool=figure.tool, run_name=figure.name, published=True) + " as published"
    if figure.name == IO500_SCORE:
        return f"{what}, {_printed(metrics.get('score'))}"
    if metrics.get("gib_per_s") is not None:
        return f"{what}, {_printed(metrics['gib_per_s'])} GiB/s"
    return f"{what}, {_printed(metrics.get('kiops'))} kIOPS"


def _printed(value: float | None) -> str:
    """A published figure with every digit stored from the file ("1,313.924246", "247.89888")."""
    return formatting.NO_FIGURE if value is None else f"{value:,}"


def _change(a: float | None, b: float | None, adjust_b: float) -> str:
    """How A's figure compares with B's (times ``adjust_b``), in the tables' words ("34.4 % higher"); '' when B's
    is missing or 0."""
    if a is None or b is None or b * adjust_b == 0:
        return ""
    pct = (a - b * adjust_b) / (b * adjust_b) * 100
    return f"{improvement_size(pct)} % {'higher' if pct >= 0 else 'lower'}"


def _phase_sentence(phase: str, a: PublishedFigure, b: PublishedFigure, names: tuple[str, str], adjust_b: float) -> str:
    key, unit = ("gib_per_s", "GiB/s") if a.metrics.get("gib_per_s") is not None else ("kiops", "kIOPS")
    a_value, b_value = a.metrics.get(key), b.metrics.get(key)
    change = _change(a_value, b_value, adjust_b)
    how = f" is {change} than" if change else " against"
    return (
        f"{names[0]}'s {phase}{how} {names[1]}'s, the IO500 phase figures as published (no response time): "
        f"{_printed(a_value)} {unit} against {_printed(b_value)} {unit}"
    )


def _score_sentence(a: PublishedFigure, b: PublishedFigure, names: tuple[str, str], adjust_b: float) -> str:
    parts = []
    for what, key, unit in (
        ("bandwidth sub-score", "bandwidth_gib_per_s", " GiB/s"),
        ("metadata sub-score", "metadata_kiops", " kIOPS"),
    ):
        a_value, b_value = a.metrics.get(key), b.metrics.get(key)
        change = _change(a_value, b_value, adjust_b)
        parts.append(
            f"{what} {_printed(a_value)}{unit} against {_printed(b_value)}{unit}" + (f" ({change})" if change else "")
        )
    change = _change(a.metrics.get("score"), b.metrics.get("score"), adjust_b)
    how = f" is {change} than" if change else " against"
    return (
        f"{names[0]}'s IO500 score{how} {names[1]}'s, as published (no response time): "
        f"{_printed(a.metrics.get('score'))} against {_printed(b.metrics.get('score'))}; " + "; ".join(parts)
    )
