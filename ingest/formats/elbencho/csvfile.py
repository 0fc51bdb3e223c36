"""elbencho's ``--csvfile`` results CSV: one row per phase, its figures named in the header."""

import csv
import re
from typing import Any

from ...errors import ParseError
from ...source import Source
from .phases import _command_setup, _number, _Phase

_CSV_FIGURE = re.compile(r"^(rwmix read )?(.+?) \[(first|last|min|avg|max)\]$")
_CSV_BASES = {
    "time ms": "elapsed_ms",
    "entries/s": "entries_per_s",
    "IOPS": "iops",
    "MiB/s": "mib_per_s",
    "CPU%": "cpu_pct",
    "entries": "entries",
    "IOs": "ios",
    "MiB": "mib",
    "Ent lat us": "entry_latency_us",
    "IO lat us": "io_latency_us",
}


# --- the --csvfile result CSV ---------------------------------------------------------------


def _csv_phases(source: Source) -> list[_Phase]:
    phases: list[_Phase] = []
    with source.open_text() as stream:
        header = None
        for number, text in enumerate(stream, start=1):
            if not text.strip():
                continue
            if header is None:
                header = next(csv.reader([text.strip()]))
                continue
            cells = _csv_cells(text.rstrip("\r\n"), header, number)
            phases.append(_csv_phase(dict(zip(header, cells, strict=True)), number))
    return phases


def _csv_cells(text: str, header: list[str], number: int) -> list[str]:
    """Split a row; the last column, the command line, is quoted by elbencho but not escaped.

    elbencho replaces commas in the command line by spaces, so every comma before it is a
    column separator and the rest of the line is the command.
    """
    cells = next(csv.reader([text])) if header[-1] != "command" else text.split(",", len(header) - 1)
    if len(cells) != len(header):
        raise ParseError(f"expected {len(header)} columns as in the header, found {len(cells)}", line=number)
    return [cell.strip() for cell in cells]


def _csv_phase(row: dict[str, str], number: int) -> _Phase:
    phase = _Phase(operation=row.get("operation", "").strip() or "?", line=number)
    for column, value in row.items():
        figure = _CSV_FIGURE.match(column)
        if not figure or not value:
            continue
        base = _CSV_BASES.get(figure.group(2))
        if base is None:
            continue
        name = ("rwmix_read_" if figure.group(1) else "") + base
        number_value = _number(value, number, column)
        if figure.group(3) in ("first", "last"):
            getattr(phase, figure.group(3))[name] = number_value
        else:
            phase.latency_us.setdefault(name, {})[figure.group(3)] = number_value
    phase.setup = _csv_setup(row, number)
    return phase


def _csv_setup(row: dict[str, str], number: int) -> dict[str, Any]:
    setup = _command_setup(row.get("command", ""), number)
    for column, key in (("threads", "threads"), ("hosts", "hosts"), ("block size", "block"), ("file size", "size")):
        if row.get(column):
            setup[key] = int(_number(row[column], number, column))
    setup["iodepth"] = int(_number(row["IO depth"], number, "IO depth")) if row.get("IO depth") else None
    setup["random"] = row.get("random") == "1" if row.get("random") else setup.get("random")
    if row.get("random aligned"):
        setup["random_aligned"] = row["random aligned"] == "1"
    setup["direct"] = row.get("direct IO") == "1" if row.get("direct IO") else setup.get("direct")
    setup["label"] = row.get("label") or setup.get("label")
    setup["path_type"] = row.get("path type") or None
    setup["started_at"] = row.get("ISO date") or None
    setup["version"] = row.get("version") or None
    return setup
