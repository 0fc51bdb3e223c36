"""A report built by a Celery worker as the bundle is (:mod:`portal.publishing.bundle_jobs`): the state
holds the report's options, the zip holds its files, each downloaded on its own."""

import dataclasses
import zipfile
from pathlib import Path
from typing import Any

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison, multi_comparison
from portal.models import System

from .build import REPORT_FILES, Progress, build_report, report_archive
from .content import ReportOptions
from .presets import PresetError

ARCHIVE_STEM = "report"


def options_data(options: ReportOptions) -> dict[str, Any]:
    """The options as the state file keeps them (JSON)."""
    return {**dataclasses.asdict(options), "workloads": list(options.workloads)}


def options_from(data: dict[str, Any]) -> ReportOptions:
    return ReportOptions(**{**data, "workloads": tuple(data.get("workloads") or ())})


def report_zip(*, a: System, b: System, query: ComparisonQuery, report: dict[str, Any], progress: Progress) -> bytes:
    """The report of the comparison of ``a`` and ``b`` that ``query`` asks for, every format;
    of every system of ``report["candidates"]`` against ``b`` when it names several, as the compare page
    compares several systems with a baseline."""
    ids = report.get("candidates") or [a.id]
    if len(ids) > 1:
        found = System.objects.in_bulk(ids)
        if len(found) != len(ids):
            raise PresetError("a system of this comparison was deleted meanwhile")
        results = multi_comparison(candidates=[found[i] for i in ids], baseline=b, query=query).pairs
    else:
        results = [comparison(a=a, b=b, query=query)]
    built = build_report(results, options=options_from(report["options"]), progress=progress)
    return report_archive(built, stem=ARCHIVE_STEM)


def report_file(archive_path: Path, extension: str) -> bytes | None:
    """One format of a built report, None when it could not be written (no pdflatex)."""
    if extension not in REPORT_FILES:
        return None
    with zipfile.ZipFile(archive_path) as archive:
        try:
            return archive.read(f"{ARCHIVE_STEM}.{extension}")
        except KeyError:
            return None


def report_notes(archive_path: Path) -> list[str]:
    """What the worker could not write, and why."""
    with zipfile.ZipFile(archive_path) as archive:
        try:
            return archive.read("NOTES.txt").decode().splitlines()
        except KeyError:
            return []
