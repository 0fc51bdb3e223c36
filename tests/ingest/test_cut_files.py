"""A copy cut short inside a line (inside a number, inside a quoted field) is never stored as if it were
whole: it is refused with a ParseError naming the file (and line), or read with a warning naming the
line where it was cut."""

import codecs
import re

import pytest

from ingest.errors import ParseError
from ingest.registry import parse_sources
from ingest.source import Source
from tests.samples import data, sample

LINE_FILES = [
    sample("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt"),
    sample("elbencho", "glennklockwood_cgpu_bw-direct.04threads.2798687.csv"),
    sample("profile", "supportbundle_storageArrayProfile.txt"),
    sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv"),
    sample("mlperf-storage", "v1.0-simplyblock-reportgen-output.txt"),
]
LAST_LINES = 40
CUT_WARNING = "the file ends inside this line, with no line end: it looks cut there"


def _cuts_inside_numbers(data: bytes):
    """Every cut in the middle of a number of the file's last lines: (cut bytes, line of the cut)."""
    lines = data.splitlines(keepends=True)
    start = max(0, len(lines) - LAST_LINES)
    offset = sum(len(line) for line in lines[:start])
    for number, line in enumerate(lines[start:], start=start + 1):
        for match in re.finditer(rb"\d{2,}", line):
            yield data[: offset + match.start() + len(match.group()) // 2], number
        offset += len(line)


@pytest.mark.parametrize("path", LINE_FILES, ids=lambda path: path.parent.name)
def test_the_intact_file_carries_no_cut_warning(path):
    results = parse_sources([Source(path)])
    assert not [w for result in results for w in result["warnings"] if CUT_WARNING in w]


@pytest.mark.parametrize("path", LINE_FILES, ids=lambda path: path.parent.name)
def test_a_file_cut_inside_a_number_is_refused_or_says_where_it_was_cut(path):
    data = path.read_bytes()
    cuts = list(_cuts_inside_numbers(data))
    assert len(cuts) > 20
    for cut, line in cuts:
        try:
            results = parse_sources([Source(name=path.name, data=cut)])
        except ParseError as error:
            assert error.file == path.name, str(error)
            continue
        warnings = [w for result in results for w in result["warnings"] if CUT_WARNING in w]
        assert warnings == [f"{path.name}:{line}: {CUT_WARNING}. " + warnings[0].split("there. ", 1)[1]] * len(
            results
        ), (line, warnings)


def test_the_diskspd_report_cut_inside_its_write_latency_names_the_line():
    path = LINE_FILES[0]
    data = path.read_bytes()
    # Line 68: "total: 494407680 | 120705 | 0.79 | 201.17 | 187.968 | 205.662", cut after "187.9".
    cut = data[: data.index(b"187.968") + len(b"187.9")]
    [result] = parse_sources([Source(name=path.name, data=cut)])
    assert (
        f"{path.name}:68: the file ends inside this line, with no line end: it looks cut there. Figures on this "
        "line may be cut short and anything the file held after it is missing; upload the whole file to "
        "replace these results"
    ) in result["warnings"]


PROFILES = sorted(sample("profile", "supportbundle_storageArrayProfile.txt").parent.glob("*.txt"))
CUTS_PER_DRIVE_TABLE = 12


@pytest.mark.parametrize("path", PROFILES, ids=lambda path: path.name)
def test_a_profile_cut_in_its_drive_table_says_how_many_drives_are_missing(path):
    data = path.read_bytes()
    [intact] = parse_sources([Source(path)])
    declared, listed = intact["system"]["drive_count"], intact["system"]["drives"]
    assert len(listed) == declared
    lines = data.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(b"DRIVES---"))
    end = next(
        (i for i, line in enumerate(lines[start + 1 :], start + 1) if re.match(rb"^\s*[A-Z][A-Z ]+-{5,}", line)),
        len(lines),
    )
    step = max(1, (end - start) // CUTS_PER_DRIVE_TABLE)
    for cut_at in range(start + 1, end, step):
        [result] = parse_sources([Source(name=path.name, data=b"".join(lines[:cut_at]))])
        drives = result["system"]["drives"]
        # What was read agrees with the intact file, drive by drive (the last one read may have lost
        # the details below the cut); what was not read is said.
        assert drives[:-1] == listed[: max(len(drives) - 1, 0)]
        assert [d["location"] for d in drives] == [d["location"] for d in listed[: len(drives)]]
        if len(drives) < declared:
            assert (
                f"{path.name}:{cut_at}: the profile reports {declared} drives but its drive list holds "
                f"{len(drives)}: it is cut short, "
                f"and the {declared - len(drives)} drives not listed are missing from the drive details "
                "(models, capacities, speeds)"
            ) in result["warnings"], cut_at


DISKSPD = sample("diskspd", "basilkisel_diskspd-text_goodwinserverdc.westeurope.cloudapp.azure.com.txt")


def _first_lines(path, count):
    return b"".join(path.read_bytes().splitlines(keepends=True)[:count])


def test_a_diskspd_report_cut_before_its_second_runs_results_says_the_run_is_missing():
    # The second run's "Command Line:" is line 95, its "Results for timespan 1:" line 120.
    [result] = parse_sources([Source(name=DISKSPD.name, data=_first_lines(DISKSPD, 119))])
    [run] = result["runs"]
    assert run["params"]["target_paths"] == ["C:\\testfile.foo"]
    assert (
        f"{DISKSPD.name}:95: this DiskSpd run holds the results of 0 of its 1 timespan: the output looks cut "
        "short, and the missing results are not stored"
    ) in result["warnings"]


def test_a_diskspd_report_cut_in_its_second_runs_latency_table_says_the_percentiles_are_missing():
    # Line 158 heads the second run's %-ile table; its rows from "min" (line 160) to "max" (line 174).
    [result] = parse_sources([Source(name=DISKSPD.name, data=_first_lines(DISKSPD, 166))])
    second = result["runs"][1]["points"][0]
    assert second["max_response_ms"] is None and "percentiles_ms" not in second["metrics"]
    assert second["avg_write_response_ms"] == 1.266  # line 155: the Write IO table's total, read whole
    assert (
        f"{DISKSPD.name}:166: the %-ile table ends before its 'max' row (DiskSpd always writes it): the output "
        "looks cut short here; its percentiles and maximum latency are not stored"
    ) in result["warnings"]


def test_a_diskspd_report_cut_before_its_write_io_table_is_refused_with_the_results_line():
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name=DISKSPD.name, data=_first_lines(DISKSPD, 148))])
    assert str(caught.value) == (
        f"{DISKSPD.name}:120: the results have no 'Write IO' table (DiskSpd writes Total, Read and Write IO "
        "tables); the output looks cut short"
    )


