"""Bonnie++ CSV: PerfKitBenchmarker's real 1.96 line and a hand-made two-line file under bon_csv2html's header."""

import pytest

from ingest import ParseError, parse_paths
from ingest.registry import parse_sources
from ingest.source import Source
from tests.ingest.contract import FormatContract
from tests.samples import data, sample

PKB = sample("bonnie++", "bonnie-1.96-pkb-csv.txt")
TWO_LINES = data("bonnie", "header_two_lines.csv")
# bonnie++ 2.00a: format 1.98, bonnie++ version '2.00a', and two more fields after the chunk size (seeks 8192,
# seeking processes 5): 50 fields. Layout of the '1.98,2.00a,ANDREW-PC,...' lines of a public 2024 blog post
# on WSL disk speed; our own figures.
V200 = data("bonnie", "bonnie-2.00a-seeks-fields.csv")
KIB = 1024


class TestBonnieContract(FormatContract):
    format_id = "bonnie"
    inputs = [[PKB], [TWO_LINES], [V200]]


@pytest.fixture(scope="module")
def pkb():
    return parse_paths([PKB])[0]


def _run(result, test):
    [run] = [run for run in result["runs"] if run["workload"]["name"] == test]
    [point] = run["points"]
    return run, point


def test_each_measured_test_is_a_run_and_tests_not_run_are_none(pkb):
    # Fields 8-9 (per-character output) and 14-15 (per-character input) are empty: bonnie++ -f skipped them.
    assert [run["workload"]["name"] for run in pkb["runs"]] == [
        "Sequential output, block",
        "Sequential rewrite",
        "Sequential input, block",
        "Random seeks",
        "Sequential file create",
        "Sequential file stat",
        "Sequential file delete",
        "Random file create",
        "Random file stat",
        "Random file delete",
    ]
    assert pkb["tool"] == {"name": "Bonnie++", "version": "1.96"}  # field 2


def test_block_rates_are_kib_per_second_and_latencies_the_maxima(pkb):
    run, point = _run(pkb, "Sequential output, block")
    assert point["load"] == {"threads": 1}  # field 4: concurrency 1
    assert point["write_mbps"] == pytest.approx(72853 * KIB / 1e6)  # field 10: 72853 K/sec = 74.6 MB/s
    assert point["cpu_pct"] == 15  # field 11
    assert point["max_response_ms"] == 512  # field 38: 512ms
    assert run["params"]["file_size_bytes"] == 7423 * 2**20  # field 6: 7423M
    _, point = _run(pkb, "Sequential input, block")
    assert point["read_mbps"] == pytest.approx(156821 * KIB / 1e6)  # field 16
    assert point["max_response_ms"] == pytest.approx(44.66)  # field 41: 44660us


def test_seeks_and_file_rates_are_operations_per_second(pkb):
    _, point = _run(pkb, "Random seeks")
    assert point["iops"] == pytest.approx(537.7)  # field 18
    assert point["max_response_ms"] == 200  # field 42: 200ms
    _, point = _run(pkb, "Random file create")
    assert point["iops"] == 2898  # field 31
    assert point["max_response_ms"] == pytest.approx(33.518)  # field 46: 33518us


def test_too_fast_to_measure_is_no_figure_and_said(pkb):
    # Fields 27-28 and 33-34: '+++++' and '+++' for the stat tests.
    _, point = _run(pkb, "Sequential file stat")
    assert point["iops"] is None and point["cpu_pct"] is None
    assert point["max_response_ms"] == pytest.approx(1.759)  # field 44: 1759us
    assert pkb["warnings"] == [
        "bonnie-1.96-pkb-csv.txt:1: bonnie++ printed '+++++' (too fast to measure) for Sequential file stat, "
        "Random file stat; no rate is stored for them"
    ]


def test_two_lines_under_the_header_are_two_tests_at_their_concurrency():
    [result] = parse_paths([TWO_LINES])
    runs = [run for run in result["runs"] if run["workload"]["name"] == "Sequential output, per character"]
    assert [run["params"]["source_lines"] for run in runs] == [[2], [3]]
    assert [run["points"][0]["load"] for run in runs] == [{"threads": 4}, {"threads": 4}]
    assert runs[1]["points"][0]["write_mbps"] == pytest.approx(910 * KIB / 1e6)  # line 3, field 8
    assert runs[0]["params"]["chunk_size_bytes"] == 64 * 1024  # line 2, field 7: 64k
    assert not any(run["workload"]["name"].endswith("file create") for run in result["runs"])  # -n 0: empty


def _parse(text: str):
    return parse_sources([Source(name="bonnie.csv", data=text.encode())])


def test_a_line_with_missing_fields_is_refused_naming_the_line():
    lines = TWO_LINES.read_text().splitlines()
    lines[2] = lines[2].rsplit(",", 3)[0]
    with pytest.raises(ParseError) as error:
        _parse("\n".join(lines) + "\n")
    assert (error.value.file, error.value.line) == ("bonnie.csv", 3)
    assert "expected 48 comma-separated fields" in str(error.value) and "found 45" in str(error.value)


def test_a_latency_without_a_time_unit_is_refused():
    with pytest.raises(ParseError) as error:
        _parse(PKB.read_text().replace(",512ms,", ",512,"))
    assert error.value.line == 1 and "latency '512' is not a time" in str(error.value)


def test_bonnie_103_csv_is_refused_with_a_sentence():
    with pytest.raises(ParseError) as error:
        _parse("name,file_size,putc,putc_cpu,put_block\nhost,300M,1000,90,20000\n")
    assert "bonnie++ 1.03 CSV" in str(error.value) and "1.96 and later" in str(error.value)


def test_bonnie_2_00a_reads_past_its_seeks_fields():
    [result] = parse_paths([V200])
    assert result["tool"]["version"] == "2.00a"
    # fields 12-13 (after the two seek fields): block output 800000 K/sec = 819.2 MB/s at 45 % CPU
    run, point = _run(result, "Sequential output, block")
    assert point["mbps"] == pytest.approx(800000 * KIB / 1e6) == pytest.approx(819.2)
    assert point["write_mbps"] == point["mbps"] and point["cpu_pct"] == 45.0
    assert point["max_response_ms"] == 900.0 and point["load"] == {"threads": 2}  # field 40: 900ms; field 4: 2
    assert run["params"]["seeks"] == "8192" and run["params"]["seek_processes"] == "5"
    _, create = _run(result, "Sequential file create")  # field 27: 20000 files/s
    assert create["iops"] == 20000.0 and create["max_response_ms"] == 0.6  # field 45: 600us
    _, block_in = _run(result, "Sequential input, block")  # field 18: 1000000 K/sec
    assert block_in["read_mbps"] == pytest.approx(1024.0)


def test_a_bonnie_line_of_another_field_count_names_both_layouts():
    line = V200.read_text().strip().rsplit(",", 1)[0]  # 49 fields
    with pytest.raises(ParseError, match=r"expected 48 .* \(or 50 with 2.00's seeks and seekers\), found 49"):
        parse_sources([Source(name="b.csv", data=(line + "\n").encode())])
