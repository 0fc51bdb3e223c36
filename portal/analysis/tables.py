"""One table model for the white-paper tables, independent of the format it is exported to.

A table has a title, row-header columns (drive count, cache setting), data columns grouped under
headers (workload x (IOPS, MBps)), numeric cells (``None`` is printed "N/A") and footnotes. Each
column carries its number format, so every exporter prints the same text the paper prints:
"11,360" but "9885" (the DS4500 paper groups thousands from five digits on), "33.5" next to
"33" in one column, "0.80" in a multiplier table. A row may print a cell in a format of its own
(a comparison's MB/s row under a column of IOPS rows) and mark a cell a lower bound ("≥ 69,656":
the threshold was not reached, the figure is the best point measured).

Exporters that keep numbers as numbers (XLSX) read ``Row.cells`` and ``Column.number_format``;
the others read ``text_grid()``. Merged headers are described by ``column_group_spans()`` and
``row_header_spans()``.
"""

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from portal.analysis.digits import NO_FIGURE, significant_decimals
from portal.analysis.stroke import StrokeMultipliers
from portal.analysis.vocabulary import drives

IOPS = "IOPS"
MBPS = "MBps"


@dataclass(frozen=True)
class NumberFormat:
    """How a column prints its numbers.

    ``decimals``: digits after the point, rounded half up as the papers round (98.45 -> 98.5).
    ``trim_zeros``: drop trailing zeros, so one column shows both "33.5" and "33".
    ``group_from``: thousands separators from this magnitude on (10,000 in the DS4500 paper,
    1,000 for separators everywhere, ``None`` for none).
    ``na_text``: printed for a missing measurement.
    ``significant``: digits kept instead of ``decimals`` (MB/s to three, as the pages write it: 54.5,
    0.0839, 1,024), never rounding away whole digits.
    """

    decimals: int = 0
    trim_zeros: bool = True
    group_from: float | None = 10_000
    na_text: str = "N/A"
    significant: int | None = None

    def decimals_of(self, value: float) -> int:
        """The digits after the point ``value`` is printed with."""
        return self.decimals if self.significant is None else significant_decimals(value, self.significant)


# A figure as the pages write it (portal.formatting): whole IOPS and MB/s to three significant digits, both
# with thousands separators, an en dash where there is no figure.
PAGE_FORMATS = {
    "iops": NumberFormat(decimals=0, group_from=1_000, na_text=NO_FIGURE),
    "mbps": NumberFormat(significant=3, group_from=1_000, na_text=NO_FIGURE),
    # IO500's score, with the six decimals its file prints ("666.701247").
    "score": NumberFormat(decimals=6, group_from=1_000, na_text=NO_FIGURE),
}
# Written before a lower bound: the threshold was not reached, the figure is the best point measured.
LOWER_BOUND = "≥ "
# An improvement capped by a lower bound on the figure it is measured against: at most that much.
UPPER_BOUND = "≤ "


def round_half_up(value: float, decimals: int) -> Decimal:
    """``value`` rounded half up to ``decimals`` digits, as the papers round (98.45 -> 98.5)."""
    # str() of a float is its shortest round-tripping form, so 98.45 rounds half up to 98.5, not 98.4.
    return Decimal(str(value)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def format_number(value: float | None, number_format: NumberFormat = NumberFormat()) -> str:
    """The text of one cell as the paper prints it."""
    if value is None:
        return number_format.na_text
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"a table cell must be a finite number or None, got {value!r}")
    rounded = round_half_up(value, number_format.decimals_of(value))
    if rounded == 0:
        rounded = abs(rounded)
    grouped = number_format.group_from is not None and abs(rounded) >= number_format.group_from
    text = format(rounded, ",f" if grouped else "f")
    if number_format.trim_zeros and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


@dataclass(frozen=True)
class Column:
    label: str
    number_format: NumberFormat = field(default_factory=NumberFormat)


@dataclass(frozen=True)
class ColumnGroup:
    """Columns under one header ("OLTP 4K" over "I/Os" and "MBps")."""

    label: str
    columns: tuple[Column, ...]


