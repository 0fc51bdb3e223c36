"""What a format module provides: the interface the registry reads, as typed protocols.

Every format under ``ingest/formats/`` is a :class:`FormatModule`: a module (``orion.py``) or, for a tool
with several dialects or layouts, a package (``iometer/``) whose ``__init__`` provides the interface and
names its modules, one per dialect or stage of reading. A format whose tool writes files that are not
results (configuration files) is also a :class:`RefusingFormat`, and one whose results are split over
several files a :class:`GroupedFormat`. A module may set
``METRICS_CHECKED = True`` when every number it puts in a point's metrics was checked as it was read
(finite, as :mod:`ingest.numbers` reads them): the contract then does not walk them again (see
:func:`ingest.contract.validate`); the fuzz tests hold it to that. The registry types
its modules as these protocols, so mypy checks each registered module against them, and
:func:`format_problems` checks a module at run time (the registry's tests call it for each one).
"""

import inspect
import re
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..result import ResultSet
from ..source import Source

_FORMAT_ID = re.compile(r"^[a-z][a-z0-9_]*$")


@runtime_checkable
class FormatModule(Protocol):
    """A format: its id, the tool, the docs/formats.md line of what it reads, detection and parsing."""

    FORMAT: str  # the format id, as in ``ResultSet.format`` and the docs/formats.md table
    TOOL: str  # the tool's name, as runs are stored under it
    READS: str  # what is read, one line: the docs/formats.md format table's last column

    def sniff(self, head: bytes, name: str) -> bool:
        """Whether the file's first bytes (``HEAD_BYTES`` of them) look like this format; ``name``
        is a hint only: detection is by content."""
        ...

    def parse(self, source: Source) -> ResultSet | list[ResultSet]:
        """The results of one file; :class:`ParseError` (and nothing else) when it cannot be read."""
        ...


@runtime_checkable
class RefusingFormat(FormatModule, Protocol):
    """A format whose tool writes files that are not results (configuration files)."""

    def refuse(self, head: bytes, name: str) -> str | None:
        """A sentence saying which results file to upload instead, for the tool's files that are
        not results; ``None`` for any other file. Asked of every file before any ``sniff``."""
        ...


@runtime_checkable
class GroupedFormat(FormatModule, Protocol):
    """A format whose results are split over several files read together (an ORION test)."""

    def group_key(self, source: Source) -> str | None:
        """Files of this format with the same key are read together; ``None``: read it alone."""
        ...

    def parse_group(self, sources: list[Source]) -> ResultSet | list[ResultSet]:
        """The results of files read together, in the order given."""
        ...


# Each hook and the positional parameters it takes.
_REQUIRED_HOOKS = {"sniff": 2, "parse": 1}
_OPTIONAL_HOOKS = {"refuse": 2, "group_key": 1, "parse_group": 1}


def format_problems(module: object) -> list[str]:
    """What ``module`` lacks to be a format the registry can use; ``[]`` when it is one."""
    problems = [
        f"{name} must be a non-empty string"
        for name in ("FORMAT", "TOOL", "READS")
        if not isinstance(getattr(module, name, None), str) or not getattr(module, name).strip()
    ]
    if not problems and not _FORMAT_ID.match(module.FORMAT):  # type: ignore[attr-defined]  # checked above
        problems.append("FORMAT must be lower case letters, digits and underscores")
    for name, count in _REQUIRED_HOOKS.items():
        problems.extend(_hook_problems(module, name, count, required=True))
    for name, count in _OPTIONAL_HOOKS.items():
        problems.extend(_hook_problems(module, name, count, required=False))
    if not isinstance(getattr(module, "METRICS_CHECKED", False), bool):
        problems.append("METRICS_CHECKED must be True or False")
    if hasattr(module, "group_key") != hasattr(module, "parse_group"):
        problems.append("group_key and parse_group go together: files grouped by one are read by the other")
    return problems


def _hook_problems(module: object, name: str, count: int, *, required: bool) -> list[str]:
    hook = getattr(module, name, None)
    if hook is None:
        return [f"{name}() is missing"] if required else []
    if not callable(hook):
        return [f"{name} must be a function"]
    if not _takes(hook, count):
        return [f"{name}() must take {count} positional argument{'s' if count > 1 else ''}"]
    return []


def _takes(function: Callable[..., object], count: int) -> bool:
    try:
        inspect.signature(function).bind(*range(count))
    except TypeError:
        return False
    return True
