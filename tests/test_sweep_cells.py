"""Each configuration's transfer-size sweep cells, kept summed up by PostgreSQL as runs and points are stored,
read again, edited and deleted (what a system page's families read instead of the points)."""

import pytest

from portal.charts import families
from portal.models import Config, Run, SweepCell, Upload
from portal.uploads.services import upload_delete, upload_reingest
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory
from tests.ingesting import run_job_of, store_file
from tests.samples import data

pytestmark = pytest.mark.django_db

MIB = 2**20 / 1e6  # FFSB prints MB/sec in 2^20 bytes/s; the portal stores 10^6 bytes/s
SWEEP = data("ffsb", "thread_size_sweep.txt")


def cells(config, tool="Iometer"):
    """{(transfer size, threads): (MB/s sum, values, runs)} of a configuration's cells of a tool."""
    return {
        (cell.transfer_bytes, cell.threads): (cell.mbps_sum, cell.mbps_count, cell.mbps_runs)
        for cell in SweepCell.objects.filter(config=config, tool=tool)
    }


def test_a_stored_file_is_summed_up_per_cell_and_read_again_under_new_labels_moves_its_cells():
    system = SystemFactory(name="Lab gateway")
    upload = store_file(SWEEP, system=system, labels={"read_cache": False, "write_cache": False})
    assert upload.status == Upload.Status.DONE, upload.error
    (config,) = Config.objects.filter(system=system)
    stored = cells(config, tool="FFSB")
    # thread_size_sweep.txt: block sizes 512, 2048 and 8192 (lines 14, 200, 386), 1 and 4 threads each; a run
    # per size, so a cell holds one value of one run.
    assert set(stored) == {(size, threads) for size in (512, 2048, 8192) for threads in (1, 4)}
    # line 77: 1 thread, 512 B blocks, "Read Throughput: 1.27MB/sec"; line 542: 4 threads, 8 KB, "28.1MB/sec"
    assert stored[(512, 1)] == (pytest.approx(1.27 * MIB), 1, 1)
    assert stored[(8192, 4)] == (pytest.approx(28.1 * MIB), 1, 1)
    # line 445: 1 thread, 8 KB blocks, "2050.00 Transactions per Second"
    assert SweepCell.objects.get(config=config, transfer_bytes=8192, threads=1).iops_sum == 2050

    assert upload_reingest(upload=upload, labels={"raid_level": "RAID-10", "drive_count": 8})
    run_job_of(upload)
    (relabelled,) = Config.objects.filter(system=system, runs__isnull=False).distinct()
    assert relabelled.raid_level == "RAID-10"
    assert cells(relabelled, tool="FFSB")[(8192, 4)] == (pytest.approx(28.1 * MIB), 1, 1)
    assert SweepCell.objects.filter(config__system=system).count() == 6

    assert upload_delete(upload=upload) == 3
    assert not SweepCell.objects.filter(config__system=system).exists()


@pytest.fixture
def eight_runs(db):
    """Eight runs of 4 KB random reads on one configuration, a point each at 2 threads: 10, 20, ... 80 MB/s."""
    config = ConfigFactory(system=SystemFactory(name="Repeated"), drive_count=16)
    for mbps in (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0):
        run = RunFactory(config=config, transfer_sizes=[{"bytes": 4096, "pct": 100}], read_pct=100)
        PointFactory(run=run, seq=0, threads=2, mbps=mbps)
    return config