def test_an_elbencho_resfile_cut_inside_a_phase_names_the_phase_and_the_line():
    path = data("elbencho", "rwmix_lat.res.txt")
    [result] = parse_sources([Source(name=path.name, data=_first_lines(path, 8))])
    assert (
        f"{path.name}:8: the READ phase (line 6) has no closing '---' line: the file looks cut short here, and "
        "the phase's results after this line are missing"
    ) in result["warnings"]


PROFILE = sample("profile", "supportbundle_storageArrayProfile.txt")


def test_a_profile_cut_before_its_drive_list_keeps_its_drive_count_and_says_no_drive_is_listed():
    # Line 32: "Number of drives: 36" (SUMMARY); line 1833 heads the DRIVES section.
    [result] = parse_sources([Source(name=PROFILE.name, data=_first_lines(PROFILE, 1832))])
    assert (result["system"]["drive_count"], result["system"]["drives"]) == (36, [])
    assert (
        f"{PROFILE.name}:1832: the profile reports 36 drives but ends before its DRIVES section (Storage Manager "
        "writes one in every profile): it looks cut short, and no drive is listed (models, capacities, speeds)"
    ) in result["warnings"]
    assert (
        f"{PROFILE.name}:1832: the profile ends without its DRIVES, TRAYS / ENCLOSURES, MAPPINGS sections "
        "(Storage Manager writes them in every profile): it looks cut short, and what they hold is missing "
        "(drive details, the trays' vendor)"
    ) in result["warnings"]


