"""The Celery application: Redis as broker and result backend, settings from Django."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("arraybench")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["portal"])

# Uploads whose worker died mid-parse are queued again; `make run` runs this schedule in its worker.
app.conf.beat_schedule = {
    "requeue-stale-uploads": {"task": "portal.upload_requeue_stale", "schedule": 300.0},
}
