"""Firmware versions in the order vendors number them: ``07.15.07.00`` after ``07.10.25.00``,
``8.3.2`` before ``8.10.0`` (numbers compared as numbers, not as text)."""

import re

_TOKEN = re.compile(r"\d+|[^\W\d_]+", re.UNICODE)


def version_key(version: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key for a firmware version: its numbers compared as numbers, its words as lower-case text.
    A number sorts after a word in the same place (``8.3.beta`` before ``8.3.1``)."""
    return tuple(
        (1, int(token), "") if token.isdigit() else (0, 0, token.lower()) for token in _TOKEN.findall(version or "")
    )
