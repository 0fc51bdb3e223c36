"""IO500: result_summary.txt in its 2018 and sc20+ forms, the 2018 full summary log and result.txt; figures
read by hand from the files."""

import pytest

from ingest import ParseError, Source, parse_sources
from ingest.formats import io500
from ingest.units import GIB
from tests.ingest.contract import FormatContract
from tests.ingest.helpers import parse_one, runs_by_name
from tests.samples import data, sample

SUMMARY_2018 = sample("io500", "2018-gcp-ddn-lustre-result_summary.txt")
# IO500 isc22 (C application): '[RESULT]' lines in GiB/s and kIOPS, a find phase of 0 marked [INVALID] and
# '[SCORE ] ... [INVALID]'. Layout of the isc22 example output in IO500/io500 contrib/s3 documentation;
# our own figures.
SUMMARY_ISC22 = data("io500", "isc22-invalid-find-result_summary.txt")
FULL_2018 = sample("io500", "2018-gcp-ddn-io-500-summary.txt")
SUMMARY_SC23 = sample("io500", "sc23-aurora-daos-result_summary.txt")
SUMMARY_SC25 = sample("io500", "sc25-core42-daos-result_summary.txt")
RESULT_SC23 = sample("io500", "sc23-aurora-daos-result.txt")
CONFIG_SC23 = sample("io500", "sc23-aurora-daos-config.ini")
SCORED = [
    "ior-easy-write",
    "mdtest-easy-write",
    "ior-hard-write",
    "mdtest-hard-write",
    "find",
    "ior-easy-read",
    "mdtest-easy-stat",
    "ior-hard-read",
    "mdtest-hard-stat",
    "mdtest-easy-delete",
    "mdtest-hard-read",
    "mdtest-hard-delete",
]


class TestIo500Contract(FormatContract):
    format_id = "io500"
    inputs = [
        [SUMMARY_2018],
        [SUMMARY_ISC22],
        [FULL_2018],
        [SUMMARY_SC23],
        [SUMMARY_SC25],
        [RESULT_SC23],
        [CONFIG_SC23, RESULT_SC23],
    ]


def parse_text(text, name="result_summary.txt"):
    return parse_sources([Source(name=name, data=text.encode())])


def gib(value):
    """A figure IO500 printed in GiB/s, as the decimal MB/s we store."""
    return pytest.approx(value * GIB / 1e6)


def test_sc23_summary_is_a_run_per_phase_and_a_score_run():
    result = parse_one(SUMMARY_SC23)
    assert result["tool"] == {"name": "IO500", "version": "io500-sc23_v1"}  # line 1
    runs = runs_by_name(result)
    assert list(runs) == [*SCORED, "IO500 score"]
    # line 2: ior-easy-write 1313.924246 GiB/s : time 345.026 seconds
    easy_write = runs["ior-easy-write"]["points"][0]
    assert easy_write["mbps"] == gib(1313.924246) and easy_write["write_mbps"] == gib(1313.924246)
    assert easy_write["metrics"] == {"time_s": 345.026, "gib_per_s": 1313.924246}
    assert runs["ior-easy-write"]["workload"]["read_pct"] == 0.0
    assert runs["ior-easy-read"]["points"][0]["read_mbps"] == gib(1015.857421)  # line 8
    # line 3: mdtest-easy-write 8252.636649 kIOPS, the rate mdtest-3.4 printed (mdtest sample, line 16: 8252636.649)
    easy_create = runs["mdtest-easy-write"]
    assert easy_create["points"][0]["iops"] == pytest.approx(8252636.649)
    assert easy_create["points"][0]["mbps"] is None
    assert easy_create["params"] == {"scored": True, "figure": "metadata operations per second"}
    assert runs["find"]["points"][0]["iops"] == pytest.approx(50044411.930)  # line 7
    # line 15: [SCORE ] Bandwidth 734.502697 GiB/s : IOPS 11336.265046 kiops : TOTAL 2885.570524
    score = runs["IO500 score"]["points"][0]
    assert score["metrics"] == {"score": 2885.570524, "bandwidth_gib_per_s": 734.502697, "metadata_kiops": 11336.265046}
    assert score["mbps"] == gib(734.502697) and score["iops"] == pytest.approx(11336265.046)
    assert runs["IO500 score"]["params"]["mode"] == "standard"
    # line 4: '[      ] timestamp 0.000000 kIOPS', IO500's own step outside the score
    assert result["warnings"] == [f"{SUMMARY_SC23.name}:4: phase timestamp states no figure (0), not stored"]


