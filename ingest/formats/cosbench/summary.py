"""A COSBench workload's summary CSV: a row per stage and operation."""

import csv
import re
from datetime import datetime

from ...errors import ParseError
from ...result import Point, Run
from ...source import Source
from .common import PREPARATION_TYPES, number, object_size, operation_run, required

# The header of a workload summary, also with the columns a 2023 fork adds after Stage
# ("Stage,Interval,Op-Id,Op-Name,...").
_SUMMARY_HEADER = re.compile(r"^Stage,(?:Interval,)?(?:Op-Id,)?Op-Name,Op-Type,Op-Count,Byte-Count,Avg-ResTime,")


def is_summary(text: str) -> bool:
    """Whether ``text`` begins with a workload summary's header."""
    return bool(_SUMMARY_HEADER.match(text))


_PERCENTILES = ("60%", "80%", "90%", "95%", "99%")
# A stage that ran no operation (a delay stage) is written with "N/A" in each column from Op-Name to Succ-Ratio.
_NOT_MEASURED = "n/a"


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
        # Up to Status; the Detailed Status spills over the columns after it. Forks add columns before
        # Op-Name (Interval, Op-Id), so the columns are found by name.
        least = columns["Status"] + 1
        idle: list[str] = []
        for line, row in enumerate(rows, 2):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) < least:
                raise ParseError(
                    f"expected at least {least} columns (Stage ... Status), found {len(row)}",
                    file=source.name,
                    line=line,
                )
            if row[columns["Op-Type"]].strip().lower() == _NOT_MEASURED:
                idle.append(f"{row[columns['Stage']].strip()} (line {line})")
                continue
            runs.append(_run(row, columns, source.name, line, warnings))
        if idle:
            warnings.append(
                f"stages that ran no operation (N/A figures, such as a delay), not stored: {', '.join(idle)}"
            )
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
    details = [part.strip() for part in row[columns["Status"] + 1 :] if part.strip()]
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
