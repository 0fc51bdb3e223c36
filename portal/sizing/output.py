"""The sizing answer as the API and ``size --json`` give it, and as tables for the exports."""

from collections.abc import Mapping
from typing import Any

from portal import formatting
from portal.analysis.tables import Column, ColumnGroup, Row, Table
from portal.errors import NotFoundError, form_error
from portal.models import System

from .answers import ONE_DECIMAL, WHOLE, Sizing, SweepSizing
from .forms import SizingQuestionForm
from .selectors import sizing_answer


def sizing_data(system: System, answer: Sizing) -> dict[str, Any]:
    """The answer as the API and ``size --json`` give it: figures as numbers and the same sentences."""
    return {
        "system": system.name,
        "sweeps": [_sweep_data(sweep) for sweep in answer.sweeps],
        "estimate": None
        if answer.estimate is None
        else {
            "how": "estimate from the back-end formula",
            "workload": answer.estimate.workload,
            "backend_iops": answer.estimate.backend.backend_iops,
            "write_penalty": answer.estimate.backend.write_penalty,
            "per_drive_iops": answer.estimate.backend.per_drive_iops,
            "drives": answer.estimate.backend.drives,
            "text": answer.estimate.lines(),
        },
        # Why the workload's object, metadata or file rates are not sized, a sentence a kind.
        "not_sized": list(answer.not_sized),
    }


def _sweep_data(sweep: SweepSizing) -> dict[str, Any]:
    scaling, needed = sweep.scaling, sweep.needed
    return {
        "workload": sweep.workload,
        "raid_level": sweep.raid_level,
        "cache_setting": sweep.cache_setting,
        "metric": sweep.metric,
        "threshold_ms": sweep.threshold_ms,
        "measured": [{"drive_count": f.drive_count, "throughput": f.throughput} for f in scaling.measured],
        "model": {
            "name": scaling.model_name,
            "per_drive": scaling.per_drive,
            "base": scaling.base,
            "plateau": scaling.plateau,
            "knee_sharpness": scaling.knee_sharpness,
        },
        "needed": None
        if needed is None
        else {
            "how": "modelled from the measured sweep",
            "target": needed.target,
            "reachable": needed.reachable,
            "drives": needed.drives,
            "throughput": needed.throughput,
            "extrapolated": needed.extrapolated,
            "levels_off_at": needed.plateau,
            "knee_drives": needed.knee_drives,
            "drives_error": {
                "median_pct": sweep.drives_error.median_pct,
                "worst_pct": sweep.drives_error.worst_pct,
                "left_out": [
                    {
                        "drive_count": x.drive_count,
                        "throughput": x.throughput,
                        "predicted_drives": x.predicted,
                        "clearly_rising": x.clearly_rising,
                    }
                    for x in sweep.drives_error.left_out
                ],
            },
        },
        "with_drives": None
        if sweep.with_drives is None
        else {
            "how": "modelled from the measured sweep",
            "drives": sweep.with_drives,
            "throughput": scaling.throughput_with(sweep.with_drives),
            "extrapolated": scaling.extrapolated(sweep.with_drives),
        },
        "error": {
            "median_pct": sweep.error.median_pct,
            "worst_pct": sweep.error.worst_pct,
            "left_out": [
                {
                    "drive_count": x.drive_count,
                    "measured": x.measured,
                    "predicted": x.predicted,
                    "error_pct": x.error_pct,
                }
                for x in sweep.error.left_out
            ],
        },
        "text": sweep.lines(),
    }


def sizing_tables(system: System, answer: Sizing) -> list[Table]:
    """One table per sweep for the exports: each drive count's figure, the model's value there, and
    the model's prediction of it with that drive count left out, with the answer in the footnotes."""
    tables = []
    for sweep in answer.sweeps:
        unit = formatting.METRIC_UNITS.get(sweep.metric, sweep.metric)
        number = sweep.number_format
        left_out = {x.drive_count: x for x in sweep.error.left_out}
        rows = tuple(
            Row(
                (formatting.whole(figure.drive_count),),
                (
                    figure.throughput,
                    sweep.scaling.throughput_with(figure.drive_count),
                    left_out[figure.drive_count].predicted if figure.drive_count in left_out else None,
                    left_out[figure.drive_count].error_pct if figure.drive_count in left_out else None,
                ),
            )
            for figure in sweep.scaling.measured
        )
        group = ColumnGroup(
            f"{unit} at {formatting.threshold(sweep.threshold_ms)}",
            (
                Column("from the runs", number),
                Column("Model", number),
                Column("Predicted with it left out", number),
                Column("Error %", ONE_DECIMAL),
            ),
        )
        title = f"{system.name} {sweep.label}: drives for a target"
        tables.append(Table(title, (("",), ("Drives",)), (group,), rows, tuple(sweep.lines())))
    if answer.estimate is not None:
        estimate = answer.estimate
        group = ColumnGroup("Back-end formula", (Column("Back-end IOPS", WHOLE), Column("Drives", WHOLE)))
        row = Row((estimate.workload,), (estimate.backend.backend_iops, estimate.backend.drives))
        title = f"{system.name} {estimate.workload}: drives for a target (estimate)"
        tables.append(Table(title, (("",), ("Workload",)), (group,), (row,), tuple(estimate.lines())))
    return tables


def sizing_preset_tables(system: System, params: Mapping[str, Any]) -> list[Table]:
    """The sizing page's tables for the ``sizing`` table preset, from the sizing page's parameters."""
    form = SizingQuestionForm(params)
    if not form.is_valid():
        raise form_error(form)
    answer = sizing_answer(form=form, system=system)
    tables = sizing_tables(system, answer)
    if not tables:
        why = "".join(f" {line}" for line in answer.not_sized)
        raise NotFoundError(f"{system.name} has no sizing answer to export for these choices.{why}")
    return tables
