"""Units: sizes with their suffixes, binary and decimal MB/s, times."""

import pytest

from ingest.units import (
    GIB,
    binary_prefix,
    convert_time,
    mib_to_mbps,
    size_in,
    size_multiplier,
    time_factor,
)


@pytest.mark.parametrize(
    ("unit", "bytes_"),
    [
        ("", 1),
        ("B", 1),
        ("bytes", 1),
        ("k", 1024),
        ("K", 1024),
        ("KB", 1024),
        ("KiB", 1024),
        ("m", 1048576),
        ("MB", 1048576),
        ("MiB", 1048576),
        ("g", 1073741824),
        ("GiB", 1073741824),
        ("TB", 1099511627776),
    ],
)
def test_size_suffixes_are_binary(unit, bytes_):
    assert size_multiplier(unit) == bytes_


def test_decimal_sizes_where_the_tool_says_so_but_kib_stays_binary():
    assert size_multiplier("KB", kilo=1000) == 1000
    assert size_multiplier("m", kilo=1000) == 1_000_000
    assert size_multiplier("KiB", kilo=1000) == 1024


def test_no_size_unit():
    assert size_multiplier("apples") is None
    assert size_in(3.0, "rpm") is None


def test_capacities_in_binary_gb():
    # Storage Manager profiles: 1.089 TB and 512 MB in GB of 2^30 bytes.
    assert size_in(1.089, "TB", per=GIB) == pytest.approx(1115.136)
    assert size_in(512, "MB", per=GIB) == 0.5


def test_the_largest_whole_binary_unit():
    assert binary_prefix(4096) == (4, "K")
    assert binary_prefix(1048576) == (1, "M")
    assert binary_prefix(3 * 1073741824, largest="M") == (3072, "M")
    assert binary_prefix(512) == (512, "")


def test_binary_mib_per_second_as_decimal_mb_per_second():
    assert mib_to_mbps(100.0) == pytest.approx(104.8576)
    assert mib_to_mbps(None) is None


def test_times():
    assert convert_time(4.55, "ms", "us") == 4550.0
    assert convert_time(455.0, "us") == 0.455
    assert convert_time(0.012, "s") == 12.0
    assert convert_time(1500, "ns", "us") == 1.5
    assert time_factor("s", "ms") == 1000
    with pytest.raises(ValueError):
        time_factor("us", "ms")
