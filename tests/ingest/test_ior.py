"""IOR: the 3.2 and 3.4 text output and the per-rank CSV, figures read by hand from the files."""

import pytest

from ingest import ParseError, Source, parse_sources
from tests.ingest.contract import FormatContract, SingleSizeUnits
from tests.ingest.helpers import mib, parse_one
from tests.samples import data, sample

IOR_32 = sample("ior", "ior-3.2.0-lustre-gcp-easy-write.txt")
IOR_34 = sample("ior", "ior-3.4.0dev-daos-easy-write.txt")
RANK_CSV = sample("ior", "ior-3.4.0dev-daos-easy-write-per-rank.csv")
# IOR 4.1 with -v and -i 2: 'remove' rows among the results, verification lines between them, and a summary
# with 'Stonewall(s) Stonewall(MiB)' columns holding NA. Layout from hpc/ior src/ior-output.c
# (PrintRemoveTiming, PrintLongSummaryHeader) and an IOR-4.1.0+dev -v run quoted in public DAOS notes;
# our own numbers: 512 MiB written in 0.5 s and 1.0 s, read in 0.25 s.
IOR_4_VERBOSE = data("ior", "ior-4-verbose-remove-rows.txt")
# IOR 3.3 with -O summaryFormat=JSON: one JSON object (Version, tests[] with Options and Results, a list of
# accesses per repetition, a 'remove' entry, summary[] with bwMeanMIB ... MeanTime). Layout of hpc/ior
# src/ior-output.c (PrintHeader, ShowSetup, PrintReducedResult, PrintLongSummaryOneOperation); our own
# numbers: 4 GiB written in 2.0 s and 4.0 s, read in 1.0 s.
IOR_JSON = data("ior", "ior-3.3-summary-format-json.json")
# IOR 3.0/3.1: 'Test 0 started:', the setup as 'Summary:' with tab-indented 'key = value' lines ('clients =
# 4 (2 per node)', 'ordering in a file = random offsets'), and the results header without a 'Results:' line.
# Layout of hpc/ior src/ior-output.c at commit 02883d4a (ShowTestInfo, ShowSetup, PrintTableHeader); our own
# numbers: 256 MiB written in 2.0 s and read in 1.0 s with 64 KiB transfers.
IOR_30 = data("ior", "ior-3.0-setup-summary-block.txt")


class TestIorContract(FormatContract, SingleSizeUnits):
    format_id = "ior"
    inputs = [[IOR_32], [IOR_34], [RANK_CSV], [IOR_4_VERBOSE], [IOR_JSON], [IOR_30]]


def parse_text(text, name="ior.txt"):
    return parse_sources([Source(name=name, data=text.encode())])


def test_ior_3_2_reads_the_results_row_and_keeps_the_summary_of_all_tests():
    result = parse_one(IOR_32)
    assert result["tool"] == {"name": "IOR", "version": "3.2.0"}  # line 1: IOR-3.2.0
    [run] = result["runs"]
    assert run["name"] == "write" and run["started_at"] == "2018-11-11T21:32:17"  # line 6: StartTime
    # line 34: write 14314 MiB/s, block 61440000 KiB, xfer 2048.00 KiB, open 0.012369 s, total 335.34 s
    [point] = run["points"]
    assert point["mbps"] == mib(14314) and point["write_mbps"] == mib(14314) and point["read_mbps"] == 0.0
    # 3.2 prints no IOPS column: 14314 MiB/s over 2 MiB transfers, as the summary's OPs (line 39: 7157.01)
    assert point["iops"] == 7157.0
    assert point["avg_response_ms"] is None
    assert point["metrics"]["total_s"] == 335.34 and point["metrics"]["open_s"] == 0.012369
    assert point["load"] == {"threads": 80}  # line 20: tasks 80
    assert run["workload"]["read_pct"] == 0.0 and run["workload"]["random_pct"] == 0.0  # line 16: sequential
    assert run["workload"]["transfer_sizes"] == [{"bytes": 2 * 1024 * 1024, "pct": 100.0}]
    # line 39: write 14314.03 14314.03 14314.03 0.00 7157.01 7157.01 7157.01 0.00 335.33540
    [summary] = run["params"]["ior_summary"]
    assert summary["mean_mib_per_s"] == 14314.03 and summary["mean_ops_per_s"] == 7157.01
    assert summary["mean_s"] == 335.3354
    assert run["params"]["access"] == "file-per-process" and run["params"]["api"] == "POSIX"
    assert run["params"]["stonewalling"].startswith("stonewalling pairs accessed min: 16674 max: 30000")
    assert result["warnings"] == []


