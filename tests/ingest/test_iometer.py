"""Iometer results CSV: the shared samples and our own files of the layouts no sample shows.

Expected values are read by hand from the files; comments give the line they come from.
"""

import json

import jsonschema
import pytest

from ingest import ParseError, Source, detect, parse_paths
from ingest.formats import iometer
from ingest.result import MB, MIB, json_schema
from tests.ingest.contract import FormatContract, SingleSizeUnits
from tests.ingest.helpers import parse_one
from tests.samples import SAMPLES_DIR, data, sample

QUARCH = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv")
NETWORK = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")
ICFS = (
    sample("iometer", "tpqemu_iometer_multi_4disks_2006.07.27.icf"),
    sample("iometer", "kunyi0605_RND4K_Q32T8_READ_1.1.0.icf"),
)
V2006 = data("iometer", "results_2006.07.27_fileserver_webserver.csv")
SWEEP = data("iometer", "results_1.1.0_qd_sweep_crlf.csv")
PER_SECOND = data("iometer", "results_1.1.0_per_second.csv")
PER_SECOND_WORKERS = data("iometer", "results_1.1.0_per_second_workers_only.csv")


def rows_of(table):
    """A point's ``metrics["workers"|"targets"|"processors"]`` arrays, a dict per row."""
    return [dict(zip(table["columns"], row, strict=True)) for row in table["rows"]]


def run_named(result, name):
    (run,) = [run for run in result["runs"] if run["name"] == name]
    return run


class TestIometerContract(FormatContract, SingleSizeUnits):
    format_id = "iometer"
    inputs = [[QUARCH], [NETWORK], [V2006], [SWEEP], [PER_SECOND]]


@pytest.fixture(scope="module")
def quarch():
    return parse_one(QUARCH)


@pytest.fixture(scope="module")
def network():
    return parse_one(NETWORK)


@pytest.fixture(scope="module")
def v2006():
    return parse_one(V2006)


@pytest.fixture(scope="module")
def sweep():
    return parse_one(SWEEP)


