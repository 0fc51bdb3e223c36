"""Storing MLPerf Storage files uploaded from the command line: the reports and DLIO summaries as measured
runs of the system named, a system description as the system's description."""

import pytest

from portal.models import Point, Run, System
from tests.ingesting import ingest_command
from tests.samples import SAMPLES_DIR

pytestmark = pytest.mark.django_db


def test_the_samples_folder_stores_a_run_per_report_and_summary_and_the_description(data_dir):
    status, out = ingest_command(SAMPLES_DIR / "mlperf-storage", "--system", "Lab array")
    assert status == 0, out
    # six files; the summary.json and per_epoch_stats.json of one folder are read together into one run
    assert "6 files: 6 stored or already stored, 0 failed" in out
    system = System.objects.get(name="Lab array")
    assert sorted(Run.objects.filter(config__system=system).values_list("name", flat=True)) == [
        "DLIO training run of 2024-08-17 22:55, 64 accelerators (summary of c002)",
        "cosmoflow (h100), 64 accelerators",
        "resnet50 (h100), 1 accelerator",
        "unet3d (h100), 255 accelerators",
    ]
    run = Run.objects.get(name="cosmoflow (h100), 64 accelerators")
    assert run.origin == Run.Origin.MEASURED and run.workload_name == "cosmoflow (h100)" and run.verdict == "pass"
    # overall.train_throughput_mean_MB_per_second 33867.86398140645 MiB/s
    point = Point.objects.get(run=run)
    assert point.load == {"accelerators": 64} and point.mbps == pytest.approx(35513.03, abs=0.01)
    # the DLIO summary's metric.train_au_mean_percentage, its epochs with per_epoch_stats.json's times
    summary = Point.objects.get(run__name__startswith="DLIO training run")
    assert summary.metrics["au_pct"] == 70.26363970313434
    assert summary.metrics["epochs"]["rows"][0][5] == 247.6
    # v1.0-ddn-system.json: storage_system.vendor_name, solution_name, version; hardware_components controller x 2
    system.refresh_from_db()
    assert (system.vendor, system.model, system.firmware, system.controllers) == (
        "DDN",
        "AI400X2 Turbo",
        "EXA6.3.0 - SFAOS12.4.0",
        2,
    )
    assert system.profile["details"]["benchmark_hosts"] == {"client": 16}
