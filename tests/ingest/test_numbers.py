"""The shared readers of sizes, and the contract's checks of the workload signature."""

import pytest

from ingest import ParseError
from ingest.numbers import read_size, size_or_none
from ingest.result import validate


@pytest.mark.parametrize(
    ("text", "size"),
    [("512", 512), ("4k", 4096), ("64KiB", 65536), ("8 KB", 8192), ("1m", 1048576), ("4096 bytes", 4096)],
)
def test_sizes_as_tools_write_them_are_binary(text, size):
    assert read_size(text) == size


def test_kilo_1000_is_decimal_but_kib_stays_binary():
    assert read_size("4k", kilo=1000) == 4000
    assert read_size("4KiB", kilo=1000) == 4096


@pytest.mark.parametrize("text", ["", "0", "-4k", "4 apples", "k", "1" * 30])
def test_anything_else_is_a_parse_error_naming_the_field(text):
    with pytest.raises(ParseError) as caught:
        read_size(text, file="f.txt", line=3, field="bs")
    assert (caught.value.file, caught.value.line, caught.value.field) == ("f.txt", 3, "bs")
    assert size_or_none(text) is None


def result_with(**workload):
    run = {"name": "r", "workload": {"read_pct": None, "random_pct": None, "transfer_sizes": [], **workload}}
    run["points"] = [{"load": {}, "iops": 1.0}]
    source = {"name": "f", "sha256": "0" * 64}
    return {"format": "fio", "tool": {"name": "fio"}, "source": source, "runs": [run], "warnings": []}


def test_alignment_and_streams_are_positive_whole_numbers_or_null():
    assert validate(result_with(alignment_bytes=4096, streams=2)) == []
    assert validate(result_with()) == []
    assert validate(result_with(alignment_bytes=0.5, streams=0)) == [
        "runs[0].workload.alignment_bytes: expected a positive whole number or null, got 0.5",
        "runs[0].workload.streams: expected a positive whole number or null, got 0",
    ]