class TestQuarchAppendedTests:
    """59 appended tests, 4 workers on 4 NVMe disks at queue depth 1, LF line endings."""

    def test_every_test_is_one_run_of_one_point(self, quarch):
        assert quarch["tool"] == {"name": "Iometer", "version": "1.1.0"}
        assert len(quarch["runs"]) == 59
        assert all(len(run["points"]) == 1 for run in quarch["runs"])
        assert quarch["warnings"] == []

    def test_first_all_row(self, quarch):
        run = quarch["runs"][0]
        (point,) = run["points"]
        # Lines 2 and 6: test description and start time stamp.
        assert run["description"] == "512B Random Read"
        assert run["started_at"] == "2023-03-25T03:05:43.661"
        assert point["metrics"]["ended_at"] == "2023-03-25T03:05:58.840"  # line 38
        # Line 15, the ALL row: IOps, MBps (Decimal), average and maximum response time, CPU.
        assert point["iops"] == pytest.approx(30171.173034)
        assert point["read_iops"] == pytest.approx(30171.173034)
        assert point["mbps"] == pytest.approx(15.447641)
        assert point["mbps"] == pytest.approx(14.732018 * MIB / MB, rel=1e-6)  # MiBps (Binary) column
        assert point["avg_response_ms"] == pytest.approx(0.132133)
        assert point["avg_write_response_ms"] is None  # 0.000000 with no write I/O
        assert point["max_response_ms"] == pytest.approx(10.5789)
        assert point["cpu_pct"] == pytest.approx(68.917106)

    def test_load_is_summed_disk_queue_depth_and_worker_count(self, quarch):
        point = quarch["runs"][0]["points"][0]
        # Lines 29-36: four WORKER rows, each with one DISK at Queue Depth 1.
        assert point["load"] == {"outstanding_io": 4, "threads": 4}
        workers = rows_of(point["metrics"]["workers"])
        assert [w["name"] for w in workers] == ["Worker 1", "Worker 2", "Worker 3", "Worker 4"]
        assert workers[0]["iops"] == pytest.approx(7418.419681)  # line 29

    def test_unbalanced_quote_in_disk_name_is_text(self, quarch):
        targets = rows_of(quarch["runs"][0]["points"][0]["metrics"]["targets"])
        assert len(targets) == 4
        # Line 30: the name's double quotes are text, not CSV quoting; the row is not merged with the next.
        assert targets[0]["name"] == '1: "( INTEL SSDPE2ME016T4 8DV10160"'
        assert targets[0]["type"] == "DISK" and targets[0]["worker"] == "Worker 1"
        assert targets[0]["iops"] == pytest.approx(7418.419681)

    def test_latency_histogram(self, quarch):
        histogram = quarch["runs"][0]["points"][0]["metrics"]["latency_histogram"]
        assert sorted(histogram) == ["bins", "counts", "high_ms", "low_ms"]
        assert [len(values) for values in histogram.values()] == [21, 21, 21, 21]
        assert (histogram["bins"][0], histogram["low_ms"][0], histogram["high_ms"][0]) == ("0 to 50 uS", 0.0, 0.05)
        assert histogram["counts"][:2] == [40443, 355104]
        assert (histogram["bins"][-1], histogram["low_ms"][-1], histogram["high_ms"][-1]) == (">= 10 s", 10000.0, None)
        assert histogram["counts"][-1] == 0
        # The bins add up to the Read I/Os column of line 15.
        assert sum(histogram["counts"]) == 452611

    def test_points_share_their_column_and_bin_lists(self, quarch):
        first, second = (run["points"][0]["metrics"] for run in quarch["runs"][:2])
        assert first["workers"]["columns"] == [
            "manager",
            "name",
            "access_specification",
            "iops",
            "mbps",
            "avg_response_ms",
            "max_response_ms",
            "queue_depth",
        ]
        assert first["targets"]["columns"][:4] == ["manager", "name", "worker", "type"]
        assert first["processors"]["columns"] == ["manager", "name", "cpu_pct"]
        for kind in ("workers", "targets", "processors"):
            assert first[kind]["columns"] is second[kind]["columns"]
        assert first["latency_histogram"]["bins"] is second["latency_histogram"]["bins"]

    def test_transfer_size_and_last_test(self, quarch):
        first, last = quarch["runs"][0], quarch["runs"][-1]
        # Line 11: 512,100,100,100,0,1,0,0 (512 B, 100 % reads, 100 % random, align 0: sector
        # boundaries, whose size the file does not state).
        assert first["workload"] == {
            "name": "512B Random Read",  # the test description: the spec is quarch-autogenerated-spec
            "read_pct": 100.0,
            "random_pct": 100.0,
            "transfer_sizes": [{"bytes": 512, "pct": 100.0}],
            "alignment_bytes": None,
            "streams": None,
        }
        # Line 2277, the last ALL row: a 32 KiB sequential read test.
        assert last["description"] == "32K Sequential Read"
        assert last["workload"]["random_pct"] == 0.0
        assert last["points"][0]["iops"] == pytest.approx(8527.872164)
        assert last["points"][0]["mbps"] == pytest.approx(279.441315)

    def test_the_59_tests_are_a_handful_of_workloads_named_by_their_descriptions(self, quarch):
        names = [run["workload"]["name"] for run in quarch["runs"]]
        assert len(names) == 59
        # Every test's spec is "quarch-autogenerated-spec"; its 'Test Description names the workload
        # (counted by hand from the file's 59 'Test Description lines).
        assert {name: names.count(name) for name in set(names)} == {
            "512B Random Read": 13,
            "4K Random Read": 11,
            "16K Random Read": 10,
            "32K Randon Read": 5,
            "512B Sequential Read": 5,
            "4K Sequential Read": 5,
            "16K Sequential Read": 5,
            "32K Sequential Read": 5,
        }
        assert not any("(test" in name or "autogenerated" in name for name in names)

    def test_run_names_repeat_the_spec_with_the_test_number(self, quarch):
        names = [run["name"] for run in quarch["runs"]]
        assert names[:2] == ["quarch-autogenerated-spec", "quarch-autogenerated-spec (test 2)"]
        assert len(set(names)) == 59


