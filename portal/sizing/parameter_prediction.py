"""Untested combinations along a workload parameter (read %, random %, transfer size) and outstanding I/O,
from a system's runs that differ in that parameter only (seed 003's one-parameter-at-a-time sweeps).

A cell is (total outstanding I/O, the parameter's value), its figure the mean IOPS of the run's points at
that outstanding I/O. The focal point is the middle of each axis; the two sweeps through it predict every
other cell, by the product of ratios or the sum of differences, whichever misses the cells that were
measured less. Predictions are never measurements: each cell says it is predicted, and sits next to its
measurement where that cell was measured.
"""

import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from portal import formatting
from portal.analysis.figure_kinds import IO_OPERATIONS, FigureKind
from portal.analysis.grid_prediction import GridPrediction, predict_grid
from portal.models import Point, Run, System
from portal.results.kinds import run_figure_kind
from portal.results.selectors import COMPARABLE

from .prediction import NoGrid, predicted_text

PARAMETERS = {"read_pct": "read %", "random_pct": "random %", "transfer_kb": "transfer size (KiB)"}


@dataclass(frozen=True)
class ParameterCell:
    outstanding_io: float
    value: float
    iops: float
    measured_iops: float | None
    error_pct: float | None

    @property
    def text(self) -> str:
        return predicted_text(
            f"predicted {formatting.throughput(self.iops, 'iops')}", self.measured_iops, self.error_pct
        )


@dataclass(frozen=True)
class ParameterPrediction:
    system: System
    parameter: str
    runs: tuple[Run, ...]
    prediction: GridPrediction
    cells: tuple[ParameterCell, ...]

    @property
    def label(self) -> str:
        return PARAMETERS[self.parameter]

    def lines(self) -> list[str]:
        p = self.prediction
        focal = f"{formatting.whole(p.focal[0])} outstanding I/Os and {self.label} {p.focal[1]:g}"
        found = [
            f"Predicted from the two sweeps through {focal} (runs {', '.join(f'#{run.id}' for run in self.runs)}),"
            f" by the {p.model} model. Predictions, not measurements."
        ]
        if p.median_error_pct is None:
            found.append(f"No error measured: {p.checked_on}.")
        else:
            found.append(
                f"Error on {p.checked_on}: median {formatting.percent(p.median_error_pct)},"
                f" 90th percentile {formatting.percent(p.p90_error_pct)}."
            )
        return found


def parameter_value(run: Run, parameter: str) -> float | None:
    """The run's value of ``parameter`` (a transfer size only where the run used one size)."""
    if parameter == "transfer_kb":
        sizes = run.transfer_sizes or []
        single = len(sizes) == 1 and isinstance(sizes[0], dict) and isinstance(sizes[0].get("bytes"), int | float)
        return sizes[0]["bytes"] / 1024 if single and sizes[0]["bytes"] > 0 else None
    value = getattr(run, parameter)
    return None if value is None else float(value)


def parameter_prediction(*, system: System, parameter: str) -> ParameterPrediction:
    """The system's runs that differ in ``parameter`` only (the set with the most values), predicted."""
    if parameter not in PARAMETERS:
        raise NoGrid(f"no prediction along {parameter!r}; choose one of: {', '.join(PARAMETERS)}")
    runs = Run.objects.filter(COMPARABLE, config__system=system).only(
        "id", "name", "config_id", "tool", "read_pct", "random_pct", "transfer_sizes", "params", "workload_name"
    )
    groups: dict[str, dict[float, Run]] = defaultdict(dict)
    other_kinds: set[FigureKind] = set()
    for run in runs:
        # Only I/O operations are predicted against outstanding I/O: not object, metadata or file rates.
        kind = run_figure_kind(run, "iops")
        if kind != IO_OPERATIONS:
            other_kinds.add(kind)
            continue
        value = parameter_value(run, parameter)
        if value is not None:
            others = [parameter_value(run, name) for name in PARAMETERS if name != parameter]
            groups[f"{run.config_id} {run.tool} {others}"].setdefault(value, run)
    chosen = max(groups.values(), key=len, default={})
    if len(chosen) < 2:
        raise NoGrid(f"{system.name} has no runs that differ in {PARAMETERS[parameter]} only{_others(other_kinds)}")
    cells = _cells(chosen)
    totals = sorted({total for total, _ in cells})
    values = sorted(chosen)
    focal = (totals[len(totals) // 2], values[len(values) // 2]) if len(totals) >= 2 else None
    if focal is None or focal not in cells:
        raise NoGrid(f"{system.name}'s runs of each {PARAMETERS[parameter]} have no common outstanding I/O sweep")
    prediction = predict_grid(cells, focal=focal, outstanding=False)
    predicted = tuple(
        ParameterCell(cell.x1, cell.x2, cell.predicted, cell.measured, cell.error_pct) for cell in prediction.cells
    )
    ordered = tuple(chosen[value] for value in values)
    return ParameterPrediction(system, parameter, ordered, prediction, predicted)


def _others(kinds: set[FigureKind]) -> str:
    """What the runs of other kinds than I/O operations are, and that they are not predicted."""
    if not kinds:
        return ""
    units = " and ".join(sorted(kind.unit for kind in kinds))
    return f" (no prediction for {units}: prediction reads I/O operations per second against outstanding I/O)"


def _cells(runs_by_value: dict[float, Run]) -> dict[tuple[float, float], float]:
    """Mean IOPS by (outstanding I/O, value), read in one query."""
    value_of = {run.id: value for value, run in runs_by_value.items()}
    points = Point.objects.filter(run_id__in=value_of, outstanding_io__isnull=False, iops__gt=0)
    by_cell: dict[tuple[float, float], list[float]] = defaultdict(list)
    for run_id, outstanding, iops in points.values_list("run_id", "outstanding_io", "iops"):
        by_cell[(float(outstanding or 0), value_of[run_id])].append(float(iops or 0))
    return {cell: statistics.mean(values) for cell, values in by_cell.items()}


def parameter_prediction_data(found: ParameterPrediction) -> dict[str, Any]:
    """The prediction as the API gives it."""
    p = found.prediction
    return {
        "system": found.system.name,
        "parameter": found.parameter,
        "runs": [run.id for run in found.runs],
        "how": "predicted",
        "model": str(p.model),
        "focal": {"outstanding_io": p.focal[0], found.parameter: p.focal[1]},
        "error": {"checked_on": p.checked_on, "median_pct": p.median_error_pct, "p90_pct": p.p90_error_pct},
        "cells": [
            {
                "outstanding_io": c.outstanding_io,
                found.parameter: c.value,
                "predicted_iops": c.iops,
                "measured_iops": c.measured_iops,
                "error_pct": c.error_pct,
            }
            for c in found.cells
        ],
        "text": found.lines(),
    }
