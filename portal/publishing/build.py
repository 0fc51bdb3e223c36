"""A comparison's report in every format at once: the charts rendered in one browser session (or read
from the chart cache) while the LaTeX and Markdown, which only name them, are written; then the PDF
compiled by pdflatex while the DOCX and HTML, which hold them, are written."""

import io
import zipfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from portal.comparisons.selectors import Comparison

from .charts import PRINT_SCALE, ChartRequest, ChartUnavailable, render_charts
from .content import ReportOptions, report_content
from .document import Figure, Paragraph, Report
from .latex import render_latex
from .latex_compile import compile_pdf
from .render import ReportUnavailable, render_docx, render_html, render_markdown

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
# The report's charts once rendered: each figure's PNG and its vector PDF, in the report's order; raises
# ChartUnavailable when they cannot be rendered here.
ChartImages = Callable[[], tuple[list[bytes], list[bytes]]]


def _no_progress(done: float, step: str) -> None:
    return None


@dataclass
class BuiltReport:
    report: Report
    files: dict[str, bytes]  # by extension
    charts: dict[str, bytes]  # the images the LaTeX and Markdown files name, by file name
    notes: list[str] = field(default_factory=list)  # what could not be written here, and why


def chart_requests(report: Report) -> list[ChartRequest]:
    """What the report's charts are rendered as: each figure as PNG then PDF (:data:`REPORT_CHART_FORMATS`)."""
    figures = [figure.figure for figure in report.figures() if figure.figure is not None]
    return [(figure, fmt) for figure in figures for fmt in REPORT_CHART_FORMATS]


def chart_images_of(images: list[bytes]) -> tuple[list[bytes], list[bytes]]:
    """The PNG and PDF images of :func:`chart_requests`' order."""
    return images[::2], images[1::2]


def build_report(
    results: Sequence[Comparison], *, options: ReportOptions, progress: Progress = _no_progress
) -> BuiltReport:
    """Every format of the report of ``results`` (:func:`~portal.publishing.content.report_content`); a chart
    or the PDF that cannot be made on this machine is left out with a sentence saying why (in ``notes``
    and in the document)."""
    progress(0.05, "Reading the comparison")
    report = report_content(results, options=options)
    requests = chart_requests(report)
    progress(0.2, f"Rendering {len(requests) // 2} chart{'' if len(requests) == 2 else 's'}")
    with ThreadPoolExecutor(max_workers=1) as pool:
        rendered = pool.submit(render_charts, requests, scale=PRINT_SCALE)
        return write_report(report, lambda: chart_images_of(rendered.result()), progress=progress)


def write_report(report: Report, images: ChartImages, *, progress: Progress = _no_progress) -> BuiltReport:
    """Every format of ``report``, its charts from ``images``: what only names them (LaTeX, Markdown) is
    written while they are rendered, and the PDF compiled while the DOCX and HTML take them in."""
    count = len(report.figures())
    chart_files = [f"chart-{index}.pdf" for index in range(1, count + 1)]
    png_files = [f"chart-{index}.png" for index in range(1, count + 1)]
    latex, markdown = render_latex(report, chart_files), render_markdown(report, png_files)
    notes: list[str] = []
    try:
        png, vector = images()
    except ChartUnavailable as error:
        notes.append(f"The charts are left out: {error}.")
        report.blocks = [block for block in report.blocks if not isinstance(block, Figure)]
        report.blocks.append(Paragraph(notes[-1]))
        png, vector, chart_files, png_files = [], [], [], []
        latex, markdown = render_latex(report, chart_files), render_markdown(report, png_files)
    charts = {**dict(zip(png_files, png, strict=True)), **dict(zip(chart_files, vector, strict=True))}
    progress(0.6, "Compiling the PDF and writing the Word document")
    with ThreadPoolExecutor(max_workers=1) as pool:
        pdf = pool.submit(compile_pdf, latex, dict(zip(chart_files, vector, strict=True)))
        files = {"docx": render_docx(report, png), "html": render_html(report, png), "md": markdown}
        files["tex"] = latex.encode()
        try:
            files["pdf"] = pdf.result()
        except ReportUnavailable as error:
            notes.append(f"No PDF: {error}.")
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
