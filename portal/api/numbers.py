"""The numbers of the compare page and the white-paper tables, as the API answers them.

The API reads a comparison's parameters with the compare page's own form and calls the selectors the
page, the exports and the commands call (``portal.comparisons.selectors``, ``portal.publishing.comparison_tables``), so
the numbers and how each was obtained are the page's; this module only shapes them.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NoReturn

from django.http import QueryDict
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError

from portal.analysis.curves import Status
from portal.analysis.pairing import config_key_label
from portal.analysis.tables import Table
from portal.comparisons import sentences
from portal.comparisons.query import PARAMETERS, ComparisonQuery
from portal.comparisons.selectors import Comparison, ComparisonRow, multi_comparison
from portal.curation.selectors import compared_workload_aliases
from portal.errors import form_error
from portal.models import System
from portal.publishing.comparison_tables import comparison_tables_from
from portal.publishing.multi_tables import multi_comparison_table
from portal.publishing.parameters import COMPARISON_TABLES, PRESETS, SYSTEM_PRESET_PARAMETERS, system_tables
from portal.results.selectors import LATENCIES
from portal.systems.selectors import system_by_name
from portal.teams.selectors import Viewer

from .parameters import COMPARE_HINTS, PAGED_PARAMETERS, ThresholdQuery, parameters_known
from .querysets import systems_for
from .serializers import FigureKindSerializer, SystemRefSerializer

# As the compare page: systems compared with one baseline at once, and workloads compared a page.
MAX_COMPARED = 5
WORKLOADS_PER_PAGE = 10


def system_named(*, user: Viewer, name: str) -> System:
    """A system given by id or by name among those the user may see, found by name as the compare page
    finds it (a team's own system before a published one of the same name); 404 naming close matches."""
    name = " ".join(name.split())
    if name.isdigit():
        found = systems_for(user=user).filter(id=int(name)).first()
        if found is None:
            raise NotFound(f"no system #{name}")
        return found
    return system_by_name(name=name, viewer=user)


@dataclass
class CompareQuery:
    """A comparison asked for with the compare page's parameters: each system A against the baseline B."""

    candidates: list[System]
    b: System
    query: ComparisonQuery
    # Who asks: workloads are also found, and named, by the names their teams gave them (as on the page).
    viewer: Viewer | None = None


def compare_query(*, user: Viewer, params: QueryDict, allowed: Iterable[str] = PAGED_PARAMETERS) -> CompareQuery:
    """The compare page's parameters read by its own form: ``a`` (up to five, each against B), ``b``
    (the baseline), ``threshold_ms``, ``latency``, ``adjust_b``, the filters, ``pair``, ``best``, ``wpage``."""
    parameters_known(params, allowed=allowed, hints=COMPARE_HINTS)
    names = [name.strip() for name in params.getlist("a") if name.strip()]
    if len(names) > MAX_COMPARED:
        raise ValidationError({"a": [f"at most {MAX_COMPARED} systems against one baseline; got {len(names)}."]})
    query = ComparisonQuery.from_params(params)
    candidates = [system_named(user=user, name=name) for name in query.a_names]
    return CompareQuery(candidates, system_named(user=user, name=query.b_name), query, user)


def comparisons(asked: CompareQuery, *, paged: bool = True) -> list[Comparison]:
    """Each system A against the baseline B, as the compare page compares them (``paged``: its page
    ``asked.query.page`` of workloads, :data:`WORKLOADS_PER_PAGE` a page)."""
    pairs = multi_comparison(
        candidates=asked.candidates,
        baseline=asked.b,
        query=asked.query,
        workloads_per_page=WORKLOADS_PER_PAGE if paged else None,
        viewer=asked.viewer,
    ).pairs
    for result in pairs:
        compared_workload_aliases(workloads=result.workloads, viewer=asked.viewer)
    return pairs


def compare_data(asked: CompareQuery, results: list[Comparison]) -> dict:
    return {
        "b": _system_ref(asked.b),
        "threshold_ms": asked.query.threshold_ms,
        "latency": asked.query.latency,
        "adjust_b": asked.query.adjust_b,
        "comparisons": [comparison_data(result) for result in results],
    }


def _system_ref(system: System) -> dict:
    return {"id": system.id, "name": system.name}


def comparison_data(result: Comparison) -> dict:
    page = result.page
    return {
        "a": _system_ref(result.a),
        "workloads": [
            {
                "workload": workload.workload,
                # The name the asking reader's team gave this workload ('' when none), as the page heads it.
                "team_name": getattr(workload, "team_name", ""),
                "metric": workload.metric,
                "figure": {
                    "kind": workload.figure_kind.key,
                    "words": workload.figure_kind.words,
                    "unit": workload.figure_kind.unit,
                    "at_threshold": workload.figure_kind.at_threshold,
                },
                "training": workload.training,
                "rates": workload.rates,
                "matched_by": workload.matched_by,
                "rows": [_row_data(row, result.threshold_ms) for row in workload.rows],
                "summaries": workload.summaries,
                "as_published": workload.as_published,
                "only_a": [config_key_label(key) for key in workload.only_a],
                "only_b": [config_key_label(key) for key in workload.only_b],
                "not_compared": workload.ambiguous,
                "cache_choices": workload.cache_choices,
            }
            for workload in result.workloads
        ],
        "workload_page": {"number": page.number, "pages": page.paginator.num_pages, "workloads": page.paginator.count}
        if page is not None
        else None,
        "only_a_workloads": result.only_a_workloads,
        "only_b_workloads": result.only_b_workloads,
    }


def _row_data(row: ComparisonRow, threshold_ms: float) -> dict:
    welch = getattr(row.confidence, "welch", None)
    return {
        "configuration": row.label,
        "raid_level": row.raid_level,
        "drive_count_a": row.drive_count_a,
        "drive_count_b": row.drive_count_b,
        "cache_a": row.cache_a,
        "cache_b": row.cache_b,
        "a": _side_data(row.a_value, row.a),
        "b": _side_data(row.b_value, row.b),
        # The improvement as the page and the sentences state it, never a difference of two lower bounds.
        "improvement_pct": row.stated_pct,
        "improvement_bound": sentences.IMPROVEMENT_BOUNDS.get(row.pct_mark or ""),
        "improvement_not_stated": sentences.improvement_not_stated(row, threshold_ms),
        "p_value": welch.p_value if welch else None,
        "notes": row.notes,
    }


def _side_data(value: float, figures: list) -> dict:
    """One side of a row: its value (the mean of its figures), how it was obtained, and each figure."""
    status = side_status(figure.status for figure in figures)
    statuses = dict.fromkeys(Status(figure.status) for figure in figures)
    return {
        "value": value,
        "status": status,
        "status_text": Status(status).words if status else "; ".join(found.words for found in statuses),
        "figures": [
            {
                "run": figure.run_id,
                "value": figure.value,
                "status": figure.status,
                "status_text": Status(figure.status).words,
            }
            for figure in figures
        ],
    }


def side_status(statuses: Iterable[str]) -> str | None:
    """How a mean of figures was obtained: as each was when they agree; a lower bound when any is (the
    mean of a lower bound is one); None when they were obtained in different ways (each figure says)."""
    found = set(statuses)
    if len(found) == 1:
        return found.pop()
    return str(Status.NOT_REACHED) if Status.NOT_REACHED in found else None


STATUSES = [str(status) for status in Status]
STATUS_HELP = (
    "How the figure was obtained, as the compare page says it: interpolated (between two measured points), "
    "measured (a point at the threshold), not_reached (no point reached it: the best point, a lower bound), "
    "first_point_over (over it at the lowest load: no value), single_point (a published figure, at the "
    "threshold its paper states), no_data."
)


class CompareFigureSerializer(serializers.Serializer):
    run = serializers.IntegerField()
    value = serializers.FloatField(help_text="IOPS, or MB/s (10^6 bytes/s), as the workload's metric says.")
    status = serializers.ChoiceField(choices=STATUSES, help_text=STATUS_HELP)
    status_text = serializers.CharField(help_text="The status in the compare page's words.")


class CompareSideSerializer(serializers.Serializer):
    value = serializers.FloatField(help_text="The mean of the side's figures (its replicates), before adjust_b.")
    status = serializers.ChoiceField(
        choices=STATUSES,
        allow_null=True,
        help_text="The figures' status when they agree; not_reached when any is a lower bound (so is their "
        "mean); null when they were obtained in different ways (each figure says how).",
    )
    status_text = serializers.CharField(help_text="The status in the compare page's words (each one's when mixed).")
    figures = CompareFigureSerializer(many=True)


class CompareRowSerializer(serializers.Serializer):
    configuration = serializers.CharField(help_text="As the compare page's row heading.")
    raid_level = serializers.CharField()
    drive_count_a = serializers.IntegerField(allow_null=True)
    drive_count_b = serializers.IntegerField(allow_null=True)
    cache_a = serializers.CharField()
    cache_b = serializers.CharField()
    a = CompareSideSerializer(help_text="System A's throughput at the threshold.")
    b = CompareSideSerializer(help_text="The baseline B's, before the adjustment factor.")
    improvement_pct = serializers.FloatField(
        allow_null=True,
        help_text="(A - B x adjust_b) / (B x adjust_b) x 100, as the compare page states it: null where it states "
        "no difference (improvement_not_stated says why); a bound where improvement_bound says so.",
    )
    improvement_bound = serializers.ChoiceField(
        choices=list(sentences.IMPROVEMENT_BOUNDS.values()),
        allow_null=True,
        help_text="null: both figures read at the threshold, improvement_pct is the improvement. at_most: B's "
        "figure is a lower bound (its best point), the improvement is improvement_pct or less (the page's "
        "'≤'). at_least: A's is, the improvement is improvement_pct or more ('≥').",
    )
    improvement_not_stated = serializers.CharField(
        help_text="Why improvement_pct is null, in the page's words ('' where it is not): neither figure reaches "
        "the threshold, a figure published at another threshold, or B's figure is 0."
    )
    p_value = serializers.FloatField(allow_null=True, help_text="Welch's t-test, where both sides were repeated.")
    notes = serializers.ListField(child=serializers.CharField())


class CompareWorkloadSerializer(serializers.Serializer):
    workload = serializers.CharField()
    team_name = serializers.CharField(help_text="The name the asking reader's team gave the workload ('' if none).")
    metric = serializers.ChoiceField(choices=["iops", "mbps"])
    figure = FigureKindSerializer(help_text="What both sides' figures count; a workload of two kinds is not compared.")
    training = serializers.ListField(
        child=serializers.CharField(),
        help_text="AI training throughputs compared as MLPerf Storage states them: accelerators supported at the "
        "utilisation rule, throughput and throughput per accelerator ([] for other workloads).",
    )
    rates = serializers.ListField(
        child=serializers.CharField(),
        help_text="Rates of other operations than I/Os that state no response time (mdtest, fs_mark), compared as "
        "measured ([] where figures are read at the threshold).",
    )
    matched_by = serializers.CharField()
    rows = CompareRowSerializer(many=True)
    summaries = serializers.ListField(child=serializers.CharField())
    as_published = serializers.CharField(
        help_text="How figures published with no response time (IO500's) are compared, in place of the threshold: "
        "'as published (no response time)'; '' where they are read at the threshold."
    )
    only_a = serializers.ListField(child=serializers.CharField(), help_text="Configurations only A has.")
    only_b = serializers.ListField(child=serializers.CharField(), help_text="Configurations only B has.")
    not_compared = serializers.ListField(child=serializers.CharField())
    cache_choices = serializers.ListField(child=serializers.CharField())


class WorkloadPageSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="This page (wpage).")
    pages = serializers.IntegerField()
    workloads = serializers.IntegerField(help_text="Workloads both systems have, on every page.")


