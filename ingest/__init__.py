"""Parsers for storage benchmark results. Pure Python: nothing here imports Django."""

__version__ = "1.0"

from .contract import ContractError, validate
from .errors import ParseError
from .registry import (
    FORMATS,
    Group,
    detect,
    parse_archive,
    parse_group,
    parse_paths,
    parse_sources,
    plan,
    read,
    sources_under,
)
from .result_dicts import PointDict, ResultSetDict, RunDict, SystemDict
from .source import Source

__all__ = [
    "FORMATS",
    "ContractError",
    "Group",
    "ParseError",
    "PointDict",
    "ResultSetDict",
    "RunDict",
    "SystemDict",
    "Source",
    "detect",
    "parse_archive",
    "parse_group",
    "parse_paths",
    "parse_sources",
    "plan",
    "read",
    "sources_under",
    "validate",
]
