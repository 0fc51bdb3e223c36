"""Whether a file is an Iometer results CSV: its first line is a marker or a results header."""

from __future__ import annotations

from ...source import sniff_encoding

_RESULT_MARKERS = ("'Test Type", "'Version", "'Time Stamp", "'Access specifications", "'Results")


def _head_lines(head: bytes) -> list[str]:
    encoding, bom_length = sniff_encoding(head)
    text = head[bom_length:].decode(encoding, errors="replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _is_results_header(line: str) -> bool:
    names = [cell.strip().lstrip("'") for cell in line.split(",", 3)[:3]]
    return "Target Type" in names and "Target Name" in names


def sniff(head: bytes, name: str) -> bool:
    lines = _head_lines(head)
    return bool(lines) and (lines[0].startswith(_RESULT_MARKERS) or _is_results_header(lines[0]))