def test_ior_3_4_reads_iops_and_latency_and_turns_its_warning_lines_into_warnings():
    result = parse_one(IOR_34)
    assert result["tool"]["version"] == "3.4.0+dev"
    [run] = result["runs"]
    [point] = run["points"]
    # line 39: write 1345458 MiB/s, IOPS 84110, Latency 0.000053 s, xfer 16384 KiB, total 344.14 s
    assert point["mbps"] == mib(1345458) == pytest.approx(1410814.97, abs=0.01)
    assert point["iops"] == 84110.0 and point["write_iops"] == 84110.0
    assert point["avg_response_ms"] == pytest.approx(0.053) and point["avg_write_response_ms"] == pytest.approx(0.053)
    assert point["load"] == {"threads": 2080}  # line 21: tasks 2080
    assert run["workload"]["transfer_sizes"] == [{"bytes": 16 * 1024 * 1024, "pct": 100.0}]
    assert run["params"]["api"] == "DFS" and run["params"]["nodes"] == "10"
    assert "ior_summary" not in run["params"]
    # lines 35-38: the WARNING lines inside the Results table
    assert result["warnings"] == [
        f"{IOR_34.name}:35: IOR warns: Expected aggregate file size       = 216358977536000000",
        f"{IOR_34.name}:36: IOR warns: Stat() of aggregate file size      = 216255192218206208",
        f"{IOR_34.name}:37: IOR warns: Using actual aggregate bytes moved = 485516524912640",
        f"{IOR_34.name}:38: IOR warns: Maybe caused by deadlineForStonewalling",
    ]


def test_the_per_rank_csv_sums_the_ranks_and_says_it_cannot_tell_a_cut_copy():
    result = parse_one(RANK_CSV)
    [run] = result["runs"]
    [point] = run["points"]
    # 2,080 rows after the header (lines 2 to 2081, ranks 0 to 2079); their throughput-withopenclose
    # column sums to 1,410,816.138 MB/s (summed with awk), the text output's 1,345,458 MiB/s within 0.0001 %
    assert point["load"] == {"threads": 2080}
    assert point["mbps"] == pytest.approx(1410816.138266, abs=1e-3)
    assert point["metrics"]["mbps_without_openclose"] == pytest.approx(1499301.304752, abs=1e-3)
    # line 2: rank 0's runtime-with-openclose 3.4413878703e+02
    assert 344.13 < point["metrics"]["fastest_rank_s"] <= 344.1387870 <= point["metrics"]["slowest_rank_s"] < 344.14
    assert run["workload"]["read_pct"] == 0.0 and run["workload"]["transfer_sizes"] == []
    assert result["warnings"] == [
        f"{RANK_CSV.name}:2081: 2080 write ranks read, the last on this line; a per-rank CSV states no task count, "
        "so a copy cut short at a line end is read as a smaller run (IOR's text output states it)"
    ]


WRITE_READ_TWICE = """IOR-3.3.0: MPI Coordinated Test of Parallel I/O
Command line        : ior -w -r -i 2 -t 1m -b 16m -z
TestID              : 0
StartTime           : Mon Jan  6 10:00:00 2025

Options:
api                 : POSIX
ordering in a file  : random
tasks               : 4
repetitions         : 2

Results:

access    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   total(s)   iter
------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   --------   ----
Commencing write performance test: Mon Jan  6 10:00:01 2025
write     400.00     400.00     0.010000    16384      1024.00    0.001      0.16       0.001      0.16       0
read      800.00     800.00     0.005000    16384      1024.00    0.001      0.08       0.001      0.08       0
write     420.00     420.00     0.009500    16384      1024.00    0.001      0.15       0.001      0.15       1
"""


def test_repeated_tests_are_a_run_per_iteration_and_a_missing_row_is_warned_of():
    [result] = parse_text(WRITE_READ_TWICE)
    names = [run["name"] for run in result["runs"]]
    assert names == ["write, iteration 0", "read, iteration 0", "write, iteration 1"]
    read = result["runs"][1]
    assert read["workload"]["read_pct"] == 100.0 and read["workload"]["random_pct"] == 100.0  # random ordering
    assert read["points"][0]["read_iops"] == 800.0 and read["points"][0]["avg_read_response_ms"] == 5.0
    assert read["started_at"] == "2025-01-06T10:00:00"
    # -w -r with 2 repetitions asks for 4 rows: the last iteration's read is missing
    assert result["warnings"] == [
        "ior.txt:16: 1 line(s) under Results:, the first on this line, are no results row (IOR's verbose output) "
        "and were not read",
        "ior.txt:19: the test of line 6 holds 3 results row(s) where its command line and repetitions ask for 4: "
        "the file looks cut short, and the rest are missing",
    ]


