"""Each run's figures at the papers' default (20 ms of average response time) are stored with it, and a
comparison at the default reads them instead of the points."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.comparisons.filters import SideFilters
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import Point, Run, System
from portal.results.figures import STORED_FIGURE_COLUMNS, runs_stored_figures_fill, runs_summaries_recompute
from portal.results.services import result_sets_store
from portal.systems.selectors import system_by_name
from portal.uploads.services import upload_reingest
from tests.factories import PointFactory, RunFactory, SystemFactory
from tests.ingesting import ingest_command, run_job_of
from tests.samples import data, sample

pytestmark = pytest.mark.django_db


def stored(run):
    run.refresh_from_db()
    return {name: getattr(run, name) for name in STORED_FIGURE_COLUMNS}


# tests/ingest/data/fio/sweep: 5,000, 16,000 and 32,000 read IOPS (20.48, 65.536 and 131.072 MB/s) at
# 0.199, 0.249 and 0.499 ms: 20 ms is never reached, the best point is reported (a lower bound).
SWEEP_FIGURES = {
    "throughput_metric": "iops",
    "iops_at_20ms": 32000.0,
    "iops_at_20ms_status": "not_reached",
    "mbps_at_20ms": pytest.approx(131.072),
    "mbps_at_20ms_status": "not_reached",
    "reached_20ms": False,
    "published_mbps_binary": None,
}


def test_a_stored_file_keeps_its_runs_figures_at_20_ms():
    status, out = ingest_command(data("fio", "sweep"), "--system", "Lab NVMe array")
    assert status == 0, out
    assert stored(Run.objects.get()) == SWEEP_FIGURES


def test_runs_stored_before_are_filled_from_their_points():
    ingest_command(data("fio", "sweep"), "--system", "Lab NVMe array")
    run = Run.objects.get()
    Run.objects.update(throughput_metric="", iops_at_20ms=None, mbps_at_20ms=None, reached_20ms=None)
    assert runs_stored_figures_fill() == 1
    assert stored(run) == SWEEP_FIGURES
    assert runs_stored_figures_fill() == 0


def test_a_relabelled_upload_stores_its_new_runs_with_their_figures():
    ingest_command(data("fio", "sweep"), "--system", "Lab NVMe array")
    upload = Run.objects.get().upload
    assert upload_reingest(upload=upload, labels={"raid_level": "RAID-10", "drive_count": 8})
    run_job_of(upload)
    run = Run.objects.get()
    assert (run.config.raid_level, run.config.drive_count) == ("RAID-10", 8)
    assert stored(run) == SWEEP_FIGURES


def kept(run):
    """What the database keeps with a run's summary and stored figures (generated columns)."""
    run.refresh_from_db()
    names = ("min_avg_response_ms", "max_avg_response_ms", "throughput_at_20ms", "throughput_at_20ms_status")
    return {name: getattr(run, name) for name in names}


# The same sweep: lat_ns means of 199,000, 249,000 and 499,000 ns (randread-1-1, -4-1 and -16-1.json); judged
# by IOPS, 32,000 at the best point, 20 ms not reached.
SWEEP_KEPT = {
    "min_avg_response_ms": pytest.approx(0.199),
    "max_avg_response_ms": pytest.approx(0.499),
    "throughput_at_20ms": 32000.0,
    "throughput_at_20ms_status": "not_reached",
}


def test_a_run_keeps_its_response_times_and_its_figure_in_its_metric_when_stored_reingested_and_edited():
    ingest_command(data("fio", "sweep"), "--system", "Lab NVMe array")
    run = Run.objects.get()
    assert kept(run) == SWEEP_KEPT
    assert upload_reingest(upload=run.upload, labels={"raid_level": "RAID-10", "drive_count": 8})
    run_job_of(run.upload)
    run = Run.objects.get()
    assert kept(run) == SWEEP_KEPT
    # A point changed in the admin: the figures are read from the points again, the summary is recomputed.
    slowest = run.points.order_by("-avg_response_ms").first()
    assert slowest.avg_response_ms == pytest.approx(0.499)
    slowest.avg_response_ms = 0.75
    slowest.save()
    runs_summaries_recompute(run_ids=[run.id])
    assert kept(run) == {
        "min_avg_response_ms": pytest.approx(0.199),
        "max_avg_response_ms": 0.75,
        "throughput_at_20ms": None,
        "throughput_at_20ms_status": "",
    }
    runs_stored_figures_fill()
    assert kept(run)["throughput_at_20ms"] == 32000.0


