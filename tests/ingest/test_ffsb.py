"""FFSB console output: the real 6.0-RC2 log, our own thread-sweep / two-group log, refused profiles."""

import pytest

from ingest import ParseError, parse_paths
from tests.ingest.contract import FormatContract
from tests.samples import data, sample

LOG = sample("ffsb", "caisong-hugo-blog_ffsb-6.0-RC2_stdout_log.txt")
OWN = data("ffsb", "sweep_and_two_groups.txt")
PROFILES = [
    "jrsantos_ffsb-5.2.1_examples_profile_mixed_workload",
    "jrsantos_ffsb-5.2.1_old-profiles_prof_filesrv",
    "jrsantos_ffsb-5.2.1_random-profiles_prof_meta_test",
    "jrsantos_ffsb-6.0_examples_profile_everything",
]
MIB = 1024 * 1024


class TestFfsbContract(FormatContract):
    format_id = "ffsb"
    inputs = [[LOG], [OWN]]


@pytest.fixture(scope="module")
def log():
    return parse_paths([LOG])[0]


@pytest.fixture(scope="module")
def own():
    return parse_paths([OWN])[0]


def test_ten_complete_benchmarks_are_ten_runs_and_the_ten_bare_echoes_one_warning(log):
    # The log starts FFSB 20 times; only the last ten (lines 601 ... 1627) reach "Total Results".
    assert len(log["runs"]) == 10
    assert [len(run["points"]) for run in log["runs"]] == [1] * 10
    assert log["tool"] == {"name": "FFSB", "version": "6.0-RC2"}
    [warning] = log["warnings"]
    assert "10 FFSB start(s)" in warning and "line 1, 61, 121" in warning and "541" in warning


def test_first_run_figures_converted_from_binary_units(log):
    run = log["runs"][0]
    [point] = run["points"]
    assert run["params"]["source_lines"] == [601]
    assert run["started_at"] == "2017-01-26T00:30:47"  # line 663
    assert point["load"] == {"threads": 4}  # line 606: num_threads = 4
    assert point["iops"] == pytest.approx(5617.14)  # line 686
    assert point["read_mbps"] == pytest.approx(3.29 * MIB / 1e6)  # line 690: 3.29MB/sec = 3.450 MB/s
    assert point["write_mbps"] == pytest.approx(18.6 * MIB / 1e6)  # line 691: 18.6MB/sec = 19.504 MB/s
    assert point["mbps"] == pytest.approx((3.29 + 18.6) * MIB / 1e6)
    assert point["avg_read_response_ms"] == pytest.approx(0.005743)  # line 699 [read] Avg
    assert point["avg_write_response_ms"] == pytest.approx(0.079473)  # line 701 [write] Avg
    assert point["max_response_ms"] == pytest.approx(420.509003)  # line 701 [write] Max
    assert point["cpu_pct"] == pytest.approx(11.3)  # line 714
    assert point["metrics"]["user_pct"] == pytest.approx(0.5)  # line 712
    assert point["metrics"]["duration_s"] == pytest.approx(13.87)  # line 669


def test_op_table_rows_are_kept_with_kilobyte_and_na_throughput(log):
    ops = log["runs"][0]["points"][0]["metrics"]["ops"]
    assert len(ops) == 10  # lines 675-684
    assert ops["readall"]["transactions"] == 11698  # line 675
    assert ops["readall"]["trans_per_sec"] == pytest.approx(843.15)
    assert ops["append"]["mbps"] == pytest.approx(291 * 1024 / 1e6)  # line 677: 291KB/sec
    assert ops["delete"]["mbps"] is None  # line 678: NA
    assert ops["writeall_fsync"]["op_weight_pct"] == pytest.approx(9.147)  # line 681


def test_second_and_last_runs(log):
    second = log["runs"][1]["points"][0]
    assert second["iops"] == pytest.approx(3948.80)  # line 800
    assert second["read_mbps"] == pytest.approx(765 * 1024 / 1e6)  # line 804: 765KB/sec
    last = log["runs"][-1]["points"][0]
    assert last["iops"] == pytest.approx(4245.26)  # line 1712
    assert last["write_mbps"] == pytest.approx(14.2 * MIB / 1e6)  # line 1717


