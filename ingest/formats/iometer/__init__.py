"""Iometer results CSV (versions 1998.x to 2006.07.27, and 1.1.0).

An Iometer results file is a sequence of tests (``'Test Type`` ... ``'End Test``, repeated when
Iometer appends to the same file). Each test holds result sections, one per measurement Iometer
took while cycling access specifications or outstanding I/Os::

    'Time Stamp                      start of the measurement
    'Access specifications ... 'End access specifications
    'Results
    'Target Type,Target Name,...     header, then ALL > MANAGER > PROCESSOR > WORKER > DISK/NETWORK rows
    'Time Stamp                      end of the measurement (and start of the next)

Sections of one test with the same access specification form one run; each section is a point.
The ALL row gives the point's figures; the load is the summed Queue Depth of the DISK rows and the
worker count. Per-worker, per-target and per-processor figures, and the 1.1.0 latency histogram,
go in ``metrics`` as arrays: ``{"columns": [...], "rows": [[...], ...]}`` per kind of row (the column
lists are shared by every point) and ``{"bins", "low_ms", "high_ms", "counts"}`` for the histogram
(its bins shared by the points under one header). MBps columns before 1.1.0 (and ``MiBps (Binary)``)
are 2^20 bytes per second and are converted; 1.1.0's ``MBps (Decimal)`` is used as printed.

In the per-second layout a ``TimeStamp`` column leads each row and every second repeats the ALL
row and its members; the last ALL row of a section is the result, the earlier ones become
``metrics["time_series"]``.

Rows are split on commas, never read with CSV quoting: Iometer writes target names such as
``1: "( INTEL SSDPE2ME016T4`` with an unbalanced double quote.

The modules, in the order a file is read: :mod:`.detect` (``sniff``) and :mod:`.icf` (the refusal of
configuration files); :mod:`.reader`, the line-by-line state machine over tests and sections
(:mod:`.sections`); :mod:`.table`, the column layout of a results header (binary, decimal or MiB MBps
columns, the 1.1.0 latency bins, the per-second TimeStamp column); :mod:`.rows`, the results rows on
their fast path, with :mod:`.cells` reading cells and :mod:`.totals` the ALL row; :mod:`.runs`, sections
grouped into runs and points.
"""

from __future__ import annotations

from typing import Any

from ...errors import ParseError
from ...result import ResultSet
from ...source import Source
from .detect import sniff
from .icf import refuse
from .reader import _Reader
from .runs import PROCESSOR_COLUMNS, TARGET_COLUMNS, UNNAMED_SPEC, WORKER_COLUMNS, _runs
from .sections import _Test

__all__ = [
    "FORMAT",
    "METRICS_CHECKED",
    "PROCESSOR_COLUMNS",
    "READS",
    "TARGET_COLUMNS",
    "TOOL",
    "UNNAMED_SPEC",
    "WORKER_COLUMNS",
    "ParseError",
    "parse",
    "refuse",
    "sniff",
]

FORMAT = "iometer"
TOOL = "Iometer"
READS = (
    "Iometer results CSV, 1998.x-2006.07.27 (binary MBps) and 1.1.0 (decimal MBps, latency histogram), "
    "appended tests, cycled sections grouped into runs by access specification, per-second TimeStamp "
    "layout; each point's per-worker, per-target and per-processor figures and latency histogram kept in its "
    "metrics as arrays, shown on the run page; .icf configurations refused"
)

# Every number in a point's metrics is a cell read by ``_plain_figures``, ``_plain_counts`` or
# ``_number`` (finite, below 2^64-1), or one converted from MiB/s.
METRICS_CHECKED = True


def _tool(tests: list[_Test], warnings: list[str]) -> dict[str, Any]:
    versions = list(dict.fromkeys(test.version for test in tests if test.version))
    if len(versions) > 1:
        warnings.append(f"tests were written by several Iometer versions ({', '.join(versions)}); the first is kept")
    return {"name": TOOL, "version": versions[0] if versions else None}


def parse(source: Source) -> ResultSet:
    reader = _Reader(source.name)
    with source.open_text(errors="replace") as stream:
        reader.read(stream)
    if not reader.points:
        raise ParseError(
            "no result section with measurements: every section is empty or has no ALL row"
            + (f" ({reader.warnings[0]})" if reader.warnings else ""),
        )
    return ResultSet(
        format=FORMAT,
        tool=_tool(reader.tests, reader.warnings),
        source=source.describe(),
        runs=_runs(reader.points),
        warnings=reader.warnings,
    )
