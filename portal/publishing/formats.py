"""Exporters: one function per format from a list of tables (:class:`portal.analysis.tables.Table`) to bytes.

Every format prints the cells of ``Table.text_grid()`` (XLSX keeps the numbers as numbers, a lower
bound with its "≥" in the cell's number format; CSV writes a lower bound as its printed text) and
escapes what a user typed (system names, workloads): HTML and Markdown entities, LaTeX specials,
and in CSV and XLSX any text a spreadsheet program would run as a formula.

The renderers live by family: text, CSV, Markdown and HTML in :mod:`portal.publishing.formats_text`, LaTeX in
:mod:`portal.publishing.formats_latex`, XLSX and DOCX in :mod:`portal.publishing.formats_office`; this module
names each format (:data:`FORMATS`) and picks one (:func:`export`).
"""

from collections.abc import Callable
from dataclasses import dataclass

from portal.analysis.tables import Table
from portal.spreadsheets import csv_cell, spreadsheet_text, starts_formula

from .formats_latex import render_latex
from .formats_office import render_docx, render_xlsx
from .formats_text import render_csv, render_html, render_markdown, render_text

__all__ = ["FORMATS", "csv_cell", "spreadsheet_text", "starts_formula"]


@dataclass(frozen=True)
class Format:
    name: str
    extension: str
    content_type: str
    render: Callable[[list[Table]], bytes]
    binary: bool = False


FORMATS = {
    f.name: f
    for f in (
        Format("text", "txt", "text/plain; charset=utf-8", render_text),
        Format("csv", "csv", "text/csv; charset=utf-8", render_csv),
        Format("markdown", "md", "text/markdown; charset=utf-8", render_markdown),
        Format("latex", "tex", "application/x-tex; charset=utf-8", render_latex),
        Format("html", "html", "text/html; charset=utf-8", render_html),
        Format("xlsx", "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", render_xlsx, True),
        Format(
            "docx", "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", render_docx, True
        ),
    )
}


def export(tables: list[Table], format_name: str) -> bytes:
    try:
        exporter = FORMATS[format_name]
    except KeyError:
        raise ValueError(f"unknown format {format_name!r}; choose one of {', '.join(FORMATS)}") from None
    return exporter.render(tables)
