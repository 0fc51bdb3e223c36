"""ORION: the real 11.1 matrices of the shared samples, the real 10.2 summary of seed 001, an 11.2-style test."""

import zipfile

import pytest

from ingest import ParseError, Source, parse_paths, parse_sources
from ingest.formats import orion
from tests.ingest.contract import FormatContract
from tests.samples import data, sample

SAMPLE_PREFIX = "cnblogs-hftian_mytest_20190329_1057"
SAMPLE_FILES = [sample("orion", f"{SAMPLE_PREFIX}_{kind}.csv") for kind in ("iops", "lat", "mbps")]
SEED_SUMMARY = data("orion", "vmware_summary.txt")
DB11_FILES = [
    data("orion", f"db11_20240305_1412_{kind}") for kind in ("summary.txt", "iops.csv", "mbps.csv", "lat.csv")
]


class TestOrionContract(FormatContract):
    format_id = "orion"
    inputs = [SAMPLE_FILES, DB11_FILES, SAMPLE_FILES[:1]]


def only(result_sets):
    assert len(result_sets) == 1
    return result_sets[0]


def point_at(run, *, small, large):
    matches = [p for p in run["points"] if p["load"] == {"small_outstanding": small, "large_outstanding": large}]
    assert len(matches) == 1, f"no single point at small={small} large={large}"
    return matches[0]


@pytest.fixture(scope="module")
def sample_result():
    return only(parse_paths(SAMPLE_FILES))


@pytest.fixture(scope="module")
def seed_summary():
    """The summary as read (a summary alone is refused: it holds no measured point)."""
    return orion._parse_summary(Source(SEED_SUMMARY), [])


@pytest.fixture(scope="module")
def db11_result():
    return only(parse_paths(DB11_FILES))


class TestSharedSampleMatrices:
    """The three 11.1.0.7.0 matrices of ../shared/samples/orion (MANIFEST: `-run simple -num_disks 1`)."""

    def test_without_the_summary_the_workload_is_unknown(self, sample_result):
        # The matrices give loads, not ORION's IO sizes, write % or IO types (those are in the summary).
        workload = sample_result["runs"][0]["workload"]
        assert workload == {
            "name": None,
            "read_pct": None,
            "random_pct": None,
            "transfer_sizes": [],
            "alignment_bytes": None,
            "streams": None,
        }

    def test_three_files_of_one_test_form_one_run(self, sample_result):
        assert len(sample_result["runs"]) == 1
        assert len(sample_result["source"]["files"]) == 3
        run = sample_result["runs"][0]
        assert run["name"] == "cnblogs-hftian_mytest"
        assert run["started_at"] == "2019-03-29T10:57:00"

    def test_points_are_the_cells_with_data(self, sample_result):
        # iops.csv and lat.csv line 2: large=0 at small 1..5; mbps.csv lines 2-3: small=0 at large 1 and 2.
        loads = [
            (p["load"]["small_outstanding"], p["load"]["large_outstanding"]) for p in sample_result["runs"][0]["points"]
        ]
        assert loads == [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (0, 1), (0, 2)]

    def test_small_io_cells(self, sample_result):
        run = sample_result["runs"][0]
        # iops.csv line 2 "0,   2302, ... 6210"; lat.csv line 2 "0,   0.43, ... 0.80" (milliseconds in 11.1).
        assert point_at(run, small=1, large=0)["iops"] == 2302
        assert point_at(run, small=1, large=0)["avg_response_ms"] == pytest.approx(0.43)
        assert point_at(run, small=5, large=0)["iops"] == 6210
        assert point_at(run, small=5, large=0)["avg_response_ms"] == pytest.approx(0.80)
        assert point_at(run, small=5, large=0)["mbps"] is None

    def test_large_io_cells(self, sample_result):
        run = sample_result["runs"][0]
        # mbps.csv lines 2 and 3: "1, 271.58" and "2, 374.26" in the small=0 column.
        assert point_at(run, small=0, large=1)["mbps"] == pytest.approx(271.58)
        assert point_at(run, small=0, large=2)["mbps"] == pytest.approx(374.26)
        assert point_at(run, small=0, large=2)["iops"] is None

    def test_missing_summary_is_a_warning(self, sample_result):
        assert sample_result["tool"]["version"] is None
        assert len(sample_result["warnings"]) == 1
        assert "no ORION _summary.txt" in sample_result["warnings"][0]
        assert "milliseconds" in sample_result["warnings"][0]

    def test_a_lone_matrix_is_read_with_a_warning(self):
        result = only(parse_paths(SAMPLE_FILES[:1]))
        assert [p["iops"] for p in result["runs"][0]["points"]] == [2302, 4398, 5450, 6006, 6210]
        assert any("_mbps.csv, _lat.csv matrices were not given" in w for w in result["warnings"])

    def test_a_zip_of_the_test_is_one_result_set(self, tmp_path):
        archive = tmp_path / "orion.zip"
        with zipfile.ZipFile(archive, "w") as zipped:
            for path in SAMPLE_FILES:
                zipped.write(path, f"run1/{path.name}")
        result = only(parse_paths([archive]))
        assert len(result["runs"][0]["points"]) == 7
        assert result["source"]["files"][0]["name"] == f"orion.zip/run1/{SAMPLE_PREFIX}_iops.csv"


