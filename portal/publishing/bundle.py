"""The white-paper bundle of a comparison: every table in every format, the charts, and provenance."""

import io
import json
import re
import zipfile
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.utils import timezone

import ingest
from portal.analysis.tables import Table
from portal.comparisons.query import DEFAULT_QUERY, ComparisonQuery
from portal.comparisons.selectors import Comparison, WorkloadComparison, comparison
from portal.models import Run, System, Upload

from . import presets
from .build import ChartImages, chart_images_of, chart_requests, write_report
from .charts import PRINT_SCALE, ChartUnavailable, chart_data_csv, render_charts
from .comparison_tables import comparison_tables_from
from .content import ReportOptions, report_content
from .document import Report
from .formats import FORMATS, export

SINGLE_FILE_FORMATS = ("xlsx", "docx")
# The unit of every MB/s figure of a bundle: the comparison's (and the report's by default).
BUNDLE_MBPS_UNIT = "MB/s"
IMAGE_FORMATS = ("svg", "png")

# Told how far a bundle has got: the share done (0 to 1) and the step in words.
Progress = Callable[[float, str], None]


def _no_progress(done: float, step: str) -> None:
    return None


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:60] or "table"


def comparison_bundle(
    *,
    a: System,
    b: System,
    query: ComparisonQuery = DEFAULT_QUERY,
    charts: bool = True,
    progress: Progress = _no_progress,
) -> bytes:
    """A zip: ``tables/`` (one file per table per text format, one workbook and one document with
    every table), ``charts/`` (SVG and PNG per workload as the compare page draws them, or CSV data and
    the reason when images cannot be rendered here), ``report/`` (the white-paper report in every format,
    :mod:`portal.publishing`) and ``provenance.json``: what the compare page shows for ``query``."""
    if query.adjust_b <= 0:
        raise presets.PresetError(f"the adjustment factor for B must be positive, got {query.adjust_b:g}")
    progress(0.02, "Reading the comparison")
    result = comparison(a=a, b=b, query=query)
    tables = comparison_tables_from(result)
    runs = [figure.run for workload in result.workloads for row in workload.rows for figure in row.a + row.b]
    progress(0.1, "Reading the white-paper tables of each system")
    for system in (a, b):
        try:
            selection = presets.default_selection(system)
            # At the comparison's threshold and latency, in its MB/s: one basis and one unit in the bundle.
            tables.append(
                presets.whitepaper(
                    system,
                    threshold_ms=result.threshold_ms,
                    latency=result.latency,
                    mbps_unit=BUNDLE_MBPS_UNIT,
                    selection=selection,
                )
            )
            runs.extend(presets.selected_runs(system, selection))
        except presets.PresetError:
            continue  # a system without drive counts or runs has no white-paper table; the comparison stands
    workloads = [workload for workload in result.workloads if workload.rows] if charts else []
    # The report's charts are the page's charts of these workloads: drawn once, for the bundle and the report.
    report = report_content([result], options=ReportOptions()) if charts else None
    out = io.BytesIO()
    with ThreadPoolExecutor(max_workers=1) as pool, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        # The browser takes seconds to start: the tables are written meanwhile.
        images = pool.submit(_chart_images, report) if report is not None else None
        _add_tables(archive, tables, progress)
        if report is not None and images is not None:
            progress(0.6, f"Rendering {len(workloads) * len(IMAGE_FORMATS)} chart images")
            chart_notes = _add_charts(archive, result, workloads, images)
            progress(0.8, "Writing the report")
            _add_report(archive, report, lambda: chart_images_of(images.result()[1]))
        else:
            chart_notes = ["charts not requested"]
        progress(0.95, "Writing the provenance")
        provenance = comparison_provenance(result, runs=runs, chart_notes=chart_notes, filters=_filters(query))
        archive.writestr("provenance.json", json.dumps(provenance, indent=2, ensure_ascii=False))
    return out.getvalue()


def _filters(query: ComparisonQuery) -> dict[str, Any]:
    """What narrows the comparison, as the provenance names it (the selector's words for each filter)."""
    found: dict[str, Any] = {
        "raid_level": query.both_sides.raid_level,
        "cache": query.both_sides.cache,
        "drive_count": query.both_sides.drive_count,
        "workload": query.workload,
        "pairs": [list(pair) for pair in query.pairs],
        "best_of_sizes": query.best_of_sizes,
        "latency": query.latency,
    }
    for letter, side in (("a", query.a_side), ("b", query.b_side)):
        for name in ("raid_level", "drive_count", "cache", "config", "firmware"):
            found[f"{letter}_{name}"] = getattr(side, "config_id" if name == "config" else name)
    return found


def _add_tables(archive: zipfile.ZipFile, tables: list[Table], progress: Progress) -> None:
    for done, (name, exporter) in enumerate(FORMATS.items()):
        progress(0.15 + 0.45 * done / len(FORMATS), f"Writing the tables as {exporter.extension}")
        if name in SINGLE_FILE_FORMATS:
            archive.writestr(f"tables/tables.{exporter.extension}", export(tables, name))
            continue
        for index, table in enumerate(tables, start=1):
            archive.writestr(f"tables/{index:02d}-{slug(table.title)}.{exporter.extension}", export([table], name))


