"""What the state machine builds: tests, their result sections, and the access specifications
read from each section's lines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from ...errors import ParseError
from .cells import _number, _plain_figures
from .table import _Table

_SPEC_FIELDS = ("bytes", "pct", "read_pct", "random_pct", "delay_ms", "burst", "align_bytes", "reply_bytes")
_SPEC_CELLS = itemgetter(slice(len(_SPEC_FIELDS)))


@dataclass
class _Spec:
    name: str
    default_assignment: str
    line: int = 0
    lines: list[dict[str, Any]] = field(default_factory=list)
    # Each line's values, as read: with the name, what tells one specification from another.
    line_values: list[tuple[Any, ...]] = field(default_factory=list)

    def key(self) -> tuple[str, tuple[tuple[Any, ...], ...]]:
        return self.name, tuple(self.line_values)


@dataclass
class _Test:
    number: int
    line: int
    type: str = ""
    description: str = ""
    version: str | None = None
    ended: bool = False


@dataclass
class _Section:
    test: _Test
    line: int
    started_at: str | None = None
    ended_at: str | None = None
    specs: list[_Spec] = field(default_factory=list)
    table: _Table | None = None
    header_line: int | None = None
    total: dict[str, Any] | None = None
    total_line: int | None = None
    # Rows of WORKER_COLUMNS, TARGET_COLUMNS and PROCESSOR_COLUMNS.
    workers: list[list[Any]] = field(default_factory=list)
    targets: list[list[Any]] = field(default_factory=list)
    processors: list[list[Any]] = field(default_factory=list)
    time_series: list[dict[str, Any]] = field(default_factory=list)
    manager: str | None = None

    def result(self) -> dict[str, Any]:
        """The ALL row's figures of a section kept as a point (``close_section`` keeps only sections
        with one)."""
        if self.total is None:
            raise ParseError("the section has no ALL results row", line=self.line)
        return self.total


def _spec_values(text: str, number: int) -> tuple[Any, ...]:
    """The values of an access specification line, in ``_SPEC_FIELDS`` order, as far as it has cells
    (the bytes a whole number)."""
    cells = [cell.strip() for cell in text.split(",")]
    while cells and not cells[-1]:
        cells.pop()
    if len(cells) < 4:
        raise ParseError(
            f"access specification line {text!r} needs at least size, % of size, % reads and % random",
            line=number,
        )
    values: Sequence[float | None] | None = _plain_figures(cells, _SPEC_CELLS)
    if values is None:
        values = [_number(cell, number, name) for cell, name in zip(cells, _SPEC_FIELDS, strict=False)]
    size, *rest = values[: len(_SPEC_FIELDS)]
    return (int(size or 0), *rest)


def _check_shares(spec: _Spec) -> None:
    """Iometer's lines of an access specification share its I/Os: their '% of size' add up to 100."""
    total_pct = sum(line["pct"] or 0 for line in spec.lines)
    if spec.lines and abs(total_pct - 100) > 0.5:
        raise ParseError(
            f"the lines of access specification {spec.name!r} share {total_pct:g} % of its I/Os, not the 100 % "
            "Iometer writes: the file is damaged, and its transfer-size mix cannot be read",
            line=spec.line,
        )


def _where(section: _Section) -> str:
    return f"line {section.line} (test {section.test.number})"
