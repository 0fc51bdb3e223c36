"""The dates and times vdbench prints, in the JVM's locale, to ISO 8601."""

import re

_ENGLISH_DATE = re.compile(r"^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s+(\d{4})")
_CJK_DATE = re.compile(r"^(\d{1,2})月\s*(\d{1,2}),\s*(\d{4})")
_FLAT_TIMESTAMP = re.compile(r"^(\d\d)/(\d\d)/(\d{4})-(\d\d:\d\d:\d\d)")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _header_date(text: str) -> str | None:
    english = _ENGLISH_DATE.match(text)
    if english and english.group(1).lower() in _MONTHS:
        return f"{english.group(3)}-{_MONTHS.index(english.group(1).lower()) + 1:02d}-{int(english.group(2)):02d}"
    cjk = _CJK_DATE.match(text)
    if cjk:
        return f"{cjk.group(3)}-{int(cjk.group(1)):02d}-{int(cjk.group(2)):02d}"
    return None


def _iso(date: str | None, time_of_day: str | None) -> str | None:
    return f"{date}T{time_of_day}" if date and time_of_day else None


def _flat_started_at(timestamp: str | None) -> str | None:
    match = _FLAT_TIMESTAMP.match(timestamp or "")
    return f"{match.group(3)}-{match.group(1)}-{match.group(2)}T{match.group(4)}" if match else None
