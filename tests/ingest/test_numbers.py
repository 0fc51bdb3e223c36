"""The shared readers of numbers and sizes, and the contract's checks of the workload signature."""

import pytest

from ingest import ParseError
from ingest.contract import validate
from ingest.numbers import Printed, as_printed, read_number, read_size, size_or_none


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


def test_a_plain_number_with_thousands_separators():
    assert read_number("1,101.114", file="f") == 1101.114
    assert read_number(" 12 ", file="f") == 12.0
    assert read_number("", file="f") is None
    assert read_number("", file="f", blank=0.0) == 0.0


def test_sentinels_units_and_a_decimal_comma_where_the_tool_prints_them():
    printed = Printed(missing=frozenset({"n/a", "-"}), units=("%",), decimal_comma=True, grouping_spaces=True)
    assert read_number("N/A", file="f", printed=printed) is None
    assert read_number("-", file="f", printed=printed) is None
    assert read_number("40%", file="f", printed=printed) == 40.0
    assert read_number("0,598", file="f", printed=printed) == 0.598
    assert read_number("1\u00a0234,5", file="f", printed=printed) == 1234.5
    # Without decimal_comma a lone comma groups thousands.
    assert read_number("1,234", file="f") == 1234.0


def test_the_number_a_text_starts_with():
    printed = Printed(leading=True)
    assert read_number("15,015 RPM", file="f", printed=printed) == 15015.0
    with pytest.raises(ParseError) as caught:
        read_number("", file="p.txt", line=9, field="Speed", printed=printed)
    assert str(caught.value) == "p.txt:9: field 'Speed': '' is not a number"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12x", "'12x' is not a number"),
        ("NaN", "'NaN' (not a number) is no measured value"),
        ("-1", "'-1' is negative; a measured value cannot be"),
        ("1e400", "'1e400' is too large to be a measured value"),
        ("101", "'101' is above 100, the most it can be"),
    ],
)
def test_refusals_name_file_line_and_field(text, message):
    with pytest.raises(ParseError) as caught:
        read_number(text, file="r.csv", line=7, field="read %", maximum=100)
    assert str(caught.value) == f"r.csv:7: field 'read %': {message}"


def test_a_format_words_its_refusal_and_may_use_it_for_every_refusal():
    printed = Printed(refusal="expected a number in {field!r}, found {stripped!r}")
    with pytest.raises(ParseError) as caught:
        read_number(" 2421x9 ", file="d.txt", line=52, field="I/Os", printed=printed)
    assert caught.value.message == "expected a number in 'I/Os', found '2421x9'"
    one = Printed(refusal="expected a number, found {text!r}", one_refusal=True)
    with pytest.raises(ParseError) as caught:
        read_number("-2302", file="t_iops.csv", line=2, column=2, printed=one)
    assert str(caught.value) == "t_iops.csv:2: column 2: expected a number, found '-2302'"


def test_negative_figures_where_the_caller_allows_them():
    assert read_number("-3.5", file="f", negative=True) == -3.5


def test_a_whole_number_as_printed():
    assert as_printed(4.0) == 4 and isinstance(as_printed(4.0), int)
    assert as_printed(4.5) == 4.5
    assert as_printed(None) is None
