"""What real files state, read as they state it: the workload a DiskSpd run and an fio job share, the
titles of DiskSpd runs, a vdbench format pass, fio files without job options, Iometer per-second files."""

import io
import json
from urllib.parse import urlencode

import pytest

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import Run, System
from tests.factories import PointFactory, RunFactory
from tests.ingesting import ingest_command, store_file
from tests.samples import data, sample

# DiskSpd line 7: -w50 -b4K -o32 -r (line 25: "using random I/O (alignment: 4096)"), 2 threads (line 36).
DISKSPD_4K = ("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt")
# fio 3.16 randrw-8-16.json: "job options" rw=randrw, bs=4k, no rwmixread (fio's 50 % read).
FIO_RANDRW_4K = ("fio-grids", "fioplot_SERVER-HIGHPOINT-RAID5_RW", "randrw-8-16.json")


def _stored(parts, name):
    upload = store_file(sample(*parts), new_system={"name": name, "vendor": "Lab", "model": name})
    assert upload.status == upload.Status.DONE, upload.error
    return upload.system


@pytest.fixture
def diskspd_and_fio(db):
    return _stored(DISKSPD_4K, "DiskSpd box"), _stored(FIO_RANDRW_4K, "fio box")


def test_a_4k_diskspd_run_aligned_to_4k_is_the_fio_randrw_4k_workload(diskspd_and_fio):
    diskspd, fio = diskspd_and_fio
    diskspd_run, fio_run = Run.objects.get(config__system=diskspd), Run.objects.get(config__system=fio)
    assert diskspd_run.workload_id == fio_run.workload_id
    assert diskspd_run.workload.name == "4 KiB random, 50 % read"
    result = comparison(a=diskspd, b=fio, query=ComparisonQuery(threshold_ms=20))
    assert [w.workload for w in result.workloads] == ["4 KiB random, 50 % read"]


def test_pair_workloads_takes_the_names_the_compare_page_shows(diskspd_and_fio, client):
    diskspd, fio = diskspd_and_fio
    shown = "4 KiB random, 50 % read"
    page = client.get("/compare/?" + urlencode({"a": diskspd.name, "b": fio.name}))
    assert shown in page.content.decode()
    paired = client.get("/compare/?" + urlencode({"a": diskspd.name, "b": fio.name, "pair": f"{shown} | {shown}"}))
    text = paired.content.decode()
    assert paired.status_code == 200
    assert "Matched paired by hand." in text
    assert "Workloads only one system has" not in text


def test_a_diskspd_run_is_titled_by_what_it_does_and_names_its_target(diskspd_and_fio, client):
    diskspd, _fio = diskspd_and_fio
    run = Run.objects.get(config__system=diskspd)
    page = client.get(f"/runs/{run.id}/").content.decode()
    # goodsql2016 line 7: -w50 -b4K -o32 -r; line 36: thread count 2; line 18: path 'C:\testfile.foo'.
    assert "<h1>4K random 50 % read, 2 threads x 32 outstanding</h1>" in page
    assert "<dt>Target</dt><dd>C:\\testfile.foo</dd>" in page
    system_page = client.get(f"/systems/{diskspd.id}/").content.decode()
    assert "4K random 50 % read, 2 threads x 32 outstanding" in system_page


def test_a_format_pass_that_did_no_io_makes_no_throughput_claim(db, client):
    # As vdbench prints a format pass that created its files and did no reads or writes: an avg_ line of
    # 0.0 ReqstdOps at 0.000 ms response.
    run = RunFactory(name="format_for_rd1", tool="vdbench", phase="preparation", workload_name="format_for_rd1")
    PointFactory(run=run, seq=1, iops=0.0, mbps=0.0, avg_response_ms=0.0)
    page = client.get(f"/runs/{run.id}/").content.decode()
    assert "No value at 20 ms: this format or fill pass measured no I/O, so it gives no throughput." in page
    assert "At least 0 IOPS" not in page


def _fio_2_1_4_layout():
    """The PerfKitBenchmarker fio 2.17 sample as fio 2.1.4 writes a file: no job options, no "total_ios"."""
    document = json.loads(sample("fio", "pkb_fio-2.17_multijob_group_reporting.json").read_text())
    document.pop("global options")
    for job in document["jobs"]:
        job.pop("job options")
        for direction in ("read", "write", "trim"):
            job[direction].pop("total_ios", None)
    return io.BytesIO(json.dumps(document).encode())