class TestNetworkEmptyRuns:
    """CRLF, a stopped first test, empty sections, NETWORK targets and uint64 sentinels."""

    def test_runs_points_and_warnings(self, network):
        # 13 'Results sections: two have 0 workers and are skipped; one spec (line 23) has no results.
        assert len(network["runs"]) == 11
        assert all(len(run["points"]) == 1 for run in network["runs"])
        assert network["warnings"] == [
            "line 7 (test 1): section has 0 workers and 0 IOPS (an empty run); skipped",
            "line 23 (test 1): section for 'Email Server - R60 W40- RND- 4K' has no ALL results row "
            "(test stopped?); skipped",
            "line 1: test 1 has no 'End Test (stopped or cut short)",
            "line 35 (test 2): section has 0 workers and 0 IOPS (an empty run); skipped",
        ]

    def test_first_measured_section(self, network):
        run = network["runs"][0]
        (point,) = run["points"]
        assert run["name"] == "Email Server - R60 W40- RND- 4K"  # line 53; the ALL row names no spec
        assert run["started_at"] == "2019-09-07T17:17:57.720"  # line 50
        assert run["description"].startswith("Simulated real-world performance testing template. Revision 2.1.0")
        # Line 59: IOps, MBps (Decimal) = MiBps (Binary) 971.237102 x 1.048576, average response time.
        assert point["iops"] == pytest.approx(248636.698001)
        assert point["mbps"] == pytest.approx(1018.415915)
        assert point["mbps"] == pytest.approx(971.237102 * MIB / MB, rel=1e-6)
        assert point["avg_response_ms"] == pytest.approx(0.007959)
        assert run["workload"] == {
            "name": "Email Server - R60 W40- RND- 4K",
            "read_pct": 60.0,
            "random_pct": 100.0,
            "transfer_sizes": [{"bytes": 4096, "pct": 100.0}],
            "alignment_bytes": None,
            "streams": None,
        }

    def test_a_named_spec_is_the_workload_name_without_the_test_number(self, network):
        names = [run["workload"]["name"] for run in network["runs"]]
        assert names[:2] == ["Email Server - R60 W40- RND- 4K", "Database Server - R70 W30- RND- 8K"]
        assert not any("(test" in name for name in names)

    def test_network_targets_and_sentinels(self, network):
        point = network["runs"][0]["points"][0]
        # No DISK rows: outstanding I/Os unknown; one (non-client) worker counted on line 59.
        assert point["load"] == {"outstanding_io": None, "threads": 1}
        assert [w["name"] for w in rows_of(point["metrics"]["workers"])] == ["Worker 9", "[Worker 9]"]
        (target,) = rows_of(point["metrics"]["targets"])
        assert target["type"] == "NETWORK"
        assert target["name"] == "TESTBIRNE:192.168.100.85 >> TESTBIRNE:192.168.100.85"
        # Line 59: Starting Sector and Maximum Size are 18446744073709551615.
        assert point["metrics"]["starting_sector"] is None
        assert point["metrics"]["maximum_size_sectors"] is None
        assert point["metrics"]["queue_depth"] == 1

    def test_mixed_transfer_sizes_are_weighted_by_share(self, network):
        # Lines 101-106: six sizes, all 95 % reads and 100 % random.
        web = run_named(network, "Web Server - R95 W5- RND- Var")["workload"]
        assert [(s["bytes"], s["pct"]) for s in web["transfer_sizes"]] == [
            (2048, 20.0),
            (4096, 19.0),
            (8192, 18.0),
            (16384, 17.0),
            (32768, 16.0),
            (65536, 10.0),
        ]
        assert web["read_pct"] == pytest.approx(95.0)
        # Lines 129-131: 33 % at 80 % reads, 33 % at 95 %, 34 % at 80 %.
        oltp = run_named(network, "Online Tranaction Processing (OLTP)  Server - R80 W20- RND- Var")["workload"]
        assert oltp["read_pct"] == pytest.approx((33 * 80 + 33 * 95 + 34 * 80) / 100)
        # Lines 154-158: the 64 KiB line (13 %) is sequential, the others random.
        archive = run_named(network, "Archical File Server - R90 W10- SEQ- Var")["workload"]
        assert archive["random_pct"] == pytest.approx(87.0)
        assert archive["read_pct"] == pytest.approx((13 * 90 + 34 * 95 + 23 * 80 + 20 * 80 + 10 * 80) / 100)


