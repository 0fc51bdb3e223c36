"""The numbers of the compare page and the white-paper tables, as the API answers them.

The figures come from the same selectors as the pages and the commands (``portal.comparisons.selectors.comparison``,
``portal.exports.presets``); this module only shapes them.
"""

import difflib

from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError

from portal.analysis.pairing import config_key_label
from portal.analysis.tables import Table
from portal.comparisons.selectors import Comparison, comparison
from portal.exports.presets import comparison_tables_from
from portal.exports.views import COMPARISON_TABLES, system_tables
from portal.models import System

from .querysets import systems_for


def system_named(*, user, name: str) -> System:
    """A system given by id or name among those the user may see; 404 naming close matches."""
    name = " ".join(name.split())
    systems = systems_for(user=user)
    found = systems.filter(id=int(name)).first() if name.isdigit() else systems.filter(name__iexact=name).first()
    if found is not None:
        return found
    close = difflib.get_close_matches(name, list(systems.values_list("name", flat=True)), n=5, cutoff=0.4)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise NotFound(f"no system named {name!r}{hint}")


def systems_named(*, user, text: str, at_least: int = 2) -> list[System]:
    names = [name for name in (part.strip() for part in text.split(",")) if name]
    if len(names) < at_least:
        raise ValidationError(
            {"systems": [f"name at least {at_least} systems separated by commas, the baseline first"]}
        )
    return [system_named(user=user, name=name) for name in names]


class CompareQuerySerializer(serializers.Serializer):
    """The compare page's options; ``systems`` lists the baseline first, then the systems compared with it."""

    systems = serializers.CharField(
        help_text="Names or ids separated by commas: the baseline, then one or more others."
    )
    threshold_ms = serializers.FloatField(default=20.0, min_value=0.001, help_text="Average response time, ms.")
    adjust = serializers.FloatField(
        default=1.0, min_value=0.01, max_value=100, help_text="Factor for the baseline's figures (1.05 boosts it 5 %)."
    )
    raid_level = serializers.CharField(required=False, help_text='Only this RAID level, e.g. "RAID-5".')
    cache = serializers.CharField(required=False, help_text='Only this cache setting, e.g. "Write Cache Enabled".')
    drive_count = serializers.IntegerField(required=False, min_value=1)
    workload = serializers.CharField(required=False, help_text="Only this workload (any of its names).")
    pair = serializers.CharField(
        required=False, help_text="OTHER's workload | baseline's workload, e.g. rd1 | Random Reads 8K."
    )
    best = serializers.BooleanField(default=False, help_text="Compare each side's best over transfer sizes.")

    def validate_pair(self, text):
        names = [name.strip() for name in text.split("|")]
        if len(names) != 2 or not all(names):
            raise serializers.ValidationError("write the two workloads separated by |, e.g. rd1 | OLTP 8K")
        return tuple(names)

    def selection(self) -> dict:
        """The keyword arguments of :func:`portal.comparisons.selectors.comparison` but the systems."""
        data = self.validated_data
        return {
            "threshold_ms": data["threshold_ms"],
            "adjust_b": data["adjust"],
            "raid_level": data.get("raid_level") or None,
            "cache": data.get("cache") or None,
            "drive_count": data.get("drive_count"),
            "workload": data.get("workload") or None,
            "pairs": [data["pair"]] if data.get("pair") else [],
            "best_of_sizes": data["best"],
        }


def comparisons(*, baseline: System, others: list[System], selection: dict) -> list[Comparison]:
    """Each other system against the baseline: the compare page's A is the other system, its B the baseline."""
    return [comparison(a=other, b=baseline, **selection) for other in others]


def comparison_data(result: Comparison) -> dict:
    return {
        "system": {"id": result.a.id, "name": result.a.name},
        "workloads": [
            {
                "workload": workload.workload,
                "metric": workload.metric,
                "matched_by": workload.matched_by,
                "rows": [_row_data(row) for row in workload.rows],
                "summaries": workload.summaries,
                "only_system": [config_key_label(key) for key in workload.only_a],
                "only_baseline": [config_key_label(key) for key in workload.only_b],
                "not_compared": workload.ambiguous,
                "cache_choices": workload.cache_choices,
            }
            for workload in result.workloads
        ],
        "only_system_workloads": result.only_a_workloads,
        "only_baseline_workloads": result.only_b_workloads,
    }


