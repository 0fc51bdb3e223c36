"""Runs stored from uploaded files get their tool's view on the run page (not only the demo data)."""

import io

import pytest
from django.core.management import call_command

from portal.models import Run
from tests.samples import data, sample

pytestmark = pytest.mark.django_db


def _store(*paths, system):
    call_command("ingest", *map(str, paths), "--system", system, stdout=io.StringIO())
    return Run.objects.get()


def test_a_jetstress_report_shows_mailbox_sizing(client):
    run = _store(data("jetstress", "jetstress2007_seed001.html"), system="IBM DS5020")
    body = client.get(f"/runs/{run.id}/").content.decode()
    assert '<h2 id="jetstress-heading">Jetstress</h2>' in body
    # 001_22c77edb183857dc.txt appendix, the Jetstress 2007 report: 1,101.114 achieved IOPS, so
    # 2,202 mailboxes at 0.5 IOPS each (rounded down).
    assert '<td class="num" id="mailboxes">2,202</td>' in body


def test_an_orion_test_shows_its_heat_maps_and_maxima(client):
    run = _store(
        *sorted(data("orion").glob("db11_20240305_1412_*")),
        system="Oracle test LUN",
    )
    body = client.get(f"/runs/{run.id}/").content.decode()
    assert '<h2 id="orion-heading">ORION</h2>' in body


def test_an_mlperf_storage_report_shows_accelerators_and_throughput_per_accelerator(client):
    run = _store(sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-report.json"), system="DDN AI400X2 Turbo")
    body = client.get(f"/runs/{run.id}/").content.decode()
    assert '<h2 id="mlperf-storage-heading">MLPerf Storage training</h2>' in body
    # overall.train_num_accelerators "64"; train_throughput_mean_MB_per_second 33,867.86 MiB/s = 35,513 MB/s,
    # 554.9 MB/s per accelerator (three significant digits)
    assert '<td class="num" id="mlperf-accelerators">64</td>' in body
    assert '<td class="num" id="mlperf-mbps">35,513</td>' in body
    assert '<td class="num" id="mlperf-mbps-per-accelerator">555</td>' in body
    # the report states no AU; cosmoflow's rule is 70 %, met by every run (reportgen writes no report otherwise)
    assert '<td class="num" id="mlperf-au">–</td>' in body
    assert "the rule asks for at least 70 %: met (the report states no AU: its DLIO summaries do)" in body
    # runs.result_cosmoflow_16_4accperclient_h100_iter2_1723949500: 33,845.68 MiB/s = 35,490 MB/s
    assert '<td>result_cosmoflow_16_4accperclient_h100_iter2_1723949500</td><td class="num">35,490</td>' in body


def test_a_dlio_summary_shows_its_accelerator_utilisation_and_epochs(client):
    run = _store(
        sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-run1-summary.json"),
        sample("mlperf-storage", "v1.0-ddn-cosmoflow-h100-run1-per_epoch_stats.json"),
        system="DDN AI400X2 Turbo",
    )
    body = client.get(f"/runs/{run.id}/").content.decode()
    # metric.train_au_mean_percentage 70.2636...; train_au_meet_expectation "success"
    assert '<td class="num" id="mlperf-au">70.3 %</td>' in body
    assert "the benchmark's rule: met" in body
    # epoch 1: metric.train_au_percentage[0] 70.1397, per_epoch_stats "1".duration "247.60"
    assert '<td class="num">1</td><td class="num">70.1 %</td>' in body
    assert '<td class="num">248</td>' in body
