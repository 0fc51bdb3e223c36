"""The typed dict form of the result types (``ingest.result_dicts``) holds the dataclasses' fields, and what
a real parse hands the portal holds every one of them."""

from dataclasses import fields

import pytest

from ingest import parse_paths
from ingest.result import Point, ResultSet, Run, System, TransferSize, Workload
from ingest.result_dicts import PointDict, ResultSetDict, RunDict, SystemDict, TransferSizeDict, WorkloadDict
from tests.samples import data, sample


@pytest.mark.parametrize(
    ("typed", "result_type"),
    [
        (ResultSetDict, ResultSet),
        (RunDict, Run),
        (PointDict, Point),
        (WorkloadDict, Workload),
        (TransferSizeDict, TransferSize),
        (SystemDict, System),
    ],
)
def test_each_typed_dict_has_the_fields_of_its_result_type(typed, result_type):
    assert list(typed.__annotations__) == [item.name for item in fields(result_type)]
    assert typed.__required_keys__ == frozenset(typed.__annotations__)


def test_a_parse_hands_over_every_key_the_typed_dicts_name():
    # The Jetstress 2007 report of seed 001's appendix: one run, one point at 1,101.114 achieved IOPS.
    (result,) = parse_paths([data("jetstress", "jetstress2007_seed001.html")])
    assert set(result) == set(ResultSetDict.__annotations__)
    (run,) = result["runs"]
    assert set(run) == set(RunDict.__annotations__)
    assert set(run["workload"]) == set(WorkloadDict.__annotations__)
    (point,) = run["points"]
    assert set(point) == set(PointDict.__annotations__)
    assert point["iops"] == pytest.approx(1101.114)


def test_a_system_description_hands_over_every_key_of_the_system():
    # An MLPerf Storage system description: the system only, no run.
    (result,) = parse_paths([sample("mlperf-storage", "v1.0-ddn-system.json")])
    assert result["runs"] == []
    assert set(result["system"]) == set(SystemDict.__annotations__)
