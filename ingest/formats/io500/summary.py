"""IO500's ``result_summary.txt``: a ``[RESULT]`` line per phase and the ``[SCORE]`` line, as sc20 and later
write it (``[RESULT] ior-easy-write 1313.92 GiB/s : time 345.026 seconds``, ``[      ]`` for a phase outside
the score) and as the 2018 script did (``[RESULT] BW phase 1 ior_easy_write 13.978 GB/s : time ...``, also
in its full ``io-500-summary`` log, which repeats the results at its end and lists ``io500_info_`` settings)."""

import re
from dataclasses import dataclass, field
from typing import Any

from ...errors import ParseError
from ...numbers import Printed, read_number, read_whole
from ...result import Run
from ...source import Source
from .phases import SCORED, Phase, Score, phase_name, phase_runs, score_run

_PRINTED = Printed(required=True)
_RESULT = re.compile(
    r"^\[(RESULT(?:-invalid)?|\s+)\]\s+(?:(?:BW|IOPS)\s+phase\s+\d+\s+)?(\S+)\s+(\S+)\s+(GiB/s|GB/s|kIOPS|kiops)\s*:"
    r"\s*time\s+(\S+)\s+seconds\s*(\[INVALID\])?\s*$"
)
_SCORE = re.compile(
    r"^\[SCORE(-invalid| )?\]\s+Bandwidth\s+(\S+)\s+(?:GiB/s|GB/s)\s*:\s*IOPS\s+(\S+)\s+kiops\s*:"
    r"\s*TOTAL\s+(\S+)\s*(\[INVALID\])?\s*$"
)
_VERSION = re.compile(r"^IO500 version (\S+)(?: \((\w+)\))?")
_INFO = re.compile(r"^io500_info_(\w+)=(.*)$")
# The 2018 script's MPI arguments, which give every phase's process count: io500_mpiargs='-np 80 -ppn 10 ...'.
_MPI_PROCESSES = re.compile(r"^io500_mpiargs=.*?(?:-np|-n)\s+(\d+)")


@dataclass
class _Reading:
    """What has been read of the summary so far."""

    phases: dict[str, Phase] = field(default_factory=dict)
    score: Score | None = None
    params: dict[str, Any] = field(default_factory=dict)
    procs: int | None = None


def _number(text: str, number: int, column: str) -> float:
    value = read_number(text, file=None, line=number, field=column, printed=_PRINTED)
    assert value is not None  # required: an empty text is refused
    return value


def _summary_runs(source: Source, warnings: list[str]) -> tuple[list[Run], str | None]:
    reading = _Reading()
    number = 0
    with source.open_text() as stream:
        for number, text in enumerate(stream, start=1):
            _line(reading, text.strip(), number, warnings, source.name)
    runs = phase_runs(list(reading.phases.values()), procs=reading.procs, warnings=warnings, name=source.name)
    if reading.score is None:
        warnings.append(
            f"{source.name}:{number}: the file ends before IO500's [SCORE] line: it looks cut short, and the phases "
            "after this line and the score are missing"
        )
    else:
        reading.score.params = reading.params
        runs.append(score_run(reading.score, procs=reading.procs, warnings=warnings, name=source.name))
    return runs, reading.params.get("io500_version")


def _line(reading: _Reading, line: str, number: int, warnings: list[str], name: str) -> None:
    if match := _VERSION.match(line):
        reading.params["io500_version"] = match.group(1)
        if match.group(2):
            reading.params["mode"] = match.group(2)
    elif match := _MPI_PROCESSES.match(line):
        reading.procs = read_whole(match.group(1), file=None, line=number, field="io500_mpiargs")
    elif match := _INFO.match(line):
        reading.params[match.group(1)] = match.group(2).strip().strip("'\"")
    elif line.startswith("[SCOREX"):
        warnings.append(f"{name}:{number}: the extended-mode score is not stored (the standard score is)")
    elif line.startswith("[SCORE"):
        reading.score = _score(line, number)
    elif line.startswith(("[RESULT]", "[RESULT-invalid]", "[ ")):
        _phase(reading, line, number, warnings, name)


def _phase(reading: _Reading, line: str, number: int, warnings: list[str], name: str) -> None:
    match = _RESULT.match(line)
    if match is None:
        raise ParseError(
            "expected a phase, its figure and unit and its time (e.g. '[RESULT] ior-easy-write 1313.92 GiB/s : "
            f"time 345.026 seconds'), found {line[:60]!r}",
            line=number,
        )
    tag, printed, figure, _unit, time_s, invalid = match.groups()
    phase = Phase(
        name=phase_name(printed),
        line=number,
        figure=_number(figure, number, printed),
        time_s=_number(time_s, number, "time"),
        scored=tag.startswith("RESULT") and phase_name(printed) in SCORED,
        valid=invalid is None and not tag.endswith("-invalid"),
    )
    earlier = reading.phases.get(phase.name)
    if earlier is not None and (earlier.figure, earlier.time_s) != (phase.figure, phase.time_s):
        warnings.append(
            f"{name}:{number}: phase {phase.name} is stated again with other figures than on line {earlier.line}; "
            "the later is stored"
        )
    if earlier is None or (earlier.figure, earlier.time_s) != (phase.figure, phase.time_s):
        reading.phases[phase.name] = phase


def _score(line: str, number: int) -> Score:
    match = _SCORE.match(line)
    if match is None:
        raise ParseError(
            f"expected 'Bandwidth N GiB/s : IOPS N kiops : TOTAL N' after [SCORE], found {line[:60]!r}", line=number
        )
    tag, bandwidth, metadata, total, invalid = match.groups()
    return Score(
        line=number,
        bandwidth_gib_per_s=_number(bandwidth, number, "Bandwidth"),
        metadata_kiops=_number(metadata, number, "IOPS"),
        total=_number(total, number, "TOTAL"),
        valid=invalid is None and tag != "-invalid",
    )