def test_a_summary_without_its_finished_line_is_warned_of():
    text = IOR_32.read_text()
    [result] = parse_text(text[: text.index("write       14314.03")], name=IOR_32.name)
    assert result["warnings"] == [
        f"{IOR_32.name}:38: the 'Summary of all tests' (line 37) ends before IOR's 'Finished' line: the file looks "
        "cut short, and the summary's rows after this line are missing"
    ]


@pytest.mark.parametrize(
    ("written", "damaged", "message"),
    [
        ("write     14314      61440000", "write     14314", "ior.txt:34: expected 9 columns as the header row"),
        ("write     14314 ", "write     -14314 ", "ior.txt:34: field 'bw(MiB/s)': '-14314' is negative"),
        ("write       14314.03   14314.03", "write       huge   14314.03", "ior.txt:39: field 'Max(MiB)': 'huge' is"),
        ("write     14314  ", "", "ior.txt: no results row"),
    ],
)
def test_a_damaged_ior_file_is_refused_naming_the_line(written, damaged, message):
    text = IOR_32.read_text()
    if not damaged:
        text = text[: text.index(written)]
    with pytest.raises(ParseError) as refused:
        parse_text(text.replace(written, damaged, 1))
    assert str(refused.value).startswith(message)


def test_a_rank_csv_row_of_another_shape_is_refused_naming_the_line():
    text = RANK_CSV.read_text().replace("write,3,", "write,3,9,", 1)
    with pytest.raises(ParseError) as refused:
        parse_text(text, name="ranks.csv")
    assert str(refused.value).startswith("ranks.csv:5: expected 6 columns")


def test_ior_4_verbose_skips_its_remove_rows_and_reads_each_iteration():
    result = parse_one(IOR_4_VERBOSE)
    assert result["tool"]["version"] == "4.1.0+dev"  # line 1
    names = [run["name"] for run in result["runs"]]
    # lines 35, 39, 41, 45; the 'remove' rows (lines 40, 46) move no data and are no run
    assert names == ["write, iteration 0", "read, iteration 0", "write, iteration 1", "read, iteration 1"]
    write_0, _, write_1, read_1 = (run["points"][0] for run in result["runs"])
    assert write_0["mbps"] == mib(1024) and write_0["iops"] == 1030.0  # line 35
    assert write_1["mbps"] == mib(512) and write_1["avg_response_ms"] == pytest.approx(15.5)  # line 41
    assert read_1["read_mbps"] == mib(2048) and read_1["load"] == {"threads": 8}  # line 45, line 20
    # line 52: write 1024 / 512 / 768 / 256 (IOR's standard deviation over the 2 repetitions), NA stonewall
    [summary] = result["runs"][0]["params"]["ior_summary"]
    assert summary["mean_mib_per_s"] == 768.0 and summary["std_dev_mib_per_s"] == 256.0
    assert summary["mean_s"] == 0.75
    # the verification lines of -v (36-37, 42-43) are named, not read; no word about the remove rows
    assert len(result["warnings"]) == 1 and ":36: 4 line(s) under Results:" in result["warnings"][0]


def test_ior_json_output_is_read_as_its_text_would_be():
    result = parse_one(IOR_JSON)
    assert result["format"] == "ior" and result["tool"] == {"name": "IOR", "version": "3.3.0"}  # "Version"
    names = [run["name"] for run in result["runs"]]
    # Results: two repetitions of write and read; the 'remove' entry moves no data and is no run
    assert names == ["write, iteration 0", "read, iteration 0", "write, iteration 1", "read, iteration 1"]
    write_0, read_0, write_1, _ = result["runs"]
    [point] = write_0["points"]
    # bwMiB 2048 = 2,147.48 MB/s, iops 2060, latency 0.0078 s, Options.tasks 16
    assert point["mbps"] == mib(2048) == pytest.approx(2147.483648)
    assert point["iops"] == 2060.0 and point["avg_write_response_ms"] == pytest.approx(7.8)
    assert point["load"] == {"threads": 16} and point["metrics"]["total_s"] == 2.0
    assert write_1["points"][0]["mbps"] == mib(1024) and read_0["points"][0]["read_mbps"] == mib(4096)
    assert write_0["started_at"] == "2026-03-10T09:00:00" and write_0["params"]["access"] == "file-per-process"
    assert write_0["workload"]["transfer_sizes"] == [{"bytes": 1024 * 1024, "pct": 100.0}]  # xferKiB 1024
    # summary[0]: write 2048 / 1024 / 1536 / 512 MiB/s, MeanTime 3.0 s
    [summary] = write_0["params"]["ior_summary"]
    assert summary["mean_mib_per_s"] == 1536.0 and summary["std_dev_mib_per_s"] == 512.0 and summary["mean_s"] == 3.0
    assert result["warnings"] == []


