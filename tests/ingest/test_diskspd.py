"""DiskSpd: the shared -Rxml and text samples, our own cp1251 text and -L XML files, and bad input."""

import pytest

from ingest import ParseError, Source, parse_paths, parse_sources
from ingest.formats import diskspd
from ingest.registry import detect
from tests.ingest.contract import FormatContract, SingleSizeUnits
from tests.samples import data, sample

PKB_XML = sample("diskspd", "pkb_diskspd-2.0.21a_result.xml")
GOODSQL = sample("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt")
GOODWIN = sample("diskspd", "basilkisel_diskspd-text_goodwinserverdc.westeurope.cloudapp.azure.com.txt")
CP1251 = data("diskspd", "cp1251_nbsp_ru.txt")
LATENCY_XML = data("diskspd", "randrw_latency.xml")
MIB = 1024 * 1024


class TestDiskSpdContract(FormatContract, SingleSizeUnits):
    format_id = "diskspd"
    inputs = [[path] for path in (PKB_XML, GOODSQL, GOODWIN, CP1251, LATENCY_XML)]


def parsed(path):
    [result] = parse_paths([path])
    return result


def test_xml_results_timespan_threads_summed():
    result = parsed(PKB_XML)
    assert result["tool"] == {"name": "DiskSpd", "version": "2.0.21a"}
    [run] = result["runs"]  # the <Profile> echo's <TimeSpan> is not a second run
    # Profile: 64K blocks, sequential reads, 4 threads of 2 outstanding I/Os each: the run is titled by
    # what it does, its target a detail.
    assert run["name"] == "64K sequential read, 4 threads x 2 outstanding"
    assert run["params"]["target_paths"] == ["C:\\scratch\\testfile.dat"]
    assert run["started_at"] == "2018-10-18T21:39:04+00:00"
    # Profile: BlockSize 65536 (line 39), no <Random>, WriteRatio 0, RequestCount 2 per thread (line 56).
    # Sequential (<StrideSize> 65536, line 52) and <InterlockedSequential>false (line 53): each of the
    # 4 <ThreadsPerFile> (line 59) runs its own sequence, which is load, so no stream count is stated.
    assert run["workload"] == {
        "name": None,
        "read_pct": 100.0,
        "random_pct": 0.0,
        "transfer_sizes": [{"bytes": 65536, "pct": 100.0}],
        "alignment_bytes": None,
        "streams": None,
    }
    [point] = run["points"]
    assert point["load"] == {"outstanding_io": 8, "threads": 4}  # 4 threads (line 69) x 2
    ios = 22645 + 22623 + 22548 + 23154  # <IOCount> lines 118, 131, 144, 157
    size = 1484062720 + 1482620928 + 1477705728 + 1517420544  # <BytesCount> lines 116, 129, 142, 155
    assert point["iops"] == pytest.approx(ios / 30.02)  # <TestTimeSeconds> line 68
    assert point["iops"] == pytest.approx(3030.31, abs=0.01)
    assert point["mbps"] == pytest.approx(size / 30.02 / 1e6)
    assert point["read_iops"] == point["iops"] and point["write_iops"] is None
    assert point["cpu_pct"] == 3.20  # <Average><UsagePercent> line 106
    assert point["avg_response_ms"] is None  # run without -L: no latency section


def test_xml_latency_section_when_run_with_L():
    [run] = parsed(LATENCY_XML)["runs"]
    [point] = run["points"]
    # Our own file: threads 0 and 1 did 7000 + 6000 I/Os (lines 119, 138) in 10.00 s (line 53).
    assert (point["iops"], point["read_iops"], point["write_iops"]) == (1300.0, 910.0, 390.0)
    assert point["mbps"] == pytest.approx((57344000 + 49152000) / 10 / 1e6)
    # The run-wide <Latency> averages (lines 82-86), not the per-target ones.
    assert point["avg_response_ms"] == 2.12
    assert (point["avg_read_response_ms"], point["avg_write_response_ms"]) == (1.1, 4.5)
    assert point["max_response_ms"] == 61.5  # <Percentile>100</Percentile> total
    assert point["metrics"]["percentiles_ms"]["total"]["99"] == 9.8
    assert point["load"] == {"outstanding_io": 8, "threads": 2}  # 2 threads x RequestCount 4
    # <BlockSize>8192 (line 29), <Random>8192 (line 38: random, aligned to 8 KiB), <WriteRatio>30 (line 42).
    assert run["workload"] == {
        "name": None,
        "read_pct": 70.0,
        "random_pct": 100.0,
        "transfer_sizes": [{"bytes": 8192, "pct": 100.0}],
        "alignment_bytes": 8192,
        "streams": None,
    }
    assert point["cpu_pct"] == 7.25


