"""Parsers for storage benchmark results. Pure Python: nothing here imports Django."""

__version__ = "1.0"

from .errors import ParseError
from .registry import (
    FORMATS,
    detect,
    group_sources,
    parse_archive,
    parse_group,
    parse_paths,
    parse_sources,
    parse_together,
)
from .result import ContractError, validate
from .source import Source

__all__ = [
    "FORMATS",
    "ContractError",
    "ParseError",
    "Source",
    "detect",
    "group_sources",
    "parse_archive",
    "parse_group",
    "parse_paths",
    "parse_sources",
    "parse_together",
    "validate",
]
