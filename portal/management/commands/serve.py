"""``manage.py serve``: everything ``make run`` starts, stopped together on Ctrl-C."""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import BaseCommand, call_command

from portal import embedded
from portal.models import Run


class Command(BaseCommand):
    help = (
        "Migrate, load the demo data into an empty database, start a Celery worker and the web server; "
        "Ctrl-C stops them and the embedded servers."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--web-workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "2")))

    def handle(self, *args, port, host, web_workers, **options):
        call_command("migrate", interactive=False, verbosity=0)
        if not Run.objects.exists():
            call_command("loaddemo")
        if not settings.DEBUG:
            call_command("collectstatic", interactive=False, verbosity=0)
        env = {**os.environ, "DATABASE_URL": settings.DATABASE_URL, "REDIS_URL": settings.REDIS_URL}
        python = sys.executable
        children = [
            subprocess.Popen(
                [python, "-m", "celery", "-A", "portal", "worker", "--beat",
                 "--schedule", str(settings.DATA_DIR / "celerybeat-schedule"),
                 "--loglevel", "WARNING", "--concurrency", "2"],
                env=env,
            ),
            subprocess.Popen(
                [python, "-m", "gunicorn", "portal.wsgi", "--bind", f"{host}:{port}", "--workers", str(web_workers),
                 "--access-logfile", "-", "--log-level", "warning"],
                env=env,
            ),
        ]  # fmt: skip
        self.stdout.write(f"ArrayBench is running at http://{host}:{port}/  (Ctrl-C stops everything)")
        self.stdout.write("Create the first account with:  .venv/bin/python manage.py createsuperuser")
        self._wait_then_stop(children)

    def _wait_then_stop(self, children):
        stop = {"requested": False}

        def request_stop(signum, frame):
            stop["requested"] = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        while not stop["requested"] and all(child.poll() is None for child in children):
            time.sleep(0.5)
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
        stopped = embedded.stop_all(
            settings.DATA_DIR,
            postgres=not os.environ.get("DATABASE_URL"),
            redis=not os.environ.get("REDIS_URL"),
        )
        self.stdout.write("Stopped: web server, worker" + "".join(f", embedded {name}" for name in stopped))
