"""A COSBench stage's time series CSV: a group header (``Timestamp,Op-Count,,,Byte-Count,,,...``), an
operation header naming each group's columns, then a row per sample (5 s by default)."""

import csv
from statistics import fmean

from ...errors import ParseError
from ...result import Point, Run
from ...source import Source
from .common import number, object_size, operation_run

SERIES_HEADER = "Timestamp,Op-Count,"
_GROUPS = ("Op-Count", "Byte-Count", "Avg-ResTime", "Throughput", "Bandwidth")


def _series_runs(source: Source, warnings: list[str]) -> list[Run]:
    with source.open_text() as stream:
        rows = csv.reader(stream)
        groups = next(rows)
        try:
            operations = next(rows)
        except StopIteration:
            raise ParseError("the time series ends after its first header row", file=source.name, line=1) from None
        columns = _columns(groups, operations, source.name)
        samples: dict[str, list[tuple[int, dict[str, float]]]] = {op: [] for op in columns}
        passed_over: list[int] = []
        last = (0, "")
        for line, row in enumerate(rows, 3):
            if not any(cell.strip() for cell in row):
                continue
            last = (line, row[0].strip())
            if len(row) < len(groups):
                passed_over.append(line)  # a sample the driver reported nothing for ("0,0,N/A,...")
                continue
            for op, where in columns.items():
                values = {
                    group: number(row[index], f"{op} {group}", file=source.name, line=line)
                    for group, index in where.items()
                }
                if all(value is not None for value in values.values()):
                    samples[op].append((line, {group: value for group, value in values.items() if value is not None}))
    if not any(samples.values()):
        raise ParseError("the time series holds no sample", file=source.name, line=3)
    if passed_over:
        warnings.append(
            f"{source.name}: line(s) {', '.join(map(str, passed_over))}: samples without figures (fewer columns "
            "than the header), passed over"
        )
    stage = source.name.rsplit("/", 1)[-1].removesuffix(".csv")
    warnings.append(
        f"{source.name}: a COSBench stage's time series, read as the average of its samples up to the last sample "
        f"(line {last[0]}, {last[1]}), not the stage's own figures (see the workload summary CSV); a time series "
        "states no end, so later samples are missing if it was cut"
    )
    return [_run(stage, op, rows_of_op) for op, rows_of_op in samples.items() if rows_of_op]


def _columns(groups: list[str], operations: list[str], file: str) -> dict[str, dict[str, int]]:
    """For each operation, the column of each figure: a group's name stands over its first column only."""
    where: dict[str, dict[str, int]] = {}
    group = ""
    for index, (name, op) in enumerate(zip(groups, operations, strict=False)):
        group = name.strip() or group
        if group in _GROUPS and op.strip():
            where.setdefault(op.strip(), {})[group] = index
    incomplete = [op for op, found in where.items() if set(found) != set(_GROUPS)]
    if not where or incomplete:
        raise ParseError(f"the two header rows do not give {', '.join(_GROUPS)} for each operation", file=file, line=2)
    return where


def _run(stage: str, op: str, rows: list[tuple[int, dict[str, float]]]) -> Run:
    """The operation's average over its samples: the mean of their op/s and bandwidth, the response
    time weighted by each sample's operations."""
    ops = sum(values["Op-Count"] for _, values in rows)
    size = sum(values["Byte-Count"] for _, values in rows)
    point = Point(
        iops=fmean(values["Throughput"] for _, values in rows),
        mbps=fmean(values["Bandwidth"] for _, values in rows) / 1e6,
        avg_response_ms=sum(values["Avg-ResTime"] * values["Op-Count"] for _, values in rows) / ops if ops else None,
        metrics={
            "op_count": ops,
            "byte_count": size,
            "series": {
                "columns": ["line", "op/s", "bytes/s", "avg response ms"],
                "rows": [[line, v["Throughput"], v["Bandwidth"], v["Avg-ResTime"]] for line, v in rows],
            },
        },
    )
    if op == "read":
        point.read_mbps = point.mbps
    elif op == "write":
        point.write_mbps = point.mbps
    return operation_run(
        stage=stage,
        op_name=op,
        op_type=op,
        sizes=object_size(ops, size),
        point=point,
        params={"samples": len(rows), "source_lines": [rows[0][0], rows[-1][0]], "stage_from": "file name"},
    )
