"""DiskSpd 2.2.0 text output: CPU tables placed by socket, NUMA node, processor group and core, the
system's group, node and socket counts, outputs without 'Input parameters:', and a 160-thread run
whose Total IO table lists 2 of its 800 threads."""

import pytest

from ingest import ParseError, Source, parse_paths, parse_sources
from tests.samples import sample

MULTI_NUMA = sample("diskspd", "diskspd-2.2.0-multinuma-multigroup.txt")
MULTI_SOCKET = sample("diskspd", "diskspd-2.2.0-multisocket-singlegroup.txt")
THREADS_160 = sample("diskspd", "diskspd-2.2.0-writeonly-160threads.txt")


def only_run(path):
    [result] = parse_paths([path])
    [run] = result["runs"]
    [point] = run["points"]
    return result, run, point


@pytest.mark.parametrize(
    ("path", "cpu_pct", "iops", "bytes_", "avg_ms", "max_ms", "counts"),
    [
        # avg. row line 33, total: line 41, max row line 76; group/node/socket counts lines 11-13.
        (MULTI_NUMA, 0.72, 1215.24, 24952832, 6.531, 53.872, ("2", "2", "1")),
        # avg. row line 31, total: line 39, max row line 74; counts lines 11-13.
        (MULTI_SOCKET, 0.09, 3374.97, 69226496, 4.739, 46.704, ("1", "2", "2")),
    ],
)
def test_the_cpu_tables_placed_by_node_group_socket_and_core_are_read(
    path, cpu_pct, iops, bytes_, avg_ms, max_ms, counts
):
    result, run, point = only_run(path)
    assert point["cpu_pct"] == pytest.approx(cpu_pct)  # the avg. row's Usage
    assert point["iops"] == point["write_iops"] == pytest.approx(iops)
    assert point["mbps"] == pytest.approx(bytes_ / 5.0 / 1e6)  # bytes over "actual test time: 5.00s" (line 19)
    assert point["avg_response_ms"] == pytest.approx(avg_ms)
    assert point["max_response_ms"] == pytest.approx(max_ms)
    assert (run["params"]["group count"], run["params"]["node count"], run["params"]["socket count"]) == counts
    assert not any("outside DiskSpd output" in w for w in result["warnings"])


def test_an_output_without_input_parameters_reads_its_profile_from_the_command_line():
    result, run, point = only_run(MULTI_NUMA)
    # Line 2: -b4K -r4K -t4 -o4 -w100; "thread count: 4" (line 20).
    assert run["workload"]["read_pct"] == 0
    assert run["workload"]["random_pct"] == 100
    assert run["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
    assert run["workload"]["alignment_bytes"] == 4096
    assert point["load"] == {"outstanding_io": 16, "threads": 4}
    assert run["name"] == "4K random write, 4 threads x 4 outstanding"
    warnings = " ".join(result["warnings"])
    assert "no 'Input parameters:'; the workload and queue depth are read from the command line" in warnings
    # The Total IO table lists threads 0 and 1 (lines 38-39) of the 4 counted.
    assert "the Total IO table lists 2 of the 4 threads DiskSpd counted" in warnings


def test_a_command_line_without_a_depth_takes_diskspds_default_and_says_so():
    text = MULTI_NUMA.read_text().replace(" -o4 ", " ").replace(" -b4K ", " ")
    [result] = parse_sources([Source(name="defaults.txt", data=text.encode())])
    [run] = result["runs"]
    # DiskSpd's defaults: 2 outstanding I/Os per thread, 64 KiB blocks.
    assert run["points"][0]["load"] == {"outstanding_io": 8, "threads": 4}
    assert run["workload"]["transfer_sizes"] == [{"bytes": 65536, "pct": 100.0}]
    assert any("DiskSpd's defaults -b64K, -o2 for what it leaves out" in w for w in result["warnings"])


def test_a_command_line_switch_that_is_no_number_is_refused_with_its_line():
    text = MULTI_NUMA.read_text().replace(" -o4 ", " -oX ")
    with pytest.raises(ParseError) as error:
        parse_sources([Source(name="bad-switch.txt", data=text.encode())])
    assert (error.value.file, error.value.line) == ("bad-switch.txt", 2)
    assert "the command line's -oX is not a number DiskSpd takes" in error.value.message


def test_a_damaged_usage_in_the_new_cpu_table_is_refused_with_its_line():
    text = THREADS_160.read_text().replace("avg.|  98.59%", "avg.|  98.5x%")
    with pytest.raises(ParseError) as error:
        parse_sources([Source(name="damaged.txt", data=text.encode())])
    assert (error.value.file, error.value.line) == ("damaged.txt", 52)


def test_the_160_thread_run_takes_its_load_from_diskspds_thread_count():
    result, run, point = only_run(THREADS_160)
    # "thread count: 800" (line 43) x "number of outstanding I/O operations per thread: 3" (line 22).
    assert point["load"] == {"outstanding_io": 2400, "threads": 800}
    assert run["name"] == "4K random write, 800 threads x 3 outstanding"
    # total: line 60: 8,265,251,819,520 bytes in "actual test time: 900.00s" (line 42), 2242082.85 I/O per s.
    assert point["iops"] == pytest.approx(2242082.85)
    assert point["mbps"] == pytest.approx(8265251819520 / 900 / 1e6)
    assert point["avg_response_ms"] == pytest.approx(0.861)
    assert point["cpu_pct"] == pytest.approx(98.59)  # avg. row, line 52 (Socket | Node | Group | Core | CPU)
    assert point["max_response_ms"] == pytest.approx(5543.894)  # max row, line 97
    assert point["metrics"]["percentiles_ms"]["write"]["99.9"] == pytest.approx(37.418)  # 3-nines row
    assert run["params"]["cpu count"] == "320" and run["params"]["group count"] == "5"  # lines 32, 34
    assert run["params"]["node count"] == "4" and run["params"]["socket count"] == "2"  # lines 35-36
    assert any("the Total IO table lists 2 of the 800 threads" in w for w in result["warnings"])
    # "threads per file: 160" (line 23) for its one path: the harness's edits left the two disagreeing.
    assert any(
        "the input parameters give 160 threads ('threads per file' over 1 target), the results 'thread count: 800'" in w
        for w in result["warnings"]
    )
