"""The whole story of a firmware regression through the API and a real Celery worker: four firmware versions
of one array pushed as a lab script does, the step at the third found with no other action, the webhook told of each
change of the alert once, with its figures as they were then."""

import pytest

from portal.models import Alert, TeamWebhook, WebhookDelivery
from tests.api.conftest import follow, throttle_counters, token, worker  # noqa: F401 (fixtures)
from tests.conftest import wait_until
from tests.factories import SystemFactory

from .conftest import REPLICATES, fio_file
from .test_alert_life_worker import _idle
from .test_firmware_history import VERSIONS, webhook_server  # noqa: F401 (fixture)


@pytest.fixture
def api(token):  # noqa: F811
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.mark.worker
def test_four_firmware_versions_pushed_through_the_api_raise_one_alert_told_once_per_change(
    api,
    worker,  # noqa: F811
    lab,
    celery_workers,
    webhook_server,  # noqa: F811
):
    celery_workers.start(name="webhooks", queue=celery_workers.webhook_queue, WEBHOOK_ALLOWED_NETWORKS="127.0.0.1/32")
    url, received = webhook_server
    TeamWebhook.objects.create(team=lab, url=url)
    system = SystemFactory(name="IBM DS5020", team=lab, published=False)
    for day, (firmware, level) in enumerate(zip(VERSIONS, (1.0, 1.0, 0.8, 0.8), strict=True)):
        files = []
        for number, noise in enumerate(REPLICATES, start=1):
            stream = fio_file(level * noise, hours_later=day * 24 + number)
            stream.name = f"randread-{firmware}-{number}.json"
            files.append(stream)
        answer = api.post(
            "/api/v1/uploads/",
            {"files": files, "system": "IBM DS5020", "firmware": firmware, "raid_level": "RAID-5", "drive_count": "16"},
        )
        assert answer.status_code == 202, answer.content
        rows = follow(api, [row["id"] for row in answer.json()["uploads"]], seconds=120)
        assert {row["status"] for row in rows.values()} == {"done"}
    # Detection runs once an upload is done: wait for the worker to be idle before reading the alert.
    wait_until(lambda: _idle(worker), seconds=60, interval=0.5)
    (alert,) = Alert.objects.filter(system=system)
    assert (alert.version, alert.status, round(alert.change_pct)) == ("07.30.12.00", "untriaged", -20)
    wait_until(lambda: not WebhookDelivery.objects.exclude(status=WebhookDelivery.Status.SENT).exists(), seconds=30)
    told = [post["alerts"] for post in received]
    assert len(told) == WebhookDelivery.objects.count() >= 1
    assert all(len(alerts) == 1 and alerts[0]["id"] == alert.id for alerts in told)
    states = [alerts[0]["state"] for alerts in told]
    assert states[0] == "new" and set(states[1:]) <= {"updated", "confirmed"}, states
    # Each post a change: never the same figures twice.
    names = ("before_mean", "after_mean", "change_pct", "p_value", "tentative")
    figures = [tuple(alerts[0][name] for name in names) for alerts in told]
    assert len(set(figures)) == len(figures), figures
    # A refresh of the alert's figures smaller than a percentage point is not told again: the last post is
    # within that of the alert as stored, its mean before the step the same (the versions before did not move).
    assert abs(figures[-1][2] - alert.change_pct) < 1.0, (figures[-1], alert.change_pct)
    assert figures[-1][0] == pytest.approx(alert.before_mean) and figures[-1][4] == alert.tentative
    assert len({post["idempotency_key"] for post in received}) == len(received)
    listed = api.get("/api/v1/alerts/", {"status": "untriaged", "system": "IBM DS5020"}).json()["results"]
    assert [row["version"] for row in listed] == ["07.30.12.00"]
