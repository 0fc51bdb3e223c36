"""fio as labs run it today: client/server output, JSON under other names, fio 3.42 with the rbd engine,
git-describe versions, repeated options, CBT's per-client files, fio's logs (refused), and json+ and
--steadystate output made by Debian's fio in the test."""

import json
import subprocess

import pytest

from ingest import ParseError, Source, parse_paths, parse_sources
from tests.samples import sample

CLIENT_SERVER = sample("fio", "fio-3.7-client-server-pbench.txt")
GIT_VERSION = sample("fio", "fio-3.26-19-ge7e53-git-version.json")
WINDOWS = sample("fio", "fio-3.26-windowsaio-vc.json")
LKP = sample("fio", "fio-3.15-lkp-mmap.json")
PBENCH_NVME = sample("fio", "fio-3.19-pbench-nvme.txt")
CBT_CLIENT = sample("fio", "fio-3.42-cbt-librbdfio-output.1.json")
PKB_HIST_RUN = sample("fio", "fio-2.17-pkb-hist-run.json")
LATENCY_LOG = sample("fio", "fio-3.1-write_lat_log-lat.1.log")
HISTOGRAM_LOG = sample("fio", "fio-2.17-clat_hist.1.log")


def only_run(results):
    [result] = results
    [run] = result["runs"]
    return result, run


def as_named(path, name):
    """The sample's bytes under the name its tool or harness gave it."""
    return Source(name=name, data=path.read_bytes())


def test_client_server_output_stores_the_all_clients_sum_and_names_the_hosts():
    result, run = only_run(parse_paths([CLIENT_SERVER]))
    [point] = run["points"]
    assert result["tool"] == {"name": "fio", "version": "3.7"}  # "fio version" : "fio-3.7"
    assert run["name"] == "job-/tmp/fio"
    # The "All clients" entry (jobname at line 2786): "iops" : 93198.150858 (line 2794), not
    # the 93,303.6 the ten host entries' own IOPS add up to (fio divides by the longest runtime).
    assert point["iops"] == pytest.approx(93198.150858)
    assert point["mbps"] == pytest.approx(381824630 / 1e6)  # "bw_bytes" : 381824630, line 2792
    assert point["avg_response_ms"] == pytest.approx(3.428080742536)  # lat_ns mean 3428080.742536, line 2817
    assert point["max_response_ms"] == pytest.approx(1079.893)  # lat_ns max 1079893000, line 2816
    # iodepth 32 (line 16) x numjobs 5 (line 52) on each of the 2 hosts.
    assert point["load"] == {"outstanding_io": 320, "threads": 10}
    assert point["metrics"]["hosts_summed"] == 2
    assert run["params"]["hosts"] == ["perf36", "perf84"]
    assert run["workload"]["read_pct"] == 100 and run["workload"]["transfer_sizes"] == [{"bytes": 4096, "pct": 100.0}]
    warnings = " ".join(result["warnings"])
    assert (
        "pbench.txt:2786: job 'job-/tmp/fio' ran on 2 hosts through fio --client: perf36 (5 job entries), "
        "perf84 (5 job entries)" in warnings
    )
    assert 'its figures are fio\'s "All clients" sum over them' in warnings
    # Lines 1-2 (hostname=), the progress line fio rewrote with carriage returns (its last state shown), and
    # two 'Disk stats (read/write):' lines.
    assert "skipped 5 lines of text before the JSON: hostname=perf84" in warnings
    assert "| Jobs: 5 (f=5): [E(3),_(1),E(1)][31.6%]" in warnings


def test_client_server_output_without_an_all_clients_entry_sums_the_hosts():
    data = json.loads(CLIENT_SERVER.read_text()[CLIENT_SERVER.read_text().index("{\n") :])
    data["client_stats"] = [entry for entry in data["client_stats"] if entry["jobname"] != "All clients"]
    result, run = only_run(parse_sources([Source(name="two-hosts.json", data=json.dumps(data).encode())]))
    [point] = run["points"]
    # The ten host entries' "iops" added: 7951.016328 + ... + 10405.790349.
    assert point["iops"] == pytest.approx(sum(entry["read"]["iops"] for entry in data["client_stats"]))
    assert point["iops"] == pytest.approx(93303.649418)
    assert point["load"] == {"outstanding_io": 320, "threads": 10}
    assert any("their entries are summed into its figures" in w for w in result["warnings"])