def test_a_run_is_stored_with_its_summary_as_recomputing_it_from_its_points_gives():
    ingest_command(data("fio", "sweep"), "--system", "Lab NVMe array")
    run = Run.objects.get()
    # The sweep's three points: 5,000, 16,000 and 32,000 IOPS, 20.48 to 131.072 MB/s, 0.199 to 0.499 ms.
    expected = {
        "points": 3,
        "peak_iops": 32000.0,
        "peak_mbps": pytest.approx(131.072),
        "min_response_ms": pytest.approx(0.199),
        "max_response_ms": pytest.approx(0.499),
    }
    assert run.summary == expected
    assert runs_summaries_recompute(run_ids=[run.id]) == {run.id: expected}
    run.refresh_from_db()
    assert run.summary == expected


def test_summaries_recomputed_together_are_each_runs_own_and_a_run_without_points_has_none():
    measured, empty = RunFactory(), RunFactory(summary={"points": 3, "peak_iops": 11000.0})
    # Three load levels, written by hand: 5,000 IOPS at 4 ms, 9,000 at 11 ms (40 MB/s), 11,000 at 22 ms.
    for seq, (iops, mbps, response_ms) in enumerate([(5000, None, 4.0), (9000, 40.0, 11.0), (11000, None, 22.0)]):
        PointFactory(run=measured, seq=seq, iops=iops, mbps=mbps, avg_response_ms=response_ms)
    expected = {
        measured.id: {
            "points": 3,
            "peak_iops": 11000.0,
            "peak_mbps": 40.0,
            "min_response_ms": 4.0,
            "max_response_ms": 22.0,
        },
        empty.id: {"points": 0, "peak_iops": None, "peak_mbps": None, "min_response_ms": None, "max_response_ms": None},
    }
    with CaptureQueriesContext(connection) as queries:
        assert runs_summaries_recompute(run_ids=[measured.id, empty.id], batch=1) == expected
    assert len(queries) == 4  # a query of points and an UPDATE per batch of one run
    for run in (measured, empty):
        run.refresh_from_db()
        assert run.summary == expected[run.id]


@pytest.fixture
def demo_systems(demo):
    anyone = AnonymousUser()
    return system_by_name(name="IBM DS4500", viewer=anyone), system_by_name(name="IBM DS4400", viewer=anyone)


def test_published_figures_are_stored_as_the_papers_print_them(demo_systems):
    random_reads = Run.objects.get(
        config__system__name="IBM DS4400", workload_name="Random Reads 8K", config__raid_level="RAID-5"
    )
    # 000_f52f16ce4c762121.txt, Chart 6 text: 26,640 IOPS for the DS4400 at 20 ms, a published figure
    # (no MB/s is printed for it).
    assert stored(random_reads) == {
        "throughput_metric": "iops",
        "iops_at_20ms": 26640.0,
        "iops_at_20ms_status": "single_point",
        "mbps_at_20ms": None,
        "mbps_at_20ms_status": "no_data",
        "reached_20ms": True,
        "published_mbps_binary": None,
    }
    streaming = Run.objects.get(
        config__system__name="IBM DS4500", workload_name="Streaming Reads 64K", config__raid_level="RAID-5"
    )
    # Chart 2 text: 722 MBps, binary units (2^20 bytes/s), stored as 10^6 bytes/s.
    assert streaming.throughput_metric == "mbps"
    assert streaming.mbps_at_20ms == pytest.approx(722 * 2**20 / 1e6)
    assert streaming.published_mbps_binary == 722


def point_queries(queries):
    return [query["sql"] for query in queries.captured_queries if "portal_point" in query["sql"]]