class SystemComparisonSerializer(serializers.Serializer):
    a = SystemRefSerializer()
    workloads = CompareWorkloadSerializer(many=True)
    workload_page = WorkloadPageSerializer(allow_null=True, help_text="null when pair= compares named workloads.")
    only_a_workloads = serializers.ListField(child=serializers.CharField())
    only_b_workloads = serializers.ListField(child=serializers.CharField())


class CompareSerializer(serializers.Serializer):
    b = SystemRefSerializer(help_text="The baseline.")
    threshold_ms = serializers.FloatField()
    latency = serializers.ChoiceField(choices=list(LATENCIES), help_text="What the threshold applies to.")
    adjust_b = serializers.FloatField()
    comparisons = SystemComparisonSerializer(many=True, help_text="One per system A, in the order given.")


# --- White-paper tables ---------------------------------------------------------------------------

SYSTEM_PRESETS = PRESETS  # the tools' presets among them (portal/tools/)
COMPARISON_PRESETS = COMPARISON_TABLES

SYSTEM_PRESET_HINTS = {
    "latency": "the jetstress, orion and sizing tables read no figure at a threshold's latency; whitepaper, "
    f"pivot, stroke and the comparison presets ({', '.join(COMPARISON_PRESETS)}) take latency"
}
# Tables of two systems only: several systems against B make one table of their own.
TWO_SYSTEM_PRESETS = ("summary", "side_by_side")


