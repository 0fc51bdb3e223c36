"""mdtest: the 1.9.3 and 3.4 text output and the 3.4 per-rank CSV, rates read by hand from the files."""

import pytest

from ingest import ParseError, Source, parse_sources
from tests.ingest.contract import FormatContract
from tests.ingest.helpers import parse_one, runs_by_name
from tests.samples import data, sample

MDTEST_193 = sample("mdtest", "mdtest-1.9.3-lustre-gcp-easy-write.txt")
MDTEST_34 = sample("mdtest", "mdtest-3.4.0dev-daos-easy-write.txt")
RANK_CSV = sample("mdtest", "mdtest-3.4.0dev-daos-easy-write-per-rank.csv")
# mdtest 4.0 with -P (per-rank statistics) and both tables: 'SUMMARY rate (in ops/sec)' and 'SUMMARY time
# (in ms/op)' headers, seven figures a row. Layout from hpc/ior src/mdtest.c (summarize_results_rank0) and
# the mdtest-4.1.0+dev output quoted in public DAOS notes; our own numbers.
MDTEST_4_PER_RANK = data("mdtest", "mdtest-4-rate-and-time-per-rank.txt")


class TestMdtestContract(FormatContract):
    format_id = "mdtest"
    inputs = [[MDTEST_193], [MDTEST_34], [RANK_CSV], [MDTEST_4_PER_RANK]]


def parse_text(text, name="mdtest.txt"):
    return parse_sources([Source(name=name, data=text.encode())])


def test_mdtest_1_9_3_reads_the_rates_it_ran_and_its_stonewall_lines():
    result = parse_one(MDTEST_193)
    assert result["tool"] == {"name": "mdtest", "version": "1.9.3"}  # line 3
    runs = runs_by_name(result)
    assert list(runs) == ["File creation", "Tree creation"]
    creation = runs["File creation"]
    # line 93: File creation : 49741.404 49741.404 49741.404 0.000
    [point] = creation["points"]
    assert point["iops"] == 49741.404
    statistics = {"max": 49741.404, "min": 49741.404, "mean": 49741.404, "std_dev": 0.0}
    assert point["metrics"]["operations_per_s"] == statistics
    assert point["mbps"] is None and point["avg_response_ms"] is None
    assert point["load"] == {"threads": 80}  # line 3: 80 total task(s) on 8 node(s)
    assert creation["workload"]["name"] == "File creation" and creation["workload"]["read_pct"] is None
    assert creation["params"]["figure"] == "metadata operations per second"
    assert creation["params"]["operation"] == "file creation"
    assert creation["params"]["nodes"] == 8 and creation["params"]["items"] == 18800000  # line 8
    assert creation["started_at"] == "2018-11-11T21:37:53"  # line 1
    # line 87: Continue stonewall hit min: 170123 max: 221235 avg: 203156.5;
    # 79 'stonewall rank' lines (rank 56 has none)
    assert creation["params"]["stonewall_items_min"] == 170123
    assert creation["params"]["stonewall_items_mean"] == 203156.5
    assert creation["params"]["stonewall_ranks"] == 79
    assert runs["Tree creation"]["points"][0]["iops"] == 4.602  # line 97
    # lines 94-96 and 98: 0.000 in every column, operations mdtest was not asked to run
    assert result["warnings"] == [
        "operations mdtest did not run (a rate of 0), not stored: File stat (line 94), File read (line 95), "
        "File removal (line 96), Tree removal (line 98)"
    ]


def test_mdtest_3_4_reads_the_summary_rate_and_time_tables():
    result = parse_one(MDTEST_34)
    assert result["tool"]["version"] == "3.4.0+dev"
    runs = runs_by_name(result)
    creation = runs["File creation"]["points"][0]
    assert creation["iops"] == 8252636.649  # line 16
    assert creation["metrics"]["time_s"]["mean"] == 512.79  # line 26: SUMMARY time File creation 512.790
    assert creation["load"] == {"threads": 2080}  # line 3
    tree = runs["Tree creation"]["points"][0]
    assert tree["iops"] == 27.879 and tree["metrics"]["time_s"]["max"] == 0.036  # lines 20 and 30
    assert runs["File creation"]["params"]["items"] == 20800000000  # line 9: 2080 tasks, 20800000000 files
    assert len(result["warnings"]) == 1 and result["warnings"][0].startswith("operations mdtest did not run")