def test_text_output_with_preamble():
    result = parsed(GOODSQL)
    [run] = result["runs"]
    assert run["description"].endswith("-w50 -W5 -b4K -c8G -F2 -o32 -Sh -L -r -d600 C:\\testfile.foo")
    # Lines 23-25: "read/write ratio: 50/50", "block size: 4096", "using random I/O (alignment: 4096)".
    assert run["workload"] == {
        "name": None,
        "read_pct": 50.0,
        "random_pct": 100.0,
        "transfer_sizes": [{"bytes": 4096, "pct": 100.0}],
        "alignment_bytes": 4096,
        "streams": None,
    }
    [point] = run["points"]
    assert point["load"] == {"outstanding_io": 64, "threads": 2}  # -F2 threads x -o32 on the one file
    # Total / Read / Write IO "total:" rows, lines 52, 60, 68.
    assert (point["iops"], point["read_iops"], point["write_iops"]) == (403.66, 202.49, 201.17)
    assert point["mbps"] == pytest.approx(992047104 / 600.00 / 1e6)
    assert point["mbps"] == pytest.approx(1.58 * MIB / 1e6, rel=0.01)  # the printed binary MB/s, converted
    assert point["read_mbps"] == pytest.approx(497639424 / 600.00 / 1e6)
    assert (point["avg_response_ms"], point["avg_read_response_ms"], point["avg_write_response_ms"]) == (
        158.382,
        128.989,
        187.968,
    )
    assert point["max_response_ms"] == 7322.167  # %-ile "max" Total, line 87
    assert point["metrics"]["percentiles_ms"]["total"]["99"] == 824.992  # line 79
    assert point["cpu_pct"] == 3.71  # avg. Usage, line 44
    assert result["warnings"] == [
        f"{GOODSQL.name}:1-5: 3 lines outside DiskSpd output skipped: Azure virtual machine with Windows Server. | "
        "Size is Basic A2, 2 vcpus, 3.5 GB memory, 4 data disks, 4x300 IOpS. | "
        "PS C:\\Users\\kisel_vs> diskspd -w50 -W5 -b4K -c8G -F2 -o32 -Sh -L -r -d600 C:\\testfile.foo"
    ]


def test_two_outputs_in_one_text_file_are_two_runs():
    result = parsed(GOODWIN)
    hdd, ssd = result["runs"]
    # Both runs do the same (lines 7 and 95: -w50 -b4K -o32 -r, 2 threads): their targets tell them apart.
    assert (hdd["name"], ssd["name"]) == (
        "4K random 50 % read, 2 threads x 32 outstanding on C:\\testfile.foo",
        "4K random 50 % read, 2 threads x 32 outstanding on D:\\testfile.foo",
    )
    [hdd_point], [ssd_point] = hdd["points"], ssd["points"]
    assert (hdd_point["iops"], hdd_point["avg_response_ms"], hdd_point["cpu_pct"]) == (393.40, 162.684, 0.71)
    assert hdd_point["max_response_ms"] == 3221.106  # line 86
    # Second output: total row line 139, avg. line 131, max line 174.
    assert (ssd_point["iops"], ssd_point["avg_response_ms"], ssd_point["cpu_pct"]) == (50445.24, 1.268, 35.78)
    assert ssd_point["mbps"] == pytest.approx(123975102464 / 600.00 / 1e6)
    assert ssd_point["mbps"] == pytest.approx(197.05 * MIB / 1e6, rel=0.001)
    assert ssd_point["max_response_ms"] == 410.330
    assert any(w.startswith(f"{GOODWIN.name}:92-93: 2 lines") for w in result["warnings"])


