"""The ArrayBench Django project and web application."""

from .celery import app as celery_app

__all__ = ["celery_app"]