def test_a_whole_profile_is_not_said_to_be_cut():
    for path in PROFILES:
        [result] = parse_sources([Source(path)])
        assert not [warning for warning in result["warnings"] if "cut" in warning], path.name


NETWORK = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")
MULTITEST = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv")


def test_an_iometer_file_cut_inside_a_test_says_so_with_the_file_and_line():
    # Test 2 starts on line 29 ('Test Type) and ends on line 323 ('End Test); the results headed on line
    # 161 run to line 174, the 'Time Stamp after them is line 175. Cut after line 171: 4 of its 11 runs.
    [result] = parse_sources([Source(name=NETWORK.name, data=_first_lines(NETWORK, 171))])
    assert len(result["runs"]) == 4
    assert result["warnings"][-2:] == [
        f"{NETWORK.name}:171: the results of line 161 (test 2) end with the file, without the 'Time Stamp or "
        "'End Test line Iometer writes after them: they look cut short, and are not stored",
        f"{NETWORK.name}:171: the file ends before the 'End Test line of test 2 (line 29), which Iometer writes "
        "after every test: it looks cut short here, and whatever the test wrote after this line is missing",
    ]


def test_an_iometer_test_cut_in_its_rows_is_not_stored_with_the_outstanding_io_of_the_rows_read():
    # Test 47 starts on line 1795; its results (header line 1808) list 4 workers, each with 1 outstanding
    # I/O on its disk. Cut after line 1828, the rows of 2 of them are read: the test is not stored.
    [intact] = parse_sources([Source(MULTITEST)])
    [result] = parse_sources([Source(name=MULTITEST.name, data=_first_lines(MULTITEST, 1828))])
    assert [run["name"] for run in result["runs"]] == [run["name"] for run in intact["runs"][:46]]
    assert {point["load"]["outstanding_io"] for run in result["runs"] for point in run["points"]} == {4}
    assert (
        f"{MULTITEST.name}:1828: the results of line 1808 (test 47) end with the file, without the 'Time Stamp "
        "or 'End Test line Iometer writes after them: they look cut short, and are not stored"
    ) in result["warnings"]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize(
    "path",
    [
        MULTITEST,
        NETWORK,
        data("iometer", "results_1.1.0_qd_sweep_crlf.csv"),
        data("iometer", "results_2006.07.27_fileserver_webserver.csv"),
    ],
    ids=lambda path: path.name,
)
def test_a_whole_utf16_file_is_not_said_to_be_cut_and_one_cut_inside_a_line_is(path, encoding):
    text = path.read_bytes().decode("utf-8")
    whole = codecs.BOM_UTF16_LE if encoding == "utf-16-le" else codecs.BOM_UTF16_BE
    whole += text.encode(encoding)
    [result] = parse_sources([Source(name=path.name, data=whole)])
    assert not [warning for warning in result["warnings"] if CUT_WARNING in warning]
    # Cut inside the number ending the last row but one (every file ends in a line end, then 'End Test).
    lines = text.splitlines(keepends=True)
    cut = "".join(lines[:-3]) + lines[-3].rstrip()[:-1]
    cut_bytes = whole[:2] + cut.encode(encoding)
    [result] = parse_sources([Source(name=path.name, data=cut_bytes)])
    assert [w for w in result["warnings"] if CUT_WARNING in w][0].startswith(f"{path.name}:{len(lines) - 2}: ")


def test_iometer_access_specification_shares_not_adding_up_to_100_are_refused_with_the_line():
    path = data("iometer", "results_2006.07.27_fileserver_webserver.csv")
    text = path.read_text()
    # Line 9 names 'File Server'; its lines (11-18) share 10+5+5+60+2+4+4+10 = 100 %. Line 15 (8 KB) made 71 %.
    damaged = text.replace("8192,2,80,100,0,1,0,0,", "8192,71,80,100,0,1,0,0,", 1)
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name=path.name, data=damaged.encode())])
    assert str(caught.value) == (
        f"{path.name}:9: the lines of access specification 'File Server' share 169 % of its I/Os, not the 100 % "
        "Iometer writes: the file is damaged, and its transfer-size mix cannot be read"
    )


