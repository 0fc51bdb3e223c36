"""MLPerf Storage v1.0: the report, DLIO's summary and epoch times, the reportgen transcript and the system
description; figures read by hand from the shared samples, each naming the key or line it comes from.

The tools print "MB/second" for MiB/s (samples/s times the model's record size: cosmoflow's 2,828,486-byte
sample x 12,555.49 samples/s / 2^20 = 33,867.86, the report's figure), so MB/s is that x 1.048576."""

import zipfile

import pytest

from ingest import ParseError, Source
from ingest.formats import mlperf_storage
from ingest.registry import detect, parse_sources
from tests.ingest.contract import FormatContract
from tests.ingest.helpers import mib, parse_one
from tests.samples import SAMPLES_DIR, data, sample

DDN_REPORT = sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-report.json")
HUAWEI_REPORT = sample("mlperf-storage", "v1.0-huawei-unet3d-h100-report.json")
SUMMARY = sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-run1-summary.json")
EPOCHS = sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-run1-per_epoch_stats.json")
SYSTEM = sample("mlperf-storage", "v1.0-ddn-system.json")
TRANSCRIPT = sample("mlperf-storage", "v1.0-simplyblock-reportgen-output.txt")
# MLPerf Storage v0.5 report: no 'accelerator' in 'overall', runs keyed run0..run4 in any order. Layout of
# mlcommons/storage_results_v0.5 closed/ANL/results/polaris-lustre-Nacc8-Nhosts1/bert/mlperf_storage_report.json;
# our own figures: 3 runs of unet3d on 16 accelerators, mean 5000 MiB/s.
V05_REPORT = data("mlperf_storage", "v0.5-report-no-accelerator-type.json")
# MLPerf Storage v0.5 DLIO summary: the model named at its top ("model": "bert"), no num_hosts. Layout of
# mlcommons/storage_results_v0.5 closed/ANL/results/polaris-lustre-Nacc1-Nhosts1/bert/run0/x3212c0s1b0n0/summary.json;
# our own figures: 2 accelerators, 2 epochs, 0.25 MiB/s.
V05_SUMMARY = data("mlperf_storage", "v0.5-dlio-summary.json")
ALL = (DDN_REPORT, HUAWEI_REPORT, SUMMARY, EPOCHS, SYSTEM, TRANSCRIPT)


class TestMlperfStorageContract(FormatContract):
    format_id = "mlperf_storage"
    inputs = [
        [DDN_REPORT],
        [HUAWEI_REPORT],
        [V05_REPORT],
        [V05_SUMMARY],
        [SUMMARY, EPOCHS],
        [SUMMARY],
        [SYSTEM],
        [TRANSCRIPT],
    ]


def parse_text(text, name):
    return parse_sources([Source(name=name, data=text.encode())])


def only_point(result):
    [run] = result["runs"]
    [point] = run["points"]
    return run, point


def test_the_ddn_report_is_one_run_of_cosmoflow_on_64_h100_with_the_mean_throughput():
    run, point = only_point(parse_one(DDN_REPORT))
    # overall.model "cosmoflow", overall.accelerator "h100", overall.train_num_accelerators "64" (a string)
    assert run["workload"]["name"] == "cosmoflow (h100)"
    assert run["name"] == "cosmoflow (h100), 64 accelerators"
    assert point["load"] == {"accelerators": 64}
    # overall.train_throughput_mean_MB_per_second 33867.86398140645 MiB/s = 35,513.03 MB/s
    assert point["mbps"] == mib(33867.86398140645) == pytest.approx(35513.03, abs=0.01)
    # 35,513.03 MB/s over 64 accelerators
    assert point["metrics"]["mbps_per_accelerator"] == pytest.approx(554.891, abs=0.001)
    # overall.train_throughput_stdev_MB_per_second 34.61144662577983 MiB/s
    assert point["metrics"]["mbps_stdev"] == mib(34.61144662577983)
    # overall.train_throughput_mean_samples_per_second / _stdev_
    assert point["metrics"]["samples_per_second"] == 12555.490584774769
    assert point["metrics"]["samples_per_second_stdev"] == 12.831151455963944
    assert point["iops"] is None and point["avg_response_ms"] is None
    # overall.num_benchmark_runs 5, num_files_train 2976198, num_samples_per_file 1; cosmoflow's AU rule is 70 %
    assert run["params"] == {
        "model": "cosmoflow",
        "accelerator": "h100",
        "accelerators": 64,
        "au_threshold_pct": 70.0,
        "files_train": 2976198,
        "samples_per_file": 1,
        "benchmark_runs": 5,
    }
    # reportgen writes a report only when every run met the AU rule
    assert run["verdict"] == "pass"


