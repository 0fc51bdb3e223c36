"""Whether the parts the portal depends on answer: database, broker, worker, and the webhook worker where
a team has a webhook."""

import redis
from django.conf import settings
from django.db import connection

from .celery import app
from .models import TeamWebhook


def _database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _broker():
    redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2).ping()


def _consumed(queue: str) -> None:
    active = app.control.inspect(timeout=1.0).active_queues() or {}
    if not any(q["name"] == queue for queues in active.values() for q in queues):
        raise RuntimeError(f"no Celery worker consumes the queue {queue!r}")


def _worker():
    _consumed(app.conf.task_default_queue)


class NotConfigured(Exception):
    """A check with nothing to check: reported as such ("not needed: ..."), not as an error."""


def _webhook_worker():
    """A worker reads the webhook queue when a team has a webhook (without one nothing is queued there)."""
    if not TeamWebhook.objects.exists():
        raise NotConfigured("no team has a webhook")
    _consumed(settings.WEBHOOK_QUEUE)


CHECKS = {"database": _database, "broker": _broker, "worker": _worker, "webhook_worker": _webhook_worker}


def health_report() -> tuple[dict[str, str], bool]:
    """``({"database": "ok" | "error: ...", ...}, all_ok)``; a check with nothing to check says "not needed:
    ..." and does not make the report unhealthy."""
    report = {}
    for name, check in CHECKS.items():
        try:
            check()
            report[name] = "ok"
        except NotConfigured as reason:
            report[name] = f"not needed: {reason}"
        except Exception as error:  # a health check reports any failure as text
            report[name] = f"error: {error}"
    healthy = all(value == "ok" or value.startswith("not needed") for value in report.values())
    report["version"] = settings.VERSION
    return report, healthy
