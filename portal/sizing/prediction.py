"""A run's queue depth x jobs grid, and the untested cells predicted from its two sweeps through a focal point.

fio-plot sweeps store one run per device and access pattern, a point per (iodepth, numjobs) cell:
``threads`` is numjobs and ``outstanding_io`` their product. Predictions are never shown as
measurements: each cell says it is predicted, by which model, whether it is interpolated or
extrapolated (and how far) with that kind's error band, and sits next to the measurement where that
cell was measured.
"""

from dataclasses import dataclass

from django.db.models import Count

from portal import formatting
from portal.analysis.grid_prediction import GridPrediction, default_focal, little_response_ms, predict_grid
from portal.analysis.prediction_bands import BANDS, Band, Kind
from portal.models import Run, System


class NoGrid(ValueError):
    """The run has no queue depth x jobs grid to predict from."""


@dataclass(frozen=True)
class PredictedCell:
    queue_depth: float
    jobs: float
    iops: float
    response_ms: float
    measured_iops: float | None
    error_pct: float | None
    kind: Kind
    beyond_factor: float
    outstanding_range: tuple[float, float]

    @property
    def band(self) -> Band:
        return BANDS[self.kind]

    @property
    def text(self) -> str:
        figure = f"predicted {formatting.throughput(self.iops, 'iops')} at about {formatting.ms(self.response_ms)}"
        return predicted_text(figure, self.measured_iops, self.error_pct)

    @property
    def kind_text(self) -> str:
        """The kind of prediction, how far beyond the sweeps, and the error band of that kind."""
        outstanding = formatting.count(self.queue_depth * self.jobs, "outstanding I/O", "outstanding I/Os")
        lowest, highest = (formatting.whole(total) for total in self.outstanding_range)
        factor = f"{self.beyond_factor:.3g}"
        where = {
            Kind.INTERPOLATED: f"within the sweeps' {lowest} to {highest}",
            Kind.BELOW: f"{factor} times below the sweeps' lowest, {lowest}",
            Kind.ABOVE: f"{factor} times above the sweeps' highest, {highest}",
        }[self.kind]
        return f"{self.kind} ({outstanding}, {where}); {band_text(self.band)}"


def band_text(band: Band) -> str:
    """A kind's error band in words."""
    return (
        f"error of this kind on the shared grids: median {formatting.percent(band.median_pct)},"
        f" 90th percentile {formatting.percent(band.p90_pct)}, worst {formatting.percent(band.worst_pct)}"
    )


def predicted_text(figure: str, measured_iops: float | None, error_pct: float | None) -> str:
    """A predicted cell's words: the prediction, then the measured figure and the error where measured."""
    if measured_iops is None:
        return f"{figure} (not measured)"
    measured = formatting.throughput(measured_iops, "iops")
    return f"{figure}; measured {measured}, error {formatting.percent(error_pct)}"


@dataclass(frozen=True)
class RunPrediction:
    run: Run
    prediction: GridPrediction
    cells: tuple[PredictedCell, ...]

    def lines(self) -> list[str]:
        p = self.prediction
        focal = f"queue depth {formatting.whole(p.focal[0])} and {formatting.count(p.focal[1], 'job')}"
        found = [
            f"Predicted from the two sweeps through {focal}, by the {p.model} model; response times by Little's law"
            " (outstanding I/Os / IOPS). Predictions, not measurements."
        ]
        kinds = [kind for kind in Kind if any(cell.kind is kind for cell in self.cells)]
        found += [
            f"{formatting.count(sum(c.kind is kind for c in self.cells), 'cell')} {kind}: {band_text(BANDS[kind])}."
            for kind in kinds
        ]
        if p.median_error_pct is not None:
            found.append(
                f"Error on {p.checked_on} (all kinds together): median {formatting.percent(p.median_error_pct)},"
                f" 90th percentile {formatting.percent(p.p90_error_pct)}."
            )
        return found


def grid_cells(*, run: Run) -> dict[tuple[float, float], float]:
    """IOPS by (queue depth per job, jobs) of the run's points that state both."""
    cells = {}
    for point in run.points.all():
        if point.threads and point.outstanding_io and point.iops and point.iops > 0:
            cells[(point.outstanding_io / point.threads, float(point.threads))] = point.iops
    return cells


def run_prediction(
    *, run: Run, focal_queue_depth: float | None = None, focal_jobs: float | None = None
) -> RunPrediction:
    """The run's grid predicted from its sweeps through the focal point (by default a quarter of the way up each
    axis, or on a partial grid the nearest point whose row and column hold the most cells)."""
    cells = grid_cells(run=run)
    depths = sorted({depth for depth, _ in cells})
    jobs = sorted({job for _, job in cells})
    if len(depths) < 2 or len(jobs) < 2:
        raise NoGrid(f"run #{run.id} has no queue depth x jobs grid: it needs two or more of each")
    default = default_focal(cells)
    focal = (focal_queue_depth or default[0], focal_jobs or default[1])
    if focal not in cells:
        raise NoGrid(f"run #{run.id} has no point at queue depth {focal[0]:g} with {focal[1]:g} jobs to predict around")
    prediction = predict_grid(cells, focal=focal, outstanding=True)
    predicted = tuple(
        PredictedCell(
            queue_depth=cell.x1,
            jobs=cell.x2,
            iops=cell.predicted,
            response_ms=little_response_ms(outstanding_ios=cell.x1 * cell.x2, iops=cell.predicted),
            measured_iops=cell.measured,
            error_pct=cell.error_pct,
            kind=cell.kind or Kind.INTERPOLATED,
            beyond_factor=cell.beyond_factor,
            outstanding_range=prediction.outstanding_range or (0.0, 0.0),
        )
        for cell in prediction.cells
    )
    return RunPrediction(run, prediction, predicted)


def prediction_data(found: RunPrediction) -> dict:
    """The prediction as the API and ``predict --json`` give it."""
    p = found.prediction
    return {
        "run": found.run.id,
        "system": found.run.config.system.name,
        "how": "predicted",
        "model": str(p.model),
        "focal": {"queue_depth": p.focal[0], "jobs": p.focal[1]},
        "outstanding_range": list(p.outstanding_range or ()),
        "error": {"checked_on": p.checked_on, "median_pct": p.median_error_pct, "p90_pct": p.p90_error_pct},
        "cells": [
            {
                "queue_depth": c.queue_depth,
                "jobs": c.jobs,
                "predicted_iops": c.iops,
                "predicted_response_ms": c.response_ms,
                "measured_iops": c.measured_iops,
                "error_pct": c.error_pct,
                "outstanding_io": c.queue_depth * c.jobs,
                "kind": str(c.kind),
                "beyond_factor": c.beyond_factor,
                "band": {"median_pct": c.band.median_pct, "p90_pct": c.band.p90_pct, "worst_pct": c.band.worst_pct},
                "kind_text": c.kind_text,
            }
            for c in found.cells
        ],
        "text": found.lines(),
    }


def grid_runs(*, system: System) -> list[Run]:
    """The system's runs with a queue depth x jobs grid (two or more job counts), one query."""
    return list(
        Run.objects.filter(config__system=system, points__threads__isnull=False, points__outstanding_io__isnull=False)
        .annotate(job_counts=Count("points__threads", distinct=True))
        .filter(job_counts__gte=2)
        .order_by("name", "id")
    )
