"""``manage.py serve``: everything ``make run`` starts, stopped together on Ctrl-C."""

import os
import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management import BaseCommand, call_command
from django.core.management.base import CommandParser, OutputWrapper

from portal import embedded
from portal.models import Run


class Command(BaseCommand):
    help = (
        "Migrate, load the demo data into an empty database, start the Celery workers and the web server; "
        "Ctrl-C stops them and the embedded servers."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--web-workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "2")))

    def handle(self, *args: Any, port: int, host: str, web_workers: int, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        if not Run.objects.exists():
            call_command("loaddemo")
        # With DEBUG on too: the static files are served compressed and cacheable in every mode.
        call_command("collectstatic", interactive=False, verbosity=0)
        # HOST: the web server's settings choose HTTPS by the interface it listens on (portal.settings).
        env = {**os.environ, "DATABASE_URL": settings.DATABASE_URL, "REDIS_URL": settings.REDIS_URL, "HOST": host}
        python = sys.executable
        commands = {
            # Workers recover jobs a killed worker left behind themselves: no beat scheduler is needed.
            "worker": [python, "-m", "celery", "-A", "portal", "worker", "--loglevel", "WARNING", "--concurrency", "2"],
            # Alert notifications to the teams' webhooks: a slow endpoint holds this worker only.
            "webhook worker": [python, "-m", "celery", "-A", "portal", "worker", "--loglevel", "WARNING",
                               "--concurrency", "2", "--queues", settings.WEBHOOK_QUEUE, "--hostname", "webhooks@%h"],
            "web server": [python, "-m", "gunicorn", "portal.wsgi", "--bind", f"{host}:{port}",
                           "--workers", str(web_workers), "--access-logfile", "-", "--log-level", "warning"],
        }  # fmt: skip
        embedded.record_serving(
            settings.BASE_DIR,
            data_dir=settings.DATA_DIR,
            database_from_environment=bool(os.environ.get("DATABASE_URL")),
            redis_from_environment=bool(os.environ.get("REDIS_URL")),
        )
        children = {name: Child(name, command, env) for name, command in commands.items()}
        self.stdout.write(f"ArrayBench is running at http://{host}:{port}/  (Ctrl-C stops everything)")
        if not settings.DEBUG and not os.environ.get("HTTPS") and host not in {"127.0.0.1", "localhost", "::1"}:
            self.stdout.write("On a public interface it expects HTTPS from a proxy in front (HTTPS=false: plain HTTP)")
        self.stdout.write("Create the first account with:  .venv/bin/python manage.py createsuperuser")
        self._wait_then_stop(children)

    def _wait_then_stop(self, children):
        stop = {"requested": False}

        def request_stop(signum, frame):
            stop["requested"] = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        while not stop["requested"]:
            self._restart_embedded_servers()
            for child in children.values():
                if child.exited() and not child.restart(self.stderr):
                    stop["requested"] = True
            time.sleep(0.5)
        for child in children.values():
            child.stop()
        embedded.forget_serving(settings.BASE_DIR)
        stopped = embedded.stop_all(
            settings.DATA_DIR,
            postgres=not os.environ.get("DATABASE_URL"),
            redis=not os.environ.get("REDIS_URL"),
        )
        embedded_servers = "".join(f", embedded {name}" for name in stopped)
        self.stdout.write(f"Stopped: web server, worker, webhook worker{embedded_servers}")

    def _restart_embedded_servers(self):
        """Start an embedded server again when it stopped (its process killed), as the children are."""
        servers = {
            "PostgreSQL": (not os.environ.get("DATABASE_URL"), embedded.postgres_running, embedded.postgres_url),
            "Redis": (not os.environ.get("REDIS_URL"), embedded.redis_running, embedded.redis_url),
        }
        for name, (embedded_here, running, start) in servers.items():
            if not embedded_here or running(settings.DATA_DIR):
                continue
            self.stderr.write(f"The embedded {name} stopped; starting it again.")
            try:
                start(settings.DATA_DIR)
            except Exception as error:  # tried again on the next round, as a child that keeps stopping is
                self.stderr.write(f"The embedded {name} did not start: {error}")


class Child:
    """A process ``serve`` keeps running: started again when it dies (a killed worker does not stop the
    portal), unless it keeps dying right after starting."""

    QUICK_EXIT_SECONDS = 10
    QUICK_EXITS_ALLOWED = 5

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.quick_exits = 0
        self._start()

    def _start(self) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(self.command, env=self.env)

    def exited(self) -> bool:
        return self.process.poll() is not None

    def restart(self, out: OutputWrapper) -> bool:
        """Start the process again; False when it died quickly too many times in a row."""
        quick = time.monotonic() - self.started < self.QUICK_EXIT_SECONDS
        self.quick_exits = self.quick_exits + 1 if quick else 0
        if self.quick_exits >= self.QUICK_EXITS_ALLOWED:
            out.write(f"The {self.name} keeps stopping (status {self.process.returncode}); stopping everything.")
            return False
        out.write(f"The {self.name} stopped (status {self.process.returncode}); starting it again.")
        time.sleep(min(self.quick_exits, 5))
        self._start()
        return True

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
