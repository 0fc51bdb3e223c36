"""The column layouts: the summary tables' two-line headers (raw-device SD and file-system FSD/FWD
columns told apart by their names) and the flatfile's, read by position into one vocabulary."""

import re

from ...errors import ParseError
from ...numbers import Printed, read_number

# vdbench formats numbers with the JVM's locale, so some reports print 0,598 for 0.598; it prints
# NaN (and old versions n/a) where it has no figure.
_PRINTED = Printed(missing=frozenset({"n/a", "nan"}), decimal_comma=True, refusal="{text!r} ({place}) is not a number")

# Column names of the summary tables (``group sub-title``, dots stripped) and of the flatfile,
# mapped to one vocabulary. Columns not named here are kept in the point's metrics.
_COLUMNS = {
    "i/o rate": "rate",
    "reqstdops rate": "rate",
    "rate": "rate",
    "mb/sec 1024**2": "mib_per_s",
    "mb/sec total": "mib_per_s",
    "MB/sec": "mib_per_s",
    "mb/sec read": "read_mib_per_s",
    "MB_read": "read_mib_per_s",
    "mb/sec write": "write_mib_per_s",
    "MB_write": "write_mib_per_s",
    "bytes i/o": "bytes_per_io",
    "xfer size": "bytes_per_io",
    "bytes/io": "bytes_per_io",
    "Xfersize": "bytes_per_io",
    "read pct": "read_pct",
    "read%": "read_pct",
    "resp time": "resp_ms",
    "reqstdops resp": "resp_ms",
    "resp": "resp_ms",
    "read rate": "read_rate",
    "Read_rate": "read_rate",
    "write rate": "write_rate",
    "Write_rate": "write_rate",
    "read resp": "read_resp_ms",
    "Read_resp": "read_resp_ms",
    "write resp": "write_resp_ms",
    "Write_resp": "write_resp_ms",
    "resp max": "max_resp_ms",
    "resp_max": "max_resp_ms",
    "read max": "read_max_resp_ms",
    "write max": "write_max_resp_ms",
    "resp stddev": "resp_std_ms",
    "resp_std": "resp_std_ms",
    "queue depth": "queue_depth",
    "cpu% sys+u": "cpu_pct",
    "cpu% sys+usr": "cpu_pct",
    "cpu% total": "cpu_pct",
    "cpu_used": "cpu_pct",
    "cpu% sys": "cpu_sys_pct",
    "threads": "threads",
    "rdpct": "requested_read_pct",
    "seekpct": "requested_random_pct",
    "xfersize": "requested_bytes",
    "reqrate": "requested_rate",
}
# Flatfile columns that are text, not figures.
_FLAT_TEXT = {"tod", "timestamp", "Run", "Interval", "version"}


# An average or interval line's figures by name (None where vdbench printed none); one interval of
# the series kept: (interval, IOPS, MB/s, mean response ms).
_Figures = dict[str, float | None]


def _summary_columns(top: str, bottom: str, number: int) -> list[str]:
    """Name the columns of a two-line summary header: each sub-title gets the group above it.

    Both header lines end at the same column, so the top line is shifted to match before
    the groups are found by position; this keeps localised dates of any width harmless.
    """
    shift = len(bottom) - len(top)
    groups = [(m.start() + shift, m.end() + shift, m.group().strip(".").lower()) for m in re.finditer(r"\S+", top)]
    columns = []
    for match in re.finditer(r"\S+", bottom):
        start, end = match.span()
        over = [g for g in groups if g[0] < end and start < g[1]]
        nearest = over or sorted(groups, key=lambda g: abs((g[0] + g[1]) - (start + end)))
        if not nearest:
            raise ParseError("column header line without titles above it", line=number)
        columns.append(f"{nearest[0][2]} {match.group().lower()}")
    if not columns:
        raise ParseError("expected the second column header line (rate, resp, ...) after the first", line=number)
    return columns


def _named(columns: list[str]) -> list[tuple[str, str]]:
    """Pair each column with its name in the common vocabulary (or a tidy form of its own)."""
    return [
        (column, _COLUMNS.get(column) or re.sub(r"[^a-z0-9%]+", "_", column.lower()).strip("_")) for column in columns
    ]


def _numbers(columns: list[tuple[str, str]], tokens: list[str], number: int, *, offset: int) -> _Figures:
    if len(tokens) != len(columns):
        raise ParseError(
            f"expected {len(columns)} values after the interval label as in the column header, found {len(tokens)}",
            line=number,
        )
    try:
        figures: list[float | None] = [float(token) for token in tokens]
    except ValueError:
        figures = []
    if len(figures) != len(tokens) or _INFINITY in figures or -_INFINITY in figures:
        # A decimal comma, 'n/a' or damage: each figure read on its own, the first bad one named.
        figures = [
            _value(token, number, column, position)
            for position, ((column, _), token) in enumerate(zip(columns, tokens, strict=True), start=offset + 1)
        ]
    # vdbench prints NaN where it has no figure (a CPU it could not read); NaN is the value unequal to itself.
    return {key: figure if figure == figure else None for (_, key), figure in zip(columns, figures, strict=True)}


def _value(token: str, number: int, column: str, position: int) -> float | None:
    """A figure, also written with a decimal comma; None for 'n/a' and NaN."""
    place = f"value {position} of the line"
    return read_number(token, file=None, line=number, field=column, negative=True, printed=_PRINTED, place=place)


_INFINITY = float("inf")


_Interval = tuple[int, float | None, float | None, float | None]


def _rounding(token: str) -> float:
    """A unit of the last digit printed ('0.080' -> 0.001, '11471' -> 1): vdbench rounds some columns
    and truncates others (flatfile create resp 250.6270 is 250.62 in summary), so either is allowed.
    An exponent is not weighed: vdbench prints none."""
    mantissa = re.split("[eE]", token, maxsplit=1)[0].replace(",", ".")
    _, point, decimals = mantissa.partition(".")
    return 10.0 ** -len(decimals) if point and len(decimals) < 300 else 1.0