def test_the_comparison_at_the_default_reads_no_points(demo_systems):
    a, b = demo_systems
    with CaptureQueriesContext(connection) as queries:
        result = comparison(
            a=a, b=b, query=ComparisonQuery(workload="Random Reads 8K", both_sides=SideFilters(raid_level="RAID-5"))
        )
    assert point_queries(queries) == []
    (workload,) = result.workloads
    (row,) = workload.rows
    # 000_f52f16ce4c762121.txt line 295: 30,020 vs 26,640 IOPS, +12.7 %.
    assert (row.a_value, row.b_value, round(row.pct, 1)) == (30020, 26640, 12.7)
    # Charts and exports ask for the figures and runs themselves: both sides' figures, then the runs
    # together with their points.
    with CaptureQueriesContext(connection) as queries:
        runs = [figure.run for figure in row.a + row.b]
        assert [point.iops for run in runs for point in run.points.all()] == [30020, 26640]
    assert len(queries) == 3


def test_at_another_threshold_the_points_are_read_as_tuples_in_index_order(demo_systems):
    a, b = demo_systems
    with CaptureQueriesContext(connection) as queries:
        result = comparison(
            a=a,
            b=b,
            query=ComparisonQuery(
                threshold_ms=30, workload="Random Reads 8K", both_sides=SideFilters(raid_level="RAID-5")
            ),
        )
    # One query for both sides' published points, in the order of the (run, seq) index (measured runs' curves
    # are read in the database: tests/pages/test_compare_any_threshold.py).
    (sql,) = [query for query in point_queries(queries) if query.startswith('SELECT "portal_point"')]
    assert sql.startswith('SELECT "portal_point"."run_id" AS "run_id", "portal_point"."seq" AS "seq", ')
    assert sql.endswith("ORDER BY 1 ASC, 2 ASC")
    (row,) = result.workloads[0].rows
    # The published figures are used as published, and marked so.
    assert (row.a_value, row.b_value, round(row.pct, 1)) == (30020, 26640, 12.7)
    assert "IBM DS4500: published at 20 ms, shown as published" in row.notes


def test_a_point_changed_in_the_admin_is_compared_from_the_points(demo_systems):
    a, b = demo_systems
    run = Run.objects.get(config__system=b, workload_name="Random Reads 8K", config__raid_level="RAID-5")
    point = run.points.get()
    point.iops = 29304.0
    point.save()
    assert stored(run)["throughput_metric"] == ""
    (row,) = (
        comparison(
            a=a, b=b, query=ComparisonQuery(workload="Random Reads 8K", both_sides=SideFilters(raid_level="RAID-5"))
        )
        .workloads[0]
        .rows
    )
    # 30,020 against 29,304: +2.4 %.
    assert (row.b_value, round(row.pct, 1)) == (29304, 2.4)


def replicates(system: System, *, iops_at_10ms):
    """Runs of one configuration, each ``iops_at_10ms`` at 10 ms and twice that at 30 ms: 1.5 x at 20 ms."""
    runs = [
        {
            "name": f"OLTP 8K #{n}",
            "params": {},
            "workload": {"read_pct": 67, "random_pct": 100, "transfer_sizes": [{"bytes": 8192, "pct": 100}]},
            "points": [
                {"load": {"outstanding_io": 8}, "iops": iops, "mbps": iops * 8192 / 1e6, "avg_response_ms": 10.0},
                {"load": {"outstanding_io": 32}, "iops": 2 * iops, "mbps": iops * 16384 / 1e6, "avg_response_ms": 30.0},
            ],
        }
        for n, iops in enumerate(iops_at_10ms)
    ]
    result = {"format": "fio", "tool": {"name": "fio"}, "source": {"name": "replicates.json"}, "runs": runs}
    labels = {"raid_level": "RAID-5", "drive_count": 16, "workload_name": "OLTP 8K"}
    result_sets_store(results=[result], upload=None, system=system, labels=labels)


