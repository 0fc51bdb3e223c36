"""elbencho --csvfile, --resfile and --livecsv: figures read by hand from the files."""

import pytest

from ingest import ParseError, Source
from ingest.formats import elbencho
from tests.ingest.contract import FormatContract, SingleSizeUnits
from tests.ingest.helpers import mib, parse_one, runs_by_name
from tests.samples import data, sample

RESULT_CSV = sample("elbencho", "glennklockwood_cgpu_bw-direct.04threads.2798687.csv")
RESFILE = sample("elbencho", "glennklockwood_cgpu_bw-direct.04threads.2798687.out")
LIVE_CSV = sample("elbencho", "glennklockwood_cgpu_bw-direct.01threads.2798687.live.csv")
SWEEP_CSV = data("elbencho", "randread_sweep_rwmix.csv")
RWMIX_RESFILE = data("elbencho", "rwmix_lat.res.txt")


def parse_text(text, name="results.csv"):
    return elbencho.parse(Source(name=name, data=text.encode()))


class TestElbenchoContract(FormatContract, SingleSizeUnits):
    format_id = "elbencho"
    inputs = [[RESULT_CSV], [RESFILE], [LIVE_CSV], [SWEEP_CSV], [RWMIX_RESFILE]]


def test_result_csv_maps_phases_to_runs_with_last_done_figures():
    result = parse_one(RESULT_CSV)
    runs = runs_by_name(result)
    assert list(runs) == ["MKDIRS", "WRITE 1m"]
    assert result["tool"] == {"name": "elbencho", "version": "2.1-0"}
    # rows 2 and 4 are SYNC phases with no figures; the command line (each row's last cell) asks for
    # "--mkdirs" "--write" "--sync" ... "--delfiles" "--deldirs": no row holds the RMFILES or RMDIRS phase
    assert result["warnings"] == [
        "phases without results skipped: SYNC (line 2), SYNC (line 4)",
        f"{RESULT_CSV.name}:5: the command line of the SYNC phase (line 2) asks for the RMFILES, RMDIRS phases "
        "too, which the file does not hold after this line: it looks cut short (or elbencho stopped), and their "
        "results are missing",
    ]
    # line 5: WRITE, 4 hosts x 4 threads, block 1048576, IO depth 1, IOPS [first] 3486 [last] 3514,
    # MiB/s 3486 / 3514, CPU% 2 / 2, IO lat us min 2280 avg 4550 max 27560
    write = runs["WRITE 1m"]
    [point] = write["points"]
    assert point["load"] == {"threads": 16, "outstanding_io": 16}
    assert point["iops"] == 3514.0 and point["write_iops"] == 3514.0 and point["read_iops"] == 0.0
    assert point["mbps"] == mib(3514) == pytest.approx(3684.696, abs=0.001)
    assert point["avg_response_ms"] == 4.55 and point["avg_write_response_ms"] == 4.55
    assert point["max_response_ms"] == 27.56
    assert point["cpu_pct"] == 2.0
    assert point["metrics"]["first"]["iops"] == 3486.0 and point["metrics"]["first"]["mbps"] == mib(3486)
    assert point["metrics"]["first"]["elapsed_ms"] == 45248.0 and point["metrics"]["elapsed_ms"] == 45252.0
    assert point["metrics"]["io_latency_ms"] == {"min": 2.28, "avg": 4.55, "max": 27.56}
    assert point["metrics"]["hosts"] == 4 and point["metrics"]["threads_per_host"] == 4
    # The command line gives --block 1m and --write without --rand; "random" column 0 (line 5).
    assert write["workload"] == {
        "name": None,
        "read_pct": 0.0,
        "random_pct": 0.0,
        "transfer_sizes": [{"bytes": 1048576, "pct": 100.0}],
        "alignment_bytes": None,
        "streams": None,
    }
    assert write["params"]["file_size_bytes"] == 1099511627776 and write["params"]["direct"] is True
    assert write["started_at"] == "2022-03-09T11:04:05-0800"
    assert write["description"].startswith('"/global/u2/g/glock/src/elbencho/bin.cgpu/elbencho" "--hosts"')
    # line 3: MKDIRS entries/s 8097 / 4379, entries 4 / 16, Ent lat us 162 / 236 / 324
    [mkdirs] = runs["MKDIRS"]["points"]
    # Its rate is its entries/s (directories created per second), a metadata figure, as mdtest's are
    assert mkdirs["iops"] == 4379.0 and mkdirs["mbps"] is None and mkdirs["write_iops"] is None
    assert runs["MKDIRS"]["params"]["figure"] == "metadata operations per second"
    assert "figure" not in runs["WRITE 1m"]["params"]
    assert mkdirs["metrics"]["entries_per_s"] == 4379.0 and mkdirs["metrics"]["first"]["entries_per_s"] == 8097.0
    assert mkdirs["metrics"]["entries"] == 16.0
    assert mkdirs["avg_response_ms"] == 0.236 and mkdirs["max_response_ms"] == 0.324