class TestIometer2006:
    """Our 2006.07.27 file: 56 columns, binary MBps, File Server then Web Server (seed 000 mixes)."""

    def test_version_runs_and_description_with_comma(self, v2006):
        assert v2006["tool"] == {"name": "Iometer", "version": "2006.07.27"}
        assert [run["name"] for run in v2006["runs"]] == ["File Server", "Web Server"]
        assert v2006["runs"][0]["description"] == "DS4500 RAID-5 60 HDDs, all caches disabled"  # line 2
        assert v2006["warnings"] == []

    def test_binary_mbps_is_converted_to_decimal(self, v2006):
        (point,) = run_named(v2006, "File Server")["points"]
        # Line 22: IOps 2946.75, MBps 31.884756 (2^20 bytes), Read MBps 25.507805, avg 5.429711 ms.
        assert point["iops"] == pytest.approx(2946.75)
        assert point["mbps"] == pytest.approx(31.884756 * 1.048576)
        assert point["read_mbps"] == pytest.approx(25.507805 * 1.048576)
        assert point["avg_response_ms"] == pytest.approx(5.429711)
        assert point["cpu_pct"] == pytest.approx(12.5)
        assert point["load"] == {"outstanding_io": 16, "threads": 2}  # lines 27 and 29: Queue Depth 8 each
        assert point["metrics"]["maximum_size_sectors"] is None  # 18446744073709551615
        assert "latency_histogram" not in point["metrics"]

    def test_file_server_mix(self, v2006):
        workload = run_named(v2006, "File Server")["workload"]
        # Lines 11-18, the File Server mix of seed 000: 80 % reads, 100 % random.
        assert [(s["bytes"], s["pct"]) for s in workload["transfer_sizes"]] == [
            (512, 10.0),
            (1024, 5.0),
            (2048, 5.0),
            (4096, 60.0),
            (8192, 2.0),
            (16384, 4.0),
            (32768, 4.0),
            (65536, 10.0),
        ]
        assert workload["read_pct"] == pytest.approx(80.0)
        assert workload["random_pct"] == pytest.approx(100.0)

    def test_web_server_is_read_only(self, v2006):
        run = run_named(v2006, "Web Server")
        assert len(run["workload"]["transfer_sizes"]) == 10
        assert run["workload"]["read_pct"] == pytest.approx(100.0)
        (point,) = run["points"]
        assert point["iops"] == pytest.approx(4000.0)  # line 49
        assert point["mbps"] == pytest.approx(61.171875 * 1.048576)
        assert point["avg_write_response_ms"] is None
        assert run["started_at"] == "2006-11-14T10:07:12.031"


class TestQueueDepthSweep:
    """Our CRLF 1.1.0 file: one test cycling outstanding I/Os over two access specifications."""

    def test_sections_of_one_spec_form_one_run(self, sweep):
        assert [(run["name"], len(run["points"])) for run in sweep["runs"]] == [
            ("4K random read", 4),
            ("64K sequential write", 2),
        ]

    def test_points_in_increasing_load(self, sweep):
        points = run_named(sweep, "4K random read")["points"]
        # ALL rows on lines 15, 31, 47, 63; DISK Queue Depth 1, 2, 4, 8.
        assert [p["load"]["outstanding_io"] for p in points] == [1, 2, 4, 8]
        assert [p["iops"] for p in points] == pytest.approx([9500.0, 18250.0, 33000.0, 52000.0])
        assert [p["mbps"] for p in points] == pytest.approx([38.912, 74.752, 135.168, 212.992])
        assert points[3]["metrics"]["started_at"] == "2021-06-01T09:03:00.030"

    def test_write_run(self, sweep):
        run = run_named(sweep, "64K sequential write")
        assert run["workload"]["read_pct"] == 0.0 and run["workload"]["random_pct"] == 0.0
        # Line 95: 2400 IOps, 157.2864 MBps (Decimal).
        assert run["points"][1]["mbps"] == pytest.approx(157.2864)
        assert run["points"][1]["avg_read_response_ms"] is None


class TestPerSecondLayout:
    """Our 1.1.0 file with a leading TimeStamp column: three seconds, then the result row."""

    def test_last_all_row_is_the_result_and_seconds_a_time_series(self):
        (run,) = parse_one(PER_SECOND)["runs"]
        (point,) = run["points"]
        assert point["iops"] == pytest.approx(4083.333333)  # line 33
        assert [s["iops"] for s in point["metrics"]["time_series"]] == [3900.0, 4300.0, 4050.0]  # lines 15, 21, 27
        assert point["metrics"]["time_series"][0]["time"] == "2022-02-02T12:00:01.000"
        assert point["load"] == {"outstanding_io": 4, "threads": 1}
        assert len(point["metrics"]["workers"]["rows"]) == 1  # the last second's rows only
        assert run["workload"]["read_pct"] == 70.0