def test_client_server_output_of_two_jobs_in_one_group_sums_each_jobs_hosts():
    # fio's "All clients" entry sums a whole group: with two jobs in it, it is neither job's figures.
    data = json.loads(CLIENT_SERVER.read_text()[CLIENT_SERVER.read_text().index("{\n") :])
    for entry in data["client_stats"][5:10]:  # perf84's five entries
        entry["jobname"] = "job-b"
    [result] = parse_sources([Source(name="two-jobs.json", data=json.dumps(data).encode())])
    runs = {run["name"]: run for run in result["runs"]}
    assert set(runs) == {"job-/tmp/fio", "job-b"}
    perf36 = sum(entry["read"]["iops"] for entry in data["client_stats"][:5])
    assert runs["job-/tmp/fio"]["points"][0]["iops"] == pytest.approx(perf36)
    assert runs["job-/tmp/fio"]["params"]["hosts"] == ["perf36"]
    assert runs["job-b"]["points"][0]["load"] == {"outstanding_io": 160, "threads": 5}
    assert "job 'job-b' ran on 1 host through fio --client: perf84 (5 job entries)" in " ".join(result["warnings"])


def test_a_client_server_entry_that_is_not_an_object_is_refused_with_its_place():
    data = json.loads(CLIENT_SERVER.read_text()[CLIENT_SERVER.read_text().index("{\n") :])
    data["client_stats"][3] = "perf36 lost"
    with pytest.raises(ParseError) as error:
        parse_sources([Source(name="broken.json", data=json.dumps(data, indent=1).encode())])
    assert error.value.file == "broken.json"
    assert "job 4 is 'perf36 lost', not an object" in error.value.message


def test_json_saved_as_txt_or_without_an_extension_is_read_by_its_content():
    # VirtualClient's FIOExample.txt: "iops" : 2167.231601 (line 71), bw_bytes 8876980 (line 69).
    _, run = only_run(parse_sources([as_named(WINDOWS, "FIOExample.txt")]))
    assert run["points"][0]["write_iops"] == pytest.approx(2167.231601)
    assert run["points"][0]["mbps"] == pytest.approx(8.87698)
    assert run["params"]["ioengine"] == "windowsaio"  # line 15
    # LKP's fixture "02": task_0, rw=randread (line 30), numjobs 24 (line 32) x iodepth 32 (line 9).
    _, run = only_run(parse_sources([as_named(LKP, "02")]))
    [point] = run["points"]
    assert point["iops"] == pytest.approx(30149334.614981)  # line 39
    assert point["load"] == {"outstanding_io": 768, "threads": 24}
    assert run["params"]["ioengine"] == "mmap"  # line 8
    # pbench's fio-result.txt: 8 entries of one job (no group_reporting), iodepth 64 x 8.
    result, run = only_run(parse_paths([PBENCH_NVME]))
    assert run["points"][0]["load"] == {"outstanding_io": 512, "threads": 8}
    assert any("8 job entries (no group_reporting) summed" in w for w in result["warnings"])


def test_fio_3_42_with_the_rbd_engine_and_valueless_options():
    result, run = only_run(parse_sources([as_named(CBT_CLIENT, "output.1")]))
    [point] = run["points"]
    assert result["tool"]["version"] == "3.42-6-g219f"  # "fio version" : "fio-3.42-6-g219f", line 2
    assert run["params"]["ioengine"] == "rbd" and run["params"]["pool"] == "rbd_replicated"  # lines 7, 10
    assert run["params"]["time_based"] == "" and run["params"]["norandommap"] == ""  # lines 21-22
    # rw randread (line 15), bs 32768 (line 16), iodepth 1 x numjobs 1.
    assert run["workload"]["random_pct"] == 100
    assert run["workload"]["transfer_sizes"] == [{"bytes": 32768, "pct": 100.0}]
    assert point["load"] == {"outstanding_io": 1, "threads": 1}
    assert point["iops"] == pytest.approx(1669.37034)  # line 43
    assert point["mbps"] == pytest.approx(54.701927)  # bw_bytes 54701927, line 41
    assert point["avg_response_ms"] == pytest.approx(0.597682626557)  # lat_ns mean 597682.626557, line 84
    assert point["max_response_ms"] == pytest.approx(7.242163)  # lat_ns max 7242163, line 83
    assert point["metrics"]["clat_percentiles_ms"]["read"]["50"] == pytest.approx(0.577536)  # 577536 ns, line 68
    assert point["cpu_pct"] == pytest.approx(1.172222 + 0.744444)  # usr_cpu, sys_cpu: lines 197-198
    assert any("upload their output.N files together" in w for w in result["warnings"])


