"""The registry is where points are put in load order and results meet the contract, whatever a parser
returns; every format it holds provides the interface it reads."""

import types

import pytest

from ingest import ParseError, Source, parse_group, validate
from ingest.formats.base import FormatModule, GroupedFormat, RefusingFormat, format_problems
from ingest.registry import FORMATS, detect
from ingest.result import Point, ResultSet, Run, Workload


def _format(points):
    """A format module whose parser returns one run with these points, in the order given."""

    def parse(source):
        run = Run(name="rd1", workload=Workload(read_pct=100, random_pct=100), points=points)
        return ResultSet(format="test", tool={"name": "test"}, source=source.describe(), runs=[run])

    return types.SimpleNamespace(FORMAT="test", parse=parse)


def test_points_a_parser_returns_out_of_order_leave_the_registry_in_increasing_load_order():
    points = [Point(load={"outstanding_io": qd}, iops=iops) for qd, iops in ((16, 900.0), (1, 100.0), (4, 400.0))]
    (result,) = parse_group(_format(points), [Source(name="out-of-order.txt", data=b"x")])
    assert [p["load"]["outstanding_io"] for p in result["runs"][0]["points"]] == [1, 4, 16]
    assert [p["iops"] for p in result["runs"][0]["points"]] == [100.0, 400.0, 900.0]


def test_a_figure_the_contract_refuses_is_a_parse_error_naming_the_run_and_point():
    points = [Point(load={"outstanding_io": 1}, iops=100.0), Point(load={"outstanding_io": 2}, iops=-5.0)]
    with pytest.raises(ParseError) as raised:
        parse_group(_format(points), [Source(name="negative.txt", data=b"x")])
    assert str(raised.value).startswith("negative.txt: ")
    # Points are counted from 1, as a user counts them.
    assert "run 'rd1', point 2: iops: -5.0 is below 0" in str(raised.value)


def test_a_run_without_points_is_refused():
    with pytest.raises(ParseError) as raised:
        parse_group(_format([]), [Source(name="empty.txt", data=b"x")])
    assert str(raised.value) == (
        "empty.txt: run 'rd1' holds no measured point; the file may be cut short or miss the tables holding its figures"
    )


def test_the_contract_reports_points_out_of_load_order_in_results_made_elsewhere():
    # The registry sorts what parsers return (above); a result built by hand and checked with
    # validate() alone is told its points are out of order.
    run = {
        "name": "rd1",
        "workload": {"transfer_sizes": []},
        "points": [{"load": {"outstanding_io": qd}} for qd in (4, 1)],
    }
    result = {
        "format": "test",
        "tool": {"name": "test"},
        "source": {"name": "f", "sha256": "0" * 64},
        "runs": [run],
        "warnings": [],
    }
    assert validate(result) == ["runs[0].points: not in increasing load order"]


@pytest.mark.parametrize("format_id", sorted(FORMATS))
def test_every_registered_format_provides_what_the_registry_reads(format_id):
    module = FORMATS[format_id]
    assert format_problems(module) == []
    assert isinstance(module, FormatModule)
    assert format_id == module.FORMAT


def test_the_optional_hooks_are_where_the_readme_says():
    refusing = {module.FORMAT for module in FORMATS.values() if isinstance(module, RefusingFormat)}
    grouped = {module.FORMAT for module in FORMATS.values() if isinstance(module, GroupedFormat)}
    # Files that are not results refused: Iometer .icf, Jetstress XML, FFSB profiles, DiskSpd -X profiles,
    # fio's latency, bandwidth, IOPS and histogram logs, bonnie++ 1.03 CSV (laid out otherwise).
    assert refusing == {"iometer", "jetstress", "ffsb", "diskspd", "fio", "bonnie"}
    # Read together: an ORION test, a fio-plot folder, a vdbench output folder, an IO500 results folder, a
    # DLIO run folder's summary.json and per_epoch_stats.json.
    assert grouped == {"orion", "fio", "vdbench", "io500", "mlperf_storage"}


def test_a_module_missing_part_of_the_interface_is_told_what():
    def sniff(head):
        return True

    broken = types.SimpleNamespace(FORMAT="Bad-Id", TOOL="", sniff=sniff, group_key=lambda source: None)
    assert format_problems(broken) == [
        "TOOL must be a non-empty string",
        "READS must be a non-empty string",
        "sniff() must take 2 positional arguments",
        "parse() is missing",
        "group_key and parse_group go together: files grouped by one are read by the other",
    ]
    assert not isinstance(broken, FormatModule)


def test_a_format_id_is_lower_case():
    module = types.SimpleNamespace(FORMAT="Bad-Id", TOOL="t", READS="r", sniff=lambda h, n: False, parse=lambda s: None)
    assert format_problems(module) == ["FORMAT must be lower case letters, digits and underscores"]


def test_a_file_no_format_reads_is_refused_naming_the_line_it_begins_with():
    with pytest.raises(ParseError) as refused:
        detect(Source(data=b"\r\n\r\nDate,Host,Throughput\x07\r\n1,2,3\r\n", name="export.csv"))
    assert str(refused.value).startswith(
        "export.csv:3: not a recognised result file (it begins 'Date,Host,Throughput?'); ArrayBench reads: "
        "Iometer (iometer), Oracle ORION (orion),"
    )
    with pytest.raises(ParseError) as long_line:
        detect(Source(data=b"%PDF-1.7 " + b"x" * 100, name="paper.pdf"))
    assert f"(it begins '%PDF-1.7 {'x' * 51}...')" in str(long_line.value)
    for empty in (b"", b"\n \n"):
        with pytest.raises(ParseError) as nothing:
            detect(Source(data=empty, name="results.csv"))
        assert nothing.value.line is None
        assert str(nothing.value).startswith("results.csv: the file is empty")
    assert "(blank lines only)" in str(nothing.value)