class TestBadInput:
    def test_truncated_file(self):
        with pytest.raises(ParseError) as caught:
            parse_paths([data("iometer", "truncated_2006.07.27.csv")])
        assert caught.value.line == 53
        assert caught.value.message == (
            "the WORKER row has 23 of the 56 columns the header on line 48 announces; the file looks truncated"
        )

    def test_bad_number(self):
        with pytest.raises(ParseError) as caught:
            parse_paths([data("iometer", "bad_row_2006.07.27.csv")])
        assert (caught.value.line, caught.value.field) == (29, "IOps")
        assert str(caught.value) == "bad_row_2006.07.27.csv:29: field 'IOps': '1466.5O' is not a number"

    def test_row_with_extra_column(self):
        text = V2006.read_text().replace("DISK,PHYSICALDRIVE:1,", "DISK,PHYSICALDRIVE,1,", 1)
        with pytest.raises(ParseError) as caught:
            iometer.parse(Source(name="extra.csv", data=text.encode()))
        assert caught.value.line == 27
        assert caught.value.message.startswith("expected 56 columns after 'Target Type' (header line 21), found 57")

    def test_file_ending_before_results(self):
        head = "".join(V2006.read_text().splitlines(keepends=True)[:20])  # stops after 'Results
        with pytest.raises(ParseError) as caught:
            iometer.parse(Source(name="cut.csv", data=head.encode()))
        assert caught.value.line == 20
        assert "the file looks truncated" in caught.value.message

    def test_only_empty_sections(self):
        lines = NETWORK.read_bytes().splitlines(keepends=True)[:20]  # test 1's empty section only
        with pytest.raises(ParseError, match="no result section with measurements"):
            iometer.parse(Source(name="empty.csv", data=b"".join(lines)))


class TestDetection:
    @pytest.mark.parametrize("path", ICFS, ids=lambda p: p.name)
    def test_icf_is_refused_as_a_configuration(self, path):
        with pytest.raises(ParseError) as caught:
            detect(Source(path))
        assert "is an Iometer configuration file (.icf" in str(caught.value)
        assert "holds test settings and no results" in caught.value.message

    def test_icf_version_is_named(self):
        message = iometer.refuse(ICFS[0].read_bytes()[:4096], ICFS[0].name)
        assert message.startswith("this is an Iometer configuration file (.icf, Version 2006.07.27)")

    def test_results_files_are_detected(self):
        for path in (QUARCH, NETWORK, V2006, SWEEP, PER_SECOND):
            assert detect(Source(path)) is iometer

    def test_other_tools_samples_are_not_claimed(self):
        others = [p for p in SAMPLES_DIR.rglob("*") if p.is_file() and p.parent.name not in ("iometer",)]
        others = [p for p in others if p.name != "MANIFEST.md"]
        assert others
        for path in others:
            head = path.read_bytes()[:4096]
            assert not iometer.sniff(head, path.name), path.name
            assert iometer.refuse(head, path.name) is None, path.name


class TestDamagedFiles:
    """Damaged cells and missing lines are refused with the line and the column."""

    @staticmethod
    def with_iops(tmp_path, value):
        text = V2006.read_bytes()
        lines = text.split(b"\n")
        number = next(i for i, line in enumerate(lines) if line.startswith(b"ALL,All,"))
        cells = lines[number].split(b",")
        cells[6] = value  # the IOps column
        lines[number] = b",".join(cells)
        path = tmp_path / V2006.name
        path.write_bytes(b"\n".join(lines))
        return path, number + 1

    def test_nan_in_a_cell(self, tmp_path):
        path, line = self.with_iops(tmp_path, b"NaN")
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert str(caught.value) == f"{V2006.name}:{line}: field 'IOps': 'NaN' (not a number) is no measured value"

    def test_a_400_digit_number(self, tmp_path):
        path, line = self.with_iops(tmp_path, b"9" * 400)
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert str(caught.value) == (
            f"{V2006.name}:{line}: field 'IOps': '99999999999999999999...(400 characters)' is too large to be a "
            "measured value"
        )

    def test_a_negative_figure_names_the_run_and_point(self, tmp_path):
        path, _ = self.with_iops(tmp_path, b"-5")
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert str(caught.value) == (
            f"{V2006.name}: run 'File Server', point 1: iops: -5.0 is below 0; a measured figure cannot be that, "
            "so the file may be damaged"
        )

    def test_the_line_after_time_stamp_missing(self, tmp_path):
        lines = V2006.read_bytes().splitlines(keepends=True)
        assert lines[4].startswith(b"'Time Stamp")
        path = tmp_path / V2006.name
        path.write_bytes(b"".join(lines[:5] + lines[6:]))  # the time stamp's value line is gone
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert str(caught.value) == (
            f"{V2006.name}:8: access specification outside an 'Access specifications block: the lines before it "
            "are missing or damaged"
        )


