"""Text a spreadsheet program opens safely: a cell it would run as a formula is written as text (OWASP's
"CSV injection"), numbers stay numbers. Pages' chart data, exports and commands all write CSV through it."""

import csv
import re
from collections.abc import Iterable
from typing import Any, TextIO

# Spreadsheet programs run a cell beginning with one of these as a formula (OWASP "CSV injection"):
# a system named "=HYPERLINK(...)" or "@SUM(...)" must reach the reader as text.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
# A signed number alone ("-12.5", "+12.7 %", an improvement) cannot call anything: it stays readable as a number.
SIGNED_NUMBER = re.compile(r"[+-]\d[\d,]*(?:\.\d+)?(?: ?%)?")


def starts_formula(text: str) -> bool:
    return text.startswith(FORMULA_TRIGGERS) and not SIGNED_NUMBER.fullmatch(text)


def spreadsheet_text(text: str) -> str:
    """User text for a CSV cell: a leading apostrophe makes a would-be formula plain text, as OWASP advises."""
    return "'" + text if starts_formula(text) else text


def csv_cell(value: object) -> object:
    """A CSV cell: numbers are written as numbers, any text is neutralised."""
    return spreadsheet_text(value) if isinstance(value, str) else value


class SpreadsheetCsvWriter:
    """``csv.writer`` for files a spreadsheet program opens: text cells neutralised, numbers left numbers."""

    def __init__(self, out: TextIO, **options: Any) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([csv_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)
