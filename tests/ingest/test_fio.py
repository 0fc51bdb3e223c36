"""fio JSON: the shared samples (fio 2.17 to 3.34), our own sweep and json+ files, and bad input."""

import json
import shutil

import pytest

from ingest import ParseError, Source, parse_paths, parse_sources
from ingest.formats import fio
from tests.ingest.contract import FormatContract, SingleSizeUnits
from tests.samples import data, sample

FIO_218 = sample("fio", "fioplot_fio-2.18_example_data01_randread-01.json")
PKB_217 = sample("fio", "pkb_fio-2.17_multijob_group_reporting.json")
CEPH_36 = sample("fio", "fioplot_fio-3.6_ceph-hdd_randread-16-16.json")
MULTIJOB_36 = sample("fio", "fioplot_fio-3.6_multijob-no-group-reporting_randwrite-1-8.json")
SAMSUNG_314 = sample("fio", "fioplot_fio-3.14_samsungpm833_randread-1-1.json")
HIGHPOINT_316 = sample("fio", "fioplot_fio-3.16_highpoint-raid5_randread-32-32.json")
ERROR_333 = sample("fio", "fioplot_fio-3.33_write-64-1_error-prefix.json")
FIO_334 = sample("fio", "fioplot_fio-3.34_randread-1-1.json")
SWEEP = data("fio", "sweep")
OLTP = data("fio", "oltp_randrw_jsonplus.json")


class TestFioContract(FormatContract, SingleSizeUnits):
    format_id = "fio"
    inputs = [[path] for path in (FIO_218, PKB_217, CEPH_36, MULTIJOB_36, SAMSUNG_314, HIGHPOINT_316, FIO_334)]
    inputs += [[SWEEP], [OLTP]]


def only_point(path):
    [result] = parse_paths([path])
    [run] = result["runs"]
    [point] = run["points"]
    return result, run, point


def test_fio_2_x_microsecond_fields():
    result, run, point = only_point(FIO_218)
    assert result["tool"] == {"name": "fio", "version": "2.18-59-g618e"}
    assert run["name"] == "random-io"
    # "rw" : "randread", "bs" : "4k" (lines 13-14); no ba/blockalign.
    assert run["workload"] == {
        "name": "random-io",
        "read_pct": 100,
        "random_pct": 100,
        "transfer_sizes": [{"bytes": 4096, "pct": 100.0}],
        "alignment_bytes": None,
        "streams": None,
    }
    # "iodepth" : "01" (line 17), no numjobs: one job.
    assert point["load"] == {"outstanding_io": 1, "threads": 1}
    assert point["iops"] == pytest.approx(73.184143)  # line 32
    assert point["mbps"] == pytest.approx(292 * 1024 / 1e6)  # "bw" : 292 KiB/s, line 31
    assert point["avg_response_ms"] == pytest.approx(13.652220173)  # lat mean 13652.220173 µs, line 74
    assert point["avg_read_response_ms"] == point["avg_response_ms"]
    assert point["write_iops"] is None and point["avg_write_response_ms"] is None
    assert point["metrics"]["clat_percentiles_ms"]["read"]["99"] == pytest.approx(22.912)  # 22912 µs, line 61


def test_fio_2_17_two_groups_and_a_duplicated_global_key():
    [result] = parse_paths([PKB_217])
    read_run, write_run = result["runs"]
    assert read_run["name"] == "rand_16k_read_100%-io-depth-1-num-jobs-2"
    # "filename" appears twice in "global options" with the same value: tolerated, kept.
    assert read_run["params"]["filename"] == "/dev/disk/by-id/google-pkb-7fb0c9d8-0-data-0-0"
    assert read_run["workload"]["transfer_sizes"] == [{"bytes": 16384, "pct": 100.0}]
    [read] = read_run["points"]
    assert read["load"] == {"outstanding_io": 2, "threads": 2}  # iodepth 1 x numjobs 2, lines 30-32
    assert read["iops"] == pytest.approx(8086.673998)  # line 37
    assert read["mbps"] == pytest.approx(129386 * 1024 / 1e6)  # line 36
    assert read["avg_response_ms"] == pytest.approx(0.245531122)  # lat mean 245.531122 µs, line 79
    [write] = write_run["points"]
    assert write_run["workload"]["read_pct"] == 0
    assert write["write_iops"] == pytest.approx(2457.017193)  # line 311
    assert write["avg_write_response_ms"] == pytest.approx(0.810977136)  # line 353
    assert write["read_iops"] is None