def test_the_ddn_reports_runs_keep_their_long_keys_in_file_order():
    _, point = only_point(parse_one(DDN_REPORT))
    table = point["metrics"]["runs"]
    assert table["columns"] == ["run", "mbps", "samples_per_second", "accelerators"]
    assert [row[0] for row in table["rows"]] == [
        f"result_cosmoflow_16_4accperclient_h100_iter{n}_1723949500" for n in (2, 3, 4, 1, 0)
    ]
    # runs.result_..._iter2_...: train_throughput_MB_per_second 33845.67973125662, samples/s 12547.266442146838
    assert table["rows"][0] == [
        "result_cosmoflow_16_4accperclient_h100_iter2_1723949500",
        mib(33845.67973125662),
        12547.266442146838,
        64,
    ]


def test_the_huawei_report_keyed_run1_to_run5_reads_255_accelerators():
    result = parse_one(HUAWEI_REPORT)
    run, point = only_point(result)
    assert run["workload"]["name"] == "unet3d (h100)"
    assert point["load"] == {"accelerators": 255}
    # overall.train_throughput_mean_MB_per_second 695480.2768186077 MiB/s = 729,263.93 MB/s
    assert point["mbps"] == pytest.approx(729263.93, abs=0.01)
    assert point["metrics"]["mbps_per_accelerator"] == pytest.approx(2859.859, abs=0.001)
    assert run["params"]["au_threshold_pct"] == 90.0
    rows = point["metrics"]["runs"]["rows"]
    assert [row[0] for row in rows] == ["run1", "run2", "run3", "run4", "run5"]
    # runs.run5.train_throughput_MB_per_second 696273.7559965458
    assert rows[4][1] == mib(696273.7559965458)
    assert result["warnings"] == []


def test_a_v0_5_report_without_an_accelerator_type_is_read_and_says_it_states_none():
    result = parse_one(V05_REPORT)
    run, point = only_point(result)
    assert run["workload"]["name"] == "unet3d (accelerator not stated)"
    assert run["description"].startswith("MLPerf Storage training emulation of unet3d on 16 simulated accelerators:")
    # line 6: train_num_accelerators "16"; line 12: 5000 MiB/s = 5,242.88 MB/s, 327.68 MB/s per accelerator
    assert point["load"] == {"accelerators": 16}
    assert point["mbps"] == mib(5000) == pytest.approx(5242.88)
    assert point["metrics"]["mbps_per_accelerator"] == pytest.approx(327.68)
    # runs in the file's order: run0 (4750), run2 (5250), run1 (5000)
    assert [(row[0], row[2]) for row in point["metrics"]["runs"]["rows"]] == [
        ("run0", 38.0),
        ("run2", 42.0),
        ("run1", 40.0),
    ]
    assert result["warnings"] == [
        "v0.5-report-no-accelerator-type.json:3: the report states no accelerator type (as MLPerf Storage v0.5 "
        "reports do); its workload is named 'accelerator not stated' and compares only with reports that state none"
    ]


