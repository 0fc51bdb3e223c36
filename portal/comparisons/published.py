"""Figures stated with no response time, compared as stated rather than at a threshold: IO500's phases
(ior-easy-write against ior-easy-write, ...) and its score, as a catalogue published them or as a lab measured
them (its own upload of IO500's files).

A run of one published point whose point states no response time and whose run states none it was published
at, or a measured IO500 run with none (:func:`without_response_time`), has the same figure at any threshold: the
comparison states it as published or as measured, with the unit its file states (GiB/s, kIOPS) and, published,
the file it was read from, never "at 20 ms".
IO500's score is compared by the score itself and its bandwidth and metadata sub-scores: the table's row, its
bar and its export cell hold the score (the point's ``metrics["score"]``, a figure of its own kind,
:data:`~portal.analysis.figure_kinds.IO500_SCORE`), not the score run's rate (its metadata sub-score)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from portal import formatting
from portal.analysis.compare import improvement_pct, improvement_size
from portal.analysis.figure_kinds import stated_kind
from portal.models import Point, Run, System
from portal.results.as_is import IO500

from .comparison import NO_RESPONSE_TIME, ComparisonRow, WorkloadComparison
from .figures import measured_as_is_of

IO500_SCORE = "IO500 score"


@dataclass(frozen=True)
class PublishedFigure:
    """A run's one point with no response time, published or measured: what the file states, and where a
    published one was read."""

    run_id: int
    tool: str
    name: str
    metrics: dict[str, Any]
    citation: str
    measured: bool = False

    @property
    def stated_as(self) -> str:
        """ "as measured" (a lab's own upload) or "as published" (a catalogue's)."""
        return "as measured" if self.measured else "as published"


def without_response_time(run_ids: Sequence[int]) -> dict[int, PublishedFigure]:
    """The runs of ``run_ids`` whose figure has no response time (one point, none stated: published, or a
    measured IO500 run), by id, with their point's metrics and a published one's citation: one query."""
    published = Q(run__origin=Run.Origin.PUBLISHED, run__published_at_ms__isnull=True)
    points = (
        Point.objects.filter(published | measured_as_is_of("run"), run_id__in=list(run_ids),
                             avg_response_ms__isnull=True)
        .exclude(run__points__seq__gt=0)
        .values_list("run_id", "run__tool", "run__name", "metrics", "run__citation_document",
                     "run__citation_table", "run__citation_note", "run__origin", named=True)
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
            measured=point.run__origin == Run.Origin.MEASURED,
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
    """IO500's figures as published or measured: each row noting each side's figure in its file's unit and a
    published one's citation, the score compared by the score and both sub-scores. A lab's own upload against a
    catalogue's submission is stated "as measured / as published" (A's, then B's)."""
    said = []
    for row in workload.rows:
        a, b = published[row.a[0].run_id], published[row.b[0].run_id]
        stated = stated_as(a, b)
        workload.as_published = stated + NO_RESPONSE_TIME
        if a.name == IO500_SCORE:
            figure = "the IO500 score" if _score_row(workload, row, (a, b), adjust_b) else "the metadata sub-score"
            said.append(_score_sentence(a, b, names, adjust_b))
            row.notes.append(
                f"the table's figure is {figure}; the score and its sub-scores are compared in the summary"
            )
        else:
            said.append(_phase_sentence(workload.workload, a, b, names, adjust_b))
        row.notes.extend(
            ", ".join(part for part in (f"{name}: {_stated(figure)}", figure.citation) if part)
            for name, figure in zip(names, (a, b), strict=True)
        )
    adjusted = f" (B's figures multiplied by {adjust_b:g})" if adjust_b != 1 else ""
    workload.summaries = [sentence + adjusted for sentence in said]


def _score_row(
    workload: WorkloadComparison, row: ComparisonRow, sides: tuple[PublishedFigure, PublishedFigure], adjust_b: float
) -> bool:
    """Put each side's IO500 score (its point's ``metrics["score"]``) in ``row`` and its figures in place of the
    score run's rate (the metadata sub-score), so the table, the bars and the exports state the score, headed
    by its own unit; the improvement is A's score over B's (times ``adjust_b``). False, and left as it is (the
    metadata sub-score), where a side's file states no score."""
    a, b = sides
    kind = stated_kind(tool=a.tool, run_name=a.name)
    a_score, b_score = a.metrics.get("score"), b.metrics.get("score")
    if kind is None or a_score is None or b_score is None:
        return False
    workload.kind = kind
    row.a_value, row.b_value = a_score, b_score
    row.pct = improvement_pct(a_score, b_score, adjust_b=adjust_b) if b_score * adjust_b > 0 else None
    for figures, score in ((row.a, a_score), (row.b, b_score)):
        for figure in figures:
            figure.value = score
    return True


def stated_as(a: PublishedFigure, b: PublishedFigure) -> str:
    """How two sides' figures are stated: "as published", "as measured", or each side's, A's first ("as measured
    / as published": a lab's own upload against a catalogue's submission)."""
    return a.stated_as if a.stated_as == b.stated_as else f"{a.stated_as} / {b.stated_as}"


def _stated(figure: PublishedFigure) -> str:
    """A figure as IO500's file states it: "the IO500 phase figure as published, 1,313.924246 GiB/s"."""
    metrics = figure.metrics
    name = formatting.published_as(tool=figure.tool, run_name=figure.name, published=True)
    what = f"{name} {figure.stated_as}"
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
        f"{names[0]}'s {phase}{how} {names[1]}'s, the IO500 phase figures {stated_as(a, b)}{NO_RESPONSE_TIME}: "
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
        f"{names[0]}'s IO500 score{how} {names[1]}'s, {stated_as(a, b)}{NO_RESPONSE_TIME}: "
        f"{_printed(a.metrics.get('score'))} against {_printed(b.metrics.get('score'))}; " + "; ".join(parts)
    )
