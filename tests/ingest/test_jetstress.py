"""Jetstress HTML reports: the seed 001 Jetstress 2007 report as HTML, a 2013-style UTF-16 report, markup in fields.

No real report file is public. ``jetstress2007_seed001.html`` carries the figures of the real report
printed in ../shared/seeds/001_22c77edb183857dc.txt, appendix lines 169-225 (cited per test as
"seed line N"); the other reports are written by hand with made-up figures.
"""

import pytest

from ingest import ParseError, Source, detect, parse_paths, parse_sources
from ingest.formats import jetstress
from tests.ingest.contract import FormatContract
from tests.samples import data, sample

SEED_REPORT = data("jetstress", "jetstress2007_seed001.html")
UTF16_REPORT = data("jetstress", "jetstress2013_utf16.html")
SCRIPT_REPORT = data("jetstress", "jetstress_script_in_description.html")
CONFIG_XML = sample("jetstress", "jacobklitzke_JetstressConfig_15.0.995.0.xml")


class TestJetstressContract(FormatContract):
    format_id = "jetstress"
    inputs = [[SEED_REPORT], [UTF16_REPORT], [SCRIPT_REPORT]]


def only_run(path):
    (result,) = parse_paths([path])
    (run,) = result["runs"]
    return result, run


@pytest.fixture(scope="module")
def seed():
    return only_run(SEED_REPORT)


@pytest.fixture(scope="module")
def report2013():
    return only_run(UTF16_REPORT)


class TestSeedJetstress2007Report:
    def test_summary_fields(self, seed):
        result, run = seed
        assert result["tool"] == {"name": "Microsoft Exchange Jetstress", "version": "08.02.0060.000"}  # seed line 177
        assert run["verdict"] == "pass"  # seed line 172 "Overall Test Result | Pass"
        assert run["name"] == "VMware mixed workload test."  # seed line 174
        assert run["started_at"] == "2009-10-16T11:49:39"  # seed line 175
        assert run["params"]["machine_name"] == "JS-01"
        assert result["warnings"] == []

    def test_one_point_with_threads_and_achieved_iops(self, seed):
        _, run = seed
        (point,) = run["points"]
        assert point["load"] == {"threads": 32}  # seed line 188 "Thread count | 32 (per-storage group)"
        assert run["params"]["thread_count_scope"] == "per-storage group"
        assert point["iops"] == pytest.approx(1101.114)  # seed line 182 "Achieved I/O per Second"
        assert point["metrics"]["target_iops"] == 1140  # seed line 183

    def test_database_volume_rates_and_latencies_in_seconds(self, seed):
        _, run = seed
        (point,) = run["points"]
        # seed line 199: "Database (E:) | 0.015 | 0.010 | 616.046 | 485.068 | (n/a)" (Avg. Disk sec/Read in seconds)
        assert point["read_iops"] == pytest.approx(616.046)
        assert point["write_iops"] == pytest.approx(485.068)
        assert point["read_iops"] + point["write_iops"] == pytest.approx(point["iops"])
        assert point["avg_read_response_ms"] == pytest.approx(15.0)
        assert point["avg_write_response_ms"] == pytest.approx(10.0)
        assert point["avg_response_ms"] == pytest.approx((15 * 616.046 + 10 * 485.068) / 1101.114)
        assert run["workload"]["read_pct"] == pytest.approx(100 * 616.046 / 1101.114)
        # The report states no I/O mix: the read % is the measured share, named so; the rest stays unknown.
        assert run["params"]["measured_workload"] == ["read_pct"]
        assert run["workload"]["random_pct"] is None and run["workload"]["transfer_sizes"] == []
        assert run["workload"]["alignment_bytes"] is None and run["workload"]["streams"] is None

    def test_log_volume_is_kept_apart(self, seed):
        _, run = seed
        metrics = run["points"][0]["metrics"]
        # seed line 200: "Log (F:) | 0.000 | 0.000 | 0.000 | 236.662 | 6155.408"
        assert metrics["log_write_latency_ms"] == 0.0
        log = metrics["instances"][1]
        assert log["name"] == "Log (F:)"
        assert log["log_writes_per_s"] == pytest.approx(236.662)
        assert log["log_write_bytes"] == pytest.approx(6155.408)
        assert metrics["instances"][0]["db_write_bytes"] is None  # "(n/a)"

    def test_host_counters_and_parameters(self, seed):
        _, run = seed
        point = run["points"][0]
        assert point["cpu_pct"] == pytest.approx(2.633)  # seed line 203 "% Processor Time | 2.633"
        assert len(point["metrics"]["host"]) == 7
        params = run["params"]
        assert params["lazy_commits_pct"] == 55  # seed line 196
        assert params["maximum_database_cache_mb"] == 256.0  # seed line 191
        assert params["initial_database_size_bytes"] == 1025034043392  # seed line 184
        assert len(params["test_log"]) == 16  # seed lines 210-225

    def test_supported_mailboxes_as_seed_001_counts_them(self, seed):
        # Seed 001 ("What the Numbers Mean", line 103) sizes mailboxes at 0.5 IOPS per user.
        _, run = seed
        assert round(run["points"][0]["iops"] / 0.5) == 2202