@pytest.mark.parametrize(
    ("path", "load", "iops", "bw_bytes", "lat_ns"),
    [
        # iodepth/numjobs lines 17/22, iops line 35, bw_bytes line 33, lat_ns mean line 74
        (CEPH_36, (256, 16), 3621.107953, 14832058, 70306436.937838),
        (SAMSUNG_314, (1, 1), 8706.988217, 35663823, 112799.599709),
        # iodepth/numjobs lines 19/24, iops line 38, bw_bytes line 36, lat_ns mean line 77
        (HIGHPOINT_316, (1024, 32), 1511.597237, 6191502, 675409128.742298),
        # iodepth/numjobs lines 21/22, iops line 37, bw_bytes line 35, lat_ns mean line 78
        (FIO_334, (1, 1), 10102.601156, 41380254, 96095.658704),
    ],
)
def test_fio_3_x_nanosecond_fields(path, load, iops, bw_bytes, lat_ns):
    _, _, point = only_point(path)
    assert (point["load"]["outstanding_io"], point["load"]["threads"]) == load
    assert point["iops"] == pytest.approx(iops)
    assert point["mbps"] == pytest.approx(bw_bytes / 1e6)
    assert point["avg_response_ms"] == pytest.approx(lat_ns / 1e6)


def test_samsung_cpu_and_percentiles():
    _, _, point = only_point(SAMSUNG_314)
    assert point["cpu_pct"] == pytest.approx(5.305 + 11.656667)  # usr_cpu / sys_cpu, lines 236-237
    assert point["metrics"]["clat_percentiles_ms"]["read"]["99"] == pytest.approx(0.134144)  # 134144 ns, line 64


def test_text_before_the_json_is_skipped_with_a_warning():
    [result] = parse_paths([FIO_334])
    assert any("fio: terminating on signal 2" in w and "before the JSON" in w for w in result["warnings"])


def test_jobs_without_group_reporting_are_summed_into_one_point():
    result, run, point = only_point(MULTIJOB_36)
    # The eight "random-io" entries (numjobs=8, no group_reporting): write iops, total_ios and
    # lat_ns mean of each (lines 89/91/128, 369/371/408, ... 2049/2051/2088).
    entries = [
        (14.448125, 868, 69154009.993088),
        (19.377070, 1164, 51558975.402062),
        (16.392624, 985, 60949143.451777),
        (15.529969, 932, 64327301.069743),
        (16.186781, 972, 61720622.054527),
        (12.840370, 771, 77813831.291829),
        (15.877247, 953, 62928080.671563),
        (14.417234, 866, 69304648.213626),
    ]
    bw_bytes = [59179, 79368, 67144, 63610, 66301, 52594, 65033, 59052]
    assert len(result["runs"]) == 1 and run["name"] == "random-io"
    assert point["load"] == {"outstanding_io": 8, "threads": 8}
    assert point["iops"] == pytest.approx(sum(iops for iops, _, _ in entries))
    assert point["mbps"] == pytest.approx(sum(bw_bytes) / 1e6)
    mean_ns = sum(ios * lat for _, ios, lat in entries) / sum(ios for _, ios, _ in entries)
    assert point["avg_response_ms"] == pytest.approx(mean_ns / 1e6)
    assert point["metrics"]["job_entries_summed"] == 8
    assert "clat_percentiles_ms" not in point["metrics"]
    assert any("8 job entries" in w for w in result["warnings"])


def test_a_file_whose_only_job_failed_is_refused_with_the_job_line():
    with pytest.raises(ParseError) as caught:
        parse_paths([ERROR_333])
    error = caught.value
    assert error.line == 11  # "jobname" : "1m", after three lines of fio errors
    assert "job '1m' failed with error 22 (Invalid argument)" in error.message
    assert "err=22/file:filesetup.c:1155" in error.message  # what fio printed before the JSON


