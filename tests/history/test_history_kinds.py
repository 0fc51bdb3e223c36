"""A firmware history of an object store is told in object operations per second, never in IOPS: on the
history page, the team's alerts, the webhook's JSON and ``manage.py changes``. Its runs are the read stage of
the COSBench sample ``cosbench/cosbench-workload-summary-w55.csv`` (line 6: stage s3, Throughput 326.41 op/s
at an Avg-ResTime of 2.53 ms, its one point under 20 ms) at 1.0, 1.0 and 1.1 times its throughput."""

import html
import io
import re

import pytest
from django.core.management import call_command

from portal.models import Alert, AlertSummary, System, WebhookDelivery
from tests.factories import SystemFactory
from tests.ingesting import store_file
from tests.samples import sample

from .conftest import REPLICATES

SUMMARY = sample("cosbench", "cosbench-workload-summary-w55.csv")
# Line 6's Throughput column (op/s).
SAMPLE_OPS = "326.41"


def cosbench_file(factor: float, *, day: int) -> io.BytesIO:
    """The sample's header and its line 6 (the s3 read stage), its throughput multiplied by ``factor``, run
    ``day`` days after the sample was (2014-05-07)."""
    header, *lines = SUMMARY.read_text().splitlines()
    stage = lines[4]
    assert f",{SAMPLE_OPS}," in stage
    stage = stage.replace(f",{SAMPLE_OPS},", f",{float(SAMPLE_OPS) * factor:.2f},", 1)
    stage = stage.replace("2014-05-07", f"2014-05-{7 + day:02d}")
    return io.BytesIO(f"{header}\n{stage}\n".encode())


def upload_versions(system: System, uploader) -> None:
    for day, (firmware, level) in enumerate(zip(("2.1.0", "2.1.4", "2.2.0"), (1.0, 1.0, 1.1), strict=True)):
        for number, noise in enumerate(REPLICATES, start=1):
            store_file(
                stream=cosbench_file(level * noise, day=day), name=f"w55-{firmware}-{number}.csv", system=system,
                labels={"firmware": firmware, "raid_level": "RAID-6", "drive_count": 12}, uploader=uploader,
            )  # fmt: skip


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def object_store(engineer, lab):
    system = SystemFactory(name="Ceph RGW lab", team=lab, published=False)
    upload_versions(system, engineer)
    return system


# The versions' means: 326.41 op/s before 2.2.0 (each version's replicates at 1.00, 1.01 and 0.99 average
# 1.00), 326.41 x 1.1 = 359.05 op/s from it; +10.0 %.
BEFORE, AFTER = "326 object ops/s", "359 object ops/s"


def test_an_object_store_history_and_its_alert_are_in_object_operations(object_store, engineer, client):
    (alert,) = Alert.objects.filter(system=object_store)
    assert (alert.version, round(alert.change_pct, 1)) == ("2.2.0", 10.0)
    client.force_login(engineer)
    series = client.get(f"/systems/{object_store.id}/history/", {"config": alert.config_id, "series": alert.series})
    page = text(series)
    assert "Throughput at 20 ms of average response time, object ops/s, of each run" in page
    assert "Mean (object ops/s)" in page and "Segment mean (object ops/s)" in page
    assert f"+10.0 % ({BEFORE} before, {AFTER} from 2.2.0;" in page
    assert "IOPS" not in page
    alerts = text(client.get(f"/teams/{object_store.team.slug}/alerts/"))
    assert f"{BEFORE} {AFTER} +10.0 %" in alerts and "IOPS" not in alerts
    chart = client.get(
        f"/systems/{object_store.id}/history/chart.json", {"config": alert.config_id, "series": alert.series}
    ).json()
    assert "object ops/s" in str(chart) and "IOPS" not in str(chart)
    (listed,) = client.get("/api/v1/alerts/", {"system": "Ceph RGW lab"}).json()["results"]
    assert (listed["unit"], listed["change"]) == ("object ops/s", "+10.0 %")
    assert client.get(f"/api/v1/alerts/{alert.id}/").json()["unit"] == "object ops/s"


def test_changes_and_the_webhook_tell_an_object_store_step_in_object_operations(
    object_store, engineer, django_capture_on_commit_callbacks
):
    Alert.objects.all().delete()
    AlertSummary.objects.all().delete()
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("changes", "--system", "Ceph RGW lab", "--as", "engineer", stdout=out)
    line, _total = out.getvalue().splitlines()
    assert f"throughput at 20 ms: +10.0 % from 2.2.0 ({BEFORE} before, {AFTER} after;" in line
    # the team has no webhook: the JSON it would have been sent is kept with the delivery
    (told,) = WebhookDelivery.objects.get().payload["alerts"]
    assert (told["before"], told["after"], told["unit"]) == (BEFORE, AFTER, "object ops/s")


def test_a_metadata_history_says_it_has_no_figure_at_20_ms_to_follow(engineer, lab, client):
    # mdtest's SUMMARY rates (mdtest/mdtest-3.4.0dev-daos-easy-write.txt) come with no response time
    system = SystemFactory(name="DAOS lab", team=lab, published=False)
    summary = sample("mdtest", "mdtest-3.4.0dev-daos-easy-write.txt").read_bytes()
    for copy, firmware in enumerate(("2.0.1", "2.2.0")):  # the same file again is a duplicate: one more line break
        store_file(stream=io.BytesIO(summary + b"\n" * copy), name=f"mdtest-{copy}.txt", system=system,
                   labels={"firmware": firmware}, uploader=engineer)  # fmt: skip
    client.force_login(engineer)
    listed = text(client.get(f"/systems/{system.id}/history/"))
    assert (
        "File creation (no throughput at 20 ms nor response time to follow: its runs measured no response time) 2 0"
        in listed
    )
    run = system.configs.get().runs.filter(workload_name="File creation").first()
    series = f"workload:{run.workload_id}" if run.workload_id else f"name:{run.workload_name}"
    answer = client.get(f"/systems/{system.id}/history/", {"config": run.config_id, "series": series})
    assert answer.status_code == 404
    assert (
        "DAOS lab, RAID level not stated: File creation has no throughput at 20 ms to follow across versions: its"
        " runs measured metadata operations per second with no response time." in text(answer)
    )
