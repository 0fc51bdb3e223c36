"""IO500's ``result.txt`` (sc20 and later): an INI file with a ``[run]`` section (processes, version, mode),
a section per phase (its ``score``, ``t_start``, ``t_delta`` and the stonewall figures of IOR and mdtest)
and a ``[SCORE]`` section (``MD``, ``BW``, ``SCORE``). ``; ERROR INVALID`` comments say why a run is invalid."""

import re
from dataclasses import dataclass, field
from datetime import datetime

from ...errors import ParseError
from ...numbers import Printed, read_number, read_whole
from ...result import Run
from ...source import Source
from .phases import SCORED, Phase, Score, phase_runs, score_run

_PRINTED = Printed(required=True)
_SECTION = re.compile(r"^\[([^\]]+)\]\s*$")
_PAIR = re.compile(r"^([\w-]+)\s*=\s*(.*)$")
_INVALID = " [INVALID]"
# The stonewall figures IO500 keeps of a phase, by the key it writes them under.
_STONEWALL = {"throughput-stonewall": "stonewall_gib_per_s", "rate-stonewall": "stonewall_kiops"}


@dataclass
class _Section:
    """One ``[name]`` section: its key-value pairs and the line each was on."""

    name: str
    line: int
    values: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def _number(text: str, number: int, column: str) -> float:
    value = read_number(text, file=None, line=number, field=column, printed=_PRINTED)
    assert value is not None  # required: an empty text is refused
    return value


def _sections(source: Source, warnings: list[str]) -> tuple[list[_Section], int]:
    sections: list[_Section] = []
    number = 0
    with source.open_text() as stream:
        for number, text in enumerate(stream, start=1):
            line = text.strip()
            if not line:
                continue
            if line.startswith(";"):
                if "INVALID" in line:
                    warnings.append(f"{source.name}:{number}: IO500 says: {line.lstrip('; ')}")
            elif match := _SECTION.match(line):
                sections.append(_Section(name=match.group(1), line=number))
            elif (match := _PAIR.match(line)) and sections:
                sections[-1].values[match.group(1)] = match.group(2).strip()
                sections[-1].lines[match.group(1)] = number
            else:
                raise ParseError(f"expected '[section]' or 'key = value', found {line[:40]!r}", line=number)
    return sections, number


def _result_ini_runs(source: Source, warnings: list[str]) -> tuple[list[Run], str | None]:
    sections, last = _sections(source, warnings)
    run = next((section for section in sections if section.name == "run"), _Section(name="run", line=1))
    procs = read_whole(run.values.get("procs", ""), file=None, line=run.lines.get("procs"), field="procs")
    phases = [_phase(section) for section in sections if section.name not in ("run", "SCORE", "SCOREX")]
    scored = [phase for phase in phases if phase is not None]
    runs = phase_runs(scored, procs=procs, warnings=warnings, name=source.name)
    passed = [
        f"{section.name} (line {section.line})"
        for section, phase in zip(
            [s for s in sections if s.name not in ("run", "SCORE", "SCOREX")], phases, strict=True
        )
        if phase is None
    ]
    if passed:
        warnings.append(f"phases with no score (IO500's own steps, no figure): {', '.join(passed)}")
    score = next((section for section in sections if section.name == "SCORE"), None)
    if score is None or "SCORE" not in score.values:
        warnings.append(
            f"{source.name}:{last}: the file ends before IO500's [SCORE] section: it looks cut short, and the "
            "phases after this line and the score are missing"
        )
    else:
        runs.append(score_run(_score(score, run), procs=procs, warnings=warnings, name=source.name))
    return runs, run.values.get("version")


def _phase(section: _Section) -> Phase | None:
    if "score" not in section.values:
        return None
    text = section.values["score"]
    number = section.lines["score"]
    params = {
        name: _number(section.values[key], section.lines[key], key)
        for key, name in _STONEWALL.items()
        if key in section.values
    }
    time = section.values.get("t_delta")
    return Phase(
        name=section.name,
        line=number,
        figure=_number(text.removesuffix(_INVALID), number, "score"),
        time_s=_number(time, section.lines["t_delta"], "t_delta") if time is not None else None,
        scored=section.name in SCORED,
        valid=not text.endswith(_INVALID),
        started_at=_timestamp(section.values.get("t_start", "")),
        params=params,
    )


def _timestamp(text: str) -> str | None:
    try:
        return datetime.strptime(text, "%Y-%m-%d %H:%M:%S").isoformat()
    except ValueError:
        return None


def _score(section: _Section, run: _Section) -> Score:
    def figure(key: str) -> float:
        if key not in section.values:
            raise ParseError(f"the [SCORE] section has no {key} line", line=section.line)
        return _number(section.values[key].removesuffix(_INVALID), section.lines[key], key)

    names = {"version": "io500_version", "mode": "mode", "config-hash": "config_hash"}
    params = {name: run.values[key] for key, name in names.items() if run.values.get(key)}
    return Score(
        line=section.lines["SCORE"],
        bandwidth_gib_per_s=figure("BW"),
        metadata_kiops=figure("MD"),
        total=figure("SCORE"),
        valid=not section.values["SCORE"].endswith(_INVALID),
        params=params,
    )
