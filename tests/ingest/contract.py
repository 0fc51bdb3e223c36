"""The contract every format's parser keeps, run once per registered format.

A format's test module subclasses :class:`FormatContract`, names its format id and the inputs
(each a list of paths parsed together), and inherits these tests.
"""

import json

import jsonschema
import pytest

from ingest import parse_paths
from ingest.formats.base import format_problems
from ingest.registry import FORMATS
from ingest.result import POINT_FIGURES, json_schema


class FormatContract:
    format_id = None
    # Files of this format parsed together: a list of lists of paths.
    inputs = ()

    @pytest.fixture(scope="class")
    @classmethod
    def parsed(cls):
        return [parse_paths(paths) for paths in cls.inputs]

    def test_format_is_registered(self):
        assert self.format_id in FORMATS
        module = FORMATS[self.format_id]
        assert self.format_id == module.FORMAT and module.TOOL and module.READS
        assert format_problems(module) == []

    def test_every_input_follows_the_published_schema(self, parsed):
        assert parsed, "a format is tested on at least one file"
        validator = jsonschema.Draft202012Validator(json_schema())
        for result_sets in parsed:
            for result in result_sets:
                assert result["format"] == self.format_id
                # Plain JSON, without NaN or infinity, as it is stored and served.
                assert json.loads(json.dumps(result, allow_nan=False)) == result
                assert [error.message for error in validator.iter_errors(result)] == []

    def test_unknown_values_are_null_not_zero_strings(self, parsed):
        for result_sets in parsed:
            for result in result_sets:
                for run in result["runs"]:
                    for point in run["points"]:
                        for name in POINT_FIGURES:
                            assert point[name] is None or isinstance(point[name], int | float)


class SingleSizeUnits:
    """Mixed into a format's contract tests where a run has one fixed transfer size."""

    def test_mbps_is_decimal_and_matches_iops_times_size(self, parsed):
        checked = 0
        for result_sets in parsed:
            for result in result_sets:
                for run in result["runs"]:
                    sizes = run["workload"]["transfer_sizes"]
                    if len(sizes) != 1:
                        continue
                    for point in run["points"]:
                        if point["iops"] and point["mbps"]:
                            expected = point["iops"] * sizes[0]["bytes"] / 1e6
                            assert point["mbps"] == pytest.approx(expected, rel=0.02)
                            checked += 1
        assert checked, "no point with a single transfer size, IOPS and MB/s to check"
