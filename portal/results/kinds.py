"""A stored run's kind of figure (:mod:`portal.analysis.figure_kinds`) and, for an AI training run, the
figures MLPerf Storage states instead of a throughput at a response-time threshold."""

from dataclasses import dataclass

from portal import formatting
from portal.analysis.figure_kinds import FigureKind, figure_kind
from portal.models import Point, Run


def run_figure_kind(run: Run, metric: str) -> FigureKind:
    """What ``run``'s figure in ``metric`` ("iops" or "mbps") counts."""
    return figure_kind(tool=run.tool, params=run.params, workload_name=run.workload_name, metric=metric)


@dataclass(frozen=True)
class TrainingFigures:
    """An MLPerf Storage run as it is compared: the simulated accelerators the storage kept busy at the
    benchmark's accelerator utilisation rule, the training throughput (MB/s, 10^6 bytes per second), the
    lowest AU its benchmark runs reached (None where no DLIO summary says) and the rule's AU (%)."""

    accelerators: int | None
    model: str
    accelerator: str
    mbps: float | None
    au_pct: float | None
    rule_pct: float | None
    # Where a published run's figures come from ("mlcommons/storage_results_v1.0, Closed/.../mlperf_storage_
    # report.json, commit 1c5efa7..."), '' for a lab's own run.
    citation: str = ""

    @property
    def mbps_per_accelerator(self) -> float | None:
        return None if self.mbps is None or not self.accelerators else self.mbps / self.accelerators

    def words(self) -> str:
        """ "255 accelerators (unet3d, h100) at 729,264 MB/s, 2,860 MB/s per accelerator, AU not stated (rule
        90 %)"."""
        return formatting.training_reading(
            accelerators=self.accelerators,
            model=self.model,
            accelerator=self.accelerator,
            mbps=self.mbps,
            au_pct=self.au_pct,
            rule_pct=self.rule_pct,
        )


def training_figures(run: Run, point: Point | None) -> TrainingFigures:
    """``run``'s training figures from its one ``point`` (a report's run, or one DLIO summary's)."""
    params = run.params or {}
    metrics = (point.metrics or {}) if point is not None else {}
    load = (point.load or {}) if point is not None else {}
    accelerators = load.get("accelerators", params.get("accelerators"))
    au = metrics.get("au_pct_lowest", metrics.get("au_pct"))
    return TrainingFigures(
        accelerators=int(accelerators) if accelerators is not None else None,
        model=str(params.get("model") or ""),
        accelerator=str(params.get("accelerator") or ""),
        mbps=point.mbps if point is not None else None,
        au_pct=float(au) if au is not None else None,
        rule_pct=params.get("au_threshold_pct"),
        citation=_citation(run),
    )


def _citation(run: Run) -> str:
    if run.origin != Run.Origin.PUBLISHED:
        return ""
    return ", ".join(part for part in (run.citation_document, run.citation_table, run.citation_note) if part)
