"""A benchmark phase in one vocabulary, whichever file it came from, with the setup its command line
states and the phases a command line asks for."""

import re
import shlex
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from ...errors import ParseError
from ...numbers import Printed, read_number, size_or_none

MAX_COUNT_DIGITS = 9  # threads or an IO depth beyond a billion are no elbencho run
# Every figure stands in its cell alone; an empty one where a figure belongs is damage.
_PRINTED = Printed(required=True)
# elbencho options that name the workload or the load, long and short spellings.
_OPTIONS = {
    "--threads": "threads",
    "-t": "threads",
    "--hosts": "hosts",
    "--block": "block",
    "-b": "block",
    "--size": "size",
    "-s": "size",
    "--iodepth": "iodepth",
    "--rwmixpct": "rwmixpct",
    "--label": "label",
}
# The phases elbencho runs for each option, long and short spellings (SYNC and DROPCACHE between them are
# not counted: they hold no results).
_PHASE_OPTIONS = {
    "--mkdirs": "MKDIRS",
    "-d": "MKDIRS",
    "--write": "WRITE",
    "-w": "WRITE",
    "--read": "READ",
    "-r": "READ",
    "--stat": "STAT",
    "--delfiles": "RMFILES",
    "-F": "RMFILES",
    "--deldirs": "RMDIRS",
    "-D": "RMDIRS",
}
_FLAGS = {"--rand": "random", "--randalign": "random_aligned", "--direct": "direct", "--hostsfile": "hostsfile"}


@dataclass
class _Phase:
    """One benchmark phase in a common vocabulary, whichever file it came from."""

    operation: str
    line: int
    last: dict = field(default_factory=dict)
    first: dict = field(default_factory=dict)
    latency_us: dict = field(default_factory=dict)
    setup: dict = field(default_factory=dict)


def _missing_phases(name: str, phases: list[_Phase]) -> list[str]:
    """The phases each command line asks for that the file does not hold: elbencho writes a row (a block)
    for every phase it runs, so a file without them ends before them."""
    warnings = []
    for command, group in groupby(phases, key=lambda phase: phase.setup.get("command")):
        held = list(group)
        asked = dict.fromkeys(_PHASE_OPTIONS[word] for word in _words(command or "") if word in _PHASE_OPTIONS)
        missing = [phase for phase in asked if phase not in {held_phase.operation for held_phase in held}]
        if missing:
            warnings.append(
                f"{name}:{held[-1].line}: the command line of the {held[0].operation} phase (line {held[0].line}) "
                f"asks for the {', '.join(missing)} phase{'s' if len(missing) > 1 else ''} too, which the file does "
                "not hold after this line: it looks cut short (or elbencho stopped), and their results are missing"
            )
    return warnings


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


# --- values ---------------------------------------------------------------------------------


def _command_setup(command: str, number: int) -> dict[str, Any]:
    """Workload and load options from an elbencho command line (quoted words, as elbencho logs it)."""
    words = _words(command)
    # elbencho's defaults when an option is not given: IO depth 1, sequential, buffered.
    setup: dict[str, Any] = {"command": command.strip(), "iodepth": 1, "random": False, "direct": False}
    for index, word in enumerate(words):
        option, has_value, inline = word.partition("=")
        if option in _FLAGS:
            setup[_FLAGS[option]] = True
        key = _OPTIONS.get(option)
        if key is None:
            continue
        value = inline if has_value else (words[index + 1] if index + 1 < len(words) else "")
        setup[key] = _option_value(key, value, number)
    return setup


def _option_value(key: str, value: str, number: int) -> int | str | None:
    if key == "hosts":
        return len([host for host in re.split(r"[,\s]+", value) if host])
    if key in ("block", "size"):
        return size_or_none(value)
    if key in ("threads", "iodepth", "rwmixpct"):
        if not value.isdigit():
            return None
        if len(value) > MAX_COUNT_DIGITS or (key == "rwmixpct" and int(value) > 100):
            shown = value if len(value) <= 20 else f"{value[:20]}...({len(value)} digits)"
            kind = "a percentage" if key == "rwmixpct" else "a plausible count"
            raise ParseError(f"the command line's --{key} {shown} is not {kind}", line=number, field=key)
        return int(value)
    return value


def _number(text: str, number: int, column: str) -> float:
    value = read_number(text, file=None, line=number, field=column, printed=_PRINTED)
    if value is None:  # an empty cell is refused (``required``), so there is always a figure
        raise ParseError(f"{column!r} has no figure", line=number, field=column)
    return value
