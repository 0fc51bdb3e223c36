"""Reading a fio output file: the text fio printed before its JSON, the JSON object, where each job
starts, and options a job file gave twice."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from typing import Any

from ...errors import ParseError
from ...source import Source

PREAMBLE_SHOWN = 3
# fio --client (client/server mode) writes its jobs under this key, one entry per job and host, with
# an entry of this name per group summing every host.
CLIENT_JOBS_KEY = "client_stats"
ALL_CLIENTS = "All clients"
# The objects holding the options a job file gave, where an option may be given twice.
OPTIONS_OBJECT = re.compile(r'"(?:global|job) options"\s*:\s*(?=\{)')
_OPTIONS_KEYS = ('"job options"', '"global options"')  # a job's first: there are more of them
_OPTIONS_KEY_END = ' options"'
_COLON, _COMMA = frozenset((":",)), frozenset((",",))
# A JSON object as decoded.
JSONObject = dict[str, Any]


# Reading the document -------------------------------------------------------------------------


class _Document:
    """The JSON object of one file, the text fio printed before it, and where each job starts.
    ``entries`` are its job entries: ``jobs``, or ``client_stats`` for fio's client/server mode
    (``client_mode``), where each entry names the host that ran it."""

    def __init__(self, data: JSONObject, preamble: list[str], text: str, first_line: int) -> None:
        self.data = data
        self.client_mode = not isinstance(data.get("jobs"), list)
        self.entries: list[Any] = data[CLIENT_JOBS_KEY] if self.client_mode else data["jobs"]
        self.preamble = preamble
        self._text, self._first_line = text, first_line
        self._job_lines: list[int] | None = None

    def job_line(self, index: int) -> int | None:
        """The line of the ``index``-th ``"jobname"`` key; ``None`` past the last. Counted through the
        text when first asked (for a message), not for every file."""
        if self._job_lines is None:
            self._job_lines = _job_lines(self._text, self._first_line)
        return self._job_lines[index] if index < len(self._job_lines) else None


def _read_document(source: Source, warnings: list[str]) -> _Document:
    """The JSON object of a fio output, skipping the text fio prints before it (with a warning)."""
    preamble: list[str] = []
    first_line: int | None = None
    # Lines counted as an editor counts them: fio's progress line before the JSON (client/server mode)
    # rewrites itself with lone carriage returns, which end no line.
    with source.open_text(newline="") as stream:
        text = stream.read()
    start, number = 0, 1
    while start < len(text):
        end = text.find("\n", start) + 1 or len(text)
        line = text[start:end]
        if line.lstrip().startswith("{"):
            first_line = number
            text = text[start:] if start else text
            break
        if line.strip():
            # A line fio rewrote with carriage returns: its last state, as the terminal showed it.
            preamble.append(line.strip().rsplit("\r", 1)[-1].strip() or line.strip())
        start, number = end, number + 1
    if first_line is None:
        raise ParseError("no JSON object found; expected the output of fio --output-format=json", file=source.name)
    if preamble:
        shown = " | ".join(preamble[:PREAMBLE_SHOWN]) + (" | ..." if len(preamble) > PREAMBLE_SHOWN else "")
        warnings.append(f"{source.name}: skipped {len(preamble)} lines of text before the JSON: {shown}")
    data = _decode(text, source, first_line, warnings)
    return _Document(data, preamble, text, first_line)


def _options_given_twice(text: str, end: int) -> dict[str, list[Any]]:
    """Options given twice with different values in the option objects (a job file may repeat an
    option; JSON keeps the last). Only these objects are decoded again to see the pairs: fio writes
    every other key once, and a hook on every object of a large file costs as much as the decoding.
    Each such option with the values it was given, in order."""
    duplicates: dict[str, list[Any]] = {}

    def keep_last(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        options = dict(pairs)
        if len(options) != len(pairs):
            given: dict[str, list[Any]] = {}
            for key, value in pairs:
                given.setdefault(key, []).append(value)
            for key, values in given.items():
                if len(set(map(str, values))) > 1:
                    duplicates.setdefault(key, values)
        return options

    decoder = json.JSONDecoder(object_pairs_hook=keep_last)
    # The text of objects found plain, each key once: jobs often repeat their options word for word.
    plain: set[str | None] = set()
    for start in _options_objects(text, end):
        close = text.find("}", start)
        inner = text[start + 1 : close] if close >= 0 else None
        if inner in plain:
            continue
        parts = None if inner is None else _plain_parts(inner)
        if parts is None:
            decoder.raw_decode(text, start)
        elif len(set(keys := parts[1::4])) != len(keys):
            keep_last(list(zip(keys, parts[3::4], strict=True)))
        else:
            plain.add(inner)
    return duplicates


def _options_objects(text: str, end: int) -> Iterator[int]:
    """Where each object ``OPTIONS_OBJECT`` introduces starts, before ``end``: found by looking for
    ``options"`` (a plain search, several times faster than the pattern's over a large file) and
    matching the pattern there."""
    position = text.find(_OPTIONS_KEY_END, 0, end)
    while position >= 0:
        after = position + len(_OPTIONS_KEY_END)
        # '"job options": {' as JSON is commonly written, without the pattern; else the pattern.
        if position >= 4 and text.startswith(": {", after, end) and text.startswith('"job', position - 4):
            yield after + 2
            position = text.find(_OPTIONS_KEY_END, after, end)
            continue
        for key in _OPTIONS_KEYS:
            match = OPTIONS_OBJECT.match(text, position + len(_OPTIONS_KEY_END) - len(key), end)
            if match:
                yield match.end()
                break
        position = text.find(_OPTIONS_KEY_END, position + len(_OPTIONS_KEY_END), end)


def _plain_parts(inner: str) -> list[str] | None:
    """A JSON object, ``inner`` the text between its braces, split at its quotes when it holds only
    text values without escapes, as fio writes options (its keys are ``parts[1::4]``, their values
    ``parts[3::4]``): a few microseconds where decoding it costs several times that, for each of
    thousands of jobs; ``None`` for any other object, which is decoded."""
    if "\\" in inner:
        return None
    # '{' "key" ':' "value" ',' "key" ':' "value" '}': every fourth part is a separator.
    parts = inner.split('"')
    if len(parts) % 4 != 1 or parts[0].strip() or parts[-1].strip():
        return None
    if not _COLON.issuperset(map(str.strip, parts[2::4])) or not _COMMA.issuperset(map(str.strip, parts[4:-1:4])):
        return None
    return parts


def _job_lines(text: str, first_line: int) -> list[int]:
    """The line of each job's ``"jobname"`` key, counting newlines once through the text."""
    lines: list[int] = []
    line, position = first_line, 0
    for match in re.finditer(r'"jobname"\s*:', text):
        line += text.count("\n", position, match.start())
        position = match.start()
        lines.append(line)
    return lines


def _decode(text: str, source: Source, first_line: int, warnings: list[str]) -> JSONObject:
    try:
        data, end = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"not valid JSON ({error.msg}); the fio output may be truncated",
            file=source.name,
            line=first_line + error.lineno - 1,
            column=error.colno,
        ) from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits
        huge = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        line = first_line + text.count("\n", 0, huge.start()) if huge else None
        raise ParseError("a number of thousands of digits: the file is damaged", file=source.name, line=line) from None
    for key, values in _options_given_twice(text, end).items():
        given = ", then ".join(repr(str(value)[:80]) for value in values)
        warnings.append(
            f"{source.name}: option {key!r} is given {len(values)} times with different values ({given}); "
            f"the last one, {str(values[-1])[:80]!r}, is kept (fio applies a job file's options in order)"
        )
    if text[end:].strip():
        line = first_line + text.count("\n", 0, end)
        warnings.append(f"{source.name}:{line}: text after the JSON object was skipped")
    if not isinstance(data, dict) or not any(isinstance(data.get(key), list) for key in ("jobs", CLIENT_JOBS_KEY)):
        raise ParseError(
            'no "jobs" list (nor the "client_stats" of fio --client); expected the output of fio --output-format=json',
            file=source.name,
        )
    return data