def test_the_per_rank_csv_reads_the_all_row_and_the_ranks_lowest_and_highest_rate():
    result = parse_one(RANK_CSV)
    runs = runs_by_name(result)
    assert list(runs) == ["File creation", "Tree creation"]
    # line 2, the 'all' row: rate-File creation 8.2526366489e+06, time 5.1278957987e+02, Tree creation 5.7956236763e+04
    creation = runs["File creation"]["points"][0]
    assert creation["iops"] == pytest.approx(8252636.6489)
    assert creation["metrics"]["time_s"] == {"all": pytest.approx(512.78957987)}
    # lines 3 to 2082: 2,080 ranks with a File creation rate, lowest 3.9676168284e+03, highest 6.7816534265e+03 (awk)
    assert creation["load"] == {"threads": 2080}
    statistics = creation["metrics"]["operations_per_s"]
    assert statistics["ranks"] == 2080
    assert statistics["lowest_rank"] == pytest.approx(3967.6168284)
    assert statistics["highest_rank"] == pytest.approx(6781.6534265)
    assert runs["Tree creation"]["points"][0]["iops"] == pytest.approx(57956.236763)
    assert result["warnings"][-1].startswith(f"{RANK_CSV.name}:2082: ranks read up to this line")


def test_mdtest_3_3s_stonewall_row_with_na_statistics_is_a_run_of_its_own():
    # mdtest 3.3 with -W prints a 'File create (stonewall)' row after the file rows, NA but for its rate
    row = "   File create (stonewall)   :             NA             NA      12345.678             NA\n"
    text = MDTEST_34.read_text()
    at = text.index("   Tree creation")
    [result] = parse_text(text[:at] + row + text[at:])
    stonewall = runs_by_name(result)["File create (stonewall)"]
    assert stonewall["points"][0]["iops"] == 12345.678
    assert stonewall["points"][0]["metrics"]["operations_per_s"] == {"mean": 12345.678}


def test_a_file_without_its_finished_line_is_warned_of_as_cut():
    text = MDTEST_34.read_text()
    [result] = parse_text(text[: text.index("SUMMARY time")], name=MDTEST_34.name)
    assert result["warnings"][0] == (
        f"{MDTEST_34.name}:22: the file ends before mdtest's '-- finished at' line: it looks cut short, and the "
        "operations and tables after this line are missing"
    )


@pytest.mark.parametrize(
    ("written", "damaged", "message"),
    [
        ("49741.404          0.000", "49741.404", "mdtest.txt:93: expected an operation and its Max, Min, Mean"),
        ("4.602          0.000", "4.602          nan", "mdtest.txt:97: field 'Tree creation std_dev': 'nan'"),
        (
            "File creation     :      49741.404",
            "File creation     :      -1",
            "mdtest.txt:93: field 'File creation max'",
        ),
        ("SUMMARY rate: (of", "rate: (of", "mdtest.txt: no operation with a rate above 0"),
    ],
)
def test_a_damaged_mdtest_file_is_refused_naming_the_line(written, damaged, message):
    with pytest.raises(ParseError) as refused:
        parse_text(MDTEST_193.read_text().replace(written, damaged, 1))
    assert str(refused.value).startswith(message)


def test_a_rank_csv_without_its_all_row_is_refused():
    lines = RANK_CSV.read_text().splitlines(keepends=True)
    with pytest.raises(ParseError) as refused:
        parse_text(lines[0] + "".join(lines[2:]), name="ranks.csv")
    assert str(refused.value) == "ranks.csv:2: no 'all' row: the rates of the whole run are missing"


def test_mdtest_4_reads_the_per_iteration_rate_and_keeps_the_ranks_figures_and_times_in_ms_per_op():
    result = parse_one(MDTEST_4_PER_RANK)
    assert result["tool"]["version"] == "4.0.0"  # line 3
    runs = runs_by_name(result)
    # Directory rename and File read are all 0 (lines 15, 19): not run, not stored
    assert sorted(runs) == sorted(
        ["Directory creation", "Directory stat", "Directory removal", "File creation", "File stat", "File removal"]
        + ["Tree creation", "Tree removal"]
    )
    [point] = runs["File creation"]["points"]
    # line 17: per rank 600 / 400 / 500, per iteration 2200 / 1800 / 2000 / 282.843 (sd of 2200 and 1800)
    assert point["iops"] == 2000.0
    assert point["metrics"]["operations_per_s"] == {
        "rank_max": 600.0,
        "rank_min": 400.0,
        "rank_mean": 500.0,
        "max": 2200.0,
        "min": 1800.0,
        "mean": 2000.0,
        "std_dev": 282.843,
    }
    # line 32: the time table of mdtest 4 is in milliseconds per operation, not seconds
    assert point["metrics"]["time_ms_per_op"]["mean"] == 2.25 and "time_s" not in point["metrics"]
    assert point["load"] == {"threads": 4}  # line 3
    assert runs["File creation"]["params"]["iterations"] == 2  # line 10
    assert any("Directory rename (line 15)" in warning for warning in result["warnings"])


def test_mdtest_3_4_times_stay_in_seconds():
    [point] = runs_by_name(parse_one(MDTEST_34))["File creation"]["points"]
    assert "time_s" in point["metrics"] and "time_ms_per_op" not in point["metrics"]
