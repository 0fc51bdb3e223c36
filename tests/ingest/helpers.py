"""Small helpers shared by the parsers' tests."""

import pytest

from ingest import parse_paths
from ingest.result import MIB


def parse_one(path):
    """The one result set a file gives."""
    (result,) = parse_paths([path])
    return result


def runs_by_name(result):
    return {run["name"]: run for run in result["runs"]}


def mib(value):
    """A figure a tool printed in MiB/s (2^20 bytes per second), as the decimal MB/s we store."""
    return pytest.approx(value * MIB / 1e6)