@pytest.mark.parametrize("stored_figures", [True, False])
def test_replicates_are_compared_with_welchs_test_from_the_stored_figures(stored_figures):
    a, b = SystemFactory(name="Array A"), SystemFactory(name="Array B")
    replicates(a, iops_at_10ms=[1000, 1200, 1400])
    replicates(b, iops_at_10ms=[1000, 1000, 1200])
    if not stored_figures:
        Run.objects.update(throughput_metric="")
    with CaptureQueriesContext(connection) as queries:
        (row,) = comparison(a=a, b=b).workloads[0].rows
    assert bool(point_queries(queries)) is not stored_figures
    # A: 1,500, 1,800 and 2,100 IOPS at 20 ms (mean 1,800, variance 90,000); B: 1,500, 1,500 and 1,800
    # (mean 1,600, variance 30,000): +12.5 %; Welch: standard error sqrt(90,000/3 + 30,000/3) = 200,
    # t = 200 / 200 = 1, df = 40,000^2 / (30,000^2/2 + 10,000^2/2) = 3.2.
    assert (row.a_value, row.b_value, row.pct) == (pytest.approx(1800), pytest.approx(1600), pytest.approx(12.5))
    welch = row.confidence.welch
    assert (row.confidence.a.n, row.confidence.b.n) == (3, 3)
    assert (welch.t, welch.df) == (pytest.approx(1.0), pytest.approx(3.2))
    assert [figure.status for figure in row.a + row.b] == ["interpolated"] * 6
    assert not Point.objects.filter(run__config__system=a).exclude(seq__in=[0, 1]).exists()


def test_a_single_measured_point_over_20_ms_is_stored_with_no_value_and_the_run_page_says_why(client):
    # samples/diskspd/basilkisel_diskspd-text_goodsql2016...txt, "Total IO" total line: 403.66 I/O per s at an
    # (2 threads x 32 outstanding I/Os, lines 26 and 36)
    # AvgLat of 158.382 ms. Measured once, far over 20 ms: there is no throughput at 20 ms to state.
    sample_file = sample("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt")
    status, out = ingest_command(sample_file, "--system", "Azure VM")
    assert status == 0, out
    run = Run.objects.get()
    assert stored(run) == {
        "throughput_metric": "iops",
        "iops_at_20ms": None,
        "iops_at_20ms_status": "first_point_over",
        "mbps_at_20ms": None,
        "mbps_at_20ms_status": "first_point_over",
        "reached_20ms": True,
        "published_mbps_binary": None,
    }
    page = client.get(f"/runs/{run.id}/").content.decode()
    assert "No value at 20 ms: its only point is at 158 ms at 64 outstanding I/Os, over 20 ms." in page
    # Said once: the warnings under the sentence do not repeat why there is no value.
    assert "there is no throughput at 20 ms" not in page
    assert "published" not in page


def test_a_single_measured_point_under_the_threshold_is_a_lower_bound_at_its_own_latency(client):
    # The same DiskSpd run read at 200 ms: 403.66 IOPS measured at 158.382 ms is at least that much at 200 ms.
    sample_file = sample("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt")
    ingest_command(sample_file, "--system", "Azure VM")
    run = Run.objects.get()
    page = client.get(f"/runs/{run.id}/?threshold_ms=200").content.decode()
    assert "At least 404 IOPS at 200 ms (a lower bound): measured at 158 ms at 64 outstanding I/Os." in page


def test_the_stored_figures_of_single_measured_points_are_read_again_by_the_migration():
    # Runs stored before a single measured point was told from a published figure carried its figure "as
    # published"; the migration reads them again from their points.
    from importlib import import_module

    from django.apps import apps

    sample_file = sample("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt")
    ingest_command(sample_file, "--system", "Azure VM")
    run = Run.objects.get()
    Run.objects.update(iops_at_20ms=403.66, iops_at_20ms_status="single_point", reached_20ms=True)
    import_module("portal.migrations.0017_single_measured_points").single_measured_points(apps, None)
    assert (stored(run)["iops_at_20ms"], stored(run)["iops_at_20ms_status"]) == (None, "first_point_over")