def test_the_per_client_files_of_one_cbt_run_are_summed_into_one_run():
    client = json.loads(CBT_CLIENT.read_text())
    other = json.loads(CBT_CLIENT.read_text())
    other["jobs"][0]["jobname"] = "cbt-fio-32krandomread-soko08.front.sepia.ceph.com-file-0"
    read = other["jobs"][0]["read"]
    read["iops"], read["total_ios"], read["bw_bytes"] = 1000.0, 90001, 32768000
    read["lat_ns"]["mean"], read["lat_ns"]["max"] = 1000000.0, 9000000
    sources = [
        Source(name="iodepth-000001/output.0", data=json.dumps(client).encode()),
        Source(name="iodepth-000001/output.1", data=json.dumps(other).encode()),
    ]
    result, run = only_run(parse_sources(sources))
    [point] = run["points"]
    assert run["name"] == "cbt-fio-32krandomread"
    assert point["iops"] == pytest.approx(1669.37034 + 1000.0)
    assert point["mbps"] == pytest.approx((54701927 + 32768000) / 1e6)
    # Mean latency over every I/O: 150,245 I/Os at 0.5977 ms and 90,001 at 1 ms.
    assert point["avg_response_ms"] == pytest.approx((150245 * 0.597682626557 + 90001 * 1.0) / (150245 + 90001))
    assert point["max_response_ms"] == pytest.approx(9.0)
    assert point["load"] == {"outstanding_io": 2, "threads": 2}
    assert point["metrics"]["clients_summed"] == 2
    assert run["params"]["files"] == ["iodepth-000001/output.0", "iodepth-000001/output.1"]
    assert any("2 per-client fio files of one run summed" in w for w in result["warnings"])


def test_a_git_describe_version_and_an_option_given_twice():
    result, run = only_run(parse_paths([GIT_VERSION]))
    [point] = run["points"]
    assert result["tool"]["version"] == "3.26-19-ge7e53"  # "fio version" : "fio-3.26-19-ge7e53"
    # "filename" at lines 25 and 26 with different disks: the last is kept and the warning says so.
    assert run["params"]["filename"] == "/home/azureuser/VirtualClient/linux-x64/remote_disk_1_1/fio-test.dat"
    [warning] = [w for w in result["warnings"] if "'filename'" in w]
    assert "given 2 times with different values" in warning and "remote_disk_1_0" in warning
    assert "the last one, '/home/azureuser/VirtualClient/linux-x64/remote_disk_1_1/fio-test.dat', is kept" in warning
    # rw=readwrite (line 17), rwmixread 70 (line 22), bs 256k (line 18), iodepth 64 (line 19).
    assert run["workload"]["read_pct"] == 70 and run["workload"]["random_pct"] == 0
    assert point["load"] == {"outstanding_io": 64, "threads": 1}
    assert point["read_iops"] == pytest.approx(569.699415)  # line 33
    assert point["write_iops"] == pytest.approx(256.606819)  # line 95
    assert point["mbps"] == pytest.approx((149343283 + 67267937) / 1e6)  # bw_bytes, lines 31 and 93
    # lat_ns means 76352539.600213 (line 74) and 79766966.341195 ns (line 136), weighted by IOPS.
    expected = (76.352539600213 * 569.699415 + 79.766966341195 * 256.606819) / (569.699415 + 256.606819)
    assert point["avg_response_ms"] == pytest.approx(expected)
    assert point["max_response_ms"] == pytest.approx(204.162824)  # write lat_ns max, line 135


def test_an_option_repeated_with_the_same_value_says_nothing():
    # PerfKitBenchmarker's hist run: "filename" twice in global options (lines 7 and 18), the same disk.
    result = parse_paths([PKB_HIST_RUN])[0]
    assert not any("given 2 times" in w for w in result["warnings"])
    assert result["runs"][0]["params"]["filename"] == "/dev/disk/by-id/google-pkb-7fb0c9d8-0-data-0-0"