class TestSeedSummary:
    """The ORION 10.2.0.1.0 summary of seed 001_22c77edb183857dc.txt, appendix lines 227-247."""

    def test_version_and_command_line(self, seed_summary):
        assert seed_summary["version"] == "10.2.0.1.0"
        assert seed_summary["params"]["test_name"] == "vmware"
        assert seed_summary["params"]["command_line"].startswith("-run advanced -testname vmware -num_disks 5")

    def test_maxima_in_params_with_their_loads(self, seed_summary):
        params = seed_summary["params"]
        # "Maximum Large MBPS=108.27 @ Small=0 and Large=9", "Maximum Small IOPS=882 @ Small=25 and Large=0"
        assert params["max_large_mbps"] == pytest.approx(108.27)
        assert params["max_large_mbps_at"] == {"small_outstanding": 0, "large_outstanding": 9}
        assert params["max_small_iops"] == 882
        assert params["max_small_iops_at"] == {"small_outstanding": 25, "large_outstanding": 0}
        # "Minimum Small Latency=5.42 @ Small=1 and Large=0": milliseconds in 10.2 (no unit printed).
        assert params["min_small_latency_ms"] == pytest.approx(5.42)

    def test_parameter_block(self, seed_summary):
        params = seed_summary["params"]
        assert params["small_io_size_bytes"] == 8 * 1024
        assert params["large_io_size_bytes"] == 1024 * 1024
        assert params["stripe_depth_bytes"] == 1024 * 1024
        assert params["simulated_array_type"] == "RAID 0"
        assert params["cache_size_bytes"] is None
        assert params["duration_s"] == 150
        assert params["large_columns"] == list(range(11))
        assert params["total_data_points"] == 36
        assert params["luns"] == [{"name": "\\\\.\\f:", "size_bytes": 1924071424}]

    def test_workload_from_write_percent_and_io_types(self, seed_summary):
        # "Write: 30%", "IO Types: Small Random IOs, Large Random IOs"
        workload = orion._workload(seed_summary["params"], [])
        assert (workload.read_pct, workload.random_pct, workload.transfer_sizes) == (70.0, 100.0, [])

    def test_a_summary_alone_is_refused_saying_what_is_missing(self):
        with pytest.raises(ParseError) as caught:
            parse_paths([SEED_SUMMARY])
        assert str(caught.value) == (
            "vmware_summary.txt: only the ORION summary was given: it holds the maxima but no measured point; "
            "give the _iops.csv, _mbps.csv and _lat.csv files of the same test with it"
        )