class TestJetstress2013Utf16Report:
    """Two InstanceNNNN.N rows; the Total I/O Performance grid (with maintenance reads) must not be summed."""

    def test_utf16_with_bom_is_detected(self):
        assert UTF16_REPORT.read_bytes()[:2] == b"\xff\xfe"
        assert detect(Source(UTF16_REPORT)) is jetstress

    def test_summary(self, report2013):
        result, run = report2013
        assert result["tool"]["version"] == "15.01.0466.031"
        assert run["verdict"] == "pass"
        assert run["started_at"] == "2024-03-05T09:12:20"
        assert run["points"][0]["load"] == {"threads": 6}
        assert run["points"][0]["iops"] == pytest.approx(1502.338)  # "Achieved Transactional I/O per Second"
        assert run["points"][0]["metrics"]["target_iops"] == 1500

    def test_transactional_rows_are_summed_and_weighted(self, report2013):
        _, run = report2013
        point = run["points"][0]
        # Transactional I/O Performance: Instance3452.1 reads 451.604/s at 11.712 ms, writes 300.012/s at 2.331 ms;
        # Instance3452.2 reads 448.309/s at 13.245 ms, writes 302.413/s at 2.877 ms.
        assert point["read_iops"] == pytest.approx(451.604 + 448.309)
        assert point["write_iops"] == pytest.approx(300.012 + 302.413)
        assert point["avg_read_response_ms"] == pytest.approx((11.712 * 451.604 + 13.245 * 448.309) / 899.913)
        assert point["avg_write_response_ms"] == pytest.approx((2.331 * 300.012 + 2.877 * 302.413) / 602.425)
        # Log writes 52.105/s at 0.731 ms and 49.870/s at 0.802 ms.
        expected_log_ms = (0.731 * 52.105 + 0.802 * 49.870) / (52.105 + 49.870)
        assert point["metrics"]["log_write_latency_ms"] == pytest.approx(expected_log_ms)

    def test_per_instance_rows_and_other_grids_in_metrics(self, report2013):
        _, run = report2013
        metrics = run["points"][0]["metrics"]
        assert [row["name"] for row in metrics["instances"]] == ["Instance3452.1", "Instance3452.2"]
        assert metrics["instances"][1]["db_read_bytes"] == pytest.approx(34098.120)
        assert metrics["total_io_performance"][0]["I/O Database Reads/sec"] == pytest.approx(489.227)
        assert metrics["background_database_maintenance_io_performance"][1]["Database Maintenance IO Reads/sec"] == (
            pytest.approx(37.651)
        )
        assert run["points"][0]["cpu_pct"] == pytest.approx(4.219)
        assert run["params"]["database_files_count"] == 2
        assert run["params"]["database_configuration"]["Instance3452.2"].startswith("Log path: L:\\Log2")


class TestMarkupInFields:
    def test_script_in_the_description_comes_out_as_text(self):
        result, run = only_run(SCRIPT_REPORT)
        assert run["name"] == 'Nightly <script>alert("owned")</script> run & check <img src=x>'
        assert run["params"]["machine_name"] == "JS-<02>"
        assert run["verdict"] == "fail"

    def test_a_script_outside_the_tables_is_reported(self):
        result, _ = only_run(SCRIPT_REPORT)
        assert result["warnings"] == [
            "the report holds 1 script element(s) outside its tables; they were passed over and never run"
        ]