def test_a_v0_5_dlio_summary_keeps_the_model_it_names():
    result = parse_one(V05_SUMMARY)
    run, point = only_point(result)
    assert run["params"]["model"] == "bert"  # line 2
    assert "of bert" in run["description"] and "does not name the model" not in run["description"]
    # line 4: 2 accelerators; line 11: AU mean 97.0 ('success', line 12); line 20: 0.25 MiB/s = 0.262144 MB/s
    assert point["load"] == {"accelerators": 2} and run["verdict"] == "pass"
    assert point["metrics"]["au_pct"] == 97.0 and point["mbps"] == mib(0.25) == pytest.approx(0.262144)
    assert [row[:3] for row in point["metrics"]["epochs"]["rows"]] == [["1", 96.0, 100.0], ["2", 98.0, 110.0]]
    assert run["params"]["hosts"] is None and result["warnings"] == []


def test_a_run_of_another_accelerator_count_than_the_reports_is_told():
    text = HUAWEI_REPORT.read_text()
    run3 = text.index('"run3"')
    text = text[:run3] + text[run3:].replace('"train_num_accelerators": "255"', '"train_num_accelerators": "128"', 1)
    [result] = parse_text(text, "mlperf_storage_report.json")
    assert result["warnings"] == [
        "mlperf_storage_report.json:33: run 'run3' states accelerators 128, unlike the report's overall figures; "
        "its figures are kept in the runs table only"
    ]
    assert result["runs"][0]["points"][0]["metrics"]["runs"]["rows"][2][3] == 128


def test_a_dlio_summary_with_its_epoch_times_is_one_passing_run_with_au():
    [result] = parse_sources([Source(SUMMARY), Source(EPOCHS)])
    run, point = only_point(result)
    # "start" 2024-08-17T22:55:06, num_accelerators 64, num_hosts 16, hostname c002; the summary names no model
    assert run["name"] == "DLIO training run of 2024-08-17 22:55, 64 accelerators (summary of c002)"
    assert run["workload"]["name"] is None
    assert point["load"] == {"accelerators": 64}
    # metric.train_io_mean_MB_per_second 33870.97750831802 MiB/s (the report's iter0 run: the whole run's figure)
    assert point["mbps"] == mib(33870.97750831802) == pytest.approx(35516.29, abs=0.01)
    # metric.train_au_mean_percentage, metric.train_au_meet_expectation "success"
    assert point["metrics"]["au_pct"] == 70.26363970313434
    assert point["metrics"]["au_pct_stdev"] == 0.09485511875133536
    assert run["verdict"] == "pass"
    assert run["started_at"] == "2024-08-17T22:55:06.210629"  # "start"
    assert run["params"]["hosts"] == 16 and run["params"]["files_train"] == 2976198
    epochs = point["metrics"]["epochs"]
    assert epochs["columns"] == ["epoch", "au_pct", "samples_per_second", "start", "end", "duration_s"]
    assert len(epochs["rows"]) == 5
    # metric.train_au_percentage[0], metric.train_throughput_samples_per_second[0]; per_epoch_stats "1"
    assert epochs["rows"][0] == [
        "1",
        70.1396896159923,
        12540.598189527114,
        "2024-08-17T23:06:52.779174",
        "2024-08-17T23:11:00.376612",
        247.6,
    ]
    # per_epoch_stats "5".duration "244.91", written as text
    assert epochs["rows"][4][5] == 244.91
    assert result["warnings"] == []


def test_a_summary_alone_has_epochs_without_times():
    _, point = only_point(parse_one(SUMMARY))
    assert point["metrics"]["epochs"]["rows"][1] == ["2", 70.27851370114631, 12556.77437767764, None, None, None]


def test_a_summary_whose_au_failed_the_rule_is_a_failed_run():
    text = SUMMARY.read_text().replace('"train_au_meet_expectation": "success"', '"train_au_meet_expectation": "fail"')
    [result] = parse_text(text, "summary.json")
    assert result["runs"][0]["verdict"] == "fail"