class TestVersion112Test:
    """tests/ingest/data/orion/db11_20240305_1412_*: 11.2 layout, latencies in microseconds."""

    def test_one_run_with_every_cell(self, db11_result):
        # The summary's last line (44) is the histogram's "65536 - 131072" bucket: ORION states no last one.
        assert db11_result["warnings"] == [
            "db11_20240305_1412_summary.txt:44: the summary ends in its latency histogram, whose last bucket ORION "
            "does not state: buckets after this line are missing if the file was cut"
        ]
        run = db11_result["runs"][0]
        assert len(run["points"]) == 10
        assert run["workload"]["read_pct"] == 80.0  # "Writes: 20%"
        # "IO types: small random IOs, large random IOs" (summary line 10): both kinds random.
        assert run["workload"]["random_pct"] == 100.0
        # The basic matrix ran small-only and large-only cells (8 KB and 1024 KB, lines 8-9): no one
        # transfer size for the run; the sizes stay in params.
        assert run["workload"]["transfer_sizes"] == []
        assert (run["params"]["small_io_size_bytes"], run["params"]["large_io_size_bytes"]) == (8192, 1048576)

    def test_one_io_kind_gives_its_size_and_access(self, tmp_path):
        # Without the MBPS matrix only the small-IO cells (iops.csv and lat.csv line 2, large=0) are
        # measured: the 8 KB small IOs, random ("small random IOs"), are the whole workload.
        for path in DB11_FILES:
            (tmp_path / path.name).write_bytes(path.read_bytes())
        summary = tmp_path / "db11_20240305_1412_summary.txt"
        summary.write_text(summary.read_text().replace("large random IOs", "large sequential IOs"))
        small_only = [summary, tmp_path / "db11_20240305_1412_iops.csv", tmp_path / "db11_20240305_1412_lat.csv"]
        result = only(parse_paths(small_only))
        workload = result["runs"][0]["workload"]
        assert workload["transfer_sizes"] == [{"bytes": 8192, "pct": 100.0}]
        assert workload["random_pct"] == 100.0

    def test_microseconds_become_milliseconds(self, db11_result):
        run = db11_result["runs"][0]
        # summary "Minimum Small Latency=5540.12 usecs"; lat.csv line 2 "0,5540.12,..." in microseconds.
        assert run["params"]["min_small_latency_ms"] == pytest.approx(5.54012)
        assert point_at(run, small=1, large=0)["avg_response_ms"] == pytest.approx(5.54012)
        assert point_at(run, small=6, large=0)["avg_response_ms"] == pytest.approx(6.92768)

    def test_matrices_and_maxima_agree(self, db11_result):
        run = db11_result["runs"][0]
        assert point_at(run, small=6, large=0)["iops"] == run["params"]["max_small_iops"] == 866
        assert point_at(run, small=0, large=4)["mbps"] == run["params"]["max_large_mbps"] == 190.66

    def test_latency_lines_and_histogram(self, db11_result):
        params = db11_result["runs"][0]["params"]
        # "Small Read Latency: avg=6928 us, ... @ Small=6 and Large=0"
        assert params["latency_details"][0]["avg_ms"] == pytest.approx(6.928)
        histogram = params["latency_histograms"][0]
        assert (histogram["small_outstanding"], histogram["large_outstanding"]) == (1, 0)
        assert len(histogram["buckets"]) == 10
        assert histogram["buckets"][1] == {"from_ms": 0.256, "to_ms": 0.512, "reads": 402, "writes": 97}

    def test_a_zip_of_the_test_matches_the_files(self, tmp_path, db11_result):
        archive = tmp_path / "db11.zip"
        with zipfile.ZipFile(archive, "w") as zipped:
            for path in DB11_FILES:
                zipped.write(path, path.name)
        zipped_result = only(parse_paths([archive]))
        assert zipped_result["runs"] == db11_result["runs"]