def test_randrw_json_plus_fills_both_directions_and_reports_the_failed_job():
    result, run, point = only_point(OLTP)
    # Our own file: rwmixread=70, bssplit=8k/75:64k/25, iodepth 8 x numjobs 2 (lines 20-24).
    assert run["workload"]["read_pct"] == 70.0
    assert run["workload"]["random_pct"] == 100
    assert run["workload"]["transfer_sizes"] == [{"bytes": 8192, "pct": 75.0}, {"bytes": 65536, "pct": 25.0}]
    assert point["load"] == {"outstanding_io": 16, "threads": 2}
    assert (point["read_iops"], point["write_iops"], point["iops"]) == (1750.0, 750.0, 2500.0)
    assert point["read_mbps"] == pytest.approx(39.424) and point["write_mbps"] == pytest.approx(16.896)
    assert point["mbps"] == pytest.approx(39.424 + 16.896)
    # lat_ns means 4 ms (read) and 10 ms (write), not the clat means; IOPS-weighted total.
    assert point["avg_read_response_ms"] == pytest.approx(4.0)
    assert point["avg_write_response_ms"] == pytest.approx(10.0)
    assert point["avg_response_ms"] == pytest.approx((4.0 * 1750 + 10.0 * 750) / 2500)
    assert point["max_response_ms"] == pytest.approx(80.02)
    assert point["metrics"]["clat_percentiles_ms"]["write"]["99.99"] == pytest.approx(79.691776)
    assert run["started_at"] == "2024-03-09T15:59:29+00:00"  # job_start 1709999969000 ms
    assert len(result["runs"]) == 1
    assert "oltp_randrw_jsonplus.json:85: job 'seqwrite' failed with error 5" in " ".join(result["warnings"])
    assert any("option 'filename' is given 2 times with different values" in w for w in result["warnings"])
    assert run["params"]["filename"] == "/dev/sdc"


def test_a_queue_depth_sweep_folder_becomes_one_curve():
    [result] = parse_paths([SWEEP])
    assert result["source"]["name"] == "randread-1-1.json + randread-16-1.json + randread-4-1.json"
    [run] = result["runs"]
    assert run["name"] == run["workload"]["name"] == "qd-sweep"  # the job name of all three files
    # Our own files randread-{1,4,16}-1.json: read iops and lat_ns mean of each.
    assert [p["load"]["outstanding_io"] for p in run["points"]] == [1, 4, 16]
    assert [p["iops"] for p in run["points"]] == [5000.0, 16000.0, 32000.0]
    assert [p["avg_response_ms"] for p in run["points"]] == pytest.approx([0.199, 0.249, 0.499])
    assert [p["metrics"]["file"] for p in run["points"]] == [
        "randread-1-1.json",
        "randread-4-1.json",
        "randread-16-1.json",
    ]


def test_a_failed_file_in_a_sweep_is_a_warning(tmp_path):
    for path in SWEEP.iterdir():
        shutil.copy(path, tmp_path / path.name)
    failed = json.loads((SWEEP / "randread-16-1.json").read_text())
    failed["jobs"][0]["error"] = 5
    (tmp_path / "randread-32-1.json").write_text(json.dumps(failed, indent=2))
    [result] = parse_paths([tmp_path])
    assert [p["load"]["outstanding_io"] for p in result["runs"][0]["points"]] == [1, 4, 16]
    assert any(w.startswith("randread-32-1.json:") and "error 5" in w for w in result["warnings"])


def test_only_fio_plot_names_are_grouped():
    assert fio.group_key(Source(FIO_334)) is None
    assert fio.group_key(Source(name="run/4k/randrw-8-2.json", data=b"{}")) == "run/4k"


def document(**options):
    job = {
        "jobname": "mix",
        "groupid": 0,
        "error": 0,
        "job options": options,
        "read": {"iops": 100.0, "total_ios": 1000, "bw_bytes": 1, "lat_ns": {"mean": 1e6, "max": 2e6}},
        "write": {"iops": 0.0, "total_ios": 0, "bw_bytes": 0},
    }
    return json.dumps({"fio version": "fio-3.36", "jobs": [job]}).encode()