def test_the_reportgen_transcript_reads_the_printed_figures_and_passes_over_the_prompt():
    result = parse_one(TRANSCRIPT)
    run, point = only_point(result)
    # line 3 "Model: resnet50", line 4 "Accelerator: h100", line 6 "Overall number of accelerators: 1"
    assert run["name"] == "resnet50 (h100), 1 accelerator"
    assert point["load"] == {"accelerators": 1}
    # line 8 "Overall Training Throughput (MB/second): 194.50 (0.0179989987668249)": 194.50 x 1.048576
    assert point["mbps"] == pytest.approx(203.948032)
    assert point["metrics"]["mbps_stdev"] == mib(0.0179989987668249)
    # line 7 "Overall Training Throughput (samples/second): 1778.69 (0.164602360097374)"
    assert point["metrics"]["samples_per_second"] == 1778.69
    assert point["metrics"]["samples_per_second_stdev"] == 0.164602360097374
    assert run["params"]["benchmark_runs"] == 5  # line 5
    assert result["warnings"] == [
        f"{TRANSCRIPT.name}: passed over 1 line that is not reportgen's (line 1: "
        "'(venv) noctarius@mb-tiger ~/b/s/C/code ((v1.0)) [0|1]> ./ben')"
    ]


def test_the_system_description_is_the_system_with_its_nodes_and_rated_drives():
    result = parse_one(SYSTEM)
    assert result["runs"] == []
    system = result["system"]
    # storage_system.model_name, vendor_name, solution_name, version
    assert system["name"] == "DDN AI400X2 Turbo"
    assert (system["vendor"], system["model"]) == ("DDN", "AI400X2 Turbo")
    assert system["firmware"] == "EXA6.3.0 - SFAOS12.4.0"
    # hardware_components: "controller" count 2, "drives" count 24
    assert system["controllers"] == 2 and system["drive_count"] == 24
    details = system["details"]
    assert details["storage"]["usable_capacity_GiB"] == 242982
    assert details["storage"]["hardware_components"][0]["model"] == "EPM5970-15360GB"
    # benchmark_hosts: c001 ... c016, all of node type "client"
    assert details["benchmark_hosts"] == {"client": 16}
    assert details["networks"] == [
        {"network_name": "storagenet", "network_type": "InfiniBand", "protocols": ["Lustre", "RDMA"], "bitrate": 100}
    ]
    client, server = details["nodes"]
    # nodes[0].CPU, .DRAM.capacity_MiB 94208, .nic_ports[0] 100 x 1, .drives[0].performance (a SATA SSD)
    assert client["CPU"]["vendor_and_model_name"] == "Intel(R) Xeon(R) Gold 6138 CPU"
    assert client["CPU"]["cores_per_socket"] == 20 and client["CPU"]["base_frequency"] == 2.0
    assert client["DRAM"] == {"class": "DDR4", "capacity_MiB": 94208, "frequency": 2666}
    assert client["nic_ports"] == [
        {"network_name": "storagenet", "protocols": ["Lustre", "RDMA", "IB"], "bitrate": 100, "count_of_this_type": 1}
    ]
    [drive] = client["drives"]
    assert drive["interface"] == "SATA" and drive["capacity_GiB"] == 4096
    assert drive["performance"] == {
        "read_bandwidth": {"xfer_size_kilobytes": 1024, "peak_bandwidth": 560},
        "write_bandwidth": {"xfer_size_kilobytes": 1024, "peak_bandwidth": 280},
        "read_iops": {"xfer_size_kilobytes": 4, "peak_iops": 90000},
        "write_iops": {"xfer_size_kilobytes": 4, "peak_iops": 16000},
    }
    # nodes[1] (space-indented among tabs): exa-vm, 2 x 200 ports, a drive without performance
    assert server["node_type_name"] == "exa-vm" and server["nic_ports"][0]["bitrate"] == 200
    assert server["nic_ports"][0]["count_of_this_type"] == 2
    assert server["drives"] == [
        {
            "purpose": ["Hold the OS"],
            "drive_type": "SSD",
            "interface": "Other",
            "capacity_GiB": 14.9,
            "count_of_this_type": 1,
        }
    ]


