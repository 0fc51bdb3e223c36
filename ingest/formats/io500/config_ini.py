"""IO500's ``config.ini`` (sc20 and later), read with the ``result.txt`` or ``result_summary.txt`` of its
folder: the settings of each phase (its own section, ``[ior-easy-write]``, and its family's, ``[ior-easy]``)
go to the phase's run as ``params.config``, ``[global]`` to the score's, and the easy IOR phases' stated
``transferSize`` to their workload. IO500 writes a section for every phase it knows, so a phase of the
results without one means the file was cut short."""

import re

from ...errors import ParseError
from ...numbers import size_or_none
from ...result import Run, TransferSize
from ...source import Source
from .phases import SCORE_RUN

_SECTION = re.compile(r"^\[([^\]]+)\]\s*$")
_PAIR = re.compile(r"^([\w.-]+)\s*=\s*(.*)$")
# Settings that say whether a phase runs or how much it logs, not what it did.
_PASSED_OVER = {"run", "verbosity"}


def config_sections(source: Source) -> dict[str, dict[str, str]]:
    """Each section's settings that are set (an empty ``API =`` is IO500's default, left out)."""
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    with source.open_text() as stream:
        for number, text in enumerate(stream, start=1):
            line = text.strip()
            if not line or line.startswith((";", "#")):
                continue
            if match := _SECTION.match(line):
                current = sections.setdefault(match.group(1), {})
            elif (match := _PAIR.match(line)) and current is not None:
                key, value = match.group(1), match.group(2).strip()
                if value and key not in _PASSED_OVER:
                    current[key] = value
            else:
                raise ParseError(f"expected '[section]' or 'key = value', found {line[:40]!r}", line=number)
    return sections


def apply_config(runs: list[Run], sections: dict[str, dict[str, str]], *, name: str, warnings: list[str]) -> None:
    """Each run's settings from ``sections``; a warning naming the phases ``config.ini`` has no section for."""
    missing = []
    for run in runs:
        if run.name == SCORE_RUN:
            if sections.get("global"):
                run.params["config"] = dict(sections["global"])
            continue
        if run.name not in sections:
            missing.append(run.name)
            continue
        family = run.name.rsplit("-", 1)[0]
        settings = {**sections.get(family, {}), **sections[run.name]} if family != run.name else sections[run.name]
        if settings:
            run.params["config"] = settings
        size = size_or_none(settings.get("transferSize", ""))
        if size and run.name.startswith("ior-easy") and not run.workload.transfer_sizes:
            run.workload.transfer_sizes = [TransferSize(bytes=size, pct=100.0)]
    if missing:
        warnings.append(
            f"{name}: no section for phase(s) {', '.join(missing)}, which IO500 writes for every phase it knows: "
            "the file looks cut short, and these phases' settings are missing"
        )