def test_resfile_gives_the_same_write_phase_as_the_csv():
    result = parse_one(RESFILE)
    runs = runs_by_name(result)
    assert list(runs) == ["MKDIRS", "WRITE 1m"]
    assert result["warnings"] == [
        "phases without results skipped: SYNC (line 6), SYNC (line 14)",
        f"{RESFILE.name}:17: the command line of the SYNC phase (line 6) asks for the RMFILES, RMDIRS phases too, "
        "which the file does not hold after this line: it looks cut short (or elbencho stopped), and their results "
        "are missing",
    ]
    # lines 17-20: WRITE elapsed 45248 / 45252 ms, IOPS 3486 / 3514, MiB/s 3486 / 3514, MiB 157768 / 159042;
    # line 2: --hosts "cgpu03,cgpu04,cgpu05,cgpu06," --threads 4 --block 1m
    [point] = runs["WRITE 1m"]["points"]
    assert point["load"] == {"threads": 16, "outstanding_io": 16}
    assert point["iops"] == 3514.0 and point["mbps"] == mib(3514)
    assert point["metrics"]["first"]["iops"] == 3486.0 and point["metrics"]["mib"] == 159042.0
    assert point["avg_response_ms"] is None
    assert runs["WRITE 1m"]["started_at"] == "2022-03-09T11:03:19-0800"
    # lines 10-11: Dirs/s 8097 / 4379, Dirs total 4 / 16
    [mkdirs] = runs["MKDIRS"]["points"]
    assert mkdirs["metrics"]["entries_per_s"] == 4379.0 and mkdirs["metrics"]["entries"] == 16.0
    assert mkdirs["iops"] == 4379.0 and runs["MKDIRS"]["params"]["figure"] == "metadata operations per second"


def test_live_csv_is_a_run_with_its_samples_and_a_warning():
    result = parse_one(LIVE_CSV)
    [run] = result["runs"]
    assert run["name"] == "WRITE" and run["workload"]["read_pct"] == 0.0
    assert run["params"] == {"operation": "WRITE", "source": "livecsv"}
    [point] = run["points"]
    # lines 2-10: nine Total samples with Active 4; the last (line 10) at 45001 ms with DoneBytes 61678288896
    assert point["load"] == {"threads": 4}
    assert point["mbps"] == pytest.approx(61678288896 / 45.001 / 1e6)
    # IOPS 1236 over the first 5002 ms, then 1295, 1314, ... 1328, weighted by each interval's length
    assert point["iops"] == pytest.approx(1306.886, abs=0.001)
    live = point["metrics"]["live"]
    assert live["runtime_ms"][0] == 5002.0 and live["runtime_ms"][-1] == 45001.0
    assert live["iops"] == [1236.0, 1295.0, 1314.0, 1305.0, 1274.0, 1327.0, 1346.0, 1337.0, 1328.0]
    assert live["mbps"][0] == mib(1236)
    assert result["warnings"] == [
        f"{LIVE_CSV.name}:10: WRITE (line 2) comes from live statistics: its figures are averages up to the last "
        "sample (line 10) at 45001 ms, not elbencho's final result (see the --csvfile or --resfile); a live CSV "
        "states no end, so later samples are missing if it was cut"
    ]


