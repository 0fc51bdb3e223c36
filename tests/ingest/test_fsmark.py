"""fs_mark console output: LKP's real 3.3 run (32 threads) and a hand-made file of two invocations."""

import pytest

from ingest import ParseError, parse_paths
from ingest.registry import parse_sources
from ingest.source import Source
from tests.ingest.contract import FormatContract
from tests.samples import data, sample

LKP = sample("fsmark", "fsmark-3.3-lkp.txt")
TWO = data("fsmark", "two_invocations.txt")
# fs_mark 3.3 with -v: six 'CREAT (Min/Avg/Max)' ... 'UNLINK (Min/Avg/Max)' columns after App Overhead, 23 cells
# a row. Layout of fs_mark.c's print_run_info (verbose_stats) and a -v run quoted in a public mailing-list
# thread; our own figures: 2 loops of 500 64 KiB files.
VERBOSE = data("fsmark", "verbose_syscall_times.txt")


class TestFsmarkContract(FormatContract):
    format_id = "fsmark"
    inputs = [[LKP], [TWO], [VERBOSE]]


def test_the_lkp_run_is_one_run_of_32_threads_at_the_average_files_per_second():
    [result] = parse_paths([LKP])
    [run] = result["runs"]
    [point] = run["points"]
    assert result["tool"] == {"name": "fs_mark", "version": "3.3"}  # line 4
    assert point["load"] == {"threads": 32}  # line 4: "32 thread(s)"
    assert point["iops"] == 8324.0  # line 12: Average Files/sec (the loop's row, line 11, says 8324.8)
    assert point["metrics"]["loops"]["rows"] == [[5, 51200, 8192, 8324.8, 390190]]  # line 11
    assert point["metrics"]["p99_files_per_s"] == 8324  # line 15
    assert run["workload"]["transfer_sizes"] == [{"bytes": 8192, "pct": 100.0}]  # line 8: size 8192 bytes
    assert run["params"]["io_size_bytes"] == 16384  # line 8
    assert run["params"]["sync_method"].startswith("INBAND FSYNC")  # line 5
    assert run["name"] == "fs_mark file create, 8192-byte files, INBAND FSYNC"
    assert run["started_at"] == "2021-06-07T09:52:25"  # line 4
    assert result["warnings"] == []


def test_two_invocations_are_two_runs_and_a_missing_average_is_the_loops_mean_said():
    [result] = parse_paths([TWO])
    first, second = result["runs"]
    assert first["points"][0]["load"] == {"threads": 2}
    assert first["points"][0]["iops"] == pytest.approx((41000.0 + 39000.5 + 40000.0) / 3)  # lines 11-13
    assert second["points"][0]["iops"] == 120.0  # line 23
    assert second["workload"]["transfer_sizes"] == [{"bytes": 1048576, "pct": 100.0}]
    assert result["warnings"] == [
        "two_invocations.txt:2: no 'Average Files/sec' line; the rate stored is the mean of the 3 loop(s)"
    ]


def _parse(text: str):
    return parse_sources([Source(name="fsmark.log", data=text.encode())])


def test_a_row_that_is_no_figure_is_refused_naming_the_line():
    with pytest.raises(ParseError) as error:
        _parse(TWO.read_text().replace("39000.5", "fast"))
    assert (error.value.file, error.value.line) == ("fsmark.log", 12)
    assert "'fast' is not a number" in str(error.value)


def test_an_invocation_without_rows_is_warned_not_stored():
    text = LKP.read_text()
    cut = text[: text.index("FSUse%")] + text  # an invocation cut before its table, then a complete one
    [result] = _parse(cut)
    assert len(result["runs"]) == 1
    assert "fsmark.log:3: this fs_mark invocation has no Files/sec rows" in result["warnings"][0]


def test_a_verbose_run_reads_its_rates_and_keeps_each_system_calls_times():
    [result] = _parse(VERBOSE.read_text())
    [run] = result["runs"]
    [point] = run["points"]
    assert point["iops"] == 240.0  # line 14: Average Files/sec 240.0
    assert point["metrics"]["loops"]["rows"][1] == [4.0, 1000.0, 65536.0, 230.0, 4200.0]  # line 13
    times = point["metrics"]["syscall_us_min_avg_max"]
    # line 12: FSYNC 3000 / 3900 / 9000 us; line 13: UNLINK 12 / 19 / 160 us
    assert times["fsync"][0] == [3000.0, 3900.0, 9000.0] and times["unlink"][1] == [12.0, 19.0, 160.0]
    assert list(times) == ["creat", "write", "fsync", "sync", "close", "unlink"]
    assert result["warnings"] == []


def test_a_verbose_row_cut_short_is_refused_naming_the_line():
    text = VERBOSE.read_text().replace("       12       19      160\n", "\n")
    with pytest.raises(ParseError) as error:
        _parse(text)
    assert error.value.line == 13 and "expected the 23 columns" in str(error.value) and "found 20" in str(error.value)


def test_file_creation_states_writes_and_no_random_share():
    # Where the 8,192-byte files' blocks land is the file system's choice: no sequential or random share.
    [result] = parse_paths([LKP])
    workload = result["runs"][0]["workload"]
    assert (workload["read_pct"], workload["random_pct"]) == (0.0, None)
