"""COSBench: a real workload summary (20 stages, ragged Detailed Status) and a real stage time series."""

import pytest

from ingest import ParseError, parse_paths
from ingest.registry import parse_sources
from ingest.source import Source
from tests.ingest.contract import FormatContract
from tests.samples import data, sample

SUMMARY = sample("cosbench", "cosbench-workload-summary-w55.csv")
SERIES = sample("cosbench", "cosbench-stage-timeseries-s2.csv")
# A COSBench fork's workload summary (2023): 'Interval' and 'Op-Id' columns after Stage, and a delay stage
# written as N/A in every figure (as upstream COSBench's CSVWorkloadExporter writes a stage without metrics).
# Layout of a fork's CSVWorkloadExporter.java (writeHeader, both writeMetrics); our own figures.
FORK = data("cosbench", "fork-interval-opid-delay-stage.csv")


class TestCosbenchContract(FormatContract):
    format_id = "cosbench"
    inputs = [[SUMMARY], [SERIES], [FORK]]


@pytest.fixture(scope="module")
def summary():
    return parse_paths([SUMMARY])[0]


def _run(result, name):
    [run] = [run for run in result["runs"] if run["name"] == name]
    return run, run["points"][0]


def test_each_stage_and_operation_is_a_run(summary):
    assert len(summary["runs"]) == 32  # lines 2-33
    run, point = _run(summary, "s2-w(4)KB_c1_o1000_r80w15d5_1: read")
    assert run["workload"]["name"] == "read" and run["workload"]["read_pct"] == 100
    assert run["workload"]["transfer_sizes"] == [{"bytes": 4000, "pct": 100.0}]  # line 3: 178640000 B / 44660 ops
    assert point["iops"] == pytest.approx(74.45)  # line 3: Throughput
    assert point["read_mbps"] == pytest.approx(0.29779786)  # line 3: Bandwidth 297797.86 B/s
    assert point["avg_response_ms"] == pytest.approx(2.75)  # line 3: Avg-ResTime
    assert point["max_response_ms"] == 280  # line 3: 100%-ResTime
    assert point["metrics"]["response_ms_percentiles"]["99%"] == 10  # line 3: 99%-ResTime
    assert point["metrics"]["success_pct"] == pytest.approx(74.87)  # line 3: Succ-Ratio
    assert run["started_at"] == "2014-05-07T09:45:37"  # line 3: "running @ 2014-05-07 09:45:37"
    assert "failed @ 2014-05-07 09:57:38" in run["params"]["states"]  # line 3: the spilled Detailed Status


def test_prepare_and_cleanup_stages_are_preparation_runs(summary):
    assert [run["name"] for run in summary["runs"] if run["phase"] == "preparation"] == [
        "s1-prepare: prepare-write",  # line 2
        "s20-cleanup: cleanup-delete",  # line 33
    ]


def test_a_read_success_ratio_below_100_is_warned_with_its_line(summary):
    assert summary["warnings"][0] == (
        "cosbench-workload-summary-w55.csv:3: s2-w(4)KB_c1_o1000_r80w15d5_1 read: 74.87 % of the operations succeeded"
    )
    assert len(summary["warnings"]) == 12  # every read row (12) is below 100 %; no other operation is


def test_a_time_series_is_read_as_its_samples_mean_and_says_so():
    [result] = parse_paths([SERIES])
    assert [run["workload"]["name"] for run in result["runs"]] == ["read", "write", "delete"]  # line 2
    read = result["runs"][0]
    assert read["params"]["samples"] == 143  # lines 3-146 less line 13
    series = read["points"][0]["metrics"]["series"]["rows"]
    assert series[0] == [3, 84.94, 339749.95, 2.74]  # line 3: read Throughput, Bandwidth, Avg-ResTime
    rates = [row[1] for row in series]
    assert read["points"][0]["iops"] == pytest.approx(sum(rates) / 143)
    assert result["warnings"][0] == (
        "cosbench-stage-timeseries-s2.csv: line(s) 13: samples without figures (fewer columns than the header), "
        "passed over"
    )
    assert "read as the average of its samples up to the last sample (line 146, 09:57:40)" in result["warnings"][1]


def _parse(text: str):
    return parse_sources([Source(name="w1.csv", data=text.encode())])


def test_a_throughput_that_is_no_number_is_refused_naming_the_line():
    with pytest.raises(ParseError) as error:
        _parse(SUMMARY.read_text().replace(",74.45,", ",fast,"))
    assert (error.value.file, error.value.line) == ("w1.csv", 3)
    assert "Throughput 'fast' is not a number" in str(error.value)


def test_a_row_cut_before_its_status_is_refused():
    text = SUMMARY.read_text()
    with pytest.raises(ParseError) as error:
        _parse(text[: text.index(",74.45,")] + "\n")
    assert error.value.line == 3 and "expected at least 17 columns" in str(error.value)


def test_a_fork_with_interval_and_op_id_columns_reads_its_figures_and_skips_a_delay_stage():
    [result] = parse_paths([FORK])
    assert [run["name"] for run in result["runs"]] == ["w1-prepare: prepare-write", "w3-main: read"]
    run, point = _run(result, "w3-main: read")
    # line 4: Throughput 100 op/s, Bandwidth 102400000 B/s, Avg-ResTime 12.5, 100%-ResTime 500, 99.5%
    assert point["iops"] == 100.0 and point["mbps"] == 102.4 and point["read_mbps"] == 102.4
    assert point["avg_response_ms"] == 12.5 and point["max_response_ms"] == 500.0
    assert point["metrics"]["avg_processing_ms"] == 2.5 and point["metrics"]["success_pct"] == 99.5
    # the states are the cells after Status, not the Succ-Ratio and Status the extra columns shift there
    assert run["params"]["states"][0] == "waiting @ 2026-03-05 10:01:11" and run["params"]["status"] == "completed"
    assert run["started_at"] == "2026-03-05T10:01:12"
    assert (
        "stages that ran no operation (N/A figures, such as a delay), not stored: w2-delay (line 3)"
        in (result["warnings"])
    )


def test_an_upstream_summary_with_a_delay_stage_is_read_not_refused():
    text = SUMMARY.read_text()
    first, rest = text.split("\n", 1)
    delay = "s9-delay," + "N/A," * 15 + "completed,waiting @ 2014-05-07 10:00:00,completed @ 2014-05-07 10:01:00\n"
    [result] = _parse(first + "\n" + delay + rest)
    assert result["runs"] and any("s9-delay (line 2)" in warning for warning in result["warnings"])