def test_thread_sweep_in_one_csv_is_a_curve_and_rwmix_fills_both_directions():
    runs = runs_by_name(parse_one(SWEEP_CSV))
    assert list(runs) == ["READ 4k", "WRITE 4k"]
    # lines 2 and 3: READ 4k random, IO depth 16, threads 1 then 4: IOPS 40120 / 151802, MiB/s 156 / 592
    read = runs["READ 4k"]
    assert [p["load"] for p in read["points"]] == [
        {"threads": 1, "outstanding_io": 16},
        {"threads": 4, "outstanding_io": 64},
    ]
    assert [p["iops"] for p in read["points"]] == [40120.0, 151802.0]
    assert read["points"][1]["mbps"] == mib(592) and read["points"][1]["read_mbps"] == mib(592)
    assert read["points"][1]["avg_read_response_ms"] == 0.421 and read["points"][1]["avg_write_response_ms"] is None
    # Line 2: block size 4096, random 1, random aligned 1 (offsets on block-size boundaries).
    assert read["workload"] == {
        "name": None,
        "read_pct": 100.0,
        "random_pct": 100.0,
        "transfer_sizes": [{"bytes": 4096, "pct": 100.0}],
        "alignment_bytes": 4096,
        "streams": None,
    }
    # line 4: WRITE with --rwmixpct 70: write IOPS 30400 at 610 us, rwmix read IOPS 70935 at 640 us
    write = runs["WRITE 4k"]
    [point] = write["points"]
    assert write["workload"]["read_pct"] == 70.0
    assert point["iops"] == 101335.0 and point["write_iops"] == 30400.0 and point["read_iops"] == 70935.0
    assert point["write_mbps"] == mib(118) and point["read_mbps"] == mib(277) and point["mbps"] == mib(395)
    assert point["avg_write_response_ms"] == 0.61 and point["avg_read_response_ms"] == 0.64
    assert point["avg_response_ms"] == pytest.approx((0.61 * 30400 + 0.64 * 70935) / 101335)
    assert point["max_response_ms"] == 9.12


def test_resfile_with_human_times_latency_and_rwmix():
    runs = runs_by_name(parse_one(RWMIX_RESFILE))
    # lines 6-11: READ elapsed 29.998s / 30.002s, IOPS 151840 / 151802, CPU 11, IO latency avg=421us max=3.12ms
    [read] = runs["READ 4k"]["points"]
    assert read["load"] == {"threads": 4, "outstanding_io": 64}
    assert read["iops"] == 151802.0 and read["mbps"] == mib(592) and read["cpu_pct"] == 11.0
    assert read["metrics"]["elapsed_ms"] == 30002.0 and read["metrics"]["first"]["elapsed_ms"] == 29998.0
    assert read["avg_response_ms"] == 0.421 and read["max_response_ms"] == 3.12
    # lines 19-29: WRITE with --threads=4 --rwmixpct 70 (line 15): IOPS write 30400, read 70935
    [mixed] = runs["WRITE 4k"]["points"]
    assert mixed["load"] == {"threads": 4, "outstanding_io": 64}
    assert mixed["write_iops"] == 30400.0 and mixed["read_iops"] == 70935.0 and mixed["iops"] == 101335.0
    assert mixed["mbps"] == mib(395)
    assert mixed["avg_write_response_ms"] == 0.61 and mixed["avg_read_response_ms"] == 0.64
    assert "entries" not in mixed["metrics"]
    assert runs["WRITE 4k"]["workload"]["read_pct"] == 70.0


CSV_HEADER = RESULT_CSV.read_text().splitlines()[0]


def test_a_csv_row_with_missing_columns_names_its_line():
    with pytest.raises(ParseError) as caught:
        parse_text(CSV_HEADER + "\n2022-03-09T11:03:19-0800,,dir,1,4,4,1\n")
    assert caught.value.line == 2
    assert caught.value.message == "expected 55 columns as in the header, found 7"


def test_a_csv_figure_that_is_not_a_number_names_its_column():
    row = RESULT_CSV.read_text().splitlines()[4].replace(",3486,3514,3486,3514,", ",3486,35x4,3486,3514,")
    with pytest.raises(ParseError) as caught:
        parse_text(CSV_HEADER + "\n" + row + "\n")
    assert caught.value.line == 2
    assert caught.value.field == "IOPS [last]"
    assert caught.value.message == "'35x4' is not a number"