def tables_of(*, user: Viewer, preset: str, params: QueryDict) -> tuple[list[Table], str]:
    """The tables of a preset and a file name stem: one system's (``system=``), or a comparison's, with
    the compare page's parameters (``all`` is the comparison, summary and side-by-side tables; several
    ``a`` make the one table of several systems against B, as ``/export/comparison/`` does)."""
    if preset in SYSTEM_PRESETS:
        parameters_known(params, allowed=SYSTEM_PRESET_PARAMETERS[preset], hints=SYSTEM_PRESET_HINTS)
        threshold = ThresholdQuery({"threshold_ms": params.get("threshold_ms", "")})
        if not threshold.is_valid():
            raise form_error(threshold)
        system = system_named(user=user, name=params.get("system", "") or _missing("system"))
        tables, _ = system_tables(system, {**params.dict(), "preset": preset})
        return tables, f"{system.name} {preset}"
    asked = compare_query(user=user, params=params, allowed=PARAMETERS)
    names = " ".join(system.name for system in asked.candidates)
    if len(asked.candidates) > 1:
        if preset in TWO_SYSTEM_PRESETS:
            raise ValidationError(
                {"a": [f"the {preset} table compares two systems: name one a, or ask for comparison."]}
            )
        multi = multi_comparison(candidates=asked.candidates, baseline=asked.b, query=asked.query)
        return [multi_comparison_table(multi)], f"{names} vs {asked.b.name}"
    found = comparison_tables_from(comparisons(asked, paged=False)[0])
    tables = found if preset == "all" else [found[COMPARISON_TABLES.index(preset) - 1]]
    return tables, f"{names} vs {asked.b.name} {preset}"