ELBENCHO_CSV = sample("elbencho", "glennklockwood_cgpu_bw-direct.04threads.2798687.csv")


def test_an_elbencho_csv_cut_before_its_write_row_names_the_phase_its_command_line_asks_for():
    # Rows 2-5: SYNC, MKDIRS, SYNC, WRITE; each row's command line asks for "--mkdirs" "--write" ... "--delfiles"
    # "--deldirs". Cut after line 4: the "WRITE 1m" run (line 5) is missing, and said to be.
    [result] = parse_sources([Source(name=ELBENCHO_CSV.name, data=_first_lines(ELBENCHO_CSV, 4))])
    assert [run["name"] for run in result["runs"]] == ["MKDIRS"]
    assert (
        f"{ELBENCHO_CSV.name}:4: the command line of the SYNC phase (line 2) asks for the WRITE, RMFILES, RMDIRS "
        "phases too, which the file does not hold after this line: it looks cut short (or elbencho stopped), and "
        "their results are missing"
    ) in result["warnings"]


def test_an_elbencho_live_csv_cut_says_its_figures_are_the_last_samples_and_later_ones_may_be_missing():
    path = sample("elbencho", "glennklockwood_cgpu_bw-direct.01threads.2798687.live.csv")
    # Line 2 is the first WRITE sample: 1236 IOPS at 5002 ms; the intact file's last sample is line 10.
    [result] = parse_sources([Source(name=path.name, data=_first_lines(path, 2))])
    assert result["runs"][0]["points"][0]["iops"] == 1236
    assert result["warnings"] == [
        f"{path.name}:2: WRITE (line 2) comes from live statistics: its figures are averages up to the last sample "
        "(line 2) at 5002 ms, not elbencho's final result (see the --csvfile or --resfile); a live CSV states no "
        "end, so later samples are missing if it was cut"
    ]


ORION_TEST = [sample("orion", f"cnblogs-hftian_mytest_20190329_1057_{kind}.csv") for kind in ("iops", "mbps", "lat")]


def test_an_orion_matrix_cut_before_its_last_row_names_the_rows_the_other_matrices_list():
    # The _mbps.csv holds rows for large=1 (line 2: 271.58 MB/s) and large=2 (line 3: 374.26); the _iops.csv
    # and _lat.csv list large=0, 1 and 2. Cut after line 2, the point at large=2 is missing, and said to be.
    iops, mbps, lat = ORION_TEST
    [result] = parse_sources([Source(iops), Source(name=mbps.name, data=_first_lines(mbps, 2)), Source(lat)])
    assert sorted(point["mbps"] for point in result["runs"][0]["points"] if point["mbps"]) == [271.58]
    assert (
        f"{mbps.name}:2: the matrix ends after its row for large=1, before the rows for large=2 the test lists: "
        "it looks cut short, and their figures are missing"
    ) in result["warnings"]


def test_an_orion_summary_cut_before_its_small_maxima_says_which_lines_are_missing():
    summary = data("orion", "db11_20240305_1412_summary.txt")
    matrices = [data("orion", f"db11_20240305_1412_{kind}.csv") for kind in ("iops", "mbps", "lat")]
    # Line 24: "Maximum Large MBPS=190.66 ..."; line 26: "Maximum Small IOPS=866 ..."; line 30: "Minimum Small
    # Latency=5540.12 usecs ..." (small levels 1-6 on line 16 call for both).
    [result] = parse_sources([Source(name=summary.name, data=_first_lines(summary, 25)), *map(Source, matrices)])
    assert result["runs"][0]["params"]["max_large_mbps"] == 190.66
    assert (
        f"{summary.name}:25: the summary ends without its Maximum Small IOPS, Minimum Small Latency lines: it "
        "looks cut short, and what they state is unknown"
    ) in result["warnings"]
