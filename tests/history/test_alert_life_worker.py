"""An alert's life as a lab lives it: nine firmware versions pushed one by one through the API and stored by
a real prefork worker; a one-version blip is alerted and withdrawn by the next version, a step is alerted
at its own version, updated by the version after it and confirmed by the one after that."""

import pytest
from django.test import Client

from portal.models import Alert, AlertRevision, TeamWebhook, WebhookDelivery
from tests.api.conftest import follow, throttle_counters, token, worker  # noqa: F401 (fixtures)
from tests.conftest import wait_until
from tests.factories import SystemFactory

from .conftest import SAMPLE_IOPS, fio_file
from .test_firmware_history import webhook_server  # noqa: F401 (fixture)

VERSIONS = ("3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9")
# Each version's level (times the sample's IOPS): a blip at 3.3, a step at 3.7 that deepens at 3.8.
LEVELS = (1.0, 1.0, 0.8, 1.0, 1.0, 1.0, 0.85, 0.78, 0.8)
# Each version's three runs: 3 % run-to-run noise (sample standard deviation 3 % of the level).
RUNS = (1.0, 1.03, 0.97)


@pytest.fixture
def api(token):  # noqa: F811
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _idle(app):
    """Whether this test's workers have no task running nor waiting (detection runs after an upload is marked
    done); workers of other tests on the same broker (another pytest-xdist process) are not asked about."""
    inspect = app.control.inspect(timeout=1)
    queue = app.conf.task_default_queue
    found = [*(inspect.active() or {}).items(), *(inspect.reserved() or {}).items()]
    return not any(tasks for hostname, tasks in found if f".{queue}" in hostname)


def _push(api, app, firmware, level, day):
    files = []
    for number, factor in enumerate(RUNS, start=1):
        stream = fio_file(level * factor, hours_later=day * 24 + number)
        stream.name = f"randread-{firmware}-{number}.json"
        files.append(stream)
    answer = api.post(
        "/api/v1/uploads/",
        {"files": files, "system": "IBM DS5020", "firmware": firmware, "raid_level": "RAID-5", "drive_count": "16"},
    )
    assert answer.status_code == 202, answer.content
    rows = follow(api, [row["id"] for row in answer.json()["uploads"]], seconds=120)
    assert {row["status"] for row in rows.values()} == {"done"}
    wait_until(lambda: _idle(app), seconds=60, interval=0.5)


def _alerts(api):
    rows = api.get("/api/v1/alerts/", {"system": "IBM DS5020"}).json()["results"]
    return sorted((row["version"], row["state"], row["change"]) for row in rows)


@pytest.mark.worker
def test_a_blip_is_withdrawn_and_a_step_is_alerted_updated_and_confirmed_as_versions_arrive(
    api,
    worker,  # noqa: F811
    engineer,
    lab,
    webhook_server,  # noqa: F811
    celery_workers,
):
    celery_workers.start(name="webhooks", queue=celery_workers.webhook_queue, WEBHOOK_ALLOWED_NETWORKS="127.0.0.1/32")
    url, received = webhook_server
    TeamWebhook.objects.create(team=lab, url=url)
    SystemFactory(name="IBM DS5020", team=lab, published=False)
    seen = []
    for day, (firmware, level) in enumerate(zip(VERSIONS, LEVELS, strict=True)):
        _push(api, worker, firmware, level, day)
        seen.append(_alerts(api))

    assert seen[:2] == [[], []]
    # 3.3 at 0.8: 20 % under two versions at 1.0, with the 3 % noise pooled over three versions.
    assert seen[2] == [("3.3", "new", "-20.0 %")]
    # 3.4 back at 1.0: the level of 3.3 is not the level after it; withdrawn, still listed.
    assert seen[3] == seen[4] == seen[5] == [("3.3", "withdrawn", "-20.0 %")]
    # 3.7 at 0.85 against the six versions before it (5.8 / 6 = 0.967 of the sample): -12.1 %.
    assert seen[6] == [("3.3", "withdrawn", "-20.0 %"), ("3.7", "new", "-12.1 %")]
    # 3.8 at 0.78: the level from 3.7 on is 0.815, -15.7 %: still the step of 3.7, its size told again.
    assert seen[7] == [("3.3", "withdrawn", "-20.0 %"), ("3.7", "updated", "-15.7 %")]
    # 3.9 at 0.8: three versions stand after the step (0.81 of the sample against 0.967, -16.2 %).
    assert seen[8] == [("3.3", "withdrawn", "-20.0 %"), ("3.7", "confirmed", "-16.2 %")]

    step = Alert.objects.get(version="3.7")
    assert (step.previous_version, step.kind, step.tentative) == ("3.6", "step", False)
    assert round(step.after_mean) == round(SAMPLE_IOPS * (0.85 + 0.78 + 0.8) / 3)
    states = list(AlertRevision.objects.filter(alert=step).values_list("state", "newest_version"))
    assert [state for state, _ in states][-2:] == ["updated", "confirmed"]
    assert states[-1] == ("confirmed", "3.9")
    blip = Alert.objects.get(version="3.3")
    assert list(blip.revisions.values_list("state", "newest_version")) == [("new", "3.3"), ("withdrawn", "3.4")]
    # Each state the team was told of reached the webhook: the blip's new and withdrawn, the step's new,
    # update and confirmation (each with the alerts of its version's summary).
    wait_until(lambda: not WebhookDelivery.objects.exclude(status=WebhookDelivery.Status.SENT).exists(), seconds=30)
    told = [(alert["version"], alert["status"]) for body in received for alert in body["alerts"]]
    assert told.count(("3.3", "untriaged")) == AlertRevision.objects.filter(alert=blip).count() == 2
    assert told.count(("3.7", "untriaged")) == AlertRevision.objects.filter(alert=step).count()
    # The withdrawn blip needs nobody's triage: the step only.
    assert api.get("/api/v1/alerts/", {"system": "IBM DS5020", "status": "untriaged"}).json()["count"] == 1
    # The pages: the system page counts the step only (a withdrawn alert needs no triage); the series'
    # page lists the withdrawn blip as such and what was told of the step, version by version. 9,766 IOPS
    # is the mean of the runs of 3.1 to 3.6 (5 x 10,103 + 8,082) / 6; 8,183 that of 3.7 to 3.9.
    client = Client()
    client.force_login(engineer)
    system_page = client.get(f"/systems/{step.system_id}/").content.decode()
    assert "1 untriaged alert</a>" in system_page
    query = {"config": step.config_id, "series": step.series}
    series_page = client.get(f"/systems/{step.system_id}/history/", query).content.decode()
    assert "Step -20.0 % from 3.3 (p &lt; 0.0001, tentative, withdrawn) · Untriaged" in series_page
    assert "<li>Withdrawn once 3.4 was stored: -20.0 % from 3.3 (p &lt; 0.0001)</li>" in series_page
    assert "<strong>-16.2 %</strong> (9,766 IOPS before, 8,183 IOPS from 3.7; p &lt; 0.0001) · confirmed" in series_page
    assert f"As told ({len(states)} times)" in series_page
    # What was told depends on which of a version's runs the worker stored first: the states and versions.
    assert "<li>Updated once 3.8 was stored: -1" in series_page
    assert "<li>Confirmed once 3.9 was stored: -1" in series_page
