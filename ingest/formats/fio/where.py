"""Where a job's figures are read from, for messages, and what is worked out once per file."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from ...errors import ParseError
from ...numbers import checked
from ...result import Workload
from .document import JSONObject, _Document

LARGEST_PLAIN_INT = 2**63  # whole figures below this are read as floats without more checks


@dataclass
class _Known:
    """What is worked out once per file: the jobs of a large file share their options, start time
    and percentile names."""

    started_at: dict[float, str] = field(default_factory=dict)  # seconds -> ISO 8601
    # a table's keys -> _percentile_layout
    percentile_layouts: dict[tuple[str, ...], tuple[tuple[str, ...], Callable[[JSONObject], tuple[Any, ...]]]] = field(
        default_factory=dict
    )
    document: tuple[JSONObject, str | None, bool] | None = None  # (global options, fio version, whether all text)
    # _options_key of the job options -> (iodepth, numjobs given or None, rw, Workload, its other
    # fields, the fio defaults it took)
    stated: dict[Hashable, tuple[int, int | None, str | None, Workload, dict[str, Any], dict[str, str]]] = field(
        default_factory=dict
    )


class _Where:
    """Where a job's figures are read from, for messages: the file and the line of the job's name
    (counted only when a message needs it)."""

    def __init__(self, file: str, document: _Document, index: int, known: _Known) -> None:
        self.file = file
        self.known = known
        self._document, self._index = document, index

    @property
    def line(self) -> int | None:
        return self._document.job_line(self._index)

    def number(self, stats: JSONObject, key: str, default: float | None = None) -> Any:
        """``stats[key]`` as a finite, non-negative number; ``default`` when absent."""
        value: Any = stats.get(key)
        kind = type(value)
        # The common cases first: a large file holds a few hundred thousand figures.
        if kind is float and 0.0 <= value < math.inf:
            return value
        if kind is int and 0 <= value < LARGEST_PLAIN_INT:
            return float(value)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ParseError(f"{str(value)[:40]!r} is not a number", file=self.file, line=self.line, field=key)
        return checked(value, file=self.file, line=self.line, field=key, shown=value)

    def total(self, values: list[float], key: str) -> float:
        """The sum of figures read by ``number``, refused when the job entries' figures add up to
        more than a float holds (every number in a point's metrics is finite, METRICS_CHECKED)."""
        total = sum(values)
        return total if total < math.inf else checked(total, file=self.file, line=self.line, field=key)

    def read(self, reader: Callable[..., Any], text: object, field: str, **options: Any) -> Any:
        """``reader(text)`` (``read_number``, ``read_size``) with this place in its errors; the line is
        counted only for an error."""
        try:
            return reader(text, file=self.file, field=field, **options)
        except ParseError as error:
            error.line = self.line
            raise


def _object(data: JSONObject, key: str, where: _Where) -> JSONObject:
    """``data[key]`` when it is a JSON object; ``{}`` when absent."""
    value = data.get(key) or {}
    if not isinstance(value, dict):
        raise ParseError(f"expected an object, found {str(value)[:40]!r}", file=where.file, line=where.line, field=key)
    return value
