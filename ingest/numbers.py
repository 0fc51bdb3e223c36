"""Reading the numbers tools print, for every parser alike.

A figure in a result file is a count, a rate, a time or a size: finite and, unless the caller says
otherwise, not negative. Anything else (NaN, infinity, a number too large for a float, a word)
means the file is damaged, and becomes a :class:`ParseError` naming the field and line.

How a tool prints its figures beyond a plain number (words for "no figure", a unit after it, a
decimal comma, grouping spaces) is stated once per format as a :class:`Printed`, and every read
goes through :func:`read_number`::

    _PRINTED = Printed(missing=frozenset({"n/a", "-"}), units=("%",))
    read_number("1,101.5 %", file=name, line=12, field="Disk Reads/sec", printed=_PRINTED)  # 1101.5
"""

import math
import re
from dataclasses import dataclass
from typing import SupportsFloat

from .errors import ParseError
from .units import size_multiplier

# Whole numbers beyond this are no count a tool prints (Iometer's largest is 2^64 - 1).
LARGEST_WHOLE = 2**64
_THOUSANDS = re.compile(r"^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$")
# The number a text starts with, as profiles print one before its unit ("15,015 RPM", "4 KB").
_LEADING = re.compile(r"^[-+]?\d[\d,]*(?:\.\d+)?")
_GROUPING_SPACES = str.maketrans("", "", "\u00a0\u202f\u2009 ")


@dataclass(frozen=True)
class Printed:
    """How a tool prints its figures: what :func:`read_number` accepts besides a plain number
    (``12``, ``-3.5``, ``1.5e3``, ``1,234.5`` with thousands separators), and how it refuses the rest.

    - ``missing``: words (lower case) that mean "no figure" and read as the caller's ``blank``
      (``"n/a"``, ``"-"``, ``"nan"`` where a tool prints NaN for a figure it could not measure);
    - ``units``: units (lower case) the figure may be followed by and that are dropped (``"%"``);
    - ``decimal_comma``: ``12,5`` (one comma, no point) is 12.5, as a locale prints it;
    - ``grouping_spaces``: spaces and no-break spaces group thousands (``1 234``);
    - ``required``: an empty text is refused, not read as ``blank``;
    - ``leading``: the figure is the number the text starts with (``15,015 RPM``);
    - ``refusal``: the sentence for text that is no number, formatted with ``text`` (as given),
      ``stripped``, ``short`` (its first 40 characters), ``field`` and ``place`` (where on the
      line, when the caller says);
    - ``one_refusal``: NaN, infinity and negatives are refused with ``refusal`` too, instead of
      the sentences saying which of them it is.
    """

    missing: frozenset[str] = frozenset()
    units: tuple[str, ...] = ()
    decimal_comma: bool = False
    grouping_spaces: bool = False
    required: bool = False
    leading: bool = False
    refusal: str = "{short!r} is not a number"
    one_refusal: bool = False


PLAIN = Printed()


def read_number(
    text: object,
    *,
    file: str | None,
    line: int | None = None,
    field: str | None = None,
    negative: bool = False,
    blank: float | None = None,
    printed: Printed = PLAIN,
    place: str | None = None,
    column: int | None = None,
    maximum: float | None = None,
) -> float | None:
    """``text`` as a finite float; ``blank`` for an empty cell (or a ``printed.missing`` word).
    Thousands separators (``1,234.5``) are accepted; NaN, infinity, overflow, (unless ``negative``)
    values below 0 and values above ``maximum`` are refused, naming ``field`` (or ``column``) and
    ``line``. ``printed`` states what else the tool prints (see :class:`Printed`)."""
    prepared: str | None = str(text).strip()
    if printed is not PLAIN:
        prepared = _prepared(str(prepared), printed)
    if prepared is None or (not prepared and not printed.required):
        return blank
    value: float | None
    try:
        value = float(prepared)
    except (ValueError, OverflowError):
        value = _written_otherwise(prepared, printed)
    if value is None:
        raise _refusal(text, printed, file=file, line=line, field=field, column=column, place=place)
    if printed.one_refusal and not _acceptable(value, negative, maximum):
        raise _refusal(text, printed, file=file, line=line, field=field, column=column, place=place)
    return _checked(value, file=file, line=line, field=field, column=column, negative=negative, shown=text, top=maximum)


def _prepared(cleaned: str, printed: Printed) -> str | None:
    """The text of the figure alone, without its unit; ``None`` when it is a word for no figure."""
    lowered = cleaned.lower()
    for unit in printed.units:
        if lowered.endswith(unit):
            cleaned = cleaned[: len(cleaned) - len(unit)].rstrip()
            lowered = cleaned.lower()
            break
    if lowered in printed.missing:
        return None
    if printed.grouping_spaces:
        cleaned = cleaned.translate(_GROUPING_SPACES)
    if printed.leading:
        match = _LEADING.match(cleaned)
        cleaned = match.group() if match else "?"
    return cleaned


