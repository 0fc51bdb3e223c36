"""A comparison's report in every format at once: the charts rendered in one browser session (or read
from the chart cache), then DOCX, PDF, HTML and Markdown written from the same content."""

import io
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from portal.comparisons.selectors import Comparison
from portal.exports.charts import PRINT_SCALE, ChartUnavailable, render_charts

from .content import ReportOptions, report_content
from .document import Paragraph, Report
from .render import (
    ReportUnavailable,
    compile_pdf,
    render_docx,
    render_html,
    render_latex,
    render_markdown,
)

# The files of a report, as the archive and the download links name them.
REPORT_FILES = {
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pdf": "application/pdf",
    "html": "text/html; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
    "tex": "application/x-tex; charset=utf-8",
}

# A chart as the Word and HTML documents hold it, and as LaTeX includes it (vector).
REPORT_CHART_FORMATS = ("png", "pdf")

Progress = Callable[[float, str], None]


def _no_progress(done: float, step: str) -> None:
    return None


@dataclass
class BuiltReport:
    report: Report
    files: dict[str, bytes]  # by extension
    charts: dict[str, bytes]  # the images the LaTeX and Markdown files name, by file name
    notes: list[str]  # what could not be written here, and why


def build_report(
    results: Sequence[Comparison], *, options: ReportOptions, progress: Progress = _no_progress
) -> BuiltReport:
    """Every format of the report of ``results`` (:func:`~portal.reports.content.report_content`); a chart
    or the PDF that cannot be made on this machine is left out with a sentence saying why (in ``notes``
    and in the document)."""
    progress(0.05, "Reading the comparison")
    report = report_content(results, options=options)
    figures = [figure.figure for figure in report.figures() if figure.figure is not None]
    progress(0.2, f"Rendering {len(figures)} chart{'' if len(figures) == 1 else 's'}")
    notes: list[str] = []
    try:
        images = render_charts([(figure, fmt) for figure in figures for fmt in REPORT_CHART_FORMATS], scale=PRINT_SCALE)
        png, vector = images[::2], images[1::2]
    except ChartUnavailable as error:
        notes.append(f"The charts are left out: {error}.")
        report.blocks = [block for block in report.blocks if block not in report.figures()]
        report.blocks.append(Paragraph(notes[-1]))
        png, vector = [], []
    chart_files = [f"chart-{index}.pdf" for index in range(1, len(vector) + 1)]
    progress(0.6, "Writing the Word document")
    files = {"docx": render_docx(report, png), "html": render_html(report, png)}
    png_files = [f"chart-{index}.png" for index in range(1, len(png) + 1)]
    files["md"] = render_markdown(report, png_files)
    latex = render_latex(report, chart_files)
    files["tex"] = latex.encode()
    progress(0.75, "Compiling the PDF")
    try:
        files["pdf"] = compile_pdf(latex, dict(zip(chart_files, vector, strict=True)))
    except ReportUnavailable as error:
        notes.append(f"No PDF: {error}.")
    charts = {**dict(zip(png_files, png, strict=True)), **dict(zip(chart_files, vector, strict=True))}
    return BuiltReport(report=report, files=files, charts=charts, notes=notes)


def report_archive(built: BuiltReport, *, stem: str) -> bytes:
    """The report's files in one zip: ``<stem>.docx``, ``.pdf``, ``.html``, ``.md``, ``.tex`` and the charts
    the LaTeX and Markdown files refer to."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for extension, content in built.files.items():
            archive.writestr(f"{stem}.{extension}", content)
        for name, image in built.charts.items():
            archive.writestr(name, image)
        if built.notes:
            archive.writestr("NOTES.txt", "\n".join(built.notes) + "\n")
    return out.getvalue()