def test_the_cells_follow_each_run_and_point_deleted_or_edited(eight_runs):
    config = eight_runs
    runs = list(Run.objects.filter(config=config).order_by("id"))
    # 10 + 20 + ... + 80 = 360 MB/s over eight values of eight runs
    assert cells(config) == {(4096, 2): (360.0, 8, 8)}
    (cell,) = SweepCell.objects.filter(config=config)
    assert cell.mbps_first_runs == [run.id for run in runs[:5]]

    runs[0].delete()  # 10 MB/s
    assert cells(config) == {(4096, 2): (350.0, 7, 7)}
    point = runs[7].points.get()
    point.mbps = 200.0  # 80 -> 200 MB/s
    point.save()
    assert cells(config) == {(4096, 2): (470.0, 7, 7)}

    # A second point at 2 threads in one run: a value more, not a run more.
    PointFactory(run=runs[1], seq=1, threads=2, mbps=30.0)
    assert cells(config) == {(4096, 2): (500.0, 8, 7)}

    # Another tool is another cell; a mix of sizes is on no size axis.
    Run.objects.filter(pk=runs[2].pk).update(tool="fio")  # 30 MB/s
    runs[3].transfer_sizes = [{"bytes": 512, "pct": 50}, {"bytes": 4096, "pct": 50}]  # 40 MB/s
    runs[3].save()
    assert cells(config) == {(4096, 2): (430.0, 6, 5)}
    assert cells(config, tool="fio") == {(4096, 2): (30.0, 1, 1)}

    # A run moved to another configuration takes its cell with it.
    other = ConfigFactory(system=config.system, drive_count=8)
    Run.objects.filter(pk=runs[4].pk).update(config=other)  # 50 MB/s
    assert cells(config) == {(4096, 2): (380.0, 5, 4)}
    assert cells(other) == {(4096, 2): (50.0, 1, 1)}

    other.delete()
    config.system.delete()
    assert not SweepCell.objects.exists()


def test_a_repeated_sweeps_hover_names_the_first_five_runs_and_counts_the_others(eight_runs, client):
    config = eight_runs
    runs = list(Run.objects.filter(config=config).order_by("id").values_list("id", flat=True))
    # A second size and thread count, so the runs make a family: one run of 64 KB at 2 and 4 threads.
    large = RunFactory(config=config, transfer_sizes=[{"bytes": 65536, "pct": 100}], read_pct=100)
    PointFactory(run=large, seq=0, threads=2, mbps=500.0)
    PointFactory(run=large, seq=1, threads=4, mbps=600.0)
    response = client.get(
        f"/systems/{config.system_id}/family.json",
        {"family": "Iometer random reads, RAID-5, 16 drives", "metric": "mbps"},
        HTTP_ACCEPT="*/*",
    )
    two_threads, four_threads = response.json()["data"]
    named = ", ".join(f"#{run}" for run in runs[:5])
    # (10 + 20 + ... + 80) / 8 = 45 MB/s; eight runs, five named
    assert two_threads["text"] == [f"4 KiB: 45 MB/s (run {named} and 3 more)", f"64 KiB: 500 MB/s (run #{large.id})"]
    assert four_threads["text"] == [f"64 KiB: 600 MB/s (run #{large.id})"]

    Run.objects.filter(id__in=runs[:3]).delete()  # 10, 20 and 30 MB/s
    (family,) = families.transfer_size_families(system=config.system)
    two, _ = families.family_chart(family, metric="mbps").series
    named = ", ".join(f"#{run}" for run in runs[3:8])
    # (40 + 50 + 60 + 70 + 80) / 5 = 60 MB/s, every run named
    assert two.hover[0] == f"4 KiB: 60 MB/s (run {named})"


@pytest.mark.django_db(transaction=True)
def test_two_stores_writing_the_same_two_configurations_in_opposite_orders_both_finish():
    import threading

    from django.db import connection, transaction

    from portal.results.services import result_sets_store
    from tests.bench.store import synthetic_result

    def result(system):
        # 20 runs of 8 KB transfers, 10 loads of one thread each: single-size runs whose points are cells.
        return {**synthetic_result(20, 10), "system": {"name": system}}

    result_sets_store(results=[result("Array A"), result("Array B")], upload=None)
    start, errors = threading.Barrier(2), []

    def store(order):
        try:
            for _ in range(4):
                start.wait(timeout=30)
                with transaction.atomic():
                    result_sets_store(results=[result(name) for name in order], upload=None)
        except Exception as error:  # noqa: BLE001 - the test reports what a store raised
            errors.append(error)
            start.abort()
        finally:
            connection.close()

    threads = [
        threading.Thread(target=store, args=(order,)) for order in (("Array A", "Array B"), ("Array B", "Array A"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    # Each system stored 1 + 4 + 4 times: 9 x 20 runs of 10 points, 1,000 IOPS and 8.2 MB/s at the first load.
    for name in ("Array A", "Array B"):
        config = Config.objects.get(system__name=name)
        first = SweepCell.objects.get(config=config, threads=1)
        assert (first.iops_count, first.iops_runs, first.iops_sum) == (1800, 180, pytest.approx(1800 * 1004.5))
