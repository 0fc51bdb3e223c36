"""Reading the numbers tools print, for every parser alike.

A figure in a result file is a count, a rate, a time or a size: finite and, unless the caller says
otherwise, not negative. Anything else (NaN, infinity, a number too large for a float, a word)
means the file is damaged, and becomes a :class:`ParseError` naming the field and line.
"""

import math
import re

from .errors import ParseError

# Whole numbers beyond this are no count a tool prints (Iometer's largest is 2^64 - 1).
LARGEST_WHOLE = 2**64
_THOUSANDS = re.compile(r"^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$")


def read_number(text, *, file, line=None, field=None, negative=False, blank=None):
    """``text`` as a finite float; ``blank`` for an empty cell. Thousands separators (``1,234.5``)
    are accepted; NaN, infinity, overflow and (unless ``negative``) values below 0 are refused."""
    cleaned = str(text).strip()
    if not cleaned:
        return blank
    if _THOUSANDS.match(cleaned):
        cleaned = cleaned.replace(",", "")
    try:
        value = float(cleaned)
    except (ValueError, OverflowError):
        raise ParseError(f"{str(text)[:40]!r} is not a number", file=file, line=line, field=field) from None
    return checked(value, file=file, line=line, field=field, negative=negative, shown=text)


def read_whole(text, *, file, line=None, field=None, negative=False, blank=None):
    """``text`` as a whole number (``12``, ``12.0``); refused like :func:`read_number` and when huge."""
    value = read_number(text, file=file, line=line, field=field, negative=negative, blank=blank)
    if value is None or value is blank:
        return value
    if not value.is_integer():
        raise ParseError(f"{str(text)[:40]!r} is not a whole number", file=file, line=line, field=field)
    return whole(value, file=file, line=line, field=field, shown=text)


def whole(value, *, file, line=None, field=None, shown=None):
    """A number already read (e.g. from JSON) as an int, refused when it is no plausible count."""
    if isinstance(value, float) and not math.isfinite(value) or abs(value) >= LARGEST_WHOLE:
        raise ParseError(f"{_shown(shown, value)} is too large to be a count", file=file, line=line, field=field)
    return int(value)


def checked(value, *, file, line=None, field=None, negative=False, shown=None):
    """A number already read, refused when it is NaN, infinite, too large for a float or negative."""
    try:
        value = float(value)
    except OverflowError:
        value = math.inf
    if math.isnan(value):
        raise ParseError(
            f"{_shown(shown, value)} (not a number) is no measured value", file=file, line=line, field=field
        )
    if math.isinf(value):
        raise ParseError(
            f"{_shown(shown, value)} is too large to be a measured value", file=file, line=line, field=field
        )
    if value < 0 and not negative:
        raise ParseError(
            f"{_shown(shown, value)} is negative; a measured value cannot be", file=file, line=line, field=field
        )
    return value


def _shown(shown, value):
    text = str(value if shown is None else shown).strip()
    return repr(text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)")


_SIZE = re.compile(r"^(\d{1,15}(?:\.\d{1,15})?)\s*([kmgtpe]?)(i?)(?:b|bytes?)?$", re.IGNORECASE)
_SIZE_POWERS = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}


def read_size(text, *, file=None, line=None, field=None, kilo: int = 1024) -> int:
    """A size as tools write it (``512``, ``4k``, ``64KiB``, ``8 KB``, ``1m``, ``4096 bytes``) in
    bytes. Suffixes are binary unless ``kilo`` is 1000 (fio's ``kb_base=1000``); ``KiB`` is binary
    whatever ``kilo`` says. Anything else, and a size under one byte, is a :class:`ParseError`
    naming the field."""
    match = _SIZE.match(str(text).strip())
    size = None
    if match:
        number, unit, binary = match.groups()
        size = round(float(number) * (1024 if binary else kilo) ** _SIZE_POWERS[unit.lower()])
    if size is None or size <= 0 or size >= LARGEST_WHOLE:
        raise ParseError(
            f"{_shown(text, text)} is not a size (such as 512, 4k, 64KiB or 1m)", file=file, line=line, field=field
        )
    return size


def size_or_none(text, *, kilo: int = 1024) -> int | None:
    """:func:`read_size`, or ``None`` for text that is no size (where another reading may apply)."""
    try:
        return read_size(text, kilo=kilo)
    except ParseError:
        return None
