"""The results rows: most of a file, read on a fast path.

Most rows are PROCESSOR, WORKER and DISK rows. A PROCESSOR row as Iometer writes it is read in place
without splitting it; a member row whose figures are all plain is converted in one pass; any other row,
and any cell that is not a plain figure, goes through the careful readers of :mod:`.cells` and
:class:`.table._Table`, which name the cell that is wrong."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn, Protocol

from ...errors import ParseError
from ...result import mib_to_mbps
from .cells import _UINT64_MAX, _number, _optional, _text
from .sections import _Section
from .table import _MEMBER_KEYS, _Table
from .totals import read_total

_ROW_KINDS_NOT_TARGETS = ("ALL", "MANAGER", "PROCESSOR", "WORKER")
# Target Type cells as Iometer writes them, taken as they are (any other cell is stripped and upper-cased).
_ROW_KINDS = frozenset((*_ROW_KINDS_NOT_TARGETS, "DISK", "NETWORK"))
_MEMBER_ROW_KEYS = (*_MEMBER_KEYS, "queue_depth")


class _Reader(Protocol):
    """What the row loop reads of the file's reader (``reader._Reader``): the names seen so far, the section
    and table a results row belongs to, and whether a line is the file's last."""

    names: dict[str, str]

    def results_section(self, number: int) -> tuple[_Section, _Table]: ...

    def at_last_line(self, number: int) -> bool: ...


def read_rows(reader: _Reader, lines: list[str], i: int, before: int) -> int:
    """Reads results rows from ``lines[i]`` on while they start with a letter (Target Type); returns
    the index of the first other line, or the length of ``lines``. ``before``: the number of the
    line before ``lines[0]``. One loop with the layout at hand: rows are most of a file."""
    section, table = reader.results_section(before + i + 1)
    width, processor_width, type_index, name_index = (
        table.width,
        table.processor_width,
        table.type_index,
        table.name_index,
    )
    split_at, end = table.split_at, len(lines)
    gap, least, full = table.processor_gap, processor_width - 1, width - 1
    names = reader.names
    while True:
        text = lines[i]
        if (
            gap is not None
            and text.startswith("PROCESSOR,")
            and least <= text.count(",") <= full
            and _processor_in_place(text, gap, section, names)
        ):
            i += 1
            if i == end or not lines[i][:1].isalpha():
                return i
            continue
        number = before + i + 1
        cells = text.split(",", split_at)
        count = len(cells)
        if count > split_at:  # the last item is the rest of the row
            count += cells[split_at].count(",")
        if count > width:
            cells = text.split(",")
            count = _trim(cells, section, table, number)
        kind = cells[type_index] if type_index < count else ""
        if kind not in _ROW_KINDS:
            kind = kind.strip().upper()
        if count < (processor_width if kind == "PROCESSOR" else width):
            _short_row(reader, kind, text.split(","), section, table, number)
        name = cells[name_index].strip() if name_index < count else ""
        if kind == "PROCESSOR":
            section.processors.append([section.manager, name, _processor_cpu(table, cells, number)])
        elif kind == "ALL":
            read_total(section, table, text.split(",") if len(cells) < count else cells, number)
        elif kind == "MANAGER":
            section.manager = name
        elif kind:
            _member_row(names, section, table, kind, name, cells, number)
        else:
            raise ParseError("the row has no Target Type (ALL, MANAGER, WORKER, DISK ...)", line=number)
        i += 1
        if i == end or not lines[i][:1].isalpha():
            return i


def _processor_in_place(text: str, gap: str, section: _Section, names: dict[str, str]) -> bool:
    """Reads a PROCESSOR row in place: the name, then the CPU cell past the empty ones (``gap``: the
    commas between them). False, with nothing read, when that cell is not a plain figure."""
    name_end = text.find(",", 10)
    if not text.startswith(gap, name_end):
        return False
    cell_start = name_end + len(gap)
    cell_end = text.find(",", cell_start)
    try:
        cpu_pct = float(text[cell_start:cell_end] if cell_end >= 0 else text[cell_start:])
    except ValueError:
        return False  # read by ``_row``, where the cell is named
    if not 0.0 <= cpu_pct < _UINT64_MAX:
        return False
    name = text[10:name_end].strip()
    section.processors.append([section.manager, names.setdefault(name, name), cpu_pct])
    return True