def test_ior_json_cut_short_is_refused_naming_the_line():
    text = IOR_JSON.read_text()
    cut = text[: text.index('"summary"')]
    with pytest.raises(ParseError) as error:
        parse_text(cut, name="ior.json")
    assert error.value.file == "ior.json" and error.value.line == cut.count("\n") + 1
    assert "not valid JSON" in str(error.value)


def test_ior_json_with_a_bandwidth_that_is_no_figure_is_refused():
    with pytest.raises(ParseError) as error:
        parse_text(IOR_JSON.read_text().replace('"bwMiB": 1024.0000', '"bwMiB": "fast"'), name="ior.json")
    assert error.value.file == "ior.json" and "bwMiB" in str(error.value)


# IOR 2.10.3's default output: a 'Summary:' block and an 'Operation  Max (MiB) ...' table, no 'Results:'.
# Layout as IOR 2.x's IOR.c prints its summary ('Operation  Max (MiB)  Min (MiB) ...'); our own figures.
IOR_2_TEXT = """IOR-2.10.3: MPI Coordinated Test of Parallel I/O

Run began: Mon Mar  2 10:00:00 2026
Command line used: ./IOR -a POSIX -b 1g -t 1m
Machine: Linux node01

Summary:
\tapi                = POSIX
\tclients            = 8 (8 per node)

Operation  Max (MiB)  Min (MiB)  Mean (MiB)   Std Dev  Max (OPs)  Min (OPs)  Mean (OPs)   Std Dev  Mean (s)
---------  ---------  ---------  ----------   -------  ---------  ---------  ----------   -------  --------
write         500.00     500.00      500.00      0.00     500.00     500.00      500.00      0.00  16.38400   EXCEL

Max Write: 500.00 MiB/sec (524.29 MB/sec)

Run finished: Mon Mar  2 10:00:30 2026
"""


def test_ior_2_output_is_refused_saying_which_versions_are_read():
    with pytest.raises(ParseError) as error:
        parse_text(IOR_2_TEXT, name="ior2.txt")
    assert error.value.file == "ior2.txt"
    assert "IOR 2.10.3 output" in str(error.value) and "IOR 3.2 or later" in str(error.value)


def test_ior_json_after_the_text_banner_without_a_version_key_is_read():
    # IOR 3.2 prints its banner on stdout, then JSON beginning with "Began" (hpc/ior issue #102)
    text = IOR_JSON.read_text().replace('"Version": "3.3.0",\n', "", 1)
    result = parse_text("IOR-3.2.0: MPI Coordinated Test of Parallel I/O\n" + text, name="ior.out")[0]
    assert result["format"] == "ior" and result["tool"]["version"] == "3.2.0"
    assert [run["name"] for run in result["runs"]][:2] == ["write, iteration 0", "read, iteration 0"]


def test_ior_json_mixed_with_verbose_text_is_refused_naming_the_line():
    # with -v, IOR writes lines such as 'Commencing write performance test' into its JSON (hpc/ior issue #503)
    lines = IOR_JSON.read_text().split("\n")
    lines.insert(40, "Commencing write performance test: Tue Mar 10 09:00:00 2026")
    with pytest.raises(ParseError) as error:
        parse_text("IOR-3.3.0: MPI Coordinated Test of Parallel I/O\n" + "\n".join(lines), name="ior.out")
    assert error.value.line == 42 and "not valid JSON" in str(error.value)


def test_ior_3_0_reads_its_setup_block_and_a_results_table_without_a_results_line():
    result = parse_one(IOR_30)
    assert result["tool"]["version"] == "3.0.1" and result["warnings"] == []
    write, read = result["runs"]
    assert (write["name"], read["name"]) == ("write", "read")
    assert write["started_at"] == "2026-03-12T14:00:00"  # line 7: Test 0 started
    [point] = write["points"]
    # line 22: write 128.00 MiB/s; no IOPS column: 128 MiB/s over 64 KiB transfers = 2048/s, as the summary's OPs
    assert point["mbps"] == mib(128) and point["iops"] == 2048.0
    assert point["load"] == {"threads": 4}  # line 14: clients = 4 (2 per node)
    assert write["params"]["clients_per_node"] == "2" and write["params"]["api"] == "POSIX"
    assert write["workload"]["random_pct"] == 100.0  # line 12: ordering in a file = random offsets
    assert read["points"][0]["read_mbps"] == mib(256)  # line 23
    [summary] = read["params"]["ior_summary"]
    assert summary["mean_ops_per_s"] == 4096.0 and summary["mean_s"] == 1.0  # line 31