def _written_otherwise(cleaned: str, printed: Printed) -> float | None:
    """A number float() does not read: a decimal comma (where the tool has one) or thousands separators."""
    if printed.decimal_comma and cleaned.count(",") == 1 and "." not in cleaned:
        cleaned = cleaned.replace(",", ".")
    elif _THOUSANDS.match(cleaned):
        cleaned = cleaned.replace(",", "")
    else:
        return None
    try:
        return float(cleaned)
    except ValueError:
        return None


def _acceptable(value: float, negative: bool, maximum: float | None) -> bool:
    return math.isfinite(value) and (negative or value >= 0) and (maximum is None or value <= maximum)


def _refusal(
    text: object,
    printed: Printed,
    *,
    file: str | None,
    line: int | None,
    field: str | None,
    column: int | None,
    place: str | None,
) -> ParseError:
    raw = str(text)
    message = printed.refusal.format(text=raw, stripped=raw.strip(), short=raw[:40], field=field, place=place)
    return ParseError(message, file=file, line=line, field=field, column=column)


def read_whole(
    text: object,
    *,
    file: str | None,
    line: int | None = None,
    field: str | None = None,
    negative: bool = False,
    blank: int | None = None,
) -> int | None:
    """``text`` as a whole number (``12``, ``12.0``); refused like :func:`read_number` and when huge."""
    value = read_number(text, file=file, line=line, field=field, negative=negative, blank=blank)
    if value is None or value is blank:
        return blank
    if not value.is_integer():
        raise ParseError(f"{str(text)[:40]!r} is not a whole number", file=file, line=line, field=field)
    return whole(value, file=file, line=line, field=field, shown=text)


def whole(
    value: float, *, file: str | None, line: int | None = None, field: str | None = None, shown: object = None
) -> int:
    """A number already read (e.g. from JSON) as an int, refused when it is no plausible count."""
    if isinstance(value, float) and not math.isfinite(value) or abs(value) >= LARGEST_WHOLE:
        raise ParseError(f"{_shown(shown, value)} is too large to be a count", file=file, line=line, field=field)
    return int(value)


def as_printed(value: float | None) -> int | float | None:
    """A figure as the file printed it: ``4`` for ``4.0``, so a whole number stays one in the result."""
    return int(value) if value is not None and value.is_integer() else value


def checked(
    value: SupportsFloat | str,
    *,
    file: str | None,
    line: int | None = None,
    field: str | None = None,
    negative: bool = False,
    shown: object = None,
) -> float:
    """A number already read, refused when it is NaN, infinite, too large for a float or negative."""
    return _checked(value, file=file, line=line, field=field, negative=negative, shown=shown)


def _checked(
    value: SupportsFloat | str,
    *,
    file: str | None,
    line: int | None,
    field: str | None,
    negative: bool,
    shown: object,
    column: int | None = None,
    top: float | None = None,
) -> float:
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    problem = None
    if math.isnan(number):
        problem = "(not a number) is no measured value"
    elif math.isinf(number):
        problem = "is too large to be a measured value"
    elif number < 0 and not negative:
        problem = "is negative; a measured value cannot be"
    elif top is not None and number > top:
        problem = f"is above {top:g}, the most it can be"
    if problem is not None:
        raise ParseError(f"{_shown(shown, number)} {problem}", file=file, line=line, field=field, column=column)
    return number


def _shown(shown: object, value: object) -> str:
    text = str(value if shown is None else shown).strip()
    return repr(text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)")


_SIZE = re.compile(r"^(\d{1,15}(?:\.\d{1,15})?)\s*([a-z]*)$", re.IGNORECASE)


def read_size(
    text: object, *, file: str | None = None, line: int | None = None, field: str | None = None, kilo: int = 1024
) -> int:
    """A size as tools write it (``512``, ``4k``, ``64KiB``, ``8 KB``, ``1m``, ``4096 bytes``) in
    bytes. Suffixes are binary unless ``kilo`` is 1000 (fio's ``kb_base=1000``); ``KiB`` is binary
    whatever ``kilo`` says. Anything else, and a size under one byte, is a :class:`ParseError`
    naming the field."""
    match = _SIZE.match(str(text).strip())
    size = None
    if match:
        number, unit = match.groups()
        multiplier = size_multiplier(unit, kilo=kilo)
        size = None if multiplier is None else round(float(number) * multiplier)
    if size is None or size <= 0 or size >= LARGEST_WHOLE:
        raise ParseError(
            f"{_shown(text, text)} is not a size (such as 512, 4k, 64KiB or 1m)", file=file, line=line, field=field
        )
    return size


def size_or_none(text: object, *, kilo: int = 1024) -> int | None:
    """:func:`read_size`, or ``None`` for text that is no size (where another reading may apply)."""
    try:
        return read_size(text, kilo=kilo)
    except ParseError:
        return None