def test_sc25_summary_stores_its_unscored_phase_and_says_so():
    result = parse_one(SUMMARY_SC25)
    runs = runs_by_name(result)
    # line 15: [      ]  ior-rnd4K-easy-read 14.908312 GiB/s : time 308.778 seconds
    random_read = runs["ior-rnd4K-easy-read"]
    assert random_read["params"]["scored"] is False
    assert random_read["points"][0]["read_mbps"] == gib(14.908312)
    assert runs["IO500 score"]["points"][0]["metrics"]["score"] == 666.701247  # line 16
    assert (
        f"{SUMMARY_SC25.name}:15: phase ior-rnd4K-easy-read is not part of IO500's score, stored as measured"
        in (result["warnings"])
    )


def test_the_2018_summary_reads_gb_per_s_as_the_gib_per_s_it_is():
    result = parse_one(SUMMARY_2018)
    assert result["tool"]["version"] is None
    runs = runs_by_name(result)
    assert sorted(runs) == sorted([*SCORED, "IO500 score"])
    # line 1: 'BW phase 1 ior_easy_write 13.978 GB/s': the ior_easy_write.txt of the same submission (the IOR 3.2
    # sample, line 35) says 'Max Write: 14314.03 MiB/sec', and 14314.03 / 1024 = 13.9785 (cut to 3 decimals by
    # the script's bc, not rounded): its GB are GiB, not the 14.314 GB/s that 10^9 bytes would give
    assert runs["ior-easy-write"]["points"][0]["mbps"] == gib(13.978)
    assert int(14314.03 / 1024 * 1000) / 1000 == 13.978
    # line 2: mdtest_easy_write 49.741 kiops, the mdtest 1.9.3 sample's 49741.404 (its line 93)
    assert runs["mdtest-easy-write"]["points"][0]["iops"] == pytest.approx(49741.0)
    # line 13: [SCORE] Bandwidth 4.3002 GB/s : IOPS 38.521 kiops : TOTAL 12.8704
    assert runs["IO500 score"]["points"][0]["metrics"] == {
        "score": 12.8704,
        "bandwidth_gib_per_s": 4.3002,
        "metadata_kiops": 38.521,
    }
    assert result["warnings"] == []


def test_the_2018_full_log_reads_each_phase_once_and_keeps_the_system_description():
    result = parse_one(FULL_2018)
    runs = runs_by_name(result)
    # Each phase is printed twice (line 62 and again at line 125): one run each
    assert len(result["runs"]) == 13
    assert runs["ior-hard-read"]["points"][0]["mbps"] == gib(1.746)
    # line 38: io500_mpiargs='-np 80 -ppn 10 -f /lustre/gcp/cfg/machines-10.txt', every phase's processes
    assert {run["points"][0]["load"]["threads"] for run in result["runs"]} == {80}
    params = runs["IO500 score"]["params"]
    # lines 8-27: io500_info_filesystem=Lustre, io500_info_num_client_nodes=120, io500_info_system_name='...'
    assert params["filesystem"] == "Lustre" and params["num_client_nodes"] == "120"
    assert params["system_name"] == "Lustre on Google Cloud Platform"
    assert result["warnings"] == []


def test_result_ini_adds_the_process_count_start_times_and_stonewall_figures():
    result = parse_one(RESULT_SC23)
    assert result["tool"]["version"] == "io500-sc23_v1"  # line 3
    runs = runs_by_name(result)
    assert list(runs) == [*SCORED, "IO500 score"]
    easy_write = runs["ior-easy-write"]
    # lines 10-16: t_start 2023-10-08 18:13:10, throughput-stonewall 1391.46, score 1313.924246, t_delta 345.0260
    assert easy_write["started_at"] == "2023-10-08T18:13:10"
    assert easy_write["params"]["stonewall_gib_per_s"] == 1391.46
    point = easy_write["points"][0]
    assert point["mbps"] == gib(1313.924246) and point["metrics"]["time_s"] == 345.026
    assert point["load"] == {"threads": 2080}  # line 2: procs = 2080
    assert runs["mdtest-easy-write"]["params"]["stonewall_kiops"] == 9888.316255  # line 21
    # lines 106-109: [SCORE] MD = 11336.265046, BW = 734.502697, SCORE = 2885.570524
    score = runs["IO500 score"]
    assert score["points"][0]["metrics"] == {
        "score": 2885.570524,
        "bandwidth_gib_per_s": 734.502697,
        "metadata_kiops": 11336.265046,
    }
    assert score["params"]["config_hash"] == "28ACA0AE"  # line 4
    assert result["warnings"] == ["phases with no score (IO500's own steps, no figure): timestamp (line 26)"]