def _processor_cpu(table: _Table, cells: Sequence[str], number: int) -> float | None:
    """A PROCESSOR row's CPU %; its cell is read inline when every row wide enough to be read has it."""
    cpu_index = table.processor_cpu_index
    if cpu_index is None:
        return _optional(cells, table.cpu_index, number, "% CPU Utilization")
    cell = cells[cpu_index]
    try:
        cpu_pct = float(cell)
    except ValueError:
        return _number(cell, number, "% CPU Utilization")
    if not 0.0 <= cpu_pct < _UINT64_MAX:
        return _number(cell, number, "% CPU Utilization")
    return cpu_pct


def _member_row(
    names: dict[str, str], section: _Section, table: _Table, kind: str, name: str, cells: Sequence[str], number: int
) -> None:
    """Reads a WORKER or target (DISK, NETWORK) row into the section's workers or targets; its figures in
    one pass (``_plain_figures`` inline) when each is plain, else by ``_Table.member``."""
    workers, member_get = section.workers, table.member_get
    values = None
    mbps: float | None
    response_ms: float | None
    max_response_ms: float | None
    if member_get is not None:
        try:
            values = list(map(float, member_get(cells)))
        except ValueError:  # a cell float() does not read
            pass
        else:
            if not (min(values) >= 0.0 and sum(values) < _UINT64_MAX):
                values = None
    if values is None:
        figures = table.member(cells, number, {})
        member: list[Any]
        if kind == "WORKER":
            member = [section.manager, name, _text(cells, table.spec_index)]
        else:
            member = [section.manager, name, workers[-1][1] if workers else None, kind]
        member += [figures[key] for key in _MEMBER_ROW_KEYS]
        (workers if kind == "WORKER" else section.targets).append(member)
        return
    iops, mbps, response_ms, max_response_ms, queue_depth = values[:5]
    if table.mb_binary:
        mbps = mib_to_mbps(mbps)
    if not iops:  # as for the ALL row: no I/O, no response time
        response_ms = max_response_ms = None
    depth = int(queue_depth) if queue_depth.is_integer() else queue_depth
    name = names.setdefault(name, name)
    if kind == "WORKER":
        spec = "" if table.spec_index is None else cells[table.spec_index].strip()
        spec = names.setdefault(spec, spec)
        workers.append([section.manager, name, spec, iops, mbps, response_ms, max_response_ms, depth])
    else:
        worker = workers[-1][1] if workers else None
        kind = names.setdefault(kind, kind)
        section.targets.append([section.manager, name, worker, kind, iops, mbps, response_ms, max_response_ms, depth])


def _trim(cells: list[str], section: _Section, table: _Table, number: int) -> int:
    """Drops empty cells past the header's width (trailing commas); other extra cells are an error.
    Returns how many cells are left."""
    while len(cells) > table.width and not cells[-1].strip():
        cells.pop()
    if len(cells) > table.width:
        raise ParseError(
            f"expected {table.width} columns after 'Target Type' (header line {section.header_line}), "
            f"found {len(cells)}; is there a comma inside a name?",
            line=number,
        )
    return len(cells)


def _short_row(reader: _Reader, kind: str, cells: list[str], section: _Section, table: _Table, number: int) -> NoReturn:
    width = table.processor_width if kind == "PROCESSOR" else table.width
    cut = "; the file looks truncated" if reader.at_last_line(number) else ""
    raise ParseError(
        f"the {kind or 'unnamed'} row has {len(cells)} of the {width} columns the header on line "
        f"{section.header_line} announces{cut}",
        line=number,
    )