def _chart_images(report: Report) -> tuple[list[bytes], list[bytes]]:
    """SVG and PNG of each workload's chart, in that order, and the images the report holds (PNG and PDF
    of each), asked for at once so they are rendered in one browser session (or read from the chart
    cache); the PNG the bundle and the report hold is rendered once."""
    figures = [figure.figure for figure in report.figures() if figure.figure is not None]
    svg = render_charts([(figure, "svg") for figure in figures] + chart_requests(report), scale=PRINT_SCALE)
    drawn, held = svg[: len(figures)], svg[len(figures) :]
    png, _ = chart_images_of(held)
    return [image for pair in zip(drawn, png, strict=True) for image in pair], held


def _add_charts(
    archive: zipfile.ZipFile, result: Comparison, workloads: list[WorkloadComparison], images: Future
) -> list[str]:
    """Each workload's chart data as CSV and its images; returns the notes for provenance."""
    names = [f"charts/{slug(workload.workload)}" for workload in workloads]
    for workload, name in zip(workloads, names, strict=True):
        archive.writestr(f"{name}.csv", chart_data_csv(result, workload))
    try:
        rendered = iter(images.result()[0])
    except ChartUnavailable as error:
        pairs = zip(workloads, names, strict=True)
        return [f"{workload.workload}: {error}; the chart's data is in {name}.csv" for workload, name in pairs]
    for name in names:
        for image_format in IMAGE_FORMATS:
            archive.writestr(f"{name}.{image_format}", next(rendered))
    return []


def _add_report(archive: zipfile.ZipFile, report: Report, images: ChartImages) -> None:
    """The comparison's white-paper report in every format, under ``report/``."""
    built = write_report(report, images)
    for extension, content in built.files.items():
        archive.writestr(f"report/report.{extension}", content)
    for name, image in built.charts.items():
        archive.writestr(f"report/{name}", image)
    if built.notes:
        archive.writestr("report/NOTES.txt", "\n".join(built.notes) + "\n")


def comparison_provenance(
    result: Comparison,
    *,
    runs: Iterable[Run],
    chart_notes: Iterable[str] = (),
    filters: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Where every number came from: systems, configurations, runs, uploads (sha256, parser), settings."""
    runs = sorted({run.id: run for run in runs}.values(), key=lambda run: run.id)
    with_uploads = Run.objects.filter(id__in=[r.id for r in runs], upload__isnull=False).select_related("upload")
    uploads = {run.upload.id: run.upload for run in with_uploads if run.upload is not None}
    # A sweep's files are read together: its runs name the first; every file it was read from is named.
    together = Upload.objects.filter(read_with_id__in=list(uploads)).exclude(id__in=list(uploads)).order_by("id")
    uploads.update({upload.id: upload for upload in together})
    configs = {run.config.id: run.config for run in runs}
    return {
        "generated_at": timezone.now().isoformat(),
        "ingest_version": ingest.__version__,
        "threshold_ms": result.threshold_ms,
        "adjust_b": result.adjust_b,
        "latency": result.latency,
        "filters": {name: value for name, value in (filters or {}).items() if value not in (None, "", [], (), False)},
        "improvement": "(A - B x adjust_b) / (B x adjust_b) x 100",
        "units": {"tables": presets.MBPS_UNITS[BUNDLE_MBPS_UNIT].note},
        "systems": {"a": _system(result.a), "b": _system(result.b)},
        "configurations": [
            {"id": c.id, "system": c.system.name, "identity": c.identity, **c.properties()} for c in configs.values()
        ],
        "runs": [_run(run) for run in runs],
        "uploads": [
            {
                "id": u.id,
                "original_name": u.original_name,
                "sha256": u.sha256,
                "size_bytes": u.size_bytes,
                "format": u.format,
                "parser_version": u.parser_version,
                "uploaded_at": u.created_at.isoformat(),
            }
            for u in sorted(uploads.values(), key=lambda upload: upload.id)
        ],
        "charts": list(chart_notes) or "rendered as SVG and PNG",
    }


def _system(system: System) -> dict[str, Any]:
    fields = ("name", "vendor", "model", "controllers", "firmware", "cache_mb_per_controller", "host_interfaces")
    return {"id": system.id, **{name: getattr(system, name) for name in fields}}


def _run(run: Run) -> dict[str, Any]:
    return {
        "id": run.id,
        "system": run.config.system.name,
        "configuration": run.config_id,
        "workload": run.workload_name,
        "tool": " ".join(p for p in (run.tool, run.tool_version) if p),
        "origin": run.origin,
        "citation": " / ".join(p for p in (run.citation_document, run.citation_table) if p) or None,
        "upload": run.upload_id,
    }