class TestDetectionAndErrors:
    def test_the_configuration_xml_is_refused(self):
        with pytest.raises(ParseError) as caught:
            parse_paths([CONFIG_XML])
        assert "this is a Jetstress configuration file (JetstressConfig.xml)" in str(caught.value)
        assert "not its results" in str(caught.value)

    def test_a_utf16_configuration_xml_is_refused_too(self):
        text = CONFIG_XML.read_text().replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="utf-16"?>')
        with pytest.raises(ParseError, match="Jetstress configuration file"):
            parse_sources([Source(name="JetstressConfig.xml", data=text.encode("utf-16"))])

    def test_a_mistyped_figure_names_line_and_column(self):
        text = SEED_REPORT.read_text().replace("<td>616.046</td>", "<td>61x.046</td>")
        with pytest.raises(ParseError) as caught:
            parse_sources([Source(name="report.html", data=text.encode())])
        assert caught.value.line == 53
        assert str(caught.value) == "report.html:53: field 'Disk Reads/sec': expected a number, found '61x.046'"

    def test_a_latency_column_without_a_unit(self):
        text = SEED_REPORT.read_text().replace("Avg. Disk sec/Read", "Read Latency")
        with pytest.raises(ParseError) as caught:
            parse_sources([Source(name="report.html", data=text.encode())])
        assert str(caught.value) == (
            "report.html:52: field 'Read Latency': cannot tell whether this latency column is in seconds "
            "('sec/Read') or milliseconds ('(msec)')"
        )

    def test_a_report_without_throughput(self):
        html = (
            "<html><body><h1>Microsoft Exchange Server Jetstress</h1><table>"
            "<tr><th colspan='2'>Test Summary</th></tr><tr><td>Overall Test Result</td><td>Pass</td></tr>"
            "</table></body></html>"
        )
        with pytest.raises(ParseError, match="no 'Achieved Transactional I/O per Second' in this report"):
            parse_sources([Source(name="DBChecksum_2009_10_16_13_51_50.html", data=html.encode())])

    def test_sniff_needs_jetstress_html(self):
        assert jetstress.sniff(SEED_REPORT.read_bytes(), "x.html")
        assert not jetstress.sniff(b"<html><body><table><tr><td>vdbench</td></tr></table>", "totals.html")
        assert not jetstress.sniff(CONFIG_XML.read_bytes(), "JetstressConfig.xml")


class TestCutReports:
    """A report cut short is refused when it stops inside a table, and read with a warning otherwise."""

    def test_a_report_cut_at_70_percent(self, tmp_path):
        text = SEED_REPORT.read_bytes()
        path = tmp_path / SEED_REPORT.name
        path.write_bytes(text[: len(text) * 7 // 10])
        with pytest.raises(ParseError) as caught:
            parse_paths([path])
        assert str(caught.value) == (
            f"{SEED_REPORT.name}:62: the report stops inside the table that starts on line 56: the file is cut "
            "short; save the complete report Jetstress wrote"
        )

    def test_a_report_cut_in_its_test_log_is_read_with_a_warning(self, tmp_path):
        text = SEED_REPORT.read_bytes()
        path = tmp_path / SEED_REPORT.name
        path.write_bytes(text[: text.rindex(b"</body>")])
        [result] = parse_paths([path])
        line = text[: text.rindex(b"</body>")].count(b"\n") + 1
        assert result["warnings"][0].startswith(f"{SEED_REPORT.name}:{line}: the report stops at line {line} ")
        assert result["warnings"][0].endswith(
            "without its closing </html>: it may be cut short, and the sections after that line (often the test "
            "log) are missing"
        )


@pytest.mark.parametrize(
    ("written", "damaged", "line", "message"),
    [
        # Line 34: "Initial database size" 1025034043392; line 35: "Final database size" 1027861135360.
        ("<td>1025034043392", "<td>inf", 34, "field 'Initial database size': "),
        ("<td>1027861135360", "<td>NaN", 35, "field 'Final database size': "),
        # Line 23: "Test Start Time" 10/16/2009 11:49:39 AM; line 24: "Test End Time" 10/16/2009 1:51:50 PM.
        ("10/16/2009 11:49:39 AM", "10/16/inf 11:49:39 AM", 23, "Test Start Time '10/16/inf 11:49:39 AM' is not"),
        ("10/16/2009 1:51:50 PM</td>", "10/16/inf 1:51:50 PM</td>", 24, "Test End Time '10/16/inf 1:51:50 PM' is not"),
    ],
    ids=["inf size", "NaN size", "start time", "end time"],
)
def test_a_database_size_or_test_time_that_is_no_figure_is_refused_with_its_line(written, damaged, line, message):
    text = SEED_REPORT.read_text()
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(name=SEED_REPORT.name, data=text.replace(written, damaged, 1).encode())])
    assert str(caught.value).startswith(f"{SEED_REPORT.name}:{line}: ")
    assert message in str(caught.value)
