"""A copy cut short inside a line (inside a number, inside a quoted field) is never stored as if it were
whole: it is refused with a ParseError naming the file (and line), or read with a warning naming the
line where it was cut."""

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
                f"the profile reports {declared} drives but its drive list holds {len(drives)}: it is cut short, "
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
