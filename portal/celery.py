"""The Celery application: Redis as broker and result backend, settings from Django.

Jobs a killed worker left behind are picked up by every worker process itself (``portal.tasks.Recovery``),
so workers need no beat scheduler.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("arraybench")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["portal", "portal.publishing"])
