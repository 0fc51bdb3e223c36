"""Alert notifications: told once per change of state with the alert's figures as they are, retried with
a doubling pause until a deadline, and sent only to public addresses (checked when the hook is saved and
again, after resolving its name, when it is sent). Every request goes to a server of this test on the
loopback, allowed through WEBHOOK_ALLOWED_NETWORKS; names resolve through the resolver seam, since
no DNS answers here."""

import json
import threading
import uuid
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import Client
from django.utils import timezone

from portal.history import notifications, webhooks
from portal.models import Alert, AlertNotice, AlertSummary, Role, TeamWebhook, WebhookDelivery
from tests.conftest import team_member
from tests.factories import ConfigFactory, SystemFactory

LOOPBACK = ["127.0.0.1/32"]


class Endpoint(BaseHTTPRequestHandler):
    """A webhook answering each POST with the next status of ``statuses`` (204 once they run out)."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append({"headers": dict(self.headers), "json": json.loads(body)})
        status = self.server.statuses.pop(0) if self.server.statuses else 204
        self.send_response(status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    server.received, server.statuses = [], []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def admin(lab, django_user_model):
    user = django_user_model.objects.create_user("lead", password="disk-arrays-42")
    team_member(user, role=Role.ADMIN)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alert(lab):
    """A throughput step of -20 % at 07.30.12.00 on a private system of the lab."""
    config = ConfigFactory(system=SystemFactory(name="IBM DS5020", team=lab, published=False))
    summary = AlertSummary.objects.create(system=config.system, version="07.30.12.00")
    return Alert.objects.create(
        summary=summary, system=config.system, config=config, workload_name="OLTP 8K", series="name:OLTP 8K",
        metric="iops", version="07.30.12.00", previous_version="07.15.07.00", before_mean=10103.0,
        after_mean=8082.0, change_pct=-20.0, p_value=0.0002, tentative=True,
    )  # fmt: skip


def _deliver(alert):
    """What the tasks do, here: gather the summary's changes into a delivery and make its attempts
    (without the pauses between them), until none is left to make; returns the delivery."""
    delivery = notifications.summary_notify(summary_id=alert.summary_id)
    while delivery is not None and notifications.delivery_attempt(delivery_id=delivery.id) is not None:
        pass
    return delivery


def test_the_same_change_told_twice_is_posted_once_with_its_idempotency_key(alert, lab, endpoint, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    TeamWebhook.objects.create(team=lab, url=f"http://127.0.0.1:{endpoint.server_port}/hooks/arraybench")
    notifications.alert_changed(alert.id, "new")
    notifications.alert_changed(alert.id, "new")  # detection run again, or its task delivered twice
    delivery = _deliver(alert)
    assert notifications.summary_notify(summary_id=alert.summary_id) is None
    # The delivery's task run again (a redelivered message) finds it acknowledged: nothing is posted.
    assert notifications.delivery_attempt(delivery_id=delivery.id) is None
    (posted,) = endpoint.received
    key = posted["json"]["idempotency_key"]
    assert uuid.UUID(key) == WebhookDelivery.objects.get().key
    assert posted["headers"]["Idempotency-Key"] == key
    assert posted["json"]["text"] == "IBM DS5020, changes from 07.30.12.00: 1 new"
    (told,) = posted["json"]["alerts"]
    assert (told["state"], told["before"], told["after"], told["change"]) == (
        "new",
        "10,103 IOPS",
        "8,082 IOPS",
        "-20.0 %",
    )
    summary = AlertSummary.objects.get(id=alert.summary_id)
    assert (summary.delivery, summary.delivery_attempts) == (AlertSummary.Delivery.SENT, 1)


def test_an_update_is_posted_once_with_the_alerts_new_figures(alert, lab, endpoint, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    TeamWebhook.objects.create(team=lab, url=f"http://127.0.0.1:{endpoint.server_port}/hook")
    notifications.alert_changed(alert.id, "new")
    _deliver(alert)
    # A third replicate stored: the step is measured at -21.3 % now.
    Alert.objects.filter(id=alert.id).update(after_mean=7951.0, change_pct=-21.3)
    notifications.alert_changed(alert.id, "updated")
    notifications.alert_changed(alert.id, "updated")
    _deliver(alert)
    assert [post["json"]["alerts"][0]["state"] for post in endpoint.received] == ["new", "updated"]
    updated = endpoint.received[1]["json"]["alerts"][0]
    assert (updated["after"], updated["change"]) == ("7,951 IOPS", "-21.3 %")
    assert len({post["json"]["idempotency_key"] for post in endpoint.received}) == 2


def test_an_alert_withdrawn_then_found_again_is_told_each_time(alert, lab, endpoint, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    TeamWebhook.objects.create(team=lab, url=f"http://127.0.0.1:{endpoint.server_port}/hook")
    for state in ("new", "withdrawn", "withdrawn", "new"):
        notifications.alert_changed(alert.id, state)
        _deliver(alert)
    assert [post["json"]["alerts"][0]["state"] for post in endpoint.received] == ["new", "withdrawn", "new"]
    assert endpoint.received[1]["json"]["text"] == "IBM DS5020, changes from 07.30.12.00: 1 withdrawn"


def test_a_failed_post_is_tried_again_after_a_doubling_pause_with_the_same_key(alert, lab, endpoint, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    settings.WEBHOOK_BACKOFF_SECONDS = 0.5
    TeamWebhook.objects.create(team=lab, url=f"http://127.0.0.1:{endpoint.server_port}/hook")
    endpoint.statuses = [503, 500]
    notifications.alert_changed(alert.id, "new")
    delivery = notifications.summary_notify(summary_id=alert.summary_id)
    assert notifications.delivery_attempt(delivery_id=delivery.id) == 0.5
    assert WebhookDelivery.objects.get().error == "the webhook answered HTTP 503"
    assert notifications.delivery_attempt(delivery_id=delivery.id) == 1.0
    assert notifications.delivery_attempt(delivery_id=delivery.id) is None
    assert len({post["json"]["idempotency_key"] for post in endpoint.received}) == 1
    assert len(endpoint.received) == 3
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.error) == (WebhookDelivery.Status.SENT, 3, "")


def test_an_unreachable_webhook_is_given_up_at_its_deadline_and_shown_on_the_team_pages(alert, lab, engineer, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    settings.WEBHOOK_BACKOFF_SECONDS = 0.4
    settings.WEBHOOK_DEADLINE_SECONDS = 2
    TeamWebhook.objects.create(team=lab, url="http://127.0.0.1:9/unreachable")
    notifications.alert_changed(alert.id, "new")
    delivery = notifications.summary_notify(summary_id=alert.summary_id)
    pauses = []
    while (pause_s := notifications.delivery_attempt(delivery_id=delivery.id)) is not None:
        pauses.append(pause_s)
        threading.Event().wait(pause_s)
    # Tried at 0, 0.4 and 1.2 s; a pause of 1.6 s more would end after the 2 s deadline.
    assert pauses == [0.4, 0.8]
    summary = AlertSummary.objects.get(id=alert.summary_id)
    assert (summary.delivery, summary.delivery_attempts) == (AlertSummary.Delivery.FAILED, 3)
    assert summary.delivery_error.startswith("the webhook could not be reached")
    assert summary.delivery_error.endswith("given up after 3 attempts, at its deadline")
    client = Client()
    client.force_login(engineer)
    assert "1 alert summary not delivered to the webhook" in client.get("/teams/engineering-lab/").content.decode()
    page = client.get("/teams/engineering-lab/alerts/").content.decode()
    assert "IBM DS5020, changes from 07.30.12.00: the webhook could not be reached" in page


def test_a_team_without_a_webhook_has_its_changes_recorded_as_told_to_none(alert):
    notifications.alert_changed(alert.id, "new")
    notifications.alert_changed(alert.id, "new")
    (delivery,) = WebhookDelivery.objects.all()
    assert (delivery.status, delivery.url) == (WebhookDelivery.Status.NONE, "")
    assert AlertNotice.objects.get().delivery == delivery
    assert AlertSummary.objects.get(id=alert.summary_id).delivery == AlertSummary.Delivery.NONE


def test_an_unknown_state_is_refused(alert):
    with pytest.raises(ValueError, match="an alert's state is one of new, updated, confirmed, withdrawn"):
        notifications.alert_changed(alert.id, "reopened")


REFUSED = [
    ("http://127.0.0.1:8000/hook", "127.0.0.1 is a loopback address"),
    ("http://127.45.6.7/hook", "127.45.6.7 is a loopback address"),
    ("http://[::1]:8000/hook", "::1 is a loopback address"),
    ("http://[::ffff:127.0.0.1]/hook", "::ffff:127.0.0.1 is a loopback address"),
    ("http://localhost:8000/hook", "localhost resolves to 127.0.0.1, a loopback address"),
    ("https://hooks.localhost/hook", "hooks.localhost resolves to 127.0.0.1, a loopback address"),
    ("http://10.0.0.1/hook", "10.0.0.1 is a private address"),
    ("http://172.16.5.4/hook", "172.16.5.4 is a private address"),
    ("http://172.31.255.254/hook", "172.31.255.254 is a private address"),
    ("http://192.168.1.10/hook", "192.168.1.10 is a private address"),
    ("http://[fd12:3456::1]/hook", "fd12:3456::1 is a private address"),
    ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
    ("http://169.254.1.1/hook", "169.254.1.1 is a link-local address"),
    ("http://[fe80::1]/hook", "fe80::1 is a link-local address"),
    ("http://224.0.0.1/hook", "224.0.0.1 is a multicast address"),
    ("http://239.255.255.250/hook", "239.255.255.250 is a multicast address"),
    ("http://[ff02::1]/hook", "ff02::1 is a multicast address"),
    ("http://0.0.0.0:8000/hook", "0.0.0.0 is an unspecified address"),
    ("http://[::]/hook", ":: is an unspecified address"),
    ("http://240.0.0.1/hook", "240.0.0.1 is a reserved address"),
    ("http://100.64.0.1/hook", "100.64.0.1 is a reserved address"),  # carrier-grade NAT, not public
    ("https://hooks.example.org/hook", "hooks.example.org resolves to 10.0.0.1, a private address"),
]


@pytest.mark.parametrize(("url", "kind"), REFUSED)
def test_a_webhook_to_an_internal_address_is_refused_when_saved(url, kind, admin, lab, monkeypatch):
    monkeypatch.setattr(webhooks, "resolve", lambda host, port: {"hooks.example.org": ["10.0.0.1"]}[host])
    answer = admin.post("/teams/engineering-lab/webhook", {"url": url})
    assert answer.status_code == 400
    assert f"Webhooks go to public addresses only: {kind}." in answer.content.decode()
    assert not TeamWebhook.objects.filter(team=lab).exists()


def test_a_public_address_is_saved_and_a_lab_network_once_allowed(admin, lab, settings, monkeypatch):
    monkeypatch.setattr(webhooks, "resolve", lambda host, port: {"chat.example.com": ["93.184.215.14"]}[host])
    admin.post("/teams/engineering-lab/webhook", {"url": "https://chat.example.com/hook"})
    assert TeamWebhook.objects.get(team=lab).url == "https://chat.example.com/hook"
    assert admin.post("/teams/engineering-lab/webhook", {"url": "http://10.20.0.15/hook"}).status_code == 400
    settings.WEBHOOK_ALLOWED_NETWORKS = ["10.20.0.0/16"]
    admin.post("/teams/engineering-lab/webhook", {"url": "http://10.20.0.15/hook"})
    assert TeamWebhook.objects.get(team=lab).url == "http://10.20.0.15/hook"


def test_a_name_that_resolves_inward_by_the_time_it_is_sent_is_refused_unsent(alert, lab, admin, monkeypatch):
    addresses = {"hooks.example.org": ["93.184.215.14"]}
    monkeypatch.setattr(webhooks, "resolve", lambda host, port: addresses[host])
    admin.post("/teams/engineering-lab/webhook", {"url": "https://hooks.example.org/arraybench"})
    assert TeamWebhook.objects.filter(team=lab).exists()
    addresses["hooks.example.org"] = ["93.184.215.14", "10.0.0.1"]  # rebound: one answer points inward
    notifications.alert_changed(alert.id, "new")
    delivery = _deliver(alert)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (WebhookDelivery.Status.REFUSED, 1)
    assert delivery.error.startswith("Webhooks go to public addresses only: hooks.example.org resolves to 10.0.0.1")


def test_an_internal_webhook_stored_before_the_rule_is_refused_when_sent(alert, lab, endpoint):
    """A listening server on the loopback, not allowed: it receives nothing."""
    TeamWebhook.objects.create(team=lab, url=f"http://localhost:{endpoint.server_port}/hook")
    notifications.alert_changed(alert.id, "new")
    delivery = _deliver(alert)
    delivery.refresh_from_db()
    assert delivery.status == WebhookDelivery.Status.REFUSED
    assert endpoint.received == []
    assert AlertSummary.objects.get(id=alert.summary_id).delivery == AlertSummary.Delivery.FAILED


def test_the_post_goes_to_the_checked_address_with_the_hooks_name(alert, lab, endpoint, settings, monkeypatch):
    """The name resolved once, checked, connected to; the request still names the host."""
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    resolved = []
    monkeypatch.setattr(webhooks, "resolve", lambda host, port: resolved.append(host) or ["127.0.0.1"])
    TeamWebhook.objects.create(team=lab, url=f"http://hooks.lab.example:{endpoint.server_port}/hook?room=7")
    notifications.alert_changed(alert.id, "new")
    _deliver(alert)
    (posted,) = endpoint.received
    assert posted["headers"]["Host"] == f"hooks.lab.example:{endpoint.server_port}"
    assert resolved == ["hooks.lab.example"]


def test_recovery_sends_again_the_deliveries_whose_task_was_lost(alert, lab, settings):
    settings.WEBHOOK_ATTEMPT_SECONDS = 5  # a claim lasts 15 s
    TeamWebhook.objects.create(team=lab, url="https://hooks.example.org/hook")
    notifications.alert_changed(alert.id, "new")
    waiting = notifications.summary_notify(summary_id=alert.summary_id)
    assert notifications.deliveries_recover() == []  # due now: its task is on its way
    now = timezone.now()
    WebhookDelivery.objects.filter(id=waiting.id).update(next_attempt_at=now - timedelta(seconds=16))
    killed = WebhookDelivery.objects.create(
        summary=waiting.summary, key=uuid.uuid4(), url=waiting.url, payload={}, deadline_at=now + timedelta(hours=1),
        status=WebhookDelivery.Status.SENDING, sending_since=now - timedelta(seconds=16),
        next_attempt_at=now - timedelta(seconds=30),
    )  # fmt: skip
    sending = WebhookDelivery.objects.create(
        summary=waiting.summary, key=uuid.uuid4(), url=waiting.url, payload={}, deadline_at=now + timedelta(hours=1),
        status=WebhookDelivery.Status.SENDING, sending_since=now - timedelta(seconds=3),
        next_attempt_at=now - timedelta(seconds=30),
    )  # fmt: skip
    assert notifications.deliveries_recover() == [waiting.id, killed.id]
    assert sending.id not in notifications.deliveries_recover()  # and the others not again so soon


def test_recovery_gathers_the_changes_no_task_was_queued_for(alert, lab):
    TeamWebhook.objects.create(team=lab, url="https://hooks.example.org/hook")
    notifications.alert_changed(alert.id, "new")  # its task never queued (the broker was down)
    notifications.deliveries_recover()
    assert not WebhookDelivery.objects.exists()  # a moment: the task may still come
    AlertNotice.objects.update(created_at=timezone.now() - timedelta(minutes=1))
    notifications.deliveries_recover()
    delivery = WebhookDelivery.objects.get()
    assert [notice.state for notice in delivery.notices.all()] == ["new"]
    assert delivery.status == WebhookDelivery.Status.PENDING


def test_a_network_the_portal_cannot_read_stops_it_at_start():
    import os
    import subprocess
    import sys

    from tests.samples import REPO

    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "WEBHOOK_ALLOWED_NETWORKS": "10.20.0.0/16, 10.300.0.0/16"},
    )  # fmt: skip
    assert result.returncode != 0
    assert "WEBHOOK_ALLOWED_NETWORKS: '10.300.0.0/16' does not appear to be an IPv4 or IPv6 network" in result.stderr


@pytest.fixture
def tls_endpoint(tmp_path, monkeypatch):
    """An https endpoint for hooks.lab.example on the loopback, its certificate signed by a CA of the
    test (made by the openssl command), which the portal is told to trust."""
    import ssl
    import subprocess

    def openssl(*args):
        subprocess.run(["openssl", *args], cwd=tmp_path, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1",
            "-subj", "/CN=ArrayBench test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign")  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj",
            "/CN=hooks.lab.example")  # fmt: skip
    (tmp_path / "leaf.ext").write_text("subjectAltName=DNS:hooks.lab.example\n")
    openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "leaf.pem", "-days", "1", "-extfile", "leaf.ext")  # fmt: skip
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "leaf.pem", tmp_path / "leaf.key")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.received, server.statuses = [], []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("host", ["hooks.lab.example", "other.lab.example"])
def test_tls_is_verified_for_the_hooks_name_at_its_checked_address(
    host, alert, lab, tls_endpoint, settings, monkeypatch
):
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    monkeypatch.setattr(webhooks, "resolve", lambda name, port: ["127.0.0.1"])
    TeamWebhook.objects.create(team=lab, url=f"https://{host}:{tls_endpoint.server_port}/hook")
    notifications.alert_changed(alert.id, "new")
    delivery = _deliver(alert)
    delivery.refresh_from_db()
    if host == "hooks.lab.example":  # the name the certificate is for
        assert (delivery.status, len(tls_endpoint.received)) == (WebhookDelivery.Status.SENT, 1)
        assert tls_endpoint.received[0]["headers"]["Host"] == f"hooks.lab.example:{tls_endpoint.server_port}"
    else:
        assert delivery.status == WebhookDelivery.Status.FAILED
        assert "certificate verify failed: Hostname mismatch" in delivery.error
        assert tls_endpoint.received == []


def test_a_delivery_goes_where_the_hook_points_when_sent(alert, lab, endpoint, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = LOOPBACK
    TeamWebhook.objects.create(team=lab, url="http://127.0.0.1:9/old")
    notifications.alert_changed(alert.id, "new")
    delivery = notifications.summary_notify(summary_id=alert.summary_id)
    TeamWebhook.objects.filter(team=lab).update(url=f"http://127.0.0.1:{endpoint.server_port}/new")
    assert notifications.delivery_attempt(delivery_id=delivery.id) is None
    assert len(endpoint.received) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.url) == (
        WebhookDelivery.Status.SENT,
        f"http://127.0.0.1:{endpoint.server_port}/new",
    )
    Alert.objects.filter(id=alert.id).update(change_pct=-21.3)
    notifications.alert_changed(alert.id, "updated")
    removed = notifications.summary_notify(summary_id=alert.summary_id)
    TeamWebhook.objects.filter(team=lab).delete()
    assert notifications.delivery_attempt(delivery_id=removed.id) is None
    removed.refresh_from_db()
    assert (removed.status, removed.error) == (
        WebhookDelivery.Status.FAILED,
        "the webhook was removed before it was sent",
    )
    assert len(endpoint.received) == 1