def _missing(name: str) -> NoReturn:
    raise ValidationError({name: ["required: a system's name or id"]})


def table_data(table: Table) -> dict:
    return {
        "title": table.title,
        "corner": [list(line) for line in table.corner],
        "column_groups": [
            {"label": group.label, "columns": [column.label for column in group.columns]}
            for group in table.column_groups
        ],
        "rows": [{"headers": list(row.headers), "cells": list(row.cells)} for row in table.rows],
        "footnotes": list(table.footnotes),
        "text": table.text_grid(),
    }


class TableColumnGroupSerializer(serializers.Serializer):
    # A declared field, which DRF's metaclass takes off the class; the stubs see Field.label instead.
    label = serializers.CharField()  # type: ignore[assignment]
    columns = serializers.ListField(child=serializers.CharField())


class TableRowSerializer(serializers.Serializer):
    headers = serializers.ListField(child=serializers.CharField())
    cells = serializers.ListField(
        child=serializers.FloatField(allow_null=True), help_text="One per column; null is N/A."
    )


class TableSerializer(serializers.Serializer):
    title = serializers.CharField()
    corner = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="The text above the row headers: the group-header line and the column-header line.",
    )
    column_groups = TableColumnGroupSerializer(many=True)
    rows = TableRowSerializer(many=True)
    footnotes = serializers.ListField(child=serializers.CharField())
    text = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()), help_text="Every line as the paper prints it."
    )


class TablesSerializer(serializers.Serializer):
    tables = TableSerializer(many=True)
