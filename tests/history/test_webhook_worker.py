"""A webhook that drips its answer (one byte every 4 s) delays no upload: the notification tasks run on a
queue of their own, in a worker of their own, each attempt cut at WEBHOOK_ATTEMPT_SECONDS and given up
at WEBHOOK_DEADLINE_SECONDS; a delivery whose worker is killed is made by another. Real prefork workers,
uploads through the API; the endpoints listen on the loopback, allowed through WEBHOOK_ALLOWED_NETWORKS."""

import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from portal.history.services import webhook_set
from portal.models import TeamWebhook, WebhookDelivery
from tests.api.conftest import follow, throttle_counters, token  # noqa: F401 (fixtures)
from tests.conftest import wait_until
from tests.factories import SystemFactory

from .conftest import REPLICATES, fio_file

pytestmark = pytest.mark.worker

DRIP_S = 4
WEBHOOK_ENV = {
    "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.1/32",
    "WEBHOOK_ATTEMPT_SECONDS": "5",
    "WEBHOOK_BACKOFF_SECONDS": "1",
    "WEBHOOK_DEADLINE_SECONDS": "15",
}


class Dripping(BaseHTTPRequestHandler):
    """Reads the POST, then answers one byte every DRIP_S seconds, for as long as the client listens."""

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.posts.append((self.headers["Idempotency-Key"], time.monotonic()))
        answer = b"HTTP/1.1 204 No Content\r\n" + b"X-Slow: " + b"." * 1000 + b"\r\n\r\n"
        for byte in answer:
            if self.server.stopping.wait(DRIP_S):
                return
            try:
                self.wfile.write(bytes([byte]))
            except OSError:  # the client gave up
                return

    def log_message(self, *args):
        pass


@pytest.fixture
def dripping():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Dripping)
    server.daemon_threads = True
    server.posts, server.stopping = [], threading.Event()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.stopping.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def api(token):  # noqa: F811
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _upload(api, firmware, level, day):
    """Three replicates of the fio suite under ``firmware`` through the API; seconds until all are stored."""
    files = []
    for number, noise in enumerate(REPLICATES, start=1):
        stream = fio_file(level * noise, hours_later=day * 24 + number)
        stream.name = f"randread-{firmware}-{number}.json"
        files.append(stream)
    started = time.monotonic()
    answer = api.post(
        "/api/v1/uploads/",
        {"files": files, "system": "IBM DS5020", "firmware": firmware, "raid_level": "RAID-5", "drive_count": "16"},
    )
    assert answer.status_code == 202, answer.content
    rows = follow(api, [row["id"] for row in answer.json()["uploads"]], seconds=120)
    assert {row["status"] for row in rows.values()} == {"done"}
    return time.monotonic() - started


def test_a_dripping_webhook_delays_no_upload_and_is_given_up_at_its_deadline(
    data_dir, celery_workers, api, engineer, lab, dripping, settings
):
    celery_workers.start(**WEBHOOK_ENV)
    celery_workers.start(name="webhooks", queue=celery_workers.webhook_queue, **WEBHOOK_ENV)
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    webhook_set(team=lab, url=f"http://127.0.0.1:{dripping.server_port}/hook", actor=engineer)
    SystemFactory(name="IBM DS5020", team=lab, published=False)
    _upload(api, "07.10.25.00", 1.0, day=0)
    baseline_s = _upload(api, "07.15.07.00", 1.0, day=1)  # the same level: no alert, nothing to tell
    assert dripping.posts == [] and not WebhookDelivery.objects.exists()
    step_s = _upload(api, "07.30.12.00", 0.8, day=2)  # a -20 % step: an alert, told to the dripping hook
    wait_until(lambda: dripping.posts, seconds=10)
    next_s = _upload(api, "07.35.02.00", 0.8, day=3)  # while the hook drips to the notification worker
    # Told by the ingest worker itself, each upload waited for the endpoint: 143.6 s instead of 0.6 s.
    for upload_s in (step_s, next_s):
        assert upload_s < min(baseline_s + 4, 10), (baseline_s, step_s, next_s)

    def finished():
        deliveries = list(WebhookDelivery.objects.order_by("id"))
        return deliveries if all(d.status == WebhookDelivery.Status.FAILED for d in deliveries) else None

    deliveries = wait_until(finished, seconds=60, interval=0.5)
    for delivery in deliveries:
        # The last attempt is cut at the deadline: what is left of it.
        given_up = f"given up after {delivery.attempts} attempts, at its deadline"
        assert re.fullmatch(rf"the webhook did not answer within [0-9.]+ s; {given_up}", delivery.error), delivery.error
        tries = [at for key, at in dripping.posts if key == str(delivery.key)]
        assert len(tries) == delivery.attempts >= 2
        # Each attempt cut at 5 s, then a pause of 1 s, 2 s...: all within the 15 s deadline.
        assert all(later - earlier >= 5 + 1 for earlier, later in zip(tries, tries[1:], strict=False))
        assert tries[-1] - tries[0] < 15
    assert deliveries[0].payload["alerts"][0]["state"] == "new"


class Hanging(BaseHTTPRequestHandler):
    """The first POST is never answered (the endpoint hangs); later ones are answered 204 at once."""

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.posts.append(self.headers["Idempotency-Key"])
        if len(self.server.posts) == 1:
            self.server.stopping.wait(60)
            return
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_delivery_whose_worker_is_killed_mid_attempt_is_made_by_another_once(celery_workers, lab):
    from portal.history import notifications
    from portal.models import Alert, AlertSummary
    from tests.factories import ConfigFactory

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hanging)
    server.daemon_threads = True
    server.posts, server.stopping = [], threading.Event()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # A claim lasts 3 + 10 s; every worker looks for lost deliveries every second.
    env = {**WEBHOOK_ENV, "WEBHOOK_ATTEMPT_SECONDS": "3", "INGEST_RECOVER_SECONDS": "1"}
    try:
        first = celery_workers.start(name="webhooks", queue=celery_workers.webhook_queue, **env)
        TeamWebhook.objects.create(team=lab, url=f"http://127.0.0.1:{server.server_port}/hook")
        config = ConfigFactory(system=SystemFactory(name="IBM DS5020", team=lab, published=False))
        summary = AlertSummary.objects.create(system=config.system, version="07.30.12.00")
        alert = Alert.objects.create(
            summary=summary, system=config.system, config=config, workload_name="OLTP 8K", series="name:OLTP 8K",
            metric="iops", version="07.30.12.00", previous_version="07.15.07.00", before_mean=10103.0,
            after_mean=8082.0, change_pct=-20.0, p_value=0.0002,
        )  # fmt: skip
        notifications.alert_changed(alert.id, "new")  # autocommit: its task is queued at once
        wait_until(lambda: server.posts, seconds=20)
        celery_workers.kill(first)  # SIGKILL while its attempt waits for an answer
        celery_workers.start(name="webhooks-2", queue=celery_workers.webhook_queue, **env)
        delivery = wait_until(
            lambda: WebhookDelivery.objects.filter(status=WebhookDelivery.Status.SENT).first(), seconds=40
        )
        assert delivery.attempts == 2
        assert server.posts == [str(delivery.key)] * 2  # the same key: a receiver that got both drops one
        time.sleep(3)  # recovery rounds after the acknowledgement send nothing more
        assert len(server.posts) == 2
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
