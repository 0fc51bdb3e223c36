"""Throughput against transfer size, one curve per thread count and cache setting (system page)."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.charts import families
from portal.charts.families import Measured, Runs, SweepPoint, family_curves, is_family
from portal.formatting import transfer_size as size_label
from portal.models import Run, Upload
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory
from tests.ingesting import store_file
from tests.samples import data

MIB = 2**20 / 1e6  # FFSB prints MB/sec in 2^20 bytes/s; the portal stores 10^6 bytes/s
SWEEP = data("ffsb", "thread_size_sweep.txt")


def _point(size, threads, cache, mbps, run_id=1):
    return SweepPoint(size, threads, cache, Measured(mbps, 1, Runs((run_id,), 1)), None)


# ---------------------------------------------------------------- shaping, no database


def test_curves_are_split_by_thread_count_and_cache_setting():
    points = [
        _point(512, 4, "cache on", 3.0),
        _point(8192, 4, "cache on", 40.0),
        _point(512, 4, "cache off", 2.0),
        _point(8192, 4, "cache off", 20.0),
        _point(8192, 1, "cache off", 15.0),
        _point(512, 1, "cache off", 1.0),
    ]
    curves = family_curves(points, metric="mbps")
    # Without cache first (solid lines), then by thread count.
    assert [c.name for c in curves] == ["1 thread, cache off", "4 threads, cache off", "4 threads, cache on"]
    assert [(size, value) for size, value, _ in curves[0].points] == [(512, 1.0), (8192, 15.0)]
    assert [(size, value) for size, value, _ in curves[2].points] == [(512, 3.0), (8192, 40.0)]


def test_repeats_are_averaged_and_an_unknown_cache_setting_is_left_out_of_the_name():
    curves = family_curves([_point(512, 2, "", 1.0, run_id=7), _point(512, 2, "", 3.0, run_id=8)], metric="mbps")
    assert [(c.name, c.points) for c in curves] == [("2 threads", [(512, 2.0, Runs((7, 8), 2))])]


def test_one_size_or_one_thread_count_is_no_family():
    assert not is_family([_point(8192, 1, "", 15.6), _point(8192, 2, "", 28.1)])
    assert not is_family([_point(512, 4, "", 3.0), _point(8192, 4, "", 28.1)])
    assert is_family([_point(512, 1, "", 1.0), _point(8192, 4, "", 28.1)])


def test_sizes_are_labelled_in_binary_units():
    assert [size_label(s) for s in (512, 1024, 2048, 8192, 1536, 1048576)] == [
        "512 B",
        "1 KiB",
        "2 KiB",
        "8 KiB",
        "1,536 B",
        "1 MiB",
    ]


# ---------------------------------------------------------------- a stored FFSB sweep


@pytest.fixture
def sweep(db):
    system = SystemFactory(name="Lab gateway", vendor="IBM", model="DR550")
    upload = store_file(SWEEP, system=system, labels={"read_cache": False, "write_cache": False})
    assert upload.status == Upload.Status.DONE, upload.error
    return system


def test_a_stored_ffsb_sweep_is_one_family_with_a_curve_per_thread_count(sweep):
    (family,) = families.transfer_size_families(system=sweep)
    assert family.title == "FFSB random reads"
    mbps = {c.name: {size: value for size, value, _ in c.points} for c in family_curves(family.points, metric="mbps")}
    assert list(mbps) == ["1 thread, cache off", "4 threads, cache off"]
    # thread_size_sweep.txt line 77: 1 thread, 512 B blocks, "Read Throughput: 1.27MB/sec"
    assert mbps["1 thread, cache off"][512] == pytest.approx(1.27 * MIB)
    # line 356: 4 threads, 2 KB blocks, "Read Throughput: 10.9MB/sec"
    assert mbps["4 threads, cache off"][2048] == pytest.approx(10.9 * MIB)
    # line 542: 4 threads, 8 KB blocks, "Read Throughput: 28.1MB/sec"
    assert mbps["4 threads, cache off"][8192] == pytest.approx(28.1 * MIB)
    iops = {c.name: {size: value for size, value, _ in c.points} for c in family_curves(family.points, metric="iops")}
    # line 445: 1 thread, 8 KB blocks, "2050.00 Transactions per Second"
    assert iops["1 thread, cache off"][8192] == 2050


def test_each_runs_single_transfer_size_is_kept_with_its_sizes_however_they_are_written(sweep):
    runs = Run.objects.filter(config__system=sweep)
    # thread_size_sweep.txt lines 14, 200, 386: read_blocksize 512, 2048 and 8192, a run each (1 and 4 threads)
    assert sorted(runs.values_list("single_transfer_bytes", flat=True)) == [512, 2048, 8192]
    run = runs.first()
    run.transfer_sizes = [{"bytes": 4096, "pct": 50.0}, {"bytes": 65536, "pct": 50.0}]
    run.save()
    assert Run.objects.values_list("single_transfer_bytes", flat=True).get(pk=run.pk) is None
    run.transfer_sizes = [{"bytes": 65536, "pct": 100.0}]
    run.save()
    assert Run.objects.values_list("single_transfer_bytes", flat=True).get(pk=run.pk) == 65536
    Run.objects.filter(pk=run.pk).update(transfer_sizes=[{"bytes": "64K", "pct": 100.0}])
    assert Run.objects.values_list("single_transfer_bytes", flat=True).get(pk=run.pk) is None


def test_the_family_chart_has_titled_axes_and_size_ticks(client, sweep):
    response = client.get(
        f"/systems/{sweep.id}/family.json", {"family": "FFSB random reads", "metric": "mbps"}, HTTP_ACCEPT="*/*"
    )
    assert response.status_code == 200
    figure = json.loads(response.content)
    assert [trace["name"] for trace in figure["data"]] == ["1 thread, cache off", "4 threads, cache off"]
    xaxis = figure["layout"]["xaxis"]
    assert (xaxis["title"]["text"], xaxis["type"]) == ("Transfer size (bytes)", "log")
    assert (xaxis["tickvals"], xaxis["ticktext"]) == ([512, 2048, 8192], ["512 B", "2 KiB", "8 KiB"])
    assert figure["layout"]["yaxis"]["title"]["text"] == "MB/s (10^6 bytes/s)"
    csv = client.get(f"/systems/{sweep.id}/family.csv", {"family": "FFSB random reads", "metric": "iops"})
    assert '"4 threads, cache off",8192,3650.0' in csv.content.decode()


def test_the_system_page_offers_both_charts_and_an_unknown_family_is_refused(client, sweep):
    body = client.get(f"/systems/{sweep.id}/").content.decode()
    assert '<h2 id="families">' in body
    assert body.count("family.json?family=FFSB+random+reads&amp;metric=") == 2
    missing = client.get(f"/systems/{sweep.id}/family.json", {"family": "nothing", "metric": "mbps"})
    assert missing.status_code == 404
    assert "no thread-count x transfer-size sweep named 'nothing'" in missing.json()["error"]["message"]


# ---------------------------------------------------------------- sweeps repeated, configurations merged


def _sweep_runs(config, *, mbps_by_size_and_threads, repeats=1):
    """``repeats`` runs per transfer size, each a point per thread count with the given MB/s."""
    for size, by_threads in mbps_by_size_and_threads.items():
        for _ in range(repeats):
            run = RunFactory(config=config, transfer_sizes=[{"bytes": size, "pct": 100}], read_pct=100)
            for seq, (threads, mbps) in enumerate(by_threads.items()):
                PointFactory(run=run, seq=seq, threads=threads, load={"threads": threads}, mbps=mbps)


@pytest.fixture
def repeated(db):
    system = SystemFactory(name="Replicated", vendor="IBM", model="DS4700")
    # Two hosts, one array setting: one family, every value counted once.
    one_host = ConfigFactory(system=system, drive_count=16, host_server="x3650", read_cache=True, write_cache=True)
    other_host = ConfigFactory(system=system, drive_count=16, host_server="x3850", read_cache=True, write_cache=True)
    _sweep_runs(one_host, mbps_by_size_and_threads={4096: {1: 10.0, 4: 30.0}, 65536: {1: 50.0, 4: 90.0}})
    _sweep_runs(other_host, mbps_by_size_and_threads={4096: {1: 20.0, 4: 40.0}, 65536: {1: 60.0, 4: 100.0}}, repeats=6)
    # Runs of a mix of sizes are on no size axis.
    mixed = RunFactory(config=one_host, transfer_sizes=[{"bytes": 512, "pct": 50}, {"bytes": 4096, "pct": 50}])
    PointFactory(run=mixed, seq=0, threads=2, mbps=1.0)
    return system


def test_a_repeated_sweep_counts_every_value_once_whichever_configuration_measured_it(repeated):
    (family,) = families.transfer_size_families(system=repeated)
    assert family.title == "Iometer random reads, RAID-5, 16 drives"
    mbps = {c.name: c.points for c in family_curves(family.points, metric="mbps")}
    assert list(mbps) == ["1 thread, cache on", "4 threads, cache on"]
    # One run at 10 MB/s and six at 20 MB/s: (10 + 6 x 20) / 7, not the mean of the two hosts' means (15).
    (small, small_mbps, small_runs), (large, large_mbps, _) = mbps["1 thread, cache on"]
    assert (small, small_mbps, small_runs.count) == (4096, pytest.approx(130 / 7), 7)
    assert (large, large_mbps) == (65536, pytest.approx((50 + 6 * 60) / 7))
    assert [value for _, value, _ in mbps["4 threads, cache on"]] == pytest.approx(
        [(30 + 6 * 40) / 7, (90 + 6 * 100) / 7]
    )


def test_a_sweep_repeated_many_times_reads_one_row_per_cell_and_names_the_first_runs(repeated, client):
    runs = sorted(
        Run.objects.filter(config__system=repeated, transfer_sizes__0__bytes=4096).values_list("id", flat=True)
    )
    with CaptureQueriesContext(connection) as queries:
        families.transfer_size_families(system=repeated)
    assert len(queries) == 1  # the cells kept summed up, with their configurations
    response = client.get(
        f"/systems/{repeated.id}/family.json",
        {"family": "Iometer random reads, RAID-5, 16 drives", "metric": "mbps"},
        HTTP_ACCEPT="*/*",
    )
    (one_thread, _) = json.loads(response.content)["data"]
    first = ", ".join(f"#{run}" for run in runs[:5])
    # 130 / 7 = 18.571... MB/s, to three significant digits: seven runs, five named
    assert one_thread["text"][0] == f"4 KiB: 18.6 MB/s (run {first} and 2 more)"


def test_thread_counts_and_sizes_that_are_not_whole_numbers_are_left_off_the_axes(repeated):
    config = repeated.configs.first()
    odd = RunFactory(config=config, transfer_sizes=[{"bytes": 1536.5, "pct": 100}], read_pct=100)
    PointFactory(run=odd, seq=0, threads=None, load={"threads": 2}, mbps=5.0)
    fraction = RunFactory(config=config, transfer_sizes=[{"bytes": 4096, "pct": 100}], read_pct=100)
    PointFactory(run=fraction, seq=0, threads=None, load={"threads": "2.5"}, mbps=7.0)
    PointFactory(run=fraction, seq=1, threads=None, load={"threads": 8}, mbps=80.0)
    (family,) = families.transfer_size_families(system=repeated)
    cells = {(p.transfer_bytes, p.threads) for p in family.points}
    assert cells == {(4096, 1), (4096, 4), (65536, 1), (65536, 4), (4096, 8)}
