"""vdbench summary.html, totals.html and flatfile.html: figures read by hand from the files."""

import pytest

from ingest import ParseError, Source, parse_paths, parse_sources, plan
from ingest.formats import vdbench
from tests.ingest.contract import FormatContract, SingleSizeUnits
from tests.ingest.helpers import mib, parse_one, runs_by_name
from tests.samples import data, sample

TOTALS = sample("vdbench", "jiaoben_fsd_totals.html")
SUMMARY = sample("vdbench", "jiaoben_fsd_summary.html")
FSD_FLATFILE = sample("vdbench", "jiaoben_fsd_flatfile.html")
SD_FLATFILE = sample("vdbench", "vdbenchexplorer_flatfile_kstat.html")
ABORTED = sample("vdbench", "vdbenchshow_fsd_summary.html")
LOCALISED = data("vdbench", "sd_summary_localised_forloops.html")
OLD_SINGLE_SPACE = data("vdbench", "sd_totals_old_single_space.html")


def parse_text(text, name="summary.html"):
    return vdbench.parse(Source(name=name, data=text.encode()))


class TestVdbenchContract(FormatContract, SingleSizeUnits):
    format_id = "vdbench"
    inputs = [[TOTALS], [SUMMARY], [FSD_FLATFILE], [SD_FLATFILE], [LOCALISED], [OLD_SINGLE_SPACE]]


def test_fsd_totals_gives_one_run_per_rd_from_its_avg_line():
    runs = runs_by_name(parse_one(TOTALS))
    assert list(runs) == ["format_for_rd1", "rd1"]
    # totals.html line 14: 09:10:24.092 avg_2-1 400.0 0.598 4.4 ... 50.00 MB/sec total, xfer 131072
    [fill] = runs["format_for_rd1"]["points"]
    assert fill["iops"] == 400.0 and fill["write_iops"] == 400.0 and fill["read_iops"] == 0.0
    assert fill["mbps"] == mib(50.00)
    assert fill["avg_response_ms"] == 0.598 and fill["avg_write_response_ms"] == 0.598
    assert fill["avg_read_response_ms"] is None
    assert fill["cpu_pct"] == 4.4
    assert runs["format_for_rd1"]["workload"]["transfer_sizes"] == [{"bytes": 131072, "pct": 100.0}]
    # totals.html line 18: avg_2-20 11471 0.080 5.2 3.46 100.0 (read pct) ... 44.81 MB/sec, 4096 bytes
    [point] = runs["rd1"]["points"]
    assert point["iops"] == 11471.0 and point["read_iops"] == 11471.0
    assert point["mbps"] == mib(44.81) == pytest.approx(46.987, abs=0.001)
    assert point["avg_response_ms"] == 0.080
    assert point["metrics"]["open_rate"] == 0.9 and point["metrics"]["close_resp"] == 0.701
    assert runs["rd1"]["workload"]["read_pct"] == 100.0
    # line 16 starts rd1 at 09:10:25; the header date on line 12 is "Mar 11, 2021"
    assert runs["rd1"]["started_at"] == "2021-03-11T09:10:25"
    assert runs["rd1"]["description"] == "elapsed=20; fwdrate=max. For loops: None"


def test_fsd_summary_keeps_the_intervals_as_a_time_series():
    result = parse_one(SUMMARY)
    runs = runs_by_name(result)
    # summary.html line 59 is the same average as totals.html line 18
    [point] = runs["rd1"]["points"]
    assert point["iops"] == 11471.0 and point["mbps"] == mib(44.81)
    assert point["metrics"]["average"] == "avg_2-20"
    series = point["metrics"]["intervals"]
    # lines 39-58: intervals 1 to 20; interval 1 ran 7361.0 ops/s, interval 20 11756 at 0.080 ms
    assert series["interval"] == list(range(1, 21))
    assert series["iops"][0] == 7361.0 and series["iops"][-1] == 11756.0
    assert series["mbps"][0] == mib(28.76)
    # line 32: the format run's avg_2-1 line
    assert runs["format_for_rd1"]["points"][0]["iops"] == 400.0
    assert result["warnings"] == []


