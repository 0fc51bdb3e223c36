"""Reading the cells of a results row: one cell with its checks, or many plain figures at once."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from ...errors import ParseError
from ...numbers import checked

# Iometer prints -1 for an ambiguous value and 2^64-1 for an unset sector count.
_UINT64_MAX = float(2**64 - 1)
# Whole numbers below this are exact as floats: a count read as an int equals the float read of it.
_EXACT_WHOLE = 2**53
_TIMESTAMP = re.compile(r"^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?::(\d{1,3}))?$")
# A column read into a dict: (key, index in the row, column name for messages).
_Position = tuple[Any, int, str]
# Picks cells of a row at once (``operator.itemgetter``).
CellsGetter = Callable[[Sequence[str]], Sequence[str]]


def _number(text: str, line: int, column: str) -> float | None:
    """A cell as a float; ``None`` for an empty cell or an Iometer sentinel (-1, 2^64-1)."""
    try:
        value = float(text)
    except ValueError:
        if not text.strip():
            return None
        raise ParseError(f"{text.strip()!r} is not a number", line=line, field=column) from None
    if value == -1 or value == _UINT64_MAX:
        return None
    # Negative figures are left to the contract, which names the run and point.
    return checked(value, file=None, line=line, field=column, negative=True, shown=text)


def _cell(cells: Sequence[str], i: int, line: int, column: str) -> float | None:
    """``_number`` of ``cells[i]``, with the common case (a plain non-negative figure) inline: the
    parser reads a million cells in a 50 MB file. NaN fails both comparisons and takes the slow path."""
    text = cells[i]
    try:
        value = float(text)
    except ValueError:
        return _number(text, line, column)
    if 0.0 <= value < _UINT64_MAX:
        return value
    return _number(text, line, column)


def _fill(out: dict[Any, Any], cells: Sequence[str], positions: list[_Position], line: int) -> None:
    """``out[key]`` = ``_cell`` of each ``(key, index, column)`` position, with ``_cell`` inline: this
    loop converts nearly every cell the parser reads."""
    for key, i, column in positions:
        text = cells[i]
        value: float | None
        try:
            value = float(text)
        except ValueError:
            value = _number(text, line, column)
        else:
            if not 0.0 <= value < _UINT64_MAX:
                value = _number(text, line, column)
        out[key] = value


def _cells_getter(indices: list[int]) -> CellsGetter | None:
    """A function giving the cells at ``indices`` as a sequence (``itemgetter`` of one index gives the
    bare cell); ``None`` for no index."""
    if not indices:
        return None
    if len(indices) == 1:
        return itemgetter(slice(indices[0], indices[0] + 1))
    return itemgetter(*indices)


def _plain_figures(cells: Sequence[str], getter: CellsGetter | None) -> list[float] | None:
    """The cells ``getter`` picks as floats, in one pass, when every one is a plain figure (from 0 to
    below 2^64-1), as in nearly every row; ``None`` when any is not (empty, -1, NaN, a word), so that
    ``_fill`` reads them one by one and names the cell that is an error."""
    if getter is None:
        return []
    try:
        values = list(map(float, getter(cells)))
        # NaN fails ``>=`` when min() returns it and makes the sum NaN otherwise; with no value below
        # 0, a sum below 2^64-1 keeps each value below it.
        if min(values) >= 0.0 and sum(values) < _UINT64_MAX:
            return values
    except ValueError:  # a cell float() does not read
        pass
    return None


def _plain_counts(cells: Sequence[str], getter: CellsGetter | None) -> list[int] | None:
    """The cells ``getter`` picks as ints when every one is a plain whole count below 2^53 (where
    ``_whole`` of the float read gives the same int); ``None`` otherwise, as ``_plain_figures``."""
    if getter is None:
        return []
    try:
        counts = list(map(int, getter(cells)))
        if min(counts) >= 0 and max(counts) < _EXACT_WHOLE:
            return counts
    except ValueError:  # a cell int() does not read ("1.5", "")
        pass
    return None


def _optional(cells: Sequence[str], i: int | None, line: int, column: str) -> float | None:
    """``_cell`` of a column the header may lack or a short (PROCESSOR) row may stop before."""
    return None if i is None or i >= len(cells) else _cell(cells, i, line, column)


def _text(cells: Sequence[str], i: int | None) -> str:
    return "" if i is None or i >= len(cells) else cells[i].strip()


def _whole(value: float | None) -> float | int | None:
    """A count read as a float (``4.0``) back to an int; other values unchanged."""
    return int(value) if value is not None and value.is_integer() else value


def _iso_timestamp(text: str) -> str | None:
    """``2023-03-25 03:05:43:661`` (Iometer's milliseconds after a colon) to ISO 8601, else ``None``."""
    match = _TIMESTAMP.match(text.strip())
    if not match:
        return None
    day, clock, millis = match.groups()
    return f"{day}T{clock}.{int(millis):03d}" if millis else f"{day}T{clock}"