@dataclass(frozen=True)
class Row:
    """Full row-header values (repeated values are blanked only when printed) and one cell per column;
    ``formats``, when given, one per cell (None: the column's), and ``lower_bounds`` the cells that are
    lower bounds ("≥"), ``upper_bounds`` those that are upper bounds ("≤")."""

    headers: tuple[str, ...]
    cells: tuple[float | None, ...]
    formats: tuple[NumberFormat | None, ...] = ()
    lower_bounds: frozenset[int] = frozenset()
    upper_bounds: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Table:
    """``corner`` holds the text above the row-header columns: one tuple for the group-header line
    and one for the column-header line, each as wide as the row headers. ``row_labels`` says what each
    row-header column holds where the headers are printed on one line (a report's table), when the corner
    says something else (seed 000 Table 1 prints "Workload" over the workloads' groups and the RAID
    level there, over the drive counts and cache settings); empty: the corner's column-header line."""

    title: str
    corner: tuple[tuple[str, ...], tuple[str, ...]]
    column_groups: tuple[ColumnGroup, ...]
    rows: tuple[Row, ...]
    footnotes: tuple[str, ...] = ()
    row_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        width = len(self.corner[0])
        if len(self.corner) != 2 or len(self.corner[1]) != width:
            raise ValueError("the corner needs two header lines, each as wide as the row headers")
        if self.row_labels and len(self.row_labels) != width:
            raise ValueError("the row labels need one label per row-header column")
        for row in self.rows:
            if len(row.headers) != width or len(row.cells) != len(self.columns):
                raise ValueError(
                    f"row {row.headers} has {len(row.headers)} headers and {len(row.cells)} cells; "
                    f"the table has {width} row-header columns and {len(self.columns)} data columns"
                )

    @property
    def columns(self) -> tuple[Column, ...]:
        return tuple(column for group in self.column_groups for column in group.columns)

    @property
    def row_header_width(self) -> int:
        return len(self.corner[0])

    def row_header_labels(self) -> tuple[str, ...]:
        """What each row-header column holds, for a header printed on one line ("Drives", "Cache setting")."""
        return self.row_labels or self.corner[1]

    def cell_format(self, row: int, column: int) -> NumberFormat:
        """How cell ``column`` of row ``row`` prints: the row's format for it, else its column's."""
        formats = self.rows[row].formats
        own = formats[column] if column < len(formats) else None
        return own or self.columns[column].number_format

    def is_lower_bound(self, row: int, column: int) -> bool:
        return column in self.rows[row].lower_bounds and self.rows[row].cells[column] is not None

    def bound_mark(self, row: int, column: int) -> str:
        """The mark a cell prints before its figure: "≥ " a lower bound, "≤ " an upper bound, else ''."""
        if self.rows[row].cells[column] is None:
            return ""
        if self.is_lower_bound(row, column):
            return LOWER_BOUND
        return UPPER_BOUND if column in self.rows[row].upper_bounds else ""

    def cell_text(self, row: int, column: int) -> str:
        text = format_number(self.rows[row].cells[column], self.cell_format(row, column))
        return self.bound_mark(row, column) + text

    def row_header_text(self, row: int) -> tuple[str, ...]:
        """Row headers as printed: an outer header is blank while it repeats the row above (the
        paper prints "20 HDDs" once over its two cache settings); the innermost is always printed."""
        headers = self.rows[row].headers
        if row == 0:
            return headers
        previous = self.rows[row - 1].headers
        return tuple(
            "" if level < len(headers) - 1 and headers[: level + 1] == previous[: level + 1] else text
            for level, text in enumerate(headers)
        )

    def header_rows(self) -> list[list[str]]:
        groups = [text for group in self.column_groups for text in [group.label] + [""] * (len(group.columns) - 1)]
        labels = [column.label for column in self.columns]
        return [list(self.corner[0]) + groups, list(self.corner[1]) + labels]

    def body_rows(self) -> list[list[str]]:
        return [
            list(self.row_header_text(i)) + [self.cell_text(i, j) for j in range(len(self.columns))]
            for i in range(len(self.rows))
        ]

    def text_grid(self) -> list[list[str]]:
        """Every line of the table as printed, headers first, one string per cell."""
        return self.header_rows() + self.body_rows()

    def column_group_spans(self) -> list[tuple[int, int, str]]:
        """(first data column, number of columns, label) of each column group, for merged headers."""
        spans, start = [], 0
        for group in self.column_groups:
            spans.append((start, len(group.columns), group.label))
            start += len(group.columns)
        return spans

    def row_header_spans(self, level: int) -> list[tuple[int, int, str]]:
        """(first row, number of rows, text) of the blocks a row-header column would merge."""
        spans: list[tuple[int, int, str]] = []
        for i, row in enumerate(self.rows):
            if i and self.row_header_text(i)[level] == "":
                first, count, text = spans[-1]
                spans[-1] = (first, count + 1, text)
            else:
                spans.append((i, 1, row.headers[level]))
        return spans


@dataclass(frozen=True)
class ResultRecord:
    """One published or computed figure: a metric (``IOPS`` or ``MBps``) of a workload measured
    with ``drive_count`` drives and a cache setting; ``value`` ``None`` means not measured."""

    drive_count: int
    cache_setting: str
    workload: str
    metric: str
    value: float | None
    # The threshold was not reached: ``value`` is the best point measured, a lower bound.
    lower_bound: bool = False


DEFAULT_NUMBER_FORMATS = {IOPS: NumberFormat(decimals=0), MBPS: NumberFormat(decimals=1)}


