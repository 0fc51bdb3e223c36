"""Reading one of MLPerf Storage's JSON files: the object, and the line each key is written on, so that a
figure that cannot be read is refused naming its file, line and key.

The tools write figures as JSON numbers, and some as text (the report's ``train_num_accelerators`` is
``"64"``, DLIO's epoch durations ``"247.60"``): both are read, anything else is refused.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime
from typing import Any

from ...errors import ParseError
from ...numbers import Printed, checked, read_number, whole
from ...source import Source

# A JSON object as decoded.
JSONObject = dict[str, Any]
# A figure written as text: a number, never blank.
_TEXT_FIGURE = Printed(required=True)


class JsonFile:
    """The decoded object of one file and its text, to say where a key is written."""

    def __init__(self, name: str, data: JSONObject, text: str) -> None:
        self.name = name
        self.data = data
        self._text = text

    def line_of(self, key: str, within: str | None = None) -> int | None:
        """The line of the first ``"key":`` (after the first ``"within":`` when given); ``None`` when the
        file does not write it."""
        start = 0
        if within is not None:
            found = re.search(rf'"{re.escape(within)}"\s*:', self._text)
            start = found.end() if found else 0
        match = re.compile(rf'"{re.escape(key)}"\s*:').search(self._text, start)
        return self._text.count("\n", 0, match.start()) + 1 if match else None

    def error(self, message: str, key: str, within: str | None = None) -> ParseError:
        """A refusal naming ``key`` and its line; for a key the file does not write, the line of the object
        it is missing from (``within``)."""
        line = self.line_of(key, within)
        if line is None and within is not None:
            line = self.line_of(within)
        return ParseError(message, file=self.name, line=line, field=key)

    def section(self, parent: JSONObject, key: str, within: str | None = None) -> JSONObject:
        """``parent[key]``, a JSON object; refused when absent or anything else."""
        value = parent.get(key)
        if not isinstance(value, dict):
            found = "it is missing" if value is None else f"found {_shown(value)}"
            raise self.error(f"expected an object of figures; {found}", key, within)
        return value

    def text(self, parent: JSONObject, key: str, within: str | None = None) -> str:
        """``parent[key]``, a text that is not blank."""
        value = parent.get(key)
        if not isinstance(value, str) or not value.strip():
            found = "it is missing" if value is None else f"found {_shown(value)}"
            raise self.error(f"expected a name; {found}", key, within)
        return value.strip()

    def number(self, parent: JSONObject, key: str, within: str | None = None, *, required: bool = True) -> float | None:
        """``parent[key]`` as a finite figure, not negative: a JSON number or a number written as text.
        ``None`` when absent and not ``required``."""
        value = parent.get(key)
        if value is None:
            if required:
                raise self.error("the figure is missing", key, within)
            return None
        return self.figure(value, key, within)

    def figure(self, value: object, key: str, within: str | None = None) -> float:
        """``value``, read from ``key``, as a finite figure, not negative."""
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise self.error(f"{_shown(value)} is not a number", key, within)
        try:
            if isinstance(value, str):
                return read_number(value, file=self.name, field=key, printed=_TEXT_FIGURE) or 0.0
            return checked(value, file=self.name, field=key)
        except ParseError as error:
            error.line = self.line_of(key, within)
            raise

    def whole(self, parent: JSONObject, key: str, within: str | None = None, *, required: bool = True) -> int | None:
        """``parent[key]`` as a count (``64`` or ``"64"``)."""
        value = self.number(parent, key, within, required=required)
        if value is None:
            return None
        if not value.is_integer():
            raise self.error(f"{_shown(parent[key])} is not a whole number", key, within)
        return whole(value, file=self.name, line=self.line_of(key, within), field=key, shown=parent[key])

    def numbers(self, parent: JSONObject, key: str, within: str | None = None) -> list[float]:
        """``parent[key]``, a list of figures (DLIO's per-epoch lists); ``[]`` when absent."""
        values = parent.get(key)
        if values is None:
            return []
        if not isinstance(values, list):
            raise self.error(f"expected a list of figures, found {_shown(values)}", key, within)
        return [self.figure(value, key, within) for value in values]

    def moment(self, parent: JSONObject, key: str, within: str | None = None) -> str | None:
        """``parent[key]``, a time as DLIO writes it (ISO 8601), in ISO 8601; ``None`` when absent."""
        value = parent.get(key)
        if value is None:
            return None
        try:
            return datetime.fromisoformat(str(value)).isoformat()
        except ValueError:
            raise self.error(f"{_shown(value)} is not a time (expected 2024-08-17T23:06:52)", key, within) from None


def _shown(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def read_json(source: Source, expected: str) -> JsonFile:
    """The JSON object of ``source``; refused naming the line and column where it stops being JSON
    (``expected`` says what the file should be, for the message)."""
    with source.open_text() as stream:
        text = stream.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"not valid JSON ({error.msg}); expected {expected}, whole: the file may be cut short",
            file=source.name,
            line=error.lineno,
            column=error.colno,
        ) from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits
        huge = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        line = text.count("\n", 0, huge.start()) + 1 if huge else None
        raise ParseError("a number of thousands of digits: the file is damaged", file=source.name, line=line) from None
    if not isinstance(data, dict):
        raise ParseError(f"expected {expected}, a JSON object; found {type(data).__name__}", file=source.name, line=1)
    return JsonFile(source.name, data, text)
