"""What both COSBench files share: how it prints numbers, the workload of an op type, an operation's run."""

from ...errors import ParseError
from ...numbers import Printed, read_number
from ...result import Point, Run, TransferSize, Workload

PRINTED = Printed(units=("%",), refusal="{field} {stripped!r} is not a number", missing=frozenset({"n/a"}))
# What an op type does, as a read share; other types (list, head, ...) leave it unknown.
_READ_PCT = {"read": 100.0, "write": 0.0, "prepare": 0.0}
PREPARATION_TYPES = ("prepare", "cleanup", "init", "dispose")


def number(text: str, field: str, *, file: str, line: int) -> float | None:
    return read_number(text, file=file, line=line, field=field, printed=PRINTED)


def required(text: str, field: str, *, file: str, line: int) -> float:
    value = number(text, field, file=file, line=line)
    if value is None:
        raise ParseError(f"{field} holds no figure", file=file, line=line, field=field)
    return value


def object_size(op_count: float, byte_count: float) -> list[TransferSize]:
    """The object size when every operation moved the same bytes (the bytes divide evenly by the count)."""
    if op_count > 0 and byte_count > 0 and byte_count % op_count == 0:
        return [TransferSize(bytes=int(byte_count // op_count), pct=100.0)]
    return []


def operation_run(
    *, stage: str, op_name: str, op_type: str, sizes: list[TransferSize], point: Point, params: dict
) -> Run:
    return Run(
        name=f"{stage}: {op_name}",
        description=f"COSBench stage {stage}, operation {op_name} ({op_type})",
        workload=Workload(name=op_type, read_pct=_READ_PCT.get(op_type), transfer_sizes=sizes),
        phase="preparation" if op_type in PREPARATION_TYPES else "measurement",
        params={"stage": stage, "op_name": op_name, "op_type": op_type, **params},
        points=[point],
    )