def test_a_description_names_the_system_by_vendor_solution_and_model_without_repeating_them():
    # as Closed/Hammerspace/systems/*.json of mlcommons/storage_results_v1.0 names them (storage_system only)
    # with a node's vendor, model and accelerators as Closed/simplyblock/systems/*.json states them
    text = (
        '{"networks": [], "nodes": [{"node_type_name": "Client", "node_model_name": "c6in.8xlarge", '
        '"node_vendor_name": "AWS", "DRAM": {"capacity_MiB": 256}, "accelerators": [{"vendor_and_model": '
        '"NVIDIA H100", "count_of_this_type": 2}]}], "storage_system": {"vendor_name": "Hammerspace Hyperscale NAS", '
        '"solution_name": "Hammerspace", "model_name": "Server", "version": "5.1.6-166"}}\n'
    )
    [result] = parse_text(text, "Hammerspace_unet3d_5Client_H100.json")
    assert result["system"]["name"] == "Hammerspace Hyperscale NAS Server"
    [node] = result["system"]["details"]["nodes"]
    assert (node["node_vendor_name"], node["node_model_name"]) == ("AWS", "c6in.8xlarge")
    assert node["DRAM"] == {"capacity_MiB": 256}
    assert node["accelerators"] == [{"vendor_and_model": "NVIDIA H100", "count_of_this_type": 2}]


def test_a_description_without_a_storage_system_is_named_after_its_file():
    [result] = parse_text('{"nodes": [{"node_type_name": "client"}]}\n', "systems/Acme_8_clients.json")
    assert result["system"]["name"] == "Acme_8_clients"


def test_a_json_schema_of_the_description_is_not_taken_for_one():
    # Closed/Hammerspace/systems/Schema.json: the description's JSON Schema, its keys under "properties"
    head = b'{\n    "$id": "x",\n    "$schema": "https://json-schema.org/draft/2020-12/schema",\n    "properties": {\n'
    head += b'\t"networks": {}, "nodes": {"items": {"properties": {"node_type_name": {}}}}, "storage_system": {}}}\n'
    assert not mlperf_storage.sniff(head, "Schema.json")


# Damaged files: each refusal names the file, the line and the key.


def refused(text, name):
    with pytest.raises(ParseError) as caught:
        parse_text(text, name)
    return caught.value


def test_an_accelerator_count_that_is_no_number_is_refused_with_its_line_and_key():
    text = DDN_REPORT.read_text().replace('"train_num_accelerators": "64"', '"train_num_accelerators": "sixty-four"', 1)
    error = refused(text, "mlperf_storage_report.json")
    assert str(error) == "mlperf_storage_report.json:6: field 'train_num_accelerators': 'sixty-four' is not a number"


def test_a_report_without_its_mean_throughput_is_refused_naming_the_key():
    text = HUAWEI_REPORT.read_text().replace('"train_throughput_mean_MB_per_second"', '"throughput"', 1)
    error = refused(text, "mlperf_storage_report.json")
    # the key is gone: the line of "overall", the object it is missing from
    assert str(error) == (
        "mlperf_storage_report.json:2: field 'train_throughput_mean_MB_per_second': the figure is missing"
    )


def test_a_report_cut_short_is_refused_with_the_line_where_json_stops():
    text = "\n".join(DDN_REPORT.read_text().splitlines()[:20]) + "\n"
    error = refused(text, "mlperf_storage_report.json")
    assert error.line == 21 and error.message.startswith("not valid JSON")


def test_a_summary_with_an_unknown_au_verdict_is_refused_naming_the_key_and_line():
    text = SUMMARY.read_text().replace('"train_au_meet_expectation": "success"', '"train_au_meet_expectation": "maybe"')
    error = refused(text, "summary.json")
    assert str(error) == (
        "summary.json:15: field 'train_au_meet_expectation': expected 'success' or 'fail' (whether the "
        "accelerator utilisation met the rule), found 'maybe'"
    )


def test_a_negative_io_throughput_in_a_summary_is_refused():
    text = SUMMARY.read_text().replace('"train_io_mean_MB_per_second": 33870', '"train_io_mean_MB_per_second": -33870')
    error = refused(text, "summary.json")
    assert (error.line, error.field) == (26, "train_io_mean_MB_per_second")
    assert "negative" in error.message