def test_bs_per_direction_is_weighted_by_the_read_mix():
    source = Source(name="mix.json", data=document(rw="rw", bs="4k,64k", rwmixwrite="75"))
    [result] = parse_sources([source])
    workload = result["runs"][0]["workload"]
    assert workload["read_pct"] == 25 and workload["random_pct"] == 0
    assert workload["transfer_sizes"] == [{"bytes": 4096, "pct": 25.0}, {"bytes": 65536, "pct": 75.0}]


def test_a_job_without_a_name_gives_its_workload_none():
    document_of_one_job = json.loads(document(rw="randread", bs="4k"))
    del document_of_one_job["jobs"][0]["jobname"]
    [result] = parse_sources([Source(name="nameless.json", data=json.dumps(document_of_one_job).encode())])
    [run] = result["runs"]
    # The run needs a name, so it is named by its place; that is no name fio gave the workload.
    assert run["name"] == "job 1" and run["workload"]["name"] is None


@pytest.mark.parametrize("clones", [1, 2])
def test_null_bandwidth_and_cpu_read_as_not_written(clones):
    """A null ``bw_bytes`` falls back to ``bw`` (KiB/s) and a null ``usr_cpu`` leaves CPU unknown, for
    one job entry and for clones summed alike."""
    one = json.loads(document(rw="randread", bs="4k"))
    job = one["jobs"][0]
    job["read"].update(bw_bytes=None, bw=2000)
    job.update(usr_cpu=None, sys_cpu=3.5)
    one["jobs"] = [job] * clones
    [result] = parse_sources([Source(name="nulls.json", data=json.dumps(one).encode())])
    [point] = result["runs"][0]["points"]
    assert point["mbps"] == pytest.approx(clones * 2000 * 1024 / 1e6)
    assert point["cpu_pct"] is None and "usr_cpu_pct" not in point["metrics"]


def test_unknown_rw_mode_names_the_job_line():
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name="bad.json", data=document(rw="sideways"))])
    assert caught.value.line == 1 and caught.value.field == "rw"
    assert "unknown rw mode 'sideways'" in str(caught.value)


def test_truncated_json_gives_line_and_column():
    text = b'fio: some warning\n{\n  "fio version" : "fio-3.36",\n  "jobs" : [\n    {\n      "jobname" : '
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name="cut.json", data=text)])
    assert caught.value.line == 6
    assert caught.value.column is not None
    assert "not valid JSON" in caught.value.message and "truncated" in caught.value.message


def test_sniff_is_specific():
    assert fio.sniff(ERROR_333.read_bytes()[:4096], ERROR_333.name)
    assert not fio.sniff(b'{"jobs": []}', "other.json")