def whitepaper_table(
    records: Iterable[ResultRecord],
    *,
    title: str,
    raid_label: str = "",
    corner_label: str = "Workload",
    workloads: Sequence[str] | None = None,
    cache_settings: Sequence[str] | None = None,
    metrics: Sequence[str] = (IOPS, MBPS),
    metric_labels: Mapping[str, str] | None = None,
    number_formats: Mapping[str, NumberFormat] | None = None,
    drive_label: str | Callable[[int], str] = lambda count: drives(count, "HDD"),
    threshold_ms: float | None = 20.0,
    response_time: str | None = None,
    row_labels: tuple[str, str] = ("Drives", "Cache setting"),
    column_labels: Mapping[tuple[str, str], str] | None = None,
) -> Table:
    """The layout of seed 000 Table 1: rows by drive count (ascending) then cache setting, columns
    by workload, each with one column per metric.

    ``workloads`` and ``cache_settings`` choose and order what is shown (default: every one, in the
    order first seen); records outside the selection are left out. Every drive count x cache
    setting is a row; a cell without a record prints "N/A". Two records for one cell are refused.
    The footnote says the response time the figures are read at: ``response_time`` in words ("a 99th
    percentile response time of 1 ms"), else an average of ``threshold_ms``; none when both are None.
    ``row_labels`` name the two row-header columns where the headers are printed on one line;
    ``column_labels`` head a (workload, metric) column otherwise than ``metric_labels`` do (a rate of other
    operations than I/Os in its own unit: "object ops/s").
    """
    records = list(records)
    workloads = tuple(workloads) if workloads is not None else _first_seen(r.workload for r in records)
    cache_settings = (
        tuple(cache_settings) if cache_settings is not None else _first_seen(r.cache_setting for r in records)
    )
    cells = _cells_by_position(records, workloads, cache_settings, metrics)
    bounded = {(r.drive_count, r.cache_setting, r.workload, r.metric) for r in records if r.lower_bound}
    columns = [(w, m) for w in workloads for m in metrics]
    drive_counts = sorted({drive_count for drive_count, *_ in cells})
    labels = {**{metric: metric for metric in metrics}, **(metric_labels or {})}
    formats = {**DEFAULT_NUMBER_FORMATS, **(number_formats or {})}
    groups = tuple(
        ColumnGroup(
            workload,
            tuple(
                Column((column_labels or {}).get((workload, m), labels[m]), formats.get(m, NumberFormat()))
                for m in metrics
            ),
        )
        for workload in workloads
    )
    rows = tuple(
        Row(
            headers=(drive_label(drive_count) if callable(drive_label) else drive_label.format(drive_count), cache),
            cells=tuple(cells.get((drive_count, cache, w, m)) for w, m in columns),
            lower_bounds=frozenset(i for i, (w, m) in enumerate(columns) if (drive_count, cache, w, m) in bounded),
        )
        for drive_count in drive_counts
        for cache in cache_settings
    )
    if response_time is None and threshold_ms is not None:
        response_time = f"an average response time of {threshold_ms:g} ms"
    footnotes = () if response_time is None else (f"*Results correspond to {response_time}.",)
    return Table(
        title=title,
        corner=((corner_label, ""), (raid_label, "")),
        column_groups=groups,
        rows=rows,
        footnotes=footnotes,
        row_labels=row_labels,
    )


def _cells_by_position(records, workloads, cache_settings, metrics) -> dict[tuple, float | None]:
    cells: dict[tuple, float | None] = {}
    for record in records:
        if (
            record.workload not in workloads
            or record.cache_setting not in cache_settings
            or record.metric not in metrics
        ):
            continue
        position = (record.drive_count, record.cache_setting, record.workload, record.metric)
        if position in cells:
            raise ValueError(
                f"two {record.metric} figures for {record.workload} with {record.drive_count} drives "
                f"({record.cache_setting}): {cells[position]} and {record.value}"
            )
        cells[position] = record.value
    return cells


def _first_seen(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


def stroke_table(
    rows: Sequence[tuple[str, StrokeMultipliers]],
    *,
    title: str,
    group_label: str,
    row_label: str = "Transfer Request Size",
    decimals: int = 2,
) -> Table:
    """The layout of seed 000 Tables 2 and 6: one row per workload group, one column per stroke
    percentage above the baseline, multipliers printed with ``decimals`` digits ("0.80")."""
    strokes_pct = sorted({stroke for _, multipliers in rows for stroke in multipliers.strokes_pct})
    number_format = NumberFormat(decimals=decimals, trim_zeros=False, group_from=None)
    columns = tuple(Column(f"{stroke:g}%", number_format) for stroke in strokes_pct)
    body = tuple(
        Row(headers=(label,), cells=tuple(dict(multipliers.multipliers).get(stroke) for stroke in strokes_pct))
        for label, multipliers in rows
    )
    return Table(
        title=title, corner=((row_label,), ("",)), column_groups=(ColumnGroup(group_label, columns),), rows=body
    )
