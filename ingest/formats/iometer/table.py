"""The column layout of a results header: which MBps columns it has (binary before 1.1.0, decimal
in 1.1.0, MiBps), the 1.1.0 latency bins, the per-second TimeStamp column, and the cell getters that
read a row's figures in one pass."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from ...errors import ParseError
from ...result import mib_to_mbps
from .cells import _cells_getter, _fill, _optional, _plain_figures, _Position, _whole

_HISTOGRAM_BIN = re.compile(r"^(?:(>=)\s*)?([\d.]+)(?:\s+to\s+([\d.]+))?\s*(uS|mS|S|s)$")
_BIN_UNIT_MS = {"uS": 0.001, "mS": 1.0, "S": 1000.0, "s": 1000.0}

# Point figure -> header column, per MB/s flavour. Iometer prints response times in ms.
_FIGURE_COLUMNS = {
    "iops": "IOps",
    "read_iops": "Read IOps",
    "write_iops": "Write IOps",
    "avg_response_ms": "Average Response Time",
    "avg_read_response_ms": "Average Read Response Time",
    "avg_write_response_ms": "Average Write Response Time",
    "max_response_ms": "Maximum Response Time",
}
_DECIMAL_MB_COLUMNS = {
    "mbps": "MBps (Decimal)",
    "read_mbps": "Read MBps (Decimal)",
    "write_mbps": "Write MBps (Decimal)",
}
_BINARY_MB_COLUMNS = {"mbps": "MBps", "read_mbps": "Read MBps", "write_mbps": "Write MBps"}
_MIB_MB_COLUMNS = {
    "mbps": "MiBps (Binary)",
    "read_mbps": "Read MiBps (Binary)",
    "write_mbps": "Write MiBps (Binary)",
}
_FIGURE_KEYS = (*_FIGURE_COLUMNS, "mbps", "read_mbps", "write_mbps")
_MB_KEYS = ("mbps", "read_mbps", "write_mbps")
_MEMBER_FIGURES = ("iops", "avg_response_ms", "max_response_ms")
# A member's figures, in the order its row shows them.
_MEMBER_KEYS = ("iops", "mbps", "avg_response_ms", "max_response_ms")
_MEMBER_FIGURES_UNSET = dict.fromkeys(_MEMBER_KEYS)
_TIMES_OF_COUNTS = (
    ("iops", ("avg_response_ms", "max_response_ms")),
    ("read_iops", ("avg_read_response_ms",)),
    ("write_iops", ("avg_write_response_ms",)),
)
_COUNT_METRICS = (
    "managers",
    "disks",
    "errors",
    "read_errors",
    "write_errors",
    "bytes_read",
    "bytes_written",
    "read_ios",
    "write_ios",
    "packet_errors",
    "queue_depth",
    "starting_sector",
    "maximum_size_sectors",
)
# ALL-row columns kept in metrics, by metric name.
_TOTAL_METRIC_COLUMNS = {
    "managers": "# Managers",
    "disks": "# Disks",
    "max_read_response_ms": "Maximum Read Response Time",
    "max_write_response_ms": "Maximum Write Response Time",
    "transactions_per_s": "Transactions per Second",
    "connections_per_s": "Connections per Second",
    "errors": "Errors",
    "read_errors": "Read Errors",
    "write_errors": "Write Errors",
    "bytes_read": "Bytes Read",
    "bytes_written": "Bytes Written",
    "read_ios": "Read I/Os",
    "write_ios": "Write I/Os",
    "cpu_user_pct": "% User Time",
    "cpu_privileged_pct": "% Privileged Time",
    "cpu_dpc_pct": "% DPC Time",
    "cpu_interrupt_pct": "% Interrupt Time",
    "interrupts_per_s": "Interrupts per Second",
    "cpu_effectiveness": "CPU Effectiveness",
    "packets_per_s": "Packets/Second",
    "packet_errors": "Packet Errors",
    "segments_retransmitted_per_s": "Segments Retransmitted/Second",
    # Common to all workers, else -1 (None); sectors unset print as 2^64-1 (None).
    "queue_depth": "Queue Depth",
    "starting_sector": "Starting Sector",
    "maximum_size_sectors": "Maximum Size",
}


def _histogram_bin(name: str, line: int) -> tuple[float, float | None] | None:
    """``(low_ms, high_ms)`` for a latency-bin column name such as ``0.5 to 1 mS`` or ``>= 10 s``."""
    match = _HISTOGRAM_BIN.match(name.strip())
    if not match:
        return None
    at_least, low, high, unit = match.groups()
    scale = _BIN_UNIT_MS[unit]
    bounds = (float(low) * scale, None if at_least else float(high) * scale if high is not None else None)
    if not at_least and high is None:
        return None
    if not all(math.isfinite(bound) for bound in bounds if bound is not None):
        shown = name if len(name) <= 40 else f"{name[:40]}...({len(name)} characters)"
        raise ParseError(f"latency bin {shown!r} has a bound too large to be a time", line=line, field=name[:40])
    return bounds


class _Table:
    """The column layout of one ``'Target Type,...`` header line."""

    def __init__(self, cells: list[str], line: int) -> None:
        self.columns = [cell.strip().lstrip("'").strip() for cell in cells]
        self.index = {name: i for i, name in enumerate(self.columns) if name}
        if "Target Type" not in self.index or "IOps" not in self.index:
            raise ParseError("a results header must name 'Target Type' and 'IOps' columns", line=line)
        self.width = len(self.columns)
        self.type_index = self.index["Target Type"]
        self.name_index = self.type_index + 1
        self.time_index = self.index.get("TimeStamp", self.index.get("Time Stamp"))
        self.spec_index = self.index.get("Access Specification Name")
        self.workers_index = self.index.get("# Workers")
        self.cpu_index = self.index.get("% CPU Utilization")
        self.queue_depth_index = self.index.get("Queue Depth")
        self.figures = {key: self.index.get(column) for key, column in _FIGURE_COLUMNS.items()}
        self.mb_columns, self.mb_binary = self._mb_columns(line)
        # Column positions computed once per header: each row is converted in one pass over them.
        self.figure_cells = self._present({**self.figures, **self.mb_columns})
        # A member keeps four figures; its read and write MBps are converted only to refuse a damaged cell.
        self.member_cells = self._present({key: self.figures[key] for key in _MEMBER_FIGURES} | self.mb_columns)
        self.member_kept = [cell for cell in self.member_cells if cell[0] in _MEMBER_KEYS]
        self.member_checked = [cell for cell in self.member_cells if cell[0] not in _MEMBER_KEYS]
        self.metric_cells = self._present(
            {key: self.index.get(column) for key, column in _TOTAL_METRIC_COLUMNS.items()}
        )
        self.bins = [(i, name, bounds) for i, name in enumerate(self.columns) if (bounds := _histogram_bin(name, line))]
        self.bin_cells = [(i, i, name) for i, name, _bounds in self.bins]
        self._plain_readers()
        # PROCESSOR rows stop before the latency bins; every other row fills the whole header.
        self.processor_width = self.bins[0][0] if self.bins else len(self.columns)
        # A PROCESSOR row's CPU cell, read inline by ``_Reader.rows`` when every row wide enough to be
        # read has it.
        self.processor_cpu_index = (
            self.cpu_index if self.cpu_index is not None and self.cpu_index < self.processor_width else None
        )
        # A PROCESSOR row as Iometer writes it (Target Type first, nothing between its name and its CPU
        # cell) is read by ``_Reader.rows`` without splitting it: these commas follow its name.
        self.processor_gap = None
        cpu_index = self.processor_cpu_index
        if self.type_index == 0 and cpu_index is not None and cpu_index > self.name_index:
            self.processor_gap = "," * (cpu_index - self.name_index)

    def _plain_readers(self) -> None:
        """Keys and cell getters of each row kind's figures, for ``_plain_figures`` / ``_plain_counts``."""
        self.figure_keys = [key for key, _i, _column in self.figure_cells]
        self.figure_get = _cells_getter([i for _key, i, _column in self.figure_cells])
        # A member's four figures, its Queue Depth, then those only checked: when a column is missing,
        # every member row is read cell by cell.
        kept = {key: i for key, i, _column in self.member_kept}
        self.member_get = None
        if len(kept) == len(_MEMBER_KEYS) and self.queue_depth_index is not None:
            checked = [i for _key, i, _column in self.member_checked]
            self.member_get = _cells_getter([*(kept[key] for key in _MEMBER_KEYS), self.queue_depth_index, *checked])
        self.metric_keys = [key for key, _i, _column in self.metric_cells]
        self.metric_get = _cells_getter([i for _key, i, _column in self.metric_cells])
        self.metric_count_keys = [key for key in self.metric_keys if key in _COUNT_METRICS]
        # With every column present, a row's figures are the dict of the keys and the values read.
        self.figures_complete = self.figure_keys == list(_FIGURE_KEYS)
        self.metrics_complete = self.metric_keys == list(_TOTAL_METRIC_COLUMNS)
        self.bin_lists = {
            "bins": [name for _i, name, _bounds in self.bins],
            "low_ms": [low for _i, _name, (low, _high) in self.bins],
            "high_ms": [high for _i, _name, (_low, high) in self.bins],
        }
        self.bin_get = _cells_getter([i for i, _name, _bounds in self.bins])
        self._total_reader()
        # Rows other than ALL are read from their first cells only (names, member figures, Queue Depth,
        # CPU): they are split that far, and the rest of the row is only counted.
        used = [self.type_index, self.name_index, self.spec_index, self.cpu_index, self.queue_depth_index]
        used += [i for _key, i, _column in self.member_cells]
        self.split_at = 1 + max(i for i in used if i is not None)

    def _total_reader(self) -> None:
        """``total_get``: the cells of an ALL row's point figures, metrics, worker count and CPU %, read
        in one pass (``None`` when the header lacks one: ``_Reader.total_row`` then reads them apart);
        and where the metrics and the counts among them are in the values read."""
        self.total_get = None
        if not (self.figures_complete and self.metrics_complete):
            return
        if self.workers_index is None or self.cpu_index is None:
            return
        indices = [i for _key, i, _column in (*self.figure_cells, *self.metric_cells)]
        self.total_get = _cells_getter([*indices, self.workers_index, self.cpu_index])
        start = len(self.figure_cells)
        self.total_metric_slice = slice(start, start + len(self.metric_cells))
        # Every metric is there, so all 13 counts are: ``itemgetter`` gives them as a tuple.
        counts = [start + self.metric_keys.index(key) for key in self.metric_count_keys]
        self.total_counts_of: Callable[[Sequence[float]], tuple[float, ...]] = itemgetter(*counts)

    def _present(self, positions: dict[str, int | None]) -> list[_Position]:
        return [(key, i, self.columns[i]) for key, i in positions.items() if i is not None]

    def _mb_columns(self, line: int) -> tuple[dict[str, int | None], bool]:
        for columns, binary in ((_DECIMAL_MB_COLUMNS, False), (_BINARY_MB_COLUMNS, True), (_MIB_MB_COLUMNS, True)):
            if columns["mbps"] in self.index:
                return {key: self.index.get(column) for key, column in columns.items()}, binary
        raise ParseError("the results header has no MBps column ('MBps' or 'MBps (Decimal)')", line=line)

    def figures_of(self, cells: Sequence[str], line: int) -> dict[str, Any]:
        """The point figures of an ALL row, in contract units (MB/s decimal, ms)."""
        values = _plain_figures(cells, self.figure_get)
        out: dict[str, Any]
        if values is not None and self.figures_complete:
            out = dict(zip(_FIGURE_KEYS, values, strict=True))
        else:
            out = dict.fromkeys(_FIGURE_KEYS)
            if values is None:
                _fill(out, cells, self.figure_cells, line)
            else:
                out.update(zip(self.figure_keys, values, strict=True))
        if self.mb_binary:
            for key in _MB_KEYS:
                out[key] = mib_to_mbps(out[key])
        # A response time of 0 where no I/O of that kind completed is "not measured".
        for count, times in _TIMES_OF_COUNTS:
            if not out[count]:
                for key in times:
                    out[key] = None
        return out

    def member(self, cells: Sequence[str], line: int, out: dict[str, Any]) -> dict[str, Any]:
        """``out`` (a WORKER or target row's names) with the row's four figures and Queue Depth, in
        contract units."""
        values = None if self.member_get is None else _plain_figures(cells, self.member_get)
        if values is None:
            out.update(_MEMBER_FIGURES_UNSET)
            _fill(out, cells, self.member_kept, line)
            _fill({}, cells, self.member_checked, line)
            iops, mbps = out["iops"], out["mbps"]
            response_ms, max_response_ms = out["avg_response_ms"], out["max_response_ms"]
            queue_depth = _optional(cells, self.queue_depth_index, line, "Queue Depth")
        else:
            iops, mbps, response_ms, max_response_ms, queue_depth = values[:5]
        out["iops"] = iops
        out["mbps"] = mib_to_mbps(mbps) if self.mb_binary else mbps
        # As for the ALL row: no I/O, no response time.
        out["avg_response_ms"] = response_ms if iops else None
        out["max_response_ms"] = max_response_ms if iops else None
        out["queue_depth"] = _whole(queue_depth)
        return out