class TestDetectionAndErrors:
    def test_sniff_recognises_summary_and_matrices_by_content(self):
        assert orion.sniff(SEED_SUMMARY.read_bytes(), "anything.txt")
        assert orion.sniff(SAMPLE_FILES[0].read_bytes(), "anything.csv")
        assert not orion.sniff(b"Large,Small\n1,2\n", "x_iops.csv")

    def test_a_mistyped_value_names_line_and_column(self):
        with pytest.raises(ParseError) as caught:
            parse_paths([data("orion", "badcell_20240101_0900_iops.csv")])
        assert caught.value.line == 2
        assert str(caught.value) == "badcell_20240101_0900_iops.csv:2: column 3: expected a number, found '7l2'"

    def test_a_row_wider_than_the_header(self):
        with pytest.raises(ParseError) as caught:
            parse_paths([data("orion", "widerow_20240101_0900_iops.csv")])
        assert caught.value.line == 2
        assert "row for large=0 has 3 values but the header names 2 small-IO levels" in str(caught.value)

    def test_a_renamed_matrix_cannot_be_read(self):
        source = Source(name="matrix.csv", data=SAMPLE_FILES[0].read_bytes())
        with pytest.raises(ParseError, match="keep the name ORION gave it, ending in _iops.csv"):
            parse_sources([source])

    def test_two_matrices_of_one_kind(self):
        twice = [Source(name=f"{folder}/t_iops.csv", data=SAMPLE_FILES[0].read_bytes()) for folder in ("a", "b")]
        with pytest.raises(ParseError, match="two ORION iops matrices for one test: a/t_iops.csv and b/t_iops.csv"):
            orion.parse_group(twice)

    def test_a_bad_write_percentage_in_a_summary(self):
        text = SEED_SUMMARY.read_text().replace("Write: 30%", "Write: thirty")
        with pytest.raises(ParseError) as caught:
            parse_sources([Source(name="vmware_summary.txt", data=text.encode())])
        assert str(caught.value) == "vmware_summary.txt:13: expected a write percentage like '30%', found 'thirty'"


class TestDamagedFiles:
    """Cut, damaged and incomplete tests are refused with what is wrong, never stored half."""

    def test_a_matrix_cut_in_the_middle_of_a_line(self, tmp_path):
        iops = tmp_path / f"{SAMPLE_PREFIX}_iops.csv"
        iops.write_bytes(SAMPLE_FILES[0].read_bytes()[:64])  # in row 0, after "   2" of "2302"
        with pytest.raises(ParseError) as caught:
            parse_paths([iops])
        assert str(caught.value) == (
            f"{SAMPLE_PREFIX}_iops.csv:2: the matrix stops in the middle of a line: the file is cut short; "
            "give the complete file ORION wrote"
        )

    def test_a_matrix_cut_after_its_header(self, tmp_path):
        iops = tmp_path / f"{SAMPLE_PREFIX}_iops.csv"
        iops.write_bytes(SAMPLE_FILES[0].read_bytes().split(b"\n")[0] + b"\n")
        with pytest.raises(ParseError) as caught:
            parse_paths([iops])
        assert str(caught.value) == (
            f"{SAMPLE_PREFIX}_iops.csv:1: the matrix has its 'Large/Small' header but no measured value; "
            "the file may be cut short"
        )

    @pytest.mark.parametrize("value", ["NaN", "inf", "-2302", "9" * 400])
    def test_an_impossible_cell_names_line_and_column(self, tmp_path, value):
        iops = tmp_path / f"{SAMPLE_PREFIX}_iops.csv"
        iops.write_bytes(SAMPLE_FILES[0].read_bytes().replace(b"2302", value.encode()))
        with pytest.raises(ParseError) as caught:
            parse_paths([iops])
        assert str(caught.value) == f"{SAMPLE_PREFIX}_iops.csv:2: column 2: expected a number, found {value!r}"

    def test_a_latin_1_byte_in_a_summary(self, tmp_path):
        summary = tmp_path / "db11_20240305_1412_summary.txt"
        text = DB11_FILES[0].read_bytes()
        summary.write_bytes(text.replace(b"Command line:", "Command lin\u00e9:".encode("latin-1")))
        with pytest.raises(ParseError) as caught:
            parse_paths([summary, *DB11_FILES[1:]])
        offset = text.index(b"Command line:") + len("Command lin")
        line = text[:offset].count(b"\n") + 1
        assert str(caught.value) == (
            f"db11_20240305_1412_summary.txt:{line}: byte 0xE9 at offset {offset} is not UTF-8; "
            "save the file as UTF-8 (it may be Latin-1 / Windows-1252)"
        )
