"""A COSBench workload's summary CSV: a row per stage and operation."""

import csv
from datetime import datetime

from ...errors import ParseError
from ...result import Point, Run
from ...source import Source
from .common import PREPARATION_TYPES, number, object_size, operation_run, required

SUMMARY_HEADER = "Stage,Op-Name,Op-Type,Op-Count,Byte-Count,Avg-ResTime,Avg-ProcTime,"
_PERCENTILES = ("60%", "80%", "90%", "95%", "99%")
_COLUMNS = 17  # up to Status; the Detailed Status spills over the columns after it


def _summary_runs(source: Source, warnings: list[str]) -> list[Run]:
    runs: list[Run] = []
    with source.open_text() as stream:
        rows = csv.reader(stream)
        header = next(rows)
        columns = {name: index for index, name in enumerate(header)}
        missing = [
            name for name in ("Throughput", "Bandwidth", "Succ-Ratio", "Status", "100%-ResTime") if name not in columns
        ]
        if missing:
            raise ParseError(f"the header has no {', '.join(missing)} column(s)", file=source.name, line=1)
        for line, row in enumerate(rows, 2):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) < _COLUMNS:
                raise ParseError(
                    f"expected at least {_COLUMNS} columns (Stage ... Status), found {len(row)}",
                    file=source.name,
                    line=line,
                )
            runs.append(_run(row, columns, source.name, line, warnings))
    return runs


def _run(row: list[str], columns: dict[str, int], file: str, line: int, warnings: list[str]) -> Run:
    def cell(name: str) -> str:
        return row[columns[name]].strip()

    stage, op_name, op_type = cell("Stage"), cell("Op-Name"), cell("Op-Type")
    op_count = required(cell("Op-Count"), "Op-Count", file=file, line=line)
    byte_count = required(cell("Byte-Count"), "Byte-Count", file=file, line=line)
    bandwidth = number(cell("Bandwidth"), "Bandwidth", file=file, line=line)
    success = number(cell("Succ-Ratio"), "Succ-Ratio", file=file, line=line)
    point = Point(
        iops=number(cell("Throughput"), "Throughput", file=file, line=line),
        mbps=None if bandwidth is None else bandwidth / 1e6,
        avg_response_ms=number(cell("Avg-ResTime"), "Avg-ResTime", file=file, line=line),
        max_response_ms=number(cell("100%-ResTime"), "100%-ResTime", file=file, line=line),
        metrics={
            "op_count": op_count,
            "byte_count": byte_count,
            "avg_processing_ms": number(cell("Avg-ProcTime"), "Avg-ProcTime", file=file, line=line),
            "success_pct": success,
            "response_ms_percentiles": {
                name: number(cell(f"{name}-ResTime"), f"{name}-ResTime", file=file, line=line)
                for name in _PERCENTILES
                if f"{name}-ResTime" in columns
            },
        },
    )
    if op_type == "read":
        point.read_mbps = point.mbps
    elif op_type in ("write", "prepare"):
        point.write_mbps = point.mbps
    status = cell("Status")
    details = [part.strip() for part in row[_COLUMNS:] if part.strip()]
    if success is not None and success < 100 and op_type not in PREPARATION_TYPES:
        warnings.append(f"{file}:{line}: {stage} {op_name}: {success:g} % of the operations succeeded")
    if status != "completed":
        warnings.append(f"{file}:{line}: stage {stage} ended {status!r}, not completed")
    run = operation_run(
        stage=stage,
        op_name=op_name,
        op_type=op_type,
        sizes=object_size(op_count, byte_count),
        point=point,
        params={"status": status, "states": details, "source_lines": [line]},
    )
    run.started_at = _started(details)
    return run


def _started(details: list[str]) -> str | None:
    """When the stage started running: its ``running @ 2014-05-07 09:45:37`` state."""
    for part in details:
        state, _, when = part.partition(" @ ")
        if state.strip() == "running":
            try:
                return datetime.strptime(when.strip(), "%Y-%m-%d %H:%M:%S").isoformat()
            except ValueError:
                return None
    return None
