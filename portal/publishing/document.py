"""A report as blocks every format writes alike: headings, paragraphs, boxes, tables and figures.

Renderers (DOCX, LaTeX/PDF, HTML, Markdown) number tables and figures in the order they meet them, so
the numbers agree in every format. Every text here is plain: each renderer escapes it for its format.
"""

from dataclasses import dataclass, field

import plotly.graph_objects as go

from portal.analysis.tables import Table


@dataclass(frozen=True)
class Heading:
    text: str
    level: int  # 1 to 3


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Box:
    """A "lessons learned" box: a title and sentences."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Cell:
    """A table cell as printed; ``number`` is its value where it is a figure (a spreadsheet or Word
    reader keeps it a number), None for text."""

    text: str
    number: float | None = None


@dataclass(frozen=True)
class TableBlock:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()
    # Columns holding figures, right-aligned in every format.
    numeric: tuple[bool, ...] = ()
    # What names the table on the compose form, where its caption can be changed ("Random Reads 8K table").
    key: str = ""

    def is_numeric(self, column: int) -> bool:
        return column < len(self.numeric) and self.numeric[column]


@dataclass(frozen=True)
class Figure:
    caption: str
    # None where only the caption is read (the compose form).
    figure: go.Figure | None = field(repr=False)
    # What names the chart on the compose form: its workload.
    key: str = ""


Block = Heading | Paragraph | Box | TableBlock | Figure


@dataclass
class Report:
    title: str
    author: str
    date: str
    abstract: str
    blocks: list[Block]

    def figures(self) -> list[Figure]:
        return [block for block in self.blocks if isinstance(block, Figure)]


def table_cells(table: Table) -> tuple[tuple[str, ...], tuple[tuple[Cell, ...], ...]]:
    """A white-paper table's header (each row-header column's label, each figure column's group and label, in
    one line) and its rows as cells, the figures numeric and the row headers text, as the exports lay them out."""
    grid = table.text_grid()
    width = table.row_header_width
    header = table.row_header_labels() + tuple(
        " ".join(p for p in (group, label) if p) for group, label in zip(grid[0][width:], grid[1][width:], strict=True)
    )
    rows = tuple(
        tuple(
            Cell(text) if j < width or row.cells[j - width] is None else Cell(text, row.cells[j - width])
            for j, text in enumerate(line)
        )
        for row, line in zip(table.rows, grid[2:], strict=True)
    )
    return header, rows