def test_epoch_times_alone_are_refused_saying_what_to_upload():
    error = refused(EPOCHS.read_text(), "per_epoch_stats.json")
    assert str(error) == (
        "per_epoch_stats.json:1: per_epoch_stats.json holds each epoch's start, end and duration but no "
        "throughput or accelerator utilisation; upload it together with the summary.json of the same folder "
        "(or the folder as a .zip)"
    )


def test_an_epoch_duration_that_is_no_number_is_refused():
    text = EPOCHS.read_text().replace('"duration": "244.84"', '"duration": "long"')
    with pytest.raises(ParseError) as caught:
        parse_sources([Source(SUMMARY), Source(name="per_epoch_stats.json", data=text.encode())])
    assert caught.value.file == "per_epoch_stats.json" and caught.value.field == "duration"
    assert caught.value.message == "'long' is not a number"


def test_a_transcript_without_its_mb_line_is_refused_naming_the_reports_first_line():
    lines = TRANSCRIPT.read_text().splitlines(keepends=True)
    error = refused("".join(lines[:7]), "output.txt")
    assert error.line == 3
    assert "lacks its Overall Training Throughput (MB/second) line" in error.message


def test_a_transcript_throughput_that_is_no_number_is_refused_with_its_line():
    text = TRANSCRIPT.read_text().replace("(MB/second): 194.50", "(MB/second): fast")
    error = refused(text, "output.txt")
    assert str(error) == "output.txt:8: field 'Overall Training Throughput (MB/second)': 'fast' is not a number"


def test_a_drive_capacity_that_is_no_number_is_refused_with_its_key():
    text = SYSTEM.read_text().replace('"capacity_MiB": 94208', '"capacity_MiB": "lots"')
    error = refused(text, "system.json")
    assert str(error) == "system.json:23: field 'capacity_MiB': 'lots' is not a number"


# Detection: every file of the tool is taken by this format and by no other; no other tool's file by this one.


@pytest.mark.parametrize("path", ALL, ids=lambda path: path.name)
def test_each_mlperf_storage_file_is_detected_as_mlperf_storage(path):
    assert detect(Source(path)).FORMAT == "mlperf_storage"


def _other_samples():
    for path in sorted(SAMPLES_DIR.rglob("*")):
        if path.is_file() and path.parent.name != "mlperf-storage" and path.suffix not in (".md", ".tsv"):
            yield pytest.param(path, id=str(path.relative_to(SAMPLES_DIR)))


@pytest.mark.parametrize("path", list(_other_samples()))
def test_the_sniffer_takes_no_other_tools_sample(path):
    assert not mlperf_storage.sniff(Source(path).head(), path.name)


def test_a_workloads_results_folder_as_a_zip_reads_the_report_and_each_summary_with_its_epochs(tmp_path):
    # cosmoflow-h100/runs/ as the repository lays it out (MANIFEST rows), with a configuration file beside
    archive = tmp_path / "cosmoflow-h100.zip"
    with zipfile.ZipFile(archive, "w") as written:
        written.write(DDN_REPORT, "runs/mlperf_storage_report.json")
        written.write(SUMMARY, "runs/run1/c002/summary.json")
        written.write(EPOCHS, "runs/run1/c002/per_epoch_stats.json")
        written.writestr("runs/run1/c002/configs/hydra.yaml", "hydra:\n  run:\n    dir: ./\n")
    results = parse_sources([Source(archive)])
    names = sorted(run["name"] for result in results for run in result["runs"])
    assert names == [
        "DLIO training run of 2024-08-17 22:55, 64 accelerators (summary of c002)",
        "cosmoflow (h100), 64 accelerators",
    ]
    summary = next(run for result in results for run in result["runs"] if run["name"].startswith("DLIO"))
    # per_epoch_stats.json "1".duration "247.60", read with the summary of its folder
    assert summary["points"][0]["metrics"]["epochs"]["rows"][0][5] == 247.6
    warnings = [warning for result in results for warning in result["warnings"]]
    assert any(
        warning.startswith("cosmoflow-h100.zip/runs/run1/c002/configs/hydra.yaml: passed over") for warning in warnings
    )
