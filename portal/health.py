"""Whether the parts the portal depends on answer: database, broker, worker."""

import redis
from django.conf import settings
from django.db import connection

from .celery import app


def _database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _broker():
    redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2).ping()


def _worker():
    queue = app.conf.task_default_queue
    active = app.control.inspect(timeout=1.0).active_queues() or {}
    if not any(q["name"] == queue for queues in active.values() for q in queues):
        raise RuntimeError(f"no Celery worker consumes the queue {queue!r}")


CHECKS = {"database": _database, "broker": _broker, "worker": _worker}


def health_report() -> tuple[dict[str, str], bool]:
    """``({"database": "ok" | "error: ...", ...}, all_ok)``."""
    report = {}
    for name, check in CHECKS.items():
        try:
            check()
            report[name] = "ok"
        except Exception as error:  # a health check reports any failure as text
            report[name] = f"error: {error}"
    healthy = all(value == "ok" for value in report.values())
    report["version"] = settings.VERSION
    return report, healthy