def test_a_fio_file_without_options_says_what_it_does_not_state_and_marks_what_is_derived(db, client):
    upload = store_file(stream=_fio_2_1_4_layout(), name="fio-2.1.4.json", new_system={"name": "Old fio"})
    assert upload.status == upload.Status.DONE, upload.error
    run = Run.objects.get(config__system=upload.system, name__contains="read")
    page = client.get(f"/runs/{run.id}/").content.decode()
    # read: 8086.673998 IOPS (8,087) at a mean "lat" of 245.531122 us: Little's law gives 1.99 I/Os in flight.
    assert "not stated; ≈2 (derived: Little&#x27;s law)" in page
    assert "outstanding I/O" not in page.split('id="at-threshold"')[1].split("</p>")[0]
    # 1294256 KiB over 80,891 I/Os (IOPS x runtime 10,003 ms) = 16 KiB.
    assert "16 KiB (100 %) (derived: bytes per I/O; the file states no block size)" in page
    assert "100 % read (derived: share of the I/Os)" in page


PM883 = ("fio-sweeps", "fioplot_samsung-pm883_randread")


def test_ingest_takes_vendor_model_and_host_as_given_and_never_splits_the_name(db):
    status, printed = ingest_command(
        sample(*PM883, "randread-1-1.json"),
        "--system",
        "Samsung PM883 (DL380G8 H420i)",
        "--vendor",
        "Samsung",
        "--model",
        "PM883",
        "--host",
        "HP DL380 G8, H420i",
    )
    assert status == 0, printed
    assert "new system \"Samsung PM883 (DL380G8 H420i)\": vendor 'Samsung', model 'PM883'" in printed
    system = System.objects.get()
    assert (system.name, system.vendor, system.model) == ("Samsung PM883 (DL380G8 H420i)", "Samsung", "PM883")
    assert Run.objects.get().config.host_server == "HP DL380 G8, H420i"


def test_ingest_without_vendor_and_model_says_they_are_not_stated(db):
    status, printed = ingest_command(sample(*PM883, "randread-2-1.json"), "--system", "Samsung PM883 (DL380G8 H420i)")
    assert status == 0, printed
    assert (
        'new system "Samsung PM883 (DL380G8 H420i)": vendor not stated (--vendor), model not stated (--model)'
        in printed
    )
    system = System.objects.get()
    assert (system.vendor, system.model) == ("", "")


def test_the_run_page_shows_the_percentiles_its_points_have(db, client):
    upload = store_file(sample("fio", "fioplot_fio-3.34_randread-1-1.json"), new_system={"name": "fio 3.34 box"})
    run = Run.objects.get(upload=upload)
    page = client.get(f"/runs/{run.id}/").content.decode()
    header = page.split('<table class="points">')[1].split("</thead>")[0]
    for title in ("p50 (ms)", "p95 (ms)", "p99 (ms)"):
        assert f">{title}</th>" in header
    row = page.split('<table class="points">')[1].split("<tbody>")[1].split("</tr>")[0]
    # read clat_ns percentiles, lines 62, 67, 68: 100,864, 109,056 and 175,104 ns.
    for ms in ("0.101", "0.109", "0.175"):
        assert f'<td class="num">{ms}</td>' in row


def test_the_provenance_of_a_sweep_names_every_file_it_was_read_from(db):
    from portal.publishing.bundle import comparison_provenance

    names = {}
    for folder, system in (("fioplot_samsung-pm883_randread", "PM883"), ("fioplot_intel-d3-s4610_randread", "S4610")):
        status, printed = ingest_command(sample("fio-sweeps", folder), "--system", system)
        assert status == 0, printed
        names[system] = sorted(path.name for path in sample("fio-sweeps", folder).glob("*.json"))
    assert [len(files) for files in names.values()] == [7, 7]  # randread-{1,2,4,8,16,32,64}-1.json
    pm883, s4610 = System.objects.get(name="PM883"), System.objects.get(name="S4610")
    result = comparison(a=pm883, b=s4610, query=ComparisonQuery(threshold_ms=20))
    provenance = comparison_provenance(result, runs=Run.objects.all())
    assert sorted(upload["original_name"] for upload in provenance["uploads"]) == sorted(
        names["PM883"] + names["S4610"]
    )


def test_an_iometer_per_second_file_lists_its_workers_once_and_reads_their_queue_depth(db, client):
    upload = store_file(data("iometer", "results_1.1.0_per_second_workers_only.csv"), new_system={"name": "NVMe box"})
    assert upload.status == upload.Status.DONE, upload.error
    run = Run.objects.get(upload=upload)
    page = client.get(f"/runs/{run.id}/").content.decode()
    workers = page.split("<caption>Workers</caption>")[1].split("</table>")[0]
    # Lines 21-22: each worker's whole-run row (2,200 and 2,300 IOPS, Queue Depth 1); no MANAGER row.
    assert workers.count("<tr><td>not stated</td>") == 2 and "None" not in workers
    assert "Worker 1" in workers and "Worker 2" in workers
    assert "the file's 6 per-second samples of these workers are not listed" in page
    points = page.split('<table class="points">')[1].split("</table>")[0]
    assert ">Outstanding I/Os</th>" in points and '<td class="num">2</td>' in points
