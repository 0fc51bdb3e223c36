"""Throughput at a percentile of the response time ("IOPS at p99 <= 1 ms"), beside the papers' average."""

import io

import pytest
from django.core.management import call_command

from portal.models import Point, Run
from tests.samples import data, sample


def _text(response):
    return " ".join(response.content.decode().split())


def test_a_fio_sweep_read_at_p99_gives_another_number_than_at_the_average(db, data_dir, client):
    call_command("ingest", str(data("fio", "sweep")), "--system", "Lab NVMe array", stdout=io.StringIO())
    run = Run.objects.get()
    # randread-1-1.json, -4-1.json, -16-1.json: 5,000 / 16,000 / 32,000 IOPS; clat p99 597 / 747 / 1,497 us
    # (line 48 of each); average latency 0.199 / 0.249 / 0.499 ms (lat_ns mean).
    p99 = [p.latency_percentiles_ms["99"] for p in run.points.order_by("seq")]
    assert p99 == pytest.approx([0.597, 0.747, 1.497])
    average = _text(client.get(f"/runs/{run.id}/", {"threshold_ms": "1"}))
    assert (
        "<strong>At least 32,000 IOPS at 1 ms (a lower bound): measured at 0.499 ms at 16 outstanding I/Os.</strong>"
    ) in average
    # At p99 <= 1 ms: between 0.747 ms (16,000) and 1.497 ms (32,000): 16,000 + 16,000 x 0.253 / 0.75 = 21,397.3,
    # written as whole IOPS.
    p99 = _text(client.get(f"/runs/{run.id}/", {"threshold_ms": "1", "latency": "p99"}))
    assert (
        "<strong>21,397 IOPS at 1 ms (99th percentile response time): interpolated between 0.747 ms at 4 "
        "outstanding I/Os and 1.5 ms at 16 outstanding I/Os.</strong>"
    ) in p99
    curve = client.get(f"/runs/{run.id}/charts/curve.json", {"threshold_ms": "1"}).json()
    # The files give p50 and p99 (no p95): both are drawn beside the average.
    assert [trace["name"] for trace in curve["data"]][:3] == ["measured points", "50th percentile", "99th percentile"]


def test_the_compare_command_reads_both_systems_at_a_percentile(db, data_dir, tmp_path):
    for pad, name in enumerate(("Array A", "Array B")):
        folder = tmp_path / name.replace(" ", "_")
        folder.mkdir()
        for path in data("fio", "sweep").glob("*.json"):  # the same figures, other bytes: not duplicates
            (folder / path.name).write_bytes(path.read_bytes() + b"\n" * pad)
        call_command("ingest", str(folder), "--system", name, stdout=io.StringIO())
        Run.objects.filter(config__system__name=name).update(workload_name=name)
    out = io.StringIO()
    call_command(
        "compare", "Array A", "Array B", "--threshold-ms", "1", "--latency", "p99", "--pair", "Array A=Array B",
        stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert text.startswith("Array A (A) vs Array B (B) at 1 ms (99th percentile)")
    assert "A   21,397.3  B   21,397.3     +0.0 %" in text


def test_diskspd_total_percentiles_are_stored_per_point(db, data_dir):
    path = sample("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt")
    call_command("ingest", str(path), "--system", "Azure VM", stdout=io.StringIO())
    point = Point.objects.filter(run__name__isnull=False).order_by("run_id", "seq").first()
    # The %-ile table (line 71 heads it; line 79: 99th total 824.992 ms): total 50th 163.862, 99.9th 1819.328 ms.
    assert (point.latency_percentiles_ms["50"], point.latency_percentiles_ms["99"]) == (163.862, 824.992)
    assert point.latency_percentiles_ms["99.9"] == 1819.328