class TestDamagedFiles:
    """What a damaged or incomplete fio file gives: never an invented workload, never a traceback."""

    def test_job_options_without_rw_and_bs_are_fio_defaults(self, tmp_path):
        text = FIO_334.read_bytes()
        path = tmp_path / "no-rw-bs.json"
        path.write_bytes(text.replace(b'"rw" : "randread",\n', b"").replace(b'"bs" : "4k",\n', b""))
        [result] = parse_paths([path])
        # The options are shown (lines 11-19) and state neither: fio's documented rw=read, bs=4096.
        assert result["runs"][0]["workload"] == {
            "name": "FIOJOB",
            "read_pct": 100,
            "random_pct": 0,
            "transfer_sizes": [{"bytes": 4096, "pct": 100.0}],
            "alignment_bytes": None,
            "streams": None,
        }
        assert "measured_workload" not in result["runs"][0]["params"]
        assert result["runs"][0]["params"]["fio_defaults"] == {"rw": "read", "bs": "4096"}

    def test_a_latin_1_byte_names_offset_line_and_encoding(self, tmp_path):
        text = FIO_334.read_bytes()
        offset = text.index(b"FIOJOB")
        path = tmp_path / "latin1.json"
        path.write_bytes(text[:offset] + "\u00e9".encode("latin-1") + text[offset:])
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert str(caught.value) == (
            f"latin1.json:10: byte 0xE9 at offset {offset} is not UTF-8; save the file as UTF-8 "
            "(it may be Latin-1 / Windows-1252)"
        )

    def test_a_400_digit_figure_names_the_field(self, tmp_path):
        path = tmp_path / "huge.json"
        path.write_bytes(FIO_334.read_bytes().replace(b'"iops" : 10102.601156', b'"iops" : ' + b"9" * 400))
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert str(caught.value) == (
            "huge.json:10: field 'iops': '99999999999999999999...(400 characters)' is too large to be a measured value"
        )

    def test_a_nul_byte_is_refused_with_its_line(self, tmp_path):
        text = FIO_334.read_bytes()
        path = tmp_path / "nul.json"
        path.write_bytes(text.replace(b"FIOJOB", b"FIO\x00JOB"))
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert str(caught.value) == (
            "nul.json:10: NUL byte in the text: the file is damaged (or UTF-16 without a byte-order mark); "
            "export or copy the result file again"
        )

    def test_the_command_line_prints_file_and_line_and_exits_2(self, tmp_path, capsys):
        from ingest.__main__ import main

        path = tmp_path / "nul.json"
        path.write_bytes(FIO_334.read_bytes().replace(b"FIOJOB", b"FIO\x00JOB"))
        assert main([str(path)]) == 2
        assert capsys.readouterr().err.startswith("nul.json:10: NUL byte in the text")


