"""The registry is where points are put in load order and results meet the contract, whatever a parser returns."""

import types

import pytest

from ingest import ParseError, Source, parse_group
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