def _row_data(row) -> dict:
    welch = row.confidence.welch if row.confidence is not None else None
    return {
        "configuration": row.label,
        "raid_level": row.raid_level,
        "drive_count": row.drive_count_a,
        "baseline_drive_count": row.drive_count_b,
        "cache": row.cache_a,
        "baseline_cache": row.cache_b,
        "value": row.a_value,
        "baseline_value": row.b_value,
        "runs": [figure.run_id for figure in row.a],
        "baseline_runs": [figure.run_id for figure in row.b],
        "improvement_pct": row.pct,
        "p_value": welch.p_value if welch else None,
        "notes": row.notes,
    }


class CompareRowSerializer(serializers.Serializer):
    configuration = serializers.CharField()
    raid_level = serializers.CharField()
    drive_count = serializers.IntegerField(allow_null=True)
    baseline_drive_count = serializers.IntegerField(allow_null=True)
    cache = serializers.CharField()
    baseline_cache = serializers.CharField()
    value = serializers.FloatField(help_text="The system's throughput at the threshold (mean of replicates).")
    baseline_value = serializers.FloatField(help_text="The baseline's, before the adjustment factor.")
    runs = serializers.ListField(child=serializers.IntegerField())
    baseline_runs = serializers.ListField(child=serializers.IntegerField())
    improvement_pct = serializers.FloatField(help_text="(value - baseline x adjust) / (baseline x adjust) x 100.")
    p_value = serializers.FloatField(allow_null=True, help_text="Welch's t-test, where both sides were repeated.")
    notes = serializers.ListField(child=serializers.CharField())


class CompareWorkloadSerializer(serializers.Serializer):
    workload = serializers.CharField()
    metric = serializers.ChoiceField(choices=["iops", "mbps"])
    matched_by = serializers.CharField()
    rows = CompareRowSerializer(many=True)
    summaries = serializers.ListField(child=serializers.CharField())
    only_system = serializers.ListField(child=serializers.CharField())
    only_baseline = serializers.ListField(child=serializers.CharField())
    not_compared = serializers.ListField(child=serializers.CharField())
    cache_choices = serializers.ListField(child=serializers.CharField())


class SystemComparisonSerializer(serializers.Serializer):
    system = serializers.DictField()
    workloads = CompareWorkloadSerializer(many=True)
    only_system_workloads = serializers.ListField(child=serializers.CharField())
    only_baseline_workloads = serializers.ListField(child=serializers.CharField())


class CompareSerializer(serializers.Serializer):
    baseline = serializers.DictField(help_text="id and name")
    threshold_ms = serializers.FloatField()
    adjust = serializers.FloatField()
    comparisons = SystemComparisonSerializer(many=True)


# --- White-paper tables ---------------------------------------------------------------------------

SYSTEM_PRESETS = ("whitepaper", "pivot", "stroke", "jetstress", "orion")
COMPARISON_PRESETS = COMPARISON_TABLES


def tables_of(*, user, preset: str, params) -> tuple[list[Table], str]:
    """The tables of a preset and a file name stem: one system's (``system=``), or a comparison's
    (``systems=baseline,other,...``; ``all`` is the comparison, summary and side-by-side tables)."""
    if preset in SYSTEM_PRESETS:
        system = system_named(user=user, name=params.get("system", "") or _missing("system"))
        tables, _ = system_tables(system, {**params.dict(), "preset": preset})
        return tables, f"{system.name} {preset}"
    query = CompareQuerySerializer(data=params)
    query.is_valid(raise_exception=True)
    baseline, *others = systems_named(user=user, text=query.validated_data["systems"])
    tables = []
    for result in comparisons(baseline=baseline, others=others, selection=query.selection()):
        found = comparison_tables_from(result)
        tables += found if preset == "all" else [found[COMPARISON_TABLES.index(preset) - 1]]
    return tables, f"{' vs '.join(s.name for s in others)} vs {baseline.name} {preset}"


def _missing(name):
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