def test_several_timespans_are_several_runs_and_totals_are_not_a_run():
    text = GOODSQL.read_text()
    head, results = text.split("Results for timespan 1:")
    second_profile = head[head.index("        timespan:") :].replace("timespan:   1", "timespan:   2")
    totals = (
        "\n\nTotals:\n*****\n\ntype   |  bytes |  I/Os |  MiB/s |  I/O per s\n-------\nwrite  | 1 | 1 | 0.00 | 0.00\n"
    )
    text = head.rstrip() + "\n" + second_profile + "Results for timespan 1:" + results
    text += "\n\nResults for timespan 2:" + results + totals
    result = parse_sources([Source(name="two-spans.txt", data=text.encode())])[0]
    assert [run["name"] for run in result["runs"]] == [
        "4K random 50 % read, 2 threads x 32 outstanding (timespan 1)",
        "4K random 50 % read, 2 threads x 32 outstanding (timespan 2)",
    ]
    assert [run["points"][0]["iops"] for run in result["runs"]] == [403.66, 403.66]
    assert [run["points"][0]["load"]["outstanding_io"] for run in result["runs"]] == [64, 64]
    assert not any("type   |" in w for w in result["warnings"])


def test_cp1251_text_with_non_breaking_space_grouping():
    result = parsed(CP1251)
    [run] = result["runs"]
    assert run["name"] == "8K random read, 2 threads x 8 outstanding"
    assert run["params"]["target_paths"] == ["D:\\тест\\данные.dat"]
    assert run["started_at"] == "2024-03-12T09:15:00+00:00"
    [point] = run["points"]
    # Our own file: total row line 54 reads "2 457 600 000 | 300 000 | 39,06 | 5000,00 | 3,200".
    assert point["iops"] == 5000.0
    assert point["mbps"] == pytest.approx(2457600000 / 60 / 1e6)
    assert point["mbps"] == pytest.approx(39.06 * MIB / 1e6, rel=0.001)
    assert point["avg_response_ms"] == 3.2
    assert point["write_iops"] is None and point["avg_write_response_ms"] is None  # a read test
    assert point["max_response_ms"] == 52.6
    assert point["cpu_pct"] == 12.5
    assert point["load"] == {"outstanding_io": 16, "threads": 2}  # 2 threads per file x 8
    assert any("read as cp1251" in w for w in result["warnings"])


def test_utf16_text_as_powershell_redirects_it():
    utf16 = GOODSQL.read_bytes().decode("ascii").encode("utf-16")
    source = Source(name="goodsql-utf16.txt", data=utf16)
    assert detect(source) is diskspd
    [result] = parse_sources([source])
    assert result["runs"][0]["points"][0]["iops"] == 403.66


def test_xml_with_a_doctype_is_refused():
    xml = (
        b'<?xml version="1.0"?>\n<!DOCTYPE Results [\n  <!ENTITY x SYSTEM "file:///etc/passwd">\n]>\n'
        b"<Results>\n  <System><ComputerName>&x;</ComputerName></System>\n</Results>\n"
    )
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name="evil.xml", data=xml)])
    assert caught.value.line == 2
    assert "declares a DOCTYPE or ENTITY" in caught.value.message


def test_truncated_xml_names_the_line():
    xml = b"<Results>\n  <System>\n    <Tool><Version>2.1</Version></Tool>\n  </System>\n  <TimeSpan>\n"
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name="cut.xml", data=xml)])
    assert caught.value.line == 6
    assert "not well-formed XML" in caught.value.message


@pytest.mark.parametrize("written", ["9.80,0", "9,80.5"])
def test_a_figure_with_mixed_separators_in_xml_names_its_line(written):
    # randrw_latency.xml line 104: the 99th percentile's <TotalMilliseconds>9.800</TotalMilliseconds>.
    xml = LATENCY_XML.read_text().replace("<TotalMilliseconds>9.800<", f"<TotalMilliseconds>{written}<")
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name="mixed.xml", data=xml.encode())])
    assert str(caught.value) == (
        f"mixed.xml:104: field 'TotalMilliseconds': <TotalMilliseconds> holds {written!r}, not a number"
    )


def test_bad_number_in_a_text_table_names_line_and_column():
    text = GOODSQL.read_text().replace("242199 |       1.58", "2421x9 |       1.58")
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name="bad.txt", data=text.encode())])
    assert (caught.value.line, caught.value.field) == (52, "I/Os")
    assert "expected a number in 'I/Os', found '2421x9'" in caught.value.message


def test_a_profile_is_refused_with_a_clear_message():
    profile = (
        b"<Profile>\n  <TimeSpans>\n    <TimeSpan><Duration>10</Duration></TimeSpan>\n  </TimeSpans>\n</Profile>\n"
    )
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name="profile.xml", data=profile)])
    assert "DiskSpd profile (the -X input), not results" in caught.value.message


