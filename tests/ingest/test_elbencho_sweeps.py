"""elbencho 1.6 (2021) result tables as mtelbencho.sh saves a sweep: its settings, a 'Working on' line per
file count and size, NOTE lines, DROPCACHE phases and its closing lines."""

import pytest

from ingest import ParseError, Source, parse_paths, parse_sources
from tests.samples import sample

LARGE = sample("elbencho", "elbencho-2021-mtelbencho-sweep-large.txt")
SMALL_FILES = sample("elbencho", "elbencho-2021-mtelbencho-sweep-losf.txt")


def runs_by_name(path):
    [result] = parse_paths([path])
    return result, {run["name"]: run for run in result["runs"]}


def test_a_large_file_sweep_is_one_write_run_per_file_count_and_size():
    result, runs = runs_by_name(LARGE)
    # 11 'Working on' lines, from 1024x1GiB (line 10) to 1x1024GiB; each test's one WRITE phase.
    assert len(runs) == 11
    assert list(runs)[0] == "1024x1GiB WRITE 16m" and list(runs)[-1] == "1x1024GiB WRITE 16m"
    run = runs["1024x1GiB WRITE 16m"]
    [point] = run["points"]
    # "with 56 threads" (line 10); "block_size    : 16m" (line 5); last done column, lines 16-19.
    assert point["load"] == {"threads": 56}
    assert run["workload"]["transfer_sizes"] == [{"bytes": 16 * 2**20, "pct": 100.0}]
    assert run["workload"]["read_pct"] == 0
    assert run["params"]["file_size_bytes"] == 2**30  # 1GiB in the folder's name
    assert point["iops"] == point["write_iops"] == 655  # IOPS 660 655, line 17
    assert point["mbps"] == pytest.approx(10488 * 1.048576)  # Throughput MiB/s 10572 10488, line 18
    assert point["metrics"]["first"]["iops"] == 660
    assert point["metrics"]["elapsed_ms"] == 99973  # Elapsed ms 85656 99973, line 16
    warnings = " ".join(result["warnings"])
    assert "elbencho's note on 11 tests (lines 11, 28, 45, 62, 79, ...): File size is not a multiple" in warnings
    assert "large.txt:198: mtelbencho.sh's closing line not stored: 'Total test time: 21m:22s'" in warnings
    assert "phases without results skipped: DROPCACHE (line 14), DROPCACHE (line 21), RMFILES (line 23)" in warnings


def test_a_small_file_sweep_stores_entries_per_second_and_the_file_size_as_the_transfer_size():
    result, runs = runs_by_name(SMALL_FILES)
    # 10 tests (1KiB to 512KiB files) x MKDIRS, WRITE and RMFILES.
    assert len(runs) == 30
    mkdirs, write, rmfiles = (runs[f"1048576x1KiB {phase}"] for phase in ("MKDIRS", "WRITE 1k", "RMFILES"))
    assert mkdirs["points"][0]["metrics"]["entries_per_s"] == 18716  # Dirs/s 21201 18716, line 16
    assert mkdirs["points"][0]["metrics"]["entries"] == 56  # Total dirs 12 56, line 17
    [point] = write["points"]
    # A 1 KiB file is written in one I/O of 1 KiB, not of the 16m block_size (line 5).
    assert write["workload"]["transfer_sizes"] == [{"bytes": 1024, "pct": 100.0}]
    assert point["metrics"]["entries_per_s"] == 53757  # Files/s 53679 53757, line 22
    assert point["metrics"]["entries"] == 1048600  # Total files 999438 1048600, line 24
    assert point["mbps"] == pytest.approx(52 * 1.048576)  # Throughput MiB/s 52 52, line 23
    assert point["iops"] is None  # elbencho 1.6 gives a file write no IOPS row
    assert "figure" not in write["params"]  # its rate is the MiB/s it wrote
    assert rmfiles["points"][0]["metrics"]["entries_per_s"] == 77381  # line 30
    # MKDIRS and RMFILES count directories created and files deleted: their rate is their entries/s
    assert (mkdirs["points"][0]["iops"], rmfiles["points"][0]["iops"]) == (18716, 77381)
    assert mkdirs["params"]["figure"] == rmfiles["params"]["figure"] == "metadata operations per second"
    # The last test, 1048576x512KiB: RMFILES Files/s 61889 71193 (line 255).
    assert runs["1048576x512KiB RMFILES"]["points"][0]["metrics"]["entries_per_s"] == 71193
    assert any("losf.txt:261: mtelbencho.sh's closing line not stored" in w for w in result["warnings"])


def test_a_sweep_test_line_without_a_thread_count_is_refused_with_its_line():
    text = LARGE.read_text().replace("1024x1GiB with 56 threads...", "1024x1GiB with many threads...")
    with pytest.raises(ParseError) as error:
        parse_sources([Source(name="sweep.txt", data=text.encode())])
    assert (error.value.file, error.value.line) == ("sweep.txt", 10)
    assert "expected mtelbencho.sh's 'Working on <folder> with <n> threads...'" in error.value.message


def test_a_sweep_block_size_that_is_no_size_is_refused_with_its_line():
    text = LARGE.read_text().replace("block_size    : 16m", "block_size    : sixteen")
    with pytest.raises(ParseError) as error:
        parse_sources([Source(name="sweep.txt", data=text.encode())])
    assert (error.value.file, error.value.line) == ("sweep.txt", 5)
    assert "mtelbencho.sh's block_size 'sixteen' is not a size" in error.value.message
