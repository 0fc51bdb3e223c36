"""Four firmware versions of one array uploaded with a step at the third: the change is found, alerted,
told to the team's webhook once, triaged, and a fifth version at the new level raises nothing."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from portal.history import notifications
from portal.history.services import changes_detect
from portal.models import Alert, AlertSummary, Run, TeamWebhook
from tests.factories import SystemFactory

from .conftest import SAMPLE_IOPS, upload_version

VERSIONS = ("07.10.25.00", "07.15.07.00", "07.30.12.00", "07.35.02.00")


class Receiver(BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Receiver.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def webhook_server():
    Receiver.received = []
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hooks/arraybench", Receiver.received
    server.shutdown()


@pytest.fixture
def history(engineer, lab, webhook_server, django_capture_on_commit_callbacks):
    """The DS5020 measured under four firmware versions; throughput 20 % lower from the third. The team is
    told of each alert once its transaction commits."""
    url, received = webhook_server
    TeamWebhook.objects.create(team=lab, url=url)
    system = SystemFactory(name="IBM DS5020", team=lab, published=False)
    with django_capture_on_commit_callbacks(execute=True):
        for day, (firmware, level) in enumerate(zip(VERSIONS, (1.0, 1.0, 0.8, 0.8), strict=True)):
            upload_version(system, firmware, level, engineer, day=day)
    return system, received


def test_firmware_is_a_label_of_the_runs_of_one_system(history):
    system, _ = history
    runs = Run.objects.filter(config__system=system)
    assert sorted(set(runs.values_list("firmware", flat=True))) == list(VERSIONS)
    assert runs.values("config").distinct().count() == 1
    assert runs.count() == 12


def test_the_step_is_an_untriaged_alert_at_the_third_version_told_once_with_its_figures(history, settings):
    system, received = history
    (alert,) = Alert.objects.filter(system=system)
    assert (alert.version, alert.previous_version, alert.status) == ("07.30.12.00", "07.15.07.00", "untriaged")
    assert round(alert.before_mean) == round(SAMPLE_IOPS)  # replicates 1.00, 1.01, 0.99 average to the sample
    assert round(alert.after_mean) == round(SAMPLE_IOPS * 0.8)
    assert round(alert.change_pct, 1) == -20.0
    assert alert.p_value < 0.001
    # What the notification tasks do once detection has told the change (twice: told once).
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    notifications.alert_changed(alert.id, "new")
    notifications.alert_changed(alert.id, "new")
    delivery = notifications.summary_notify(summary_id=alert.summary_id)
    assert notifications.delivery_attempt(delivery_id=delivery.id) is None
    assert notifications.delivery_attempt(delivery_id=delivery.id) is None
    assert len(received) == 1
    (sent,) = received[0]["alerts"]
    assert (received[0]["system"], received[0]["version"]) == ("IBM DS5020", "07.30.12.00")
    # Sent once the third version's three runs were stored (0.80, 0.808 and 0.792 times the sample's IOPS),
    # judged against the 1 % noise of the runs: a version is judged once it holds as many runs as most
    # versions before it. The figures are the alert's as stored then: 1.00, 1.01 and 0.99 times the
    # sample's IOPS before, 0.8 times that after.
    assert (sent["state"], sent["before"], sent["after"], sent["change"]) == (
        "new",
        "10,103 IOPS",
        "8,082 IOPS",
        "-20.0 %",
    )
    assert sent["tentative"] is True
    assert [(r.state, r.newest_version) for r in alert.revisions.all()] == [("new", "07.30.12.00")]
    assert AlertSummary.objects.get().delivery == AlertSummary.Delivery.SENT


def test_detecting_again_raises_nothing_new_and_tells_nothing(history, django_capture_on_commit_callbacks):
    system, received = history
    with django_capture_on_commit_callbacks() as told:
        assert changes_detect(configs=list(system.configs.all())) == []
    assert told == []
    assert Alert.objects.filter(system=system).count() == 1


def _client(user=None):
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_the_alert_is_listed_by_the_api_to_the_team_only(history, engineer, viewer):
    system, _ = history
    rows = _client(viewer).get("/api/v1/alerts/", {"status": "untriaged"}).json()["results"]
    assert [(row["system"], row["version"], row["change"], row["unit"]) for row in rows] == [
        ("IBM DS5020", "07.30.12.00", "-20.0 %", "IOPS")
    ]
    assert rows[0]["configuration"] == "RAID-5, 16 drives"
    assert _client().get("/api/v1/alerts/").json()["results"] == []
    assert _client().get("/api/v1/alerts/", {"colour": "red"}).status_code == 400


def test_a_withdrawn_alert_is_not_listed_as_untriaged(history, viewer):
    system, _ = history
    alert = Alert.objects.get(system=system)
    Alert.objects.filter(id=alert.id).update(state="withdrawn")
    assert _client(viewer).get("/api/v1/alerts/", {"status": "untriaged"}).json()["results"] == []
    # Still listed, as what it is: withdrawn, never triaged by anyone.
    rows = _client(viewer).get("/api/v1/alerts/").json()["results"]
    listed = [(row["version"], row["state"], row["status"]) for row in rows]
    assert listed == [("07.30.12.00", "withdrawn", "untriaged")]


def test_viewers_read_alerts_and_uploaders_triage_them(history, engineer, viewer):
    system, _ = history
    alert = Alert.objects.get(system=system)
    refused = _client(viewer).patch(f"/api/v1/alerts/{alert.id}/", {"status": "expected"}, format="json")
    assert refused.status_code == 403
    answer = _client(engineer).patch(f"/api/v1/alerts/{alert.id}/", {"status": "bogus"}, format="json")
    assert answer.status_code == 400
    answer = _client(engineer).patch(
        f"/api/v1/alerts/{alert.id}/", {"status": "expected", "note": "new write-cache policy"}, format="json"
    )
    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["status_by"]) == ("expected", "engineer")
    assert [(t.status, t.actor_name, t.note) for t in alert.triages.all()] == [
        ("expected", "engineer", "new write-cache policy")
    ]


def test_expected_clears_the_untriaged_list_and_a_fifth_version_at_the_new_level_raises_nothing(
    history, engineer, django_capture_on_commit_callbacks
):
    system, received = history
    alert = Alert.objects.get(system=system)
    _client(engineer).patch(f"/api/v1/alerts/{alert.id}/", {"status": "expected"}, format="json")
    assert _client(engineer).get("/api/v1/alerts/", {"status": "untriaged"}).json()["results"] == []

    with django_capture_on_commit_callbacks(execute=True):
        upload_version(system, "07.40.01.00", 0.8, engineer, day=4)

    assert Alert.objects.filter(system=system).count() == 1
    assert Run.objects.filter(config__system=system, firmware="07.40.01.00").count() == 3


def test_the_run_page_and_the_api_show_a_runs_firmware_and_when_it_was_measured(history, engineer):
    from django.test import Client

    system, _ = history
    run = Run.objects.filter(config__system=system, firmware="07.30.12.00").order_by("id").first()
    client = Client()
    client.force_login(engineer)
    page = client.get(f"/runs/{run.id}/").content.decode()
    assert "<dt>Firmware</dt><dd>07.30.12.00 · " in page
    # The fio file's own timestamp: the sample's, 2 days and 1 hour later (UTC).
    assert "<dt>Measured</dt><dd>2023-04-01 01:19 (as the file states)</dd>" in page
    assert _client(engineer).get(f"/api/v1/runs/{run.id}/").json()["firmware"] == "07.30.12.00"


def test_a_step_in_response_time_at_the_same_load_is_an_alert_of_its_own(engineer, lab):
    from django.test import Client

    system = SystemFactory(name="IBM DS5300", team=lab, published=False)
    # Throughput as the sample's; the mean latency 30 % longer from the third version.
    for day, (firmware, latency) in enumerate(zip(VERSIONS, (1.0, 1.0, 1.3, 1.3), strict=True)):
        upload_version(system, firmware, 1.0, engineer, day=day, latency=latency)
    alerts = Alert.objects.filter(system=system)
    assert [(a.figure, a.version, a.metric) for a in alerts] == [("response_at_load", "07.30.12.00", "ms")]
    (alert,) = alerts
    # 96,095.66 ns (the sample's mean latency) = 0.0961 ms; 1.3 times that = 0.125 ms.
    assert round(alert.change_pct, 1) == 30.0
    client = Client()
    client.force_login(engineer)
    page = client.get(
        f"/systems/{system.id}/history/", {"config": alert.config_id, "series": alert.series, "figure": alert.figure}
    ).content.decode()
    assert "FIOJOB, average response time at 1 outstanding I/O</h1>" in page
    assert "<strong>+30.0 %</strong> (0.0961 ms before, 0.125 ms from 07.30.12.00;" in page
    # The file's 99th percentile is not changed: followed, no change found.
    p99 = client.get(
        f"/systems/{system.id}/history/", {"config": alert.config_id, "series": alert.series, "figure": "p99_at_load"}
    ).content.decode()
    assert "FIOJOB, 99th percentile response time at 1 outstanding I/O</h1>" in p99
    assert "<strong>" not in p99.split("<tbody>")[1]


def test_a_summary_that_gains_an_alert_tells_that_alert_only(history, settings):
    system, received = history
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    first = Alert.objects.get(system=system)
    notifications.alert_changed(first.id, "new")
    notifications.delivery_attempt(delivery_id=notifications.summary_notify(summary_id=first.summary_id).id)
    second = Alert.objects.create(
        summary=first.summary, system=system, config=first.config, workload_name="OLTP 8K", series="name:OLTP 8K",
        metric="iops", version=first.version, previous_version=first.previous_version, before_mean=5000,
        after_mean=4500, change_pct=-10, p_value=0.0002,
    )  # fmt: skip
    notifications.alert_changed(second.id, "new")
    notifications.delivery_attempt(delivery_id=notifications.summary_notify(summary_id=first.summary_id).id)
    assert [[alert["workload"] for alert in post["alerts"]] for post in received] == [["FIOJOB"], ["OLTP 8K"]]
    assert received[1]["alerts"][0]["before"] == "5,000 IOPS"
    assert received[1]["text"] == "IBM DS5020, changes from 07.30.12.00: 1 new"