def test_workload_is_the_4k_block_size_and_sequential(log):
    # Lines 608-617: read_random/write_random off, read_blocksize = write_blocksize = 4096.
    workload = log["runs"][0]["workload"]
    assert workload["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
    assert workload["random_pct"] == 0.0
    assert log["runs"][0]["name"] == "FFSB run 1 (4 KB sequential)"


def test_read_pct_is_the_reading_share_of_the_data_op_weights(log):
    # Lines 620-635: the data ops with weight are readall (reads) and create, append, writeall,
    # writeall_fsync, create_fsync, append_fsync (writes), weight 1 each: 1 of 7. delete, stat and
    # open_close move no data. FFSB states an op mix, not an I/O mix.
    workload = log["runs"][0]["workload"]
    assert workload["read_pct"] == pytest.approx(100 / 7)
    # Line 654: alignedio = off, so seeks land on any byte: no alignment stated.
    assert workload["alignment_bytes"] is None and workload["streams"] is None
    assert all(run["workload"] == workload for run in log["runs"])  # the ten benchmarks echo one profile


def test_mbps_is_close_to_iops_times_block_size(log):
    # Transactions count 4 KB data blocks plus a few metadata ops (delete, stat, open_close: 0.4 %),
    # so MB/s and IOPS x 4096 agree within 1 % but not exactly.
    point = log["runs"][0]["points"][0]
    assert point["mbps"] == pytest.approx(point["iops"] * 4096 / 1e6, rel=0.01)


def test_same_workload_with_more_threads_is_one_run_with_a_point_per_thread_count(own):
    assert len(own["runs"]) == 2
    sweep = own["runs"][0]
    assert sweep["params"]["source_lines"] == [1, 94]
    assert [p["load"]["threads"] for p in sweep["points"]] == [1, 2]
    assert [p["iops"] for p in sweep["points"]] == [2050.0, 3690.0]  # lines 69 and 162
    assert sweep["points"][1]["read_mbps"] == pytest.approx(28.1 * MIB / 1e6)  # line 166
    assert sweep["points"][1]["write_mbps"] is None  # line 167: NA
    # Lines 8-10 and 21: read_random on, read_blocksize 8192, the only data op "read = 1"
    # (stat, line 29, moves no data); alignedio off (line 45).
    assert sweep["workload"] == {
        "name": None,
        "read_pct": 100.0,
        "random_pct": 100.0,
        "transfer_sizes": [{"bytes": 8192, "pct": 100.0}],
        "alignment_bytes": None,
        "streams": None,
    }


def test_two_thread_groups_sum_threads_and_keep_per_group_tables(own):
    two_groups = own["runs"][1]
    [point] = two_groups["points"]
    assert point["load"] == {"threads": 6}  # lines 192 and 225: 4 + 2
    assert point["iops"] == 2500.0  # line 304, the Total Results table
    assert point["metrics"]["thread_groups"]["1"]["trans_per_sec"] == 500.0  # line 295
    assert point["write_mbps"] == pytest.approx(31.2 * MIB / 1e6)  # line 309
    # Calls-weighted mean of [read] 0.05 ms x 40000 and [write] 0.4 ms x 10000 (lines 317, 319).
    assert point["avg_response_ms"] == pytest.approx(0.12)
    # Group 0 (lines 190-207): 4 threads, read = 1 with read_random on, read_blocksize 4096; group 1
    # (lines 223-242): 2 threads, write = 1 with write_random off, write_blocksize 65536.
    workload = two_groups["workload"]
    sizes = workload["transfer_sizes"]
    assert [s["bytes"] for s in sizes] == [4096, 65536]
    assert [s["pct"] for s in sizes] == pytest.approx([200 / 3, 100 / 3])
    # Random reads carry 4 threads x weight 1, sequential writes 2 x 1.
    assert workload["read_pct"] == pytest.approx(200 / 3)
    assert workload["random_pct"] == pytest.approx(200 / 3)


def test_aligned_io_and_whole_file_ops_in_the_signature(own, tmp_path):
    text = OWN.read_text()
    # alignedio = on puts every FFSB seek on a 4 KB boundary.
    aligned = tmp_path / "aligned.txt"
    aligned.write_text(text.replace("alignedio        = off", "alignedio        = on"))
    assert parse_paths([aligned])[0]["runs"][0]["workload"]["alignment_bytes"] == 4096
    # readall reads whole files from start to end: sequential even with read_random on.
    readall = tmp_path / "readall.txt"
    text = text.replace("read = 1 (50.00%)", "read = 0 (0.00%)")
    readall.write_text(text.replace("readall = 0 (0.00%)", "readall = 1 (50.00%)"))
    assert parse_paths([readall])[0]["runs"][0]["workload"]["random_pct"] == 0.0


def test_echo_without_results_is_a_warning(own):
    # The run started on line 329 echoes its configuration; the file ends (line 380) after "fs setup took 0 secs".
    assert own["warnings"] == [
        "1 FFSB start(s) with a configuration echo but no results were skipped (line 329): "
        "the benchmark did not run or its output is missing",
        "sweep_and_two_groups.txt:380: the file ends inside the FFSB run started on line 329, before its results: "
        "it looks cut short, and that run's results are missing",
    ]


@pytest.mark.parametrize("name", PROFILES)
def test_profiles_are_refused_as_configuration(name):
    with pytest.raises(ParseError) as caught:
        parse_paths([sample("ffsb", name)])
    assert "FFSB profile" in str(caught.value) and "not FFSB results" in str(caught.value)


def _log_with(tmp_path, old, new):
    text = OWN.read_text().replace(old, new, 1)
    path = tmp_path / "ffsb.log"
    path.write_text(text)
    return path


def test_broken_op_row_names_its_line(tmp_path):
    path = _log_with(tmp_path, "                read :        20000", "                read :        twenty")
    with pytest.raises(ParseError) as caught:
        parse_paths([path])
    assert caught.value.line == 66
    assert "expected an FFSB op row" in caught.value.message and "twenty" in caught.value.message


def test_unknown_throughput_unit_names_line_and_field(tmp_path):
    path = _log_with(tmp_path, "Read Throughput: 15.6MB/sec", "Read Throughput: 15.6XB/sec")
    with pytest.raises(ParseError) as caught:
        parse_paths([path])
    assert (caught.value.line, caught.value.field) == (73, "Read Throughput")


def test_log_without_any_results_is_an_error(tmp_path):
    path = tmp_path / "echo.log"
    path.write_text("\n".join(LOG.read_text().splitlines()[:60]) + "\n")
    with pytest.raises(ParseError) as caught:
        parse_paths([path])
    assert caught.value.line == 1 and "no FFSB benchmark in this file has results" in caught.value.message