@pytest.mark.parametrize("path", [RWMIX_RESFILE, SWEEP_CSV])
def test_an_rwmixpct_no_float_holds_names_the_command_line(path):
    text = path.read_text().replace('"--rwmixpct" "70"', '"--rwmixpct" "1' + "0" * 400 + '"')
    assert text != path.read_text()
    with pytest.raises(ParseError) as caught:
        parse_text(text, name=path.name)
    # The command line: line 15 of the resfile; in the CSV, the row of the rwmix phase (line 4).
    assert caught.value.line == (15 if path == RWMIX_RESFILE else 4)
    assert caught.value.message == (
        "the command line's --rwmixpct 10000000000000000000...(401 digits) is not a percentage"
    )


def test_a_resfile_latency_in_an_unknown_unit_is_refused():
    text = RWMIX_RESFILE.read_text().replace("max=3.12ms", "max=3.12min")
    with pytest.raises(ParseError) as caught:
        parse_text(text, name="run.res")
    assert caught.value.line == 11
    assert "latency '3.12min' is not like" in caught.value.message


@pytest.mark.parametrize("path", [RESULT_CSV, RESFILE, LIVE_CSV, SWEEP_CSV, RWMIX_RESFILE])
def test_sniff_recognises_each_elbencho_file(path):
    assert elbencho.sniff(Source(path).head(), path.name)


@pytest.mark.parametrize(
    "head",
    [
        b"'Test Type,'Test Description\n",
        b"<title>Vdbench output/totals.html</title><pre>\n",
        b"Label,Value\nIOPS,3514\n",
    ],
)
def test_sniff_leaves_other_files_alone(head):
    assert not elbencho.sniff(head, "results.csv")


def test_a_latin_1_byte_in_a_result_file_names_offset_and_line(tmp_path):
    text = RESFILE.read_bytes()
    offset = text.index(b"\n", text.index(b"\n") + 1) + 1  # the start of line 3
    path = tmp_path / RESFILE.name
    path.write_bytes(text[:offset] + b"\xe9" + text[offset:])
    with pytest.raises(ParseError) as caught:
        parse_one(path)
    assert str(caught.value) == (
        f"{RESFILE.name}:3: byte 0xE9 at offset {offset} is not UTF-8; save the file as UTF-8 "
        "(it may be Latin-1 / Windows-1252)"
    )


class TestWorkloadSignature:
    """Phase, --rand, --randalign, --block and --rwmixpct as the CSV columns and command line give them."""

    def test_the_shared_resfile_reads_its_command_line(self):
        # Line 2: "--block" "1m" "--write" without "--rand": a sequential 1 MiB write.
        write = runs_by_name(parse_one(RESFILE))["WRITE 1m"]
        assert write["workload"] == {
            "name": None,
            "read_pct": 0.0,
            "random_pct": 0.0,
            "transfer_sizes": [{"bytes": 1048576, "pct": 100.0}],
            "alignment_bytes": None,
            "streams": None,
        }
        assert "measured_workload" not in write["params"]

    def test_metadata_phases_and_live_samples_state_no_transfer_size(self):
        # MKDIRS (CSV line 3) moves no data; the live CSV has no block size column.
        mkdirs = runs_by_name(parse_one(RESULT_CSV))["MKDIRS"]["workload"]
        assert (mkdirs["read_pct"], mkdirs["random_pct"], mkdirs["transfer_sizes"]) == (None, None, [])
        [live] = parse_one(LIVE_CSV)["runs"]
        assert live["workload"]["read_pct"] == 0.0 and live["workload"]["transfer_sizes"] == []

    def test_rwmixpct_from_the_command_line_and_alignment_from_randalign(self):
        # SWEEP_CSV line 4: "--rand" "--write" "--rwmixpct" "70", random aligned 1, block size 4096.
        write = runs_by_name(parse_one(SWEEP_CSV))["WRITE 4k"]
        assert (write["workload"]["read_pct"], write["workload"]["alignment_bytes"]) == (70.0, 4096)
        # rwmix_lat.res.txt states --rand without --randalign: offsets on any byte, no alignment.
        read = runs_by_name(parse_one(RWMIX_RESFILE))["READ 4k"]
        assert read["workload"]["random_pct"] == 100.0 and read["workload"]["alignment_bytes"] is None