def test_sniff_is_specific():
    assert diskspd.sniff(GOODWIN.read_bytes()[:4096], GOODWIN.name)
    assert not diskspd.sniff(b'{"fio version": "fio-3.36"}', "x.json")
    assert not diskspd.sniff(b"<Results><Test/></Results>", "other.xml")


def test_a_latin_1_byte_in_xml_names_offset_and_line(tmp_path):
    text = PKB_XML.read_bytes()
    offset = text.index(b"<ComputerName>") + len(b"<ComputerName>")
    path = tmp_path / PKB_XML.name
    path.write_bytes(text[:offset] + b"\xe9" + text[offset:])
    with pytest.raises(ParseError) as caught:
        parse_paths([path])
    line = text[:offset].count(b"\n") + 1
    assert str(caught.value) == (
        f"{PKB_XML.name}:{line}: byte 0xE9 at offset {offset} is not UTF-8; save the file as UTF-8 "
        "(it may be Latin-1 / Windows-1252)"
    )


def test_a_nul_byte_in_text_output_is_refused_with_its_line(tmp_path):
    lines = GOODSQL.read_bytes().splitlines(keepends=True)
    path = tmp_path / GOODSQL.name
    path.write_bytes(b"".join(lines[:4] + [b"\x00" + lines[4]] + lines[5:]))
    with pytest.raises(ParseError) as caught:
        parse_paths([path])
    assert str(caught.value) == (
        f"{GOODSQL.name}:5: NUL byte in the text: the file is damaged (or UTF-16 without a byte-order mark); "
        "save DiskSpd's output again"
    )


class TestWorkloadSignature:
    """-w, -r/-s/-si, -b and -r<align> as the profile echo states them."""

    def test_both_runs_of_the_two_output_text_file(self):
        # Lines 23-25 and 111-113: "read/write ratio: 50/50", "block size: 4096",
        # "using random I/O (alignment: 4096)", for C: and for D:.
        for run in parsed(GOODWIN)["runs"]:
            assert (run["workload"]["read_pct"], run["workload"]["random_pct"]) == (50.0, 100.0)
            assert run["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
            assert run["workload"]["alignment_bytes"] == 4096

    def test_cp1251_text_alignment_in_kib(self):
        # Lines 20-22: "performing read test", "block size: 8KiB", "using random I/O (alignment: 8KiB)".
        [run] = parsed(CP1251)["runs"]
        assert run["workload"]["read_pct"] == 100.0
        assert run["workload"]["alignment_bytes"] == 8192

    def test_interlocked_sequential_is_one_stream_per_target(self, tmp_path):
        text = PKB_XML.read_text()
        path = tmp_path / "si.xml"
        path.write_text(text.replace("<InterlockedSequential>false", "<InterlockedSequential>true", 1))
        [run] = parse_paths([path])[0]["runs"]
        assert run["workload"]["streams"] == 1 and run["workload"]["random_pct"] == 0.0
        assert run["workload"]["alignment_bytes"] is None  # sequential: a stride, not an alignment

    def test_text_interlocked_and_mixed_random_lines(self, tmp_path):
        text = GOODSQL.read_text()
        interlocked = tmp_path / "si.txt"
        interlocked.write_text(
            text.replace("using random I/O (alignment: 4096)", "using interlocked sequential I/O (stride: 4096)")
        )
        [run] = parse_paths([interlocked])[0]["runs"]
        assert (run["workload"]["random_pct"], run["workload"]["streams"]) == (0.0, 1)
        mixed = tmp_path / "rs.txt"
        mixed_line = "using mixed random/sequential I/O (30% random) (alignment/stride: 8KiB)"
        mixed.write_text(text.replace("using random I/O (alignment: 4096)", mixed_line))
        [run] = parse_paths([mixed])[0]["runs"]
        assert (run["workload"]["random_pct"], run["workload"]["alignment_bytes"]) == (30.0, 8192)

    def test_a_bad_alignment_names_the_field(self, tmp_path):
        path = tmp_path / "bad.txt"
        path.write_text(GOODSQL.read_text().replace("(alignment: 4096)", "(alignment: lots)"))
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert caught.value.field == "alignment" and caught.value.line == 25