def test_config_ini_alone_is_refused_with_what_to_upload():
    with pytest.raises(ParseError) as refused:
        parse_sources([Source(CONFIG_SC23)])
    assert str(refused.value) == (
        f"{CONFIG_SC23.name}: this is an IO500 configuration file (config.ini): it holds the run's settings, not "
        "its results; upload result_summary.txt or result.txt from the same results folder (with config.ini, to "
        "keep its settings)"
    )


def test_a_results_folder_is_read_together_with_its_settings():
    [result] = parse_sources([Source(path) for path in (CONFIG_SC23, RESULT_SC23, SUMMARY_SC23)])
    assert result["source"]["name"] == " + ".join(path.name for path in (CONFIG_SC23, RESULT_SC23, SUMMARY_SC23))
    runs = runs_by_name(result)
    # result.txt's phases, once: the summary holds the same figures, and is only checked against them
    assert list(runs) == [*SCORED, "IO500 score"]
    assert runs["ior-easy-write"]["points"][0]["load"] == {"threads": 2080}
    # config.ini lines 18-22, [ior-easy]: transferSize = 16m (line 20), filePerProc = FALSE (line 22)
    easy_write = runs["ior-easy-write"]
    assert easy_write["params"]["config"]["transferSize"] == "16m"
    assert easy_write["params"]["config"]["filePerProc"] == "FALSE"
    assert easy_write["workload"]["transfer_sizes"] == [{"bytes": 16 * 2**20, "pct": 100.0}]
    assert runs["ior-easy-read"]["workload"]["transfer_sizes"] == [{"bytes": 16 * 2**20, "pct": 100.0}]
    assert runs["ior-hard-write"]["workload"]["transfer_sizes"] == []  # [ior-hard] states no transferSize
    # [mdtest-easy] line 44: n = 10000000; [global] line 6: api = DFS --dfs.pool=mypool --dfs.cont=mycont
    assert runs["mdtest-easy-write"]["params"]["config"]["n"] == "10000000"
    assert runs["IO500 score"]["params"]["config"]["api"] == "DFS --dfs.pool=mypool --dfs.cont=mycont"
    assert result["warnings"] == ["phases with no score (IO500's own steps, no figure): timestamp (line 26)"]


def test_the_files_of_one_results_folder_share_a_group_and_two_folders_given_unzipped_are_refused():
    assert io500.group_key(Source(name="2023.10.08-18.11.45/result.txt", data=b"")) == "2023.10.08-18.11.45/"
    assert io500.group_key(Source(name="2023.10.08-18.11.45/config.ini", data=b"")) == "2023.10.08-18.11.45/"
    assert io500.group_key(Source(name="io-500-summary.2018.11.11-21.32.04.txt", data=b"")) is None
    two = [Source(name="result_summary.txt", data=path.read_bytes()) for path in (SUMMARY_SC23, SUMMARY_SC25)]
    with pytest.raises(ParseError) as refused:
        parse_sources(two)
    assert str(refused.value) == (
        "result_summary.txt: more than one IO500 result of one kind given together (result_summary.txt, "
        "result_summary.txt): upload each results folder apart, or zip the folders"
    )


def test_a_summary_that_disagrees_with_result_ini_is_warned_of():
    summary = SUMMARY_SC23.read_text().replace("1313.924246 GiB/s", "1300.000000 GiB/s")
    sources = [Source(RESULT_SC23), Source(name="sc23-aurora-daos-result_summary.txt", data=summary.encode())]
    [result] = parse_sources(sources)
    assert runs_by_name(result)["ior-easy-write"]["points"][0]["mbps"] == gib(1313.924246)
    assert (
        "sc23-aurora-daos-result_summary.txt: phase ior-easy-write differs from sc23-aurora-daos-result.txt, whose "
        "figure is stored"
    ) in result["warnings"]


def test_a_config_ini_cut_before_a_phase_section_is_warned_of():
    text = CONFIG_SC23.read_text()
    cut = text[: text.index("[mdtest-hard-delete]")]
    sources = [Source(RESULT_SC23), Source(name="sc23-aurora-daos-config.ini", data=cut.encode())]
    [result] = parse_sources(sources)
    assert "config" not in runs_by_name(result)["mdtest-hard-delete"]["params"]
    assert (
        "sc23-aurora-daos-config.ini: no section for phase(s) mdtest-hard-delete, which IO500 writes for every "
        "phase it knows: the file looks cut short, and these phases' settings are missing"
    ) in result["warnings"]