@pytest.mark.parametrize(
    ("path", "what"),
    [
        (LATENCY_LOG, "is a fio latency log (write_lat_log: completion plus submission latency of each I/O"),
        (HISTOGRAM_LOG, "is a fio latency histogram log (write_hist_log: 1216 latency bins"),
    ],
)
def test_fio_logs_are_refused_with_the_output_to_upload_instead(path, what):
    with pytest.raises(ParseError) as error:
        parse_paths([path])
    assert error.value.file == path.name
    assert f"{path.name} {what}" in error.value.message
    assert "upload the output fio printed for the same run with --output-format=json" in error.value.message


def test_a_log_says_which_log_it_is_by_its_name_as_fio_names_it():
    with pytest.raises(ParseError) as error:
        parse_sources([as_named(LATENCY_LOG, "randread_clat.1.log")])
    assert "randread_clat.1.log is a fio completion latency log (write_lat_log)" in error.value.message
    with pytest.raises(ParseError) as error:
        parse_sources([as_named(LATENCY_LOG, "lab.log")])
    assert "lab.log is a fio log (write_lat_log, write_bw_log or write_iops_log)" in error.value.message


def run_fio(tmp_path, *options):
    """Debian's fio run on a 4 MiB file in ``tmp_path``; the path of its JSON output."""
    output = tmp_path / "fio.json"
    command = ["fio", "--name=lab", f"--filename={tmp_path / 'data'}", "--size=4m", "--ioengine=psync"]
    subprocess.run([*command, *options, f"--output={output}"], check=True, capture_output=True, timeout=60)
    return output


def test_json_plus_output_of_fio_is_read(tmp_path):
    options = ["--rw=randrw", "--rwmixread=70", "--bs=4k", "--runtime=1", "--time_based", "--output-format=json+"]
    output = run_fio(tmp_path, *options)
    [job] = json.loads(output.read_text())["jobs"]
    assert "bins" in job["read"]["clat_ns"]  # json+: the latency bins
    result, run = only_run(parse_paths([output]))
    [point] = run["points"]
    read, write = job["read"], job["write"]
    assert run["workload"]["read_pct"] == 70 and run["workload"]["random_pct"] == 100
    assert point["iops"] == pytest.approx(read["iops"] + write["iops"])
    assert point["mbps"] == pytest.approx((read["bw_bytes"] + write["bw_bytes"]) / 1e6)
    weighted_ns = read["lat_ns"]["mean"] * read["iops"] + write["lat_ns"]["mean"] * write["iops"]
    assert point["avg_response_ms"] == pytest.approx(weighted_ns / (read["iops"] + write["iops"]) / 1e6)
    assert point["max_response_ms"] == pytest.approx(max(read["lat_ns"]["max"], write["lat_ns"]["max"]) / 1e6)
    percentile_99 = read["clat_ns"]["percentile"]["99.000000"] / 1e6
    assert point["metrics"]["clat_percentiles_ms"]["read"]["99"] == pytest.approx(percentile_99)
    assert result["tool"]["version"] == json.loads(output.read_text())["fio version"].removeprefix("fio-")


def test_steadystate_output_of_fio_states_its_criterion(tmp_path):
    options = ["--rw=randread", "--bs=4k", "--runtime=3", "--time_based", "--output-format=json"]
    steady = ["--steadystate=iops:20%", "--steadystate_duration=2", "--steadystate_ramp_time=0"]
    output = run_fio(tmp_path, *options, *steady)
    [job] = json.loads(output.read_text())["jobs"]
    result, run = only_run(parse_paths([output]))
    [point] = run["points"]
    assert point["iops"] == pytest.approx(job["read"]["iops"])
    assert run["params"]["steadystate"] == "iops:20%"  # the option as given
    stated = run["params"]["steadystate_result"]
    assert stated["criterion"] == job["steadystate"]["ss"]  # "iops:20.000000%"
    assert stated["attained"] == bool(job["steadystate"]["attained"])
    assert stated["window_s"] == job["steadystate"]["duration"] == 2
    assert stated["deviation_found"] == job["steadystate"]["criterion"]
    not_attained = [w for w in result["warnings"] if "was not attained" in w]
    assert len(not_attained) == (0 if job["steadystate"]["attained"] else 1)