class TestWorkloadSignature:
    """What the job options state, read by hand from each file; what they leave out stays unknown."""

    def test_the_shared_samples(self):
        # pkb 2.17 lines 28-29 and 248-249: randread / randwrite, bs 16k; numjobs 2 is load, not streams.
        read_run, write_run = parse_paths([PKB_217])[0]["runs"]
        assert (read_run["workload"]["read_pct"], read_run["workload"]["random_pct"]) == (100, 100)
        assert (write_run["workload"]["read_pct"], write_run["workload"]["random_pct"]) == (0, 100)
        assert write_run["workload"]["transfer_sizes"] == [{"bytes": 16384, "pct": 100.0}]
        assert write_run["workload"]["streams"] is None
        # highpoint 3.16 lines 14-15: randread, bs 4k.
        _, run, _ = only_point(HIGHPOINT_316)
        assert run["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
        assert (run["workload"]["read_pct"], run["workload"]["random_pct"]) == (100, 100)

    def test_bssplit_is_weighted_by_rwmixread(self):
        # oltp lines 23-25: randrw, rwmixread 70, bssplit 8k/75:64k/25 (one split for both directions).
        _, run, _ = only_point(OLTP)
        assert run["workload"]["transfer_sizes"] == [{"bytes": 8192, "pct": 75.0}, {"bytes": 65536, "pct": 25.0}]
        assert run["workload"]["alignment_bytes"] is None  # no ba / blockalign

    def parsed_workload(self, **options):
        [result] = parse_sources([Source(name="mix.json", data=document(**options))])
        return result["runs"][0]["workload"]

    def test_randrw_without_a_mix_reads_half_by_fio_default(self):
        # fio's rwmixread defaults to 50; with one bs both directions share it.
        workload = self.parsed_workload(rw="randrw", bs="8k")
        assert workload["read_pct"] == 50 and workload["random_pct"] == 100
        assert workload["transfer_sizes"] == [{"bytes": 8192, "pct": 100.0}]
        sizes = self.parsed_workload(rw="randrw", bs="4k,64k")["transfer_sizes"]
        assert sizes == [{"bytes": 4096, "pct": 50.0}, {"bytes": 65536, "pct": 50.0}]
        # An empty entry is fio's default bs (4096) for that direction.
        sizes = self.parsed_workload(rw="rw", rwmixread="75", bs=",64k")["transfer_sizes"]
        assert sizes == [{"bytes": 4096, "pct": 75.0}, {"bytes": 65536, "pct": 25.0}]
        [result] = parse_sources([Source(name="mix.json", data=document(rw="rw", rwmixread="75", bs=",64k"))])
        assert result["runs"][0]["params"]["fio_defaults"] == {"bs": "4096"}

    def test_per_direction_bssplit_and_block_alignment(self):
        workload = self.parsed_workload(
            rw="randrw", rwmixread="80", bssplit="4k/50:64k/50,8k/100", blockalign="4k", percentage_random="50"
        )
        # reads 80 % split 4k/64k evenly, writes 20 % all 8k.
        assert workload["transfer_sizes"] == [
            {"bytes": 4096, "pct": 40.0},
            {"bytes": 8192, "pct": 20.0},
            {"bytes": 65536, "pct": 40.0},
        ]
        assert workload["alignment_bytes"] == 4096 and workload["random_pct"] == 50
        assert self.parsed_workload(rw="randread", bs="4k", ba="4k,8k")["alignment_bytes"] is None

    def test_global_options_are_overridden_by_the_job(self):
        text = json.loads(document(readwrite="randread", bs="4k"))
        text["global options"] = {"rw": "write", "bs": "1m", "ba": "512"}
        [result] = parse_sources([Source(name="g.json", data=json.dumps(text).encode())])
        workload = result["runs"][0]["workload"]
        assert (workload["read_pct"], workload["random_pct"]) == (100, 100)
        assert workload["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
        assert workload["alignment_bytes"] == 512  # only the global options state it

    def test_a_range_of_sizes_states_no_mix_and_kb_base_1000_is_decimal(self):
        assert self.parsed_workload(rw="randread", bsrange="4k-64k")["transfer_sizes"] == []
        assert self.parsed_workload(rw="randread", bsrange="8k-8k")["transfer_sizes"] == [{"bytes": 8192, "pct": 100.0}]
        sizes = self.parsed_workload(rw="read", bs="4k", kb_base="1000")["transfer_sizes"]
        assert sizes == [{"bytes": 4000, "pct": 100.0}]

    def test_trim_has_no_read_pct_and_says_so(self):
        [result] = parse_sources([Source(name="trim.json", data=document(rw="randtrim", bs="4k"))])
        workload = result["runs"][0]["workload"]
        assert workload["read_pct"] is None and workload["random_pct"] == 100
        assert workload["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
        assert result["warnings"] == [
            "trim.json:1: job 'mix': rw=randtrim trims, which are neither reads nor writes; its read % is left unknown"
        ]

    @pytest.mark.parametrize(
        ("options", "field"),
        [({"bs": "4 apples"}, "bs"), ({"bssplit": "4k/150"}, "bssplit"), ({"ba": "-1"}, "ba")],
    )
    def test_a_bad_size_names_the_option(self, options, field):
        with pytest.raises(ParseError) as caught:
            parse_sources([Source(name="bad.json", data=document(rw="randread", **options))])
        assert caught.value.field == field and caught.value.line == 1


@pytest.mark.parametrize(
    "options",
    [
        '{"rw": "read", "bs": "4k", "rw": "write"}',
        '{"rw" : "read",\n "name": "a \\"quoted\\" job", "rw": "write"}',  # escapes: decoded
        '{"rw": "read", "iodepth": 4, "rw": "write"}',  # a value that is no text: decoded
        '{"rw": "read", "name": "x}y", "rw": "write"}',  # a brace inside a value: decoded
    ],
)
def test_an_option_given_twice_is_found_however_its_object_is_written(options):
    text = f'{{"global options": {options}, "jobs": []}}'
    assert fio.document._options_given_twice(text, len(text)) == {"rw": ["read", "write"]}
    assert fio.document._options_given_twice(text.replace('"write"', '"read"'), len(text)) == {}


class TestFioDefaults:
    """Job options shown but silent on the mix: fio's documented defaults (rwmixread=50, bs=4096)."""

    @pytest.mark.parametrize(
        "folder", ["fioplot_HPDL380G8-RAID-NEW-P420i_3xSSD_MD0_RW", "fioplot_SERVER-HIGHPOINT-RAID5_RW"]
    )
    def test_randrw_grids_read_half_as_their_figures_show(self, folder):
        from portal.analysis.workloads import describe, signature

        paths = sorted(sample("fio-grids", folder).glob("randrw-*.json"))
        [result] = parse_paths(paths)
        # Every file: "rw" : "randrw", "bs" : "4k", no rwmixread / rwmixwrite.
        [run] = result["runs"]
        assert len(run["points"]) == len(paths)
        workload = run["workload"]
        assert (workload["read_pct"], workload["random_pct"]) == (50, 100)
        assert workload["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
        assert "measured_workload" not in run["params"]
        # The run says which of the figures' settings came from fio's documentation, not the files.
        assert run["params"]["fio_defaults"] == {"rwmixread": "50"}
        # What the files measured agrees: reads are 48.8 % to 50.5 % of each cell's IOPS.
        for point in run["points"]:
            assert 0.48 < point["read_iops"] / point["iops"] < 0.51
        fifty_fifty = signature(read_pct=50, random_pct=100, transfer_sizes=[{"bytes": 4096, "pct": 100}])
        assert signature(**{key: workload[key] for key in ("read_pct", "random_pct", "transfer_sizes")}) == fifty_fifty
        assert describe(fifty_fifty) == "4 KiB random, 50 % read"

    def test_one_randrw_cell_of_the_raid5_grid(self):
        _, run, point = only_point(sample("fio-grids", "fioplot_SERVER-HIGHPOINT-RAID5_RW", "randrw-8-16.json"))
        assert run["workload"]["read_pct"] == 50
        # read total_ios 20069, write total_ios 20144: the file's own split, near 50/50.
        assert point["read_iops"] / point["iops"] == pytest.approx(20069 / (20069 + 20144), abs=0.002)

    def test_options_stated_in_full_take_no_default(self):
        # pkb 2.17 lines 28-29: rw=randread, bs=16k.
        read_run, _ = parse_paths([PKB_217])[0]["runs"]
        assert "fio_defaults" not in read_run["params"]


def without_options(path):
    """A real fio 2.x file as fio versions that write no options give it: no "job options", no
    "global options" (the figures are untouched)."""
    document = json.loads(path.read_text())
    document.pop("global options", None)
    for job in document["jobs"]:
        job.pop("job options", None)
    return Source(name=path.name, data=json.dumps(document).encode())


class TestMeasuredWorkload:
    """Files that write no job options: read share and transfer size come from the figures."""

    def test_pkb_jobs_read_and_write_16k_as_measured(self):
        [result] = parse_sources([without_options(PKB_217)])
        read_run, write_run = result["runs"]
        # read: io_bytes 1294256 KiB over total_ios 80891 (fio 2 writes io_bytes in KiB) = 16,384 B.
        assert read_run["workload"]["read_pct"] == 100
        assert read_run["workload"]["transfer_sizes"] == [{"bytes": 16384, "pct": 100.0}]
        # write: io_bytes 393280 KiB over 24580 I/Os = 16,384 B; no reads.
        assert write_run["workload"]["read_pct"] == 0
        assert write_run["workload"]["transfer_sizes"] == [{"bytes": 16384, "pct": 100.0}]
        for run in (read_run, write_run):
            assert run["params"]["measured_workload"] == ["read_pct", "transfer_sizes"]
            # Neither the figures nor the job name state random or sequential.
            assert run["workload"]["random_pct"] is None
        assert read_run["workload"]["name"] == "rand_16k_read_100%-io-depth-1-num-jobs-2"

    def test_fio_3_bytes_per_io_and_a_measured_read_share(self, tmp_path):
        # randrw-8-16 (fio 3.16): io_bytes 82202624 / 20069 reads and 82509824 / 20144 writes = 4,096 B.
        cell = sample("fio-grids", "fioplot_SERVER-HIGHPOINT-RAID5_RW", "randrw-8-16.json")
        [result] = parse_sources([without_options(cell)])
        [run] = result["runs"]
        assert run["workload"]["read_pct"] == pytest.approx(100 * 20069 / (20069 + 20144))
        assert run["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
        assert run["params"]["measured_workload"] == ["read_pct", "transfer_sizes"]

    def test_a_sweep_without_options_is_one_run_of_its_overall_read_share(self):
        paths = sorted(sample("fio-grids", "fioplot_SERVER-HIGHPOINT-RAID5_RW").glob("randrw-*.json"))
        [result] = parse_sources([without_options(path) for path in paths])
        [run] = result["runs"]
        assert len(run["points"]) == 20
        # The share of all 20 files' I/Os, counted here from their "total_ios".
        documents = [json.loads(path.read_text()) for path in paths]
        reads = sum(job["read"]["total_ios"] for document in documents for job in document["jobs"])
        writes = sum(job["write"]["total_ios"] for document in documents for job in document["jobs"])
        assert run["workload"]["read_pct"] == pytest.approx(100 * reads / (reads + writes))
        assert 48.8 < run["workload"]["read_pct"] < 50.5
        assert run["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
        assert run["params"]["measured_workload"] == ["read_pct", "transfer_sizes"]

    def test_a_size_that_is_an_average_is_no_transfer_size(self):
        document = json.loads(PKB_217.read_text())
        del document["global options"]
        for job in document["jobs"]:
            del job["job options"]
        document["jobs"][0]["read"]["io_bytes"] += 1  # no longer a whole number of bytes per I/O
        [result] = parse_sources([Source(name="pkb.json", data=json.dumps(document).encode())])
        run = result["runs"][0]
        assert run["workload"]["transfer_sizes"] == [] and run["workload"]["read_pct"] == 100
        assert run["params"]["measured_workload"] == ["read_pct"]


class TestWithoutIOCounts:
    """fio 2.1.4 writes neither options nor ``total_ios``: what the file does not state stays not stated,
    and the block size comes from its bytes over IOPS x runtime."""

    def _as_fio_2_1_4(self):
        document = json.loads(PKB_217.read_text())
        document.pop("global options", None)
        for job in document["jobs"]:
            job.pop("job options", None)
            for direction in ("read", "write", "trim"):
                job.get(direction, {}).pop("total_ios", None)
        return Source(name="pkb-2.1.4-layout.json", data=json.dumps(document).encode())

    def test_no_queue_depth_is_stated_and_the_block_size_is_read_from_iops_and_runtime(self):
        [result] = parse_sources([self._as_fio_2_1_4()])
        read_run, write_run = result["runs"]
        # read: io_bytes 1294256 KiB over 8086.673998 IOPS x 10.003 s (80,891 I/Os) = 16,384 B.
        assert read_run["workload"]["transfer_sizes"] == [{"bytes": 16384, "pct": 100.0}]
        # write: 393280 KiB over 2457.017193 IOPS x 10.004 s (24,580 I/Os) = 16,384 B.
        assert write_run["workload"]["transfer_sizes"] == [{"bytes": 16384, "pct": 100.0}]
        for run in (read_run, write_run):
            # fio's default iodepth of 1 is not what the file states: one entry per job (group_reporting).
            assert run["points"][0]["load"] == {}
            assert run["params"]["measured_workload"] == ["read_pct", "transfer_sizes"]

    def test_with_options_the_stated_queue_depth_is_kept(self):
        [result] = parse_paths([PKB_217])
        # job options: iodepth 1, numjobs 2.
        assert result["runs"][0]["points"][0]["load"] == {"outstanding_io": 2, "threads": 2}


@pytest.mark.parametrize(
    ("kib", "iops", "runtime_ms", "block"),
    [
        # PerfKitBenchmarker tests/data/fio/fio-parser-sample-result.json (fio-2.1.4), each job's one direction:
        (361984, 133, 5314, 512 * 1024),  # sequential_write: 524,464 B per I/O
        (361984, 253, 2788, 512 * 1024),  # sequential_read: 525,500 B per I/O
        (36244, 1610, 5625, 4096),  # random_write_test: 4,098 B per I/O
        (36244, 317, 28540, 4096),  # random_read_test: 4,102 B per I/O
    ],
)
def test_a_block_size_from_rounded_iops_and_runtime_is_the_roundest_within_a_percent(kib, iops, runtime_ms, block):
    from ingest.formats.fio.workload import _rounded_block

    assert _rounded_block(kib * 1024 / (iops * runtime_ms / 1000)) == block
