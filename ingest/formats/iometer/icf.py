"""Iometer configuration files (.icf): refused with a sentence saying which file to upload instead."""

from __future__ import annotations

import re

from .detect import _head_lines

_ICF_SECTIONS = ("'TEST SETUP", "'ACCESS SPECIFICATIONS", "'MANAGER LIST", "'RESULTS DISPLAY")


def refuse(head: bytes, name: str) -> str | None:
    """A message for an Iometer configuration file (.icf), which holds settings and no results."""
    lines = _head_lines(head)
    if not lines or not re.match(r"^Version \S+", lines[0]):
        return None
    if not any(line.startswith(_ICF_SECTIONS) for line in lines[1:]):
        return None
    version = lines[0].split()[1]
    return (
        f"this is an Iometer configuration file (.icf, Version {version}): it holds test settings "
        "and no results. Run the test and upload the results CSV Iometer writes (the file given "
        "with /r, or the one chosen when the test starts)."
    )