def test_an_invalid_phase_and_score_are_stored_with_a_fail_verdict_and_warned_of():
    text = SUMMARY_SC23.read_text()
    text = text.replace("time 310.345 seconds", "time 310.345 seconds [INVALID]")
    text = text.replace("TOTAL 2885.570524", "TOTAL 2885.570524 [INVALID]")
    [result] = parse_text(text)
    runs = runs_by_name(result)
    assert runs["mdtest-hard-write"]["verdict"] == "fail" and runs["IO500 score"]["verdict"] == "fail"
    assert runs["mdtest-easy-write"]["verdict"] is None
    assert (
        "result_summary.txt:6: IO500 marks phase mdtest-hard-write [INVALID]; stored with a fail verdict"
        in (result["warnings"])
    )
    assert "result_summary.txt:15: IO500 marks the score [INVALID]; stored with a fail verdict" in result["warnings"]


def test_a_2019_result_invalid_line_and_an_extended_score_are_read_and_warned_of():
    text = SUMMARY_2018.read_text().replace("[RESULT] IOPS phase 3", "[RESULT-invalid] IOPS phase 3", 1)
    text += "[SCOREX] Bandwidth 5.1 GiB/s : IOPS 40.2 kiops : TOTAL 14.3\n"
    [result] = parse_text(text)
    runs = runs_by_name(result)
    assert runs["find"]["verdict"] == "fail" and runs["find"]["points"][0]["iops"] == pytest.approx(757910.0)
    assert runs["IO500 score"]["points"][0]["metrics"]["score"] == 12.8704
    assert result["warnings"] == [
        "result_summary.txt:14: the extended-mode score is not stored (the standard score is)",
        "result_summary.txt:5: IO500 marks phase find [INVALID]; stored with a fail verdict",
    ]


def test_a_summary_without_its_score_line_is_warned_of_as_cut():
    lines = SUMMARY_SC23.read_text().splitlines(keepends=True)
    [result] = parse_text("".join(lines[:9]))
    assert len(result["runs"]) == 7
    assert result["warnings"][-1] == (
        "result_summary.txt:9: the file ends before IO500's [SCORE] line: it looks cut short, and the phases after "
        "this line and the score are missing"
    )


@pytest.mark.parametrize(
    ("written", "damaged", "message"),
    [
        ("1313.924246 GiB/s", "1313.924246 TB/s", "result_summary.txt:2: expected a phase, its figure and unit"),
        ("TOTAL 2885.570524", "TOTAL", "result_summary.txt:15: expected 'Bandwidth N GiB/s : IOPS N kiops"),
        ("IOPS 11336.265046", "IOPS 1e999", "result_summary.txt:15: field 'IOPS': '1e999' is too large"),
    ],
)
def test_a_damaged_summary_is_refused_naming_the_line(written, damaged, message):
    with pytest.raises(ParseError) as refused:
        parse_text(SUMMARY_SC23.read_text().replace(written, damaged, 1))
    assert str(refused.value).startswith(message)


def test_a_damaged_result_ini_is_refused_naming_the_line():
    text = RESULT_SC23.read_text().replace("score           = 1313.924246", "score           = fast", 1)
    with pytest.raises(ParseError) as refused:
        parse_text(text, name="result.txt")
    assert str(refused.value) == "result.txt:14: field 'score': 'fast' is not a number"


def test_an_isc22_summary_with_an_invalid_find_reads_its_phases_and_fails_its_score():
    result = parse_one(SUMMARY_ISC22)
    assert result["tool"]["version"] == "io500-isc22_v1"  # line 1
    runs = runs_by_name(result)
    assert "find" not in runs and "timestamp" not in runs  # lines 4 and 7: 0, not stored
    assert runs["ior-easy-write"]["points"][0]["write_mbps"] == 2 * GIB / 1e6  # line 2: 2.000000 GiB/s
    assert runs["mdtest-hard-delete"]["points"][0]["iops"] == 1000.0  # line 14: 1.000000 kIOPS
    score = runs["IO500 score"]
    assert score["verdict"] == "fail" and score["points"][0]["metrics"]["score"] == 2.119  # line 15
    assert any(":15: IO500 marks the score [INVALID]" in warning for warning in result["warnings"])