class TestWorkloadSignature:
    """The access specification lines, not the specification's name, say what a run did."""

    def test_a_name_that_says_otherwise_is_not_the_workload(self, network):
        # Lines 206-212: "Streaming Media Server - R98 W2- SEQ- Var", yet its lines are
        # 65536,2,98,0 / 262144,5,95,100 / 524288,10,80,100 / 1048576,17,80,100 / 5242880,66,80,100.
        workload = run_named(network, "Streaming Media Server - R98 W2- SEQ- Var")["workload"]
        assert workload["read_pct"] == pytest.approx((2 * 98 + 5 * 95 + 10 * 80 + 17 * 80 + 66 * 80) / 100)
        assert workload["random_pct"] == pytest.approx(98.0)
        assert [(s["bytes"], s["pct"]) for s in workload["transfer_sizes"]] == [
            (65536, 2.0),
            (262144, 5.0),
            (524288, 10.0),
            (1048576, 17.0),
            (5242880, 66.0),
        ]
        # align 0 on every line: sector boundaries, whose size the results do not state.
        assert workload["alignment_bytes"] is None

    def test_an_align_column_in_bytes_is_the_alignment(self, tmp_path):
        text = NETWORK.read_bytes().replace(b"65536,2,98,0,0,1,0,0,", b"65536,2,98,0,0,1,4096,0,")
        path = tmp_path / "aligned.csv"
        path.write_bytes(text.replace(b"262144,5,95,100,0,1,0,0,", b"262144,5,95,100,0,1,4096,0,"))
        [result] = parse_paths([path])
        run = run_named(result, "Streaming Media Server - R98 W2- SEQ- Var")
        # Three lines still align on sectors (0): no one alignment for the mix.
        assert run["workload"]["alignment_bytes"] is None
        text = NETWORK.read_bytes().replace(b"4096,100,60,100,0,1,0,0,", b"4096,100,60,100,0,1,4096,0,")
        path.write_bytes(text)
        [result] = parse_paths([path])
        assert result["runs"][0]["workload"]["alignment_bytes"] == 4096


def test_the_arrays_meet_the_result_schema_as_stored(quarch):
    validator = jsonschema.Draft202012Validator(json_schema())
    stored = json.loads(json.dumps(quarch))
    assert list(validator.iter_errors(stored)) == []
    stored["runs"][0]["points"][0]["metrics"]["workers"]["rows"] = {"Worker 1": [7418.419681]}
    stored["runs"][0]["points"][0]["metrics"]["latency_histogram"]["counts"][0] = "40443"
    assert sorted(f"{error.json_path}: {error.validator}" for error in validator.iter_errors(stored)) == [
        "$.runs[0].points[0].metrics.latency_histogram.counts[0]: type",
        "$.runs[0].points[0].metrics.workers.rows: type",
    ]


class TestInstantaneousWorkerRows:
    """Our 1.1.0 file in the layout of Iometer's instantaneous results as quarchpy's AN-016 writes them: a
    WORKER row per worker each second (no ALL, MANAGER or DISK rows), then each worker's whole-run row
    naming the access specification, then the ALL row."""

    def test_workers_are_the_two_workers_and_their_seconds_are_samples(self):
        (run,) = parse_one(PER_SECOND_WORKERS)["runs"]
        (point,) = run["points"]
        workers = point["metrics"]["workers"]["rows"]
        # lines 21-22: the whole-run rows, 2,200 and 2,300 IOPS, each at Queue Depth 1.
        assert [(w[1], w[2], w[3], w[-1]) for w in workers] == [
            ("Worker 1", "ours-32k-seq-read", 2200.0, 1),
            ("Worker 2", "ours-32k-seq-read", 2300.0, 1),
        ]
        assert point["metrics"]["worker_samples"] == 6  # lines 15-20: 3 seconds x 2 workers
        # No DISK rows: the outstanding I/Os are the workers' Queue Depth, 1 + 1.
        assert point["load"] == {"outstanding_io": 2, "threads": 2}
        assert point["iops"] == 4500.0  # line 23, the ALL row