def test_fsd_flatfile_reads_the_avg_rows():
    runs = runs_by_name(parse_one(FSD_FLATFILE))
    assert list(runs) == ["format_for_rd1", "rd1"]
    # flatfile.html line 78: rd1 avg_2-20 ... rate 11471.3000 resp 0.0801 MB/sec 44.8098, cpu_used 1.7454
    [point] = runs["rd1"]["points"]
    assert point["iops"] == 11471.3 and point["read_iops"] == 11471.3 and point["write_iops"] == 0.0
    assert point["mbps"] == mib(44.8098)
    assert point["read_mbps"] == mib(44.8098)
    assert point["avg_response_ms"] == 0.0801 and point["avg_read_response_ms"] == 0.0801
    assert point["cpu_pct"] == 1.7454
    assert len(point["metrics"]["intervals"]["iops"]) == 20
    # line 58: the first rd1 row's timestamp 03/11/2021-09:10:26-CST
    assert runs["rd1"]["started_at"] == "2021-03-11T09:10:26"
    assert runs["rd1"]["workload"]["read_pct"] == 100.0
    assert runs["rd1"]["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
    # line 57: format_for_rd1 avg_2-1, 400.0000 writes/s at 0.5979 ms, 50.0000 MB/sec
    [fill] = runs["format_for_rd1"]["points"]
    assert fill["iops"] == 400.0 and fill["mbps"] == mib(50.0) and fill["avg_response_ms"] == 0.5979


@pytest.mark.parametrize("path", [TOTALS, SUMMARY, FSD_FLATFILE])
def test_the_format_run_is_a_preparation_step_kept_apart_from_the_measurement(path):
    runs = runs_by_name(parse_one(path))
    # vdbench adds format_for_rd1 (format=yes) to create rd1's files before rd1 is measured.
    assert runs["format_for_rd1"]["phase"] == "preparation"
    assert runs["rd1"]["phase"] == "measurement"
    # Still stored with its figures (400 writes/s creating the files), under the RD's name.
    assert runs["format_for_rd1"]["points"][0]["iops"] == 400.0
    assert [run["workload"]["name"] for run in runs.values()] == ["format_for_rd1", "rd1"]


def test_every_rd_of_the_raw_device_flatfile_is_a_measurement_named_by_its_rd():
    runs = runs_by_name(parse_one(SD_FLATFILE))
    assert {run["phase"] for run in runs.values()} == {"measurement"}
    assert all(run["workload"]["name"] == name for name, run in runs.items())


def test_raw_device_flatfile_gives_threads_and_the_requested_workload():
    result = parse_one(SD_FLATFILE)
    runs = runs_by_name(result)
    # eight RDs, each with ten intervals and an avg_2-10 row (lines 48, 59, ..., 125)
    assert len(runs) == 8 and all(len(run["points"]) == 1 for run in runs.values())
    # line 48: random_write_max_4k avg_2-10 rate 327.4444 MB/sec 1.2791 resp 23.9089 resp_max 1514.9750,
    # xfersize 4096, threads 8, rdpct 0.0000, seekpct 100.0000, cpu_used 0.5767
    run = runs["random_write_max_4k"]
    [point] = run["points"]
    assert point["load"] == {"threads": 8}
    assert point["iops"] == 327.4444 and point["write_iops"] == 327.4444
    assert point["mbps"] == mib(1.2791)
    assert point["avg_response_ms"] == 23.9089 and point["max_response_ms"] == 1514.975
    assert point["cpu_pct"] == 0.5767
    assert point["metrics"]["resp_std_ms"] == 134.5254 and point["metrics"]["ks_mb"] == 2.5624
    assert run["workload"] == {
        "name": "random_write_max_4k",
        "read_pct": 0.0,
        "random_pct": 100.0,
        "transfer_sizes": [{"bytes": 4096, "pct": 100.0}],
        "alignment_bytes": None,
        "streams": None,
    }
    assert "measured_workload" not in run["params"]  # every value is a requested column
    # line 125: sequential_read_max_8k avg_2-10 rate 13091.2222 MB/sec 102.2752 resp 0.6088, seekpct 0
    run = runs["sequential_read_max_8k"]
    assert run["points"][0]["iops"] == 13091.2222 and run["points"][0]["mbps"] == mib(102.2752)
    assert run["points"][0]["avg_response_ms"] == 0.6088 and run["points"][0]["cpu_pct"] == 4.5
    assert run["workload"] == {
        "name": "sequential_read_max_8k",
        "read_pct": 100.0,
        "random_pct": 0.0,
        "transfer_sizes": [{"bytes": 8192, "pct": 100.0}],
        "alignment_bytes": None,
        "streams": None,
    }
    # no timestamp column in this old layout, so no start time
    assert run["started_at"] is None
    assert result["tool"] == {"name": "vdbench", "version": None}


def test_a_file_aborted_before_its_first_average_is_refused():
    with pytest.raises(ParseError) as caught:
        parse_paths([ABORTED])
    # line 26 starts RD=format_for_rd1; 218 interval lines follow and the file ends without avg_;
    # rd1 is listed on line 22 but never starts
    assert caught.value.line == 26
    assert "RD=format_for_rd1 (line 26) stopped after 218 intervals" in caught.value.message
    assert "RD rd1 never started" in caught.value.message
    assert "aborted before its first average" in caught.value.message


def test_for_loops_localised_date_and_a_truncated_rd():
    result = parse_one(LOCALISED)
    runs = runs_by_name(result)
    # threads=1 and threads=4 with xfersize=4k are one run (two load points); xfersize=64k is another
    assert list(runs) == ["rd1 xfersize=4k", "rd1 xfersize=64k"]
    four_k = runs["rd1 xfersize=4k"]
    assert [p["load"] for p in four_k["points"]] == [{"threads": 1}, {"threads": 4}]
    # line 21: avg_2-3 2560.0 10.00 4096 70.00 0.388 0.418 0.318 2.30 1.20 0.103 1.0 4.9 2.0
    low = four_k["points"][0]
    assert low["iops"] == 2560.0 and low["mbps"] == mib(10.00)
    assert low["read_iops"] == pytest.approx(1792.0) and low["write_iops"] == pytest.approx(768.0)
    assert low["avg_response_ms"] == 0.388
    assert low["avg_read_response_ms"] == 0.418 and low["avg_write_response_ms"] == 0.318
    assert low["max_response_ms"] == 2.30 and low["cpu_pct"] == 4.9
    assert low["metrics"]["queue_depth"] == 1.0
    # line 31: the threads=4 average, 8192.0 ops/s at 0.480 ms
    assert four_k["points"][1]["iops"] == 8192.0 and four_k["points"][1]["avg_response_ms"] == 0.480
    assert four_k["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
    assert four_k["workload"]["read_pct"] == 70.0
    # line 13 starts the RD at 10:00:02 under a Chinese-locale date header "3月 05, 2024" (line 16)
    assert four_k["started_at"] == "2024-03-05T10:00:02"
    # line 41: xfersize=64k, 800.0 ops/s and 50.00 MB/sec
    assert runs["rd1 xfersize=64k"]["points"][0]["mbps"] == mib(50.00)
    assert runs["rd1 xfersize=64k"]["workload"]["transfer_sizes"] == [{"bytes": 65536, "pct": 100.0}]
    # line 43: rd2 runs two intervals and the file ends; rd3 is listed on line 11 but never starts
    assert result["warnings"] == [
        f"{LOCALISED.name}:49: RD=rd2 (line 43) stopped after 2 intervals without its avg_ line; the run was cut "
        "short and is left out",
        f"{LOCALISED.name}:49: RD rd3 listed under 'Link to Run Definitions' never started: the run stopped before "
        "them or the file is cut short, and their results are missing",
    ]


def test_old_layout_with_single_space_columns_and_decimal_commas():
    runs = runs_by_name(parse_one(OLD_SINGLE_SPACE))
    # line 8: avg_6-35 8482.60 33.14 4096 100.00 3.770 372.672 2.940 7.4 5.8
    [point] = runs["seq_read"]["points"]
    assert point["iops"] == 8482.6 and point["mbps"] == mib(33.14)
    assert point["avg_response_ms"] == 3.770 and point["max_response_ms"] == 372.672
    assert point["cpu_pct"] == 7.4 and point["metrics"]["cpu_sys_pct"] == 5.8
    assert runs["seq_read"]["started_at"] == "2011-07-08T09:58:25"
    # line 12: "1000,00 7,81 8192 0,00 12,500 ..." from a JVM with a decimal-comma locale; line 10 asks
    # for "I/O rate: 1000"
    [point] = runs["rand_write"]["points"]
    assert point["iops"] == 1000.0 and point["mbps"] == mib(7.81) and point["avg_response_ms"] == 12.5
    assert point["load"] == {"target_iops": 1000.0}
    assert runs["rand_write"]["workload"]["read_pct"] == 0.0


HEADER = (
    "<pre>\n09:58:25.001 Starting RD=rd1; I/O rate: Uncontrolled MAX; elapsed=30; For loops: None\n\n"
    "Jul 08, 2011  interval        i/o   MB/sec   bytes   read     resp     resp     resp    cpu%  cpu%\n"
    "                             rate  1024**2     i/o    pct     time      max   stddev sys+usr   sys\n"
)


def test_a_value_that_is_not_a_number_names_line_and_column():
    with pytest.raises(ParseError) as caught:
        parse_text(HEADER + "09:59:00.051 avg_6-35 8482.60 33.14 4096 100.00 3.770 37#.672 2.940 7.4 5.8\n")
    assert caught.value.line == 6
    assert caught.value.field == "resp max"
    assert caught.value.message == "'37#.672' (value 8 of the line) is not a number"


def test_nan_is_an_unknown_figure_not_zero():
    # vdbench prints NaN in the cpu% columns when it could not read the CPU
    result = parse_text(HEADER + "09:59:00.051 avg_6-35 8482.60 33.14 4096 100.00 3.770 372.672 2.940 NaN NaN\n")
    [point] = result.runs[0].points
    assert point.iops == 8482.6
    assert point.cpu_pct is None and "cpu_sys_pct" not in point.metrics


def test_an_sd_format_run_is_a_preparation_step():
    # formatsd=yes: vdbench writes the SDs over in an RD it names SD_format before rd1.
    sd_format = HEADER.replace("RD=rd1", "RD=SD_format").replace("09:58:25.001", "09:50:00.001")
    line = "09:58:00.051 avg_2-10 1510.00 188.75 131072 0.00 5.300 40.100 2.000 3.1 1.2\n"
    result = parse_text(sd_format + line + HEADER.removeprefix("<pre>\n") + line.replace("avg_2-10", "avg_6-35"))
    assert [(run.name, run.phase) for run in result.runs] == [("SD_format", "preparation"), ("rd1", "measurement")]


def test_a_cut_row_names_the_expected_column_count():
    with pytest.raises(ParseError) as caught:
        parse_text(HEADER + "09:58:27.048 1 8471.00 33.09 4096 100.00\n")
    assert caught.value.line == 6
    assert "expected 9 values after the interval label as in the column header, found 4" in caught.value.message


def test_a_page_with_no_interval_table_is_refused():
    with pytest.raises(ParseError, match="no vdbench interval table found"):
        parse_text("<title>Vdbench output/summary.html</title><pre>\nVdbench summary report, created x\n</pre>\n")


@pytest.mark.parametrize("path", [TOTALS, SUMMARY, FSD_FLATFILE, SD_FLATFILE, ABORTED])
def test_sniff_recognises_every_vdbench_report(path):
    assert vdbench.sniff(Source(path).head(), path.name)


@pytest.mark.parametrize(
    "head",
    [
        b"<html><head><title>Microsoft Exchange Jetstress 2010 Performance Test Result Report</title></head>",
        b"<html><body><pre>Run totals\n12:00:00 some other tool</pre></body></html>",
        b"ISO date,label,path type,paths,hosts,threads,dirs,files,file size,block size,direct IO,random,",
    ],
)
def test_sniff_leaves_other_html_and_csv_alone(head):
    assert not vdbench.sniff(head, "report.html")


class TestWorkloadSignature:
    """The requested workload where the report states it; measured figures only where it does not."""

    def test_fsd_reports_state_no_workload_so_the_measured_one_is_named(self):
        # totals.html lines 14 and 18: read pct 0.0 / 100.0 and xfer size 131072 / 4096 are measured
        # columns of the avg_ lines; "For loops: None" (lines 5-6), and the parmfile is not in the file.
        for path in (TOTALS, SUMMARY, FSD_FLATFILE):
            runs = runs_by_name(parse_one(path))
            rd1 = runs["rd1"]
            assert rd1["workload"]["read_pct"] == 100.0 and rd1["workload"]["random_pct"] is None
            assert rd1["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
            assert rd1["params"]["measured_workload"] == ["read_pct", "transfer_sizes"]
            assert runs["format_for_rd1"]["workload"]["read_pct"] == 0.0

    def test_sd_flatfile_requested_columns(self):
        # flatfile line 92: sequential_write_max_4k, xfersize 4096, rdpct 0.0000, seekpct 0.0000.
        run = runs_by_name(parse_one(SD_FLATFILE))["sequential_write_max_4k"]
        assert (run["workload"]["read_pct"], run["workload"]["random_pct"]) == (0.0, 0.0)
        assert run["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]

    def test_for_loops_give_the_mix_alignment_and_streams(self):
        header = HEADER.replace("For loops: None", "For loops: xfersize=(4k,25,64k,75) seekpct=eof align=4k streams=4")
        result = parse_text(header + "09:59:00.051 avg_6-35 8482.60 33.14 49152 70.00 3.770 372.672 2.940 7.4 5.8\n")
        workload = result.runs[0].workload
        assert [(s.bytes, s.pct) for s in workload.transfer_sizes] == [(4096, 25.0), (65536, 75.0)]
        assert workload.random_pct == 0.0  # seekpct=eof: sequential to the end of the device
        assert (workload.alignment_bytes, workload.streams) == (4096, 4)
        # rdpct is not in the For loops: the measured read pct of the avg_ line, named as such.
        assert workload.read_pct == 70.0 and result.runs[0].params["measured_workload"] == ["read_pct"]

    def test_fsd_for_loops_operation_and_fileio(self):
        header = HEADER.replace("For loops: None", "For loops: operation=write fileio=(random,shared)")
        result = parse_text(header + "09:59:00.051 avg_6-35 8482.60 33.14 4096 0.00 3.770 372.672 2.940 7.4 5.8\n")
        workload = result.runs[0].workload
        assert (workload.read_pct, workload.random_pct) == (0.0, 100.0)

    def test_a_range_of_sizes_is_no_mix(self):
        header = HEADER.replace("For loops: None", "For loops: xfersize=(4k,64k,4k)")
        result = parse_text(header + "09:59:00.051 avg_6-35 8482.60 33.14 35000 70.00 3.770 372.672 2.940 7.4 5.8\n")
        # vdbench picks sizes in the range: the measured average (35000) is no size it issued.
        assert result.runs[0].workload.transfer_sizes == []
        assert result.runs[0].params["measured_workload"] == ["read_pct"]


class TestOneFolderIsOneResultSet:
    """summary.html, totals.html and flatfile.html of one output folder print the same RDs: one result set."""

    def test_the_three_reports_give_each_rd_once(self):
        [result] = parse_paths([SUMMARY, TOTALS, FSD_FLATFILE])
        runs = runs_by_name(result)
        assert [run["name"] for run in result["runs"]] == ["format_for_rd1", "rd1"]
        assert all(len(run["points"]) == 1 for run in result["runs"])
        [point] = runs["rd1"]["points"]
        # flatfile line 78: rd1 avg_2-20 rate 11471.3000 resp 0.0801 MB/sec 44.8098 (summary line 59
        # prints 11471, 0.080 and 44.81): the flatfile's four decimals are kept
        assert point["iops"] == 11471.3 and point["read_iops"] == 11471.3 and point["write_iops"] == 0.0
        assert point["avg_response_ms"] == 0.0801 and point["mbps"] == mib(44.8098)
        # summary line 59 / totals line 18: cpu% total 5.2, sys 3.46; the flatfile's cpu_used (1.7454)
        # is its cpu_user alone, and cpu_user + cpu_kernel (1.7454 + 3.4581) agrees with 5.2
        assert point["cpu_pct"] == 5.2 and point["metrics"]["cpu_sys_pct"] == 3.46
        # summary lines 39-58 print interval 1 at 0.079 ms; flatfile line 58 prints 0.0787: the flatfile's series
        assert point["metrics"]["intervals"]["avg_response_ms"][0] == 0.0787
        assert len(point["metrics"]["intervals"]["iops"]) == 20
        # flatfile line 78: Close_rate 0.8500, which summary line 59 prints as 0.9 (within its one decimal)
        assert point["metrics"]["close_rate"] == 0.85
        # summary line 34: "09:10:25.001 Starting RD=rd1; elapsed=20; fwdrate=max. For loops: None",
        # under the date "Mar 11, 2021" (line 37); the flatfile's first rd1 row is 09:10:26 (line 58)
        assert runs["rd1"]["started_at"] == "2021-03-11T09:10:25"
        assert runs["rd1"]["description"] == "elapsed=20; fwdrate=max. For loops: None"
        # summary line 59: read pct 100.0, xfer size 4096 (measured: no parameter is echoed)
        assert runs["rd1"]["workload"]["read_pct"] == 100.0
        assert runs["rd1"]["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
        # flatfile line 57: format_for_rd1 avg_2-1, 400.0000 writes/s at 0.5979 ms, 50.0000 MB/sec;
        # summary line 32: cpu% total 4.4
        [fill] = runs["format_for_rd1"]["points"]
        assert (fill["iops"], fill["avg_response_ms"], fill["cpu_pct"]) == (400.0, 0.5979, 4.4)
        assert fill["mbps"] == mib(50.0)
        # 250.6270 (flatfile line 57 create resp) printed 250.62 and 0.85 printed 0.9 are no disagreement
        assert result["warnings"] == []

    def test_params_name_the_file_of_each_figure(self):
        [result] = parse_paths([SUMMARY, TOTALS, FSD_FLATFILE])
        figures_from = runs_by_name(result)["rd1"]["params"]["figures_from"]
        assert figures_from["iops"] == figures_from["intervals"] == "jiaoben_fsd_flatfile.html"
        assert figures_from["cpu_pct"] == figures_from["started_at"] == "jiaoben_fsd_summary.html"
        # read pct is printed by summary and totals only
        assert figures_from["read_pct"] == "jiaoben_fsd_summary.html"
        assert result["source"]["name"] == (
            "jiaoben_fsd_flatfile.html + jiaoben_fsd_summary.html + jiaoben_fsd_totals.html"
        )

    def test_an_output_folder_with_vdbench_names_is_read_together(self, tmp_path):
        folder = tmp_path / "output"
        folder.mkdir()
        for name, path in (("summary.html", SUMMARY), ("totals.html", TOTALS), ("flatfile.html", FSD_FLATFILE)):
            (folder / name).symlink_to(path)
        [result] = parse_paths([folder])
        assert [run["name"] for run in result["runs"]] == ["format_for_rd1", "rd1"]

    def test_files_given_together_in_one_request_are_one_folder(self):
        # The upload page names the files of one request "given-together/<name>".
        sources = [Source(path, name=f"given-together/{path.name}") for path in (TOTALS, FSD_FLATFILE, SUMMARY)]
        [group] = plan(sources)
        assert len(group.sources) == 3
        [result] = parse_sources(sources)
        assert len(result["runs"]) == 2

    def test_reports_of_other_runs_in_one_folder_stay_apart(self):
        # The samples folder holds three runs' reports under prefixed names.
        paths = [TOTALS, SUMMARY, FSD_FLATFILE, SD_FLATFILE, ABORTED]
        groups = plan([Source(path) for path in paths])
        assert [[source.name for source in group.sources] for group in groups] == [
            ["jiaoben_fsd_totals.html", "jiaoben_fsd_summary.html", "jiaoben_fsd_flatfile.html"],
            ["vdbenchexplorer_flatfile_kstat.html"],
            ["vdbenchshow_fsd_summary.html"],
        ]

    def test_other_names_are_read_alone(self):
        assert vdbench.group_key(Source(name="out/mysummary.html", data=b"")) is None
        assert vdbench.group_key(Source(name="out/report.html", data=b"")) is None
        assert vdbench.group_key(Source(name="out/summary.html", data=b"")) == "out/*"
        assert vdbench.group_key(Source(name="out/run1_Totals.html", data=b"")) == "out/run1*"

    def test_one_file_alone_still_parses_as_before(self):
        [alone] = parse_paths([TOTALS])
        assert alone == vdbench.parse_group([Source(TOTALS)]).to_dict()
        # totals.html line 18: avg_2-20 11471 0.080 ... 44.81
        [point] = runs_by_name(alone)["rd1"]["points"]
        assert (point["iops"], point["avg_response_ms"], point["cpu_pct"]) == (11471.0, 0.080, 5.2)
        assert "figures_from" not in runs_by_name(alone)["rd1"]["params"]

    def test_reports_that_disagree_beyond_rounding_are_warned_of(self):
        flatfile = FSD_FLATFILE.read_text().replace(
            "rd1   avg_2-20 9999988.0000 11471.3000", "rd1   avg_2-20 9999988.0000 12471.3000"
        )
        sources = [
            Source(name="out/flatfile.html", data=flatfile.encode()),
            Source(TOTALS, name="out/totals.html"),
        ]
        [result] = parse_sources(sources)
        # flatfile line 78 now says 12471.3 ops/s, totals line 18 still 11471: the flatfile's is kept
        assert result["warnings"] == [
            "RD=rd1: the reports disagree beyond rounding on iops: 12471.3 in flatfile.html line 78, "
            "11471 in totals.html line 18 (the figure named first is kept)"
        ]
        assert runs_by_name(result)["rd1"]["points"][0]["iops"] == 12471.3

    def test_a_report_that_cannot_be_read_fails_the_folder_naming_it(self):
        sources = [Source(TOTALS, name="out/totals.html"), Source(ABORTED, name="out/summary.html")]
        with pytest.raises(ParseError) as caught:
            parse_sources(sources)
        assert caught.value.file == "out/summary.html" and caught.value.line == 26


class TestRequestedWorkloadOfARawDeviceRun:
    """rdpct=100, seekpct=100, xfersize=8k: 100 % reads, 100 % random, 8 KiB transfers."""

    def test_sd_flatfile_requested_columns(self):
        # flatfile line 81: random_read_max_8k avg_2-10, xfersize 8192, threads 8, rdpct 100.0000,
        # seekpct 100.0000 (the requested-workload columns of a raw-device flatfile)
        run = runs_by_name(parse_one(SD_FLATFILE))["random_read_max_8k"]
        assert run["workload"]["read_pct"] == 100.0 and run["workload"]["random_pct"] == 100.0
        assert run["workload"]["transfer_sizes"] == [{"bytes": 8192, "pct": 100.0}]
        assert "measured_workload" not in run["params"]

    def test_rd_parameters_echoed_on_the_starting_rd_line(self, tmp_path):
        # No sample echoes rdpct/seekpct/xfersize on a 'Starting RD' line: totals.html with only rd1's
        # 'For loops' values changed (line 16) stands for a run whose RD sets them.
        totals = tmp_path / "totals.html"
        totals.write_text(
            TOTALS.read_text().replace(
                "Starting RD=rd1; elapsed=20; fwdrate=max. For loops: None",
                "Starting RD=rd1; elapsed=20; fwdrate=max. For loops: rdpct=100 seekpct=100 xfersize=8k",
            )
        )
        [result] = parse_paths([totals])
        [run] = [run for run in result["runs"] if run["params"]["rd"] == "rd1"]
        assert run["workload"]["read_pct"] == 100.0 and run["workload"]["random_pct"] == 100.0
        assert run["workload"]["transfer_sizes"] == [{"bytes": 8192, "pct": 100.0}]
        assert "measured_workload" not in run["params"]
        # read with the real flatfile of the same folder, the echoed parameters still make the workload
        (tmp_path / "flatfile.html").symlink_to(FSD_FLATFILE)
        [together] = parse_paths([tmp_path])
        [run] = [run for run in together["runs"] if run["params"]["rd"] == "rd1"]
        assert run["workload"]["transfer_sizes"] == [{"bytes": 8192, "pct": 100.0}]
        assert run["params"]["for_rdpct"] == "100"
