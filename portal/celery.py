"""The Celery application: Redis as broker and result backend, settings from Django."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("arraybench")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["portal"])
