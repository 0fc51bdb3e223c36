"""SPEC SFS2014 summary XML: PerfKitBenchmarker's real SWBUILD summary and a hand-made two-load file."""

import pytest

from ingest import ParseError, parse_paths
from ingest.registry import parse_sources
from ingest.source import Source
from tests.ingest.contract import FormatContract
from tests.samples import data, sample

SUMMARY = sample("specsfs", "specsfs2014-pkb-summary.xml")
TWO_LOADS = data("specsfs", "two_loads_one_invalid.xml")
KIB = 1024


class TestSpecSfsContract(FormatContract):
    format_id = "specsfs"
    inputs = [[SUMMARY], [TWO_LOADS]]


def test_the_swbuild_summary_is_one_run_of_one_valid_load_point():
    [result] = parse_paths([SUMMARY])
    [run] = result["runs"]
    [point] = run["points"]
    assert result["tool"]["name"] == "SPEC SFS"
    assert run["name"] == "SWBUILD"  # line 17: <benchmark name="SWBUILD"/>
    assert run["verdict"] == "pass"  # line 18: <valid_run/>
    assert point["load"] == {"business_metric": 1, "threads": 5}  # line 4; lines 12-13: 1 client x 5 processes
    assert point["iops"] == pytest.approx(500.05)  # line 6: achieved rate, ops/s
    assert point["metrics"]["requested_ops_per_s"] == pytest.approx(500.0)  # line 5: op rate
    assert point["avg_response_ms"] == pytest.approx(1.48)  # line 7: average latency, milliseconds
    assert point["mbps"] == pytest.approx(6463.95 * KIB / 1e6)  # line 8: 6463.95 KB/s = 6.619 MB/s
    assert point["read_mbps"] == pytest.approx(3204.78 * KIB / 1e6)  # line 9
    assert point["write_mbps"] == pytest.approx(3259.17 * KIB / 1e6)  # line 10
    assert point["metrics"]["duration_s"] == 300  # line 11: run time
    assert point["metrics"]["maximum_file_space_mib"] == 4687  # line 16
    assert result["warnings"] == []


def test_load_points_are_stored_in_business_metric_order_and_an_invalid_one_fails_the_run():
    [result] = parse_paths([TWO_LOADS])
    [run] = result["runs"]
    assert [point["load"]["business_metric"] for point in run["points"]] == [1, 2]
    assert [point["load"]["threads"] for point in run["points"]] == [5, 10]
    assert [point["iops"] for point in run["points"]] == [pytest.approx(500.10), pytest.approx(980.00)]
    assert run["verdict"] == "fail"
    [warning] = result["warnings"]
    assert warning.startswith("two_loads_one_invalid.xml:3: SWBUILD at business metric 2 is not a valid run")


def _parse(text: str):
    return parse_sources([Source(name="sfssum.xml", data=text.encode())])


def test_a_figure_in_another_unit_is_refused_naming_the_line():
    text = TWO_LOADS.read_text().replace(
        '"average latency" units="milliseconds">1.20', '"average latency" units="us">1200'
    )
    with pytest.raises(ParseError) as error:
        _parse(text)
    assert (error.value.file, error.value.line) == ("sfssum.xml", 21)
    assert "in 'us'; SPEC SFS2014 prints it in 'milliseconds'" in str(error.value)


def test_a_word_for_a_figure_is_refused_naming_the_line():
    text = SUMMARY.read_text().replace(">500.05<", ">fast<")
    with pytest.raises(ParseError) as error:
        _parse(text)
    assert error.value.line == 6
    assert "'fast'" in str(error.value)


def test_a_cut_summary_is_refused_as_truncated_xml():
    text = SUMMARY.read_text()
    with pytest.raises(ParseError) as error:
        _parse(text[: text.index("<valid_run/>")])
    assert "not well-formed XML" in str(error.value) and "truncated" in str(error.value)
