"""Shared fixtures: rows, the demo data, a real Celery worker on a private queue, database URLs."""

import contextlib
import functools
import io
import os
import signal
import subprocess
import sys
import time
import uuid
from urllib.parse import quote

import pytest
import yaml

from tests.samples import REPO


def database_url(settings_dict):
    """A DATABASE_URL for the connection settings pytest-django uses (the test database)."""
    user = quote(settings_dict["USER"] or "")
    password = quote(settings_dict["PASSWORD"] or "")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict["HOST"] or ""
    port = f":{settings_dict['PORT']}" if settings_dict["PORT"] else ""
    if host.startswith("/"):
        host = quote(host, safe="")
    return f"postgresql://{auth}{host}{port}/{settings_dict['NAME']}"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, django_db_blocker):
    """The test database is a copy of a migrated template database (tests/database.py), not migrated anew."""
    from django.conf import settings

    from tests.database import use_template

    with django_db_blocker.unblock():
        use_template(settings.DATA_DIR)


@pytest.fixture(scope="module")
def module_transaction(django_db_setup, django_db_blocker):
    """A transaction open while a test module's tests run, rolled back after the last of them: rows that
    module-scoped fixtures store in it (with ``stored_once``) are stored once for all the module's tests.

    Each test runs in a savepoint inside it (pytest-django's ``db``), so what a test changes is undone
    before the next one, and the next module starts from the empty database. The tests of a module that
    take it run after its other tests (``pytest_collection_modifyitems`` below), so no other test sees those
    rows. A test whose rows are committed (``transactional_db``, ``live_server``) cannot take it. It suits
    rows the tests read: rows a test rewrites stay behind as dead rows for the next tests of the module
    (no vacuum while the transaction is open), which can make them slower than storing the rows anew.
    """
    from django.db import transaction

    with django_db_blocker.unblock():
        stored = transaction.atomic()
        stored.__enter__()
    yield
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        stored.__exit__(None, None, None)


@contextlib.contextmanager
def stored_once(django_db_blocker, tmp_path_factory):
    """For a module-scoped fixture that stores rows in ``module_transaction``: database access, and a data
    directory of its own for the originals it stores."""
    from django.test import override_settings

    directory = tmp_path_factory.mktemp("stored-once")
    with django_db_blocker.unblock(), override_settings(DATA_DIR=directory, UPLOADS_DIR=directory / "uploads"):
        yield


@pytest.fixture(scope="module")
def demo_loaded(module_transaction, django_db_blocker, tmp_path_factory):
    """The seed papers' published figures (``manage.py loaddemo``), loaded once for a test module's tests."""
    from django.core.management import call_command

    with stored_once(django_db_blocker, tmp_path_factory):
        call_command("loaddemo", stdout=io.StringIO())


@functools.cache
def _demo_system_names() -> tuple[str, ...]:
    demo = yaml.load((REPO / "fixtures" / "demo.yaml").read_text(), Loader=yaml.CSafeLoader)
    return tuple(system["name"] for system in demo["systems"])


def _demo_systems():
    """The demo's systems by name (not the rows a module stored beside them)."""
    from portal.models import System

    return {system.name: system for system in System.objects.filter(team=None, name__in=_demo_system_names())}


@pytest.fixture
def demo(demo_loaded, db):
    """The demo data, as `make run` loads it (loaded once per module, see ``demo_loaded``): its systems by name."""
    return _demo_systems()


@pytest.fixture
def committed_demo(transactional_db):
    """The demo data committed, for a test whose server or worker reads it (emptied after the test)."""
    from django.core.management import call_command

    call_command("loaddemo", stdout=io.StringIO())
    return _demo_systems()


def _committed(item):
    marker = item.get_closest_marker("django_db")
    return bool({"transactional_db", "live_server"} & set(item.fixturenames)) or bool(
        marker and (marker.kwargs.get("transaction") or (marker.args and marker.args[0]))
    )


def pytest_collection_modifyitems(items):
    """A module's tests that read rows stored once for it (``module_transaction``) run after its other tests."""
    modules: dict[str, int] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::")[0], len(modules))
        if "module_transaction" in item.fixturenames and _committed(item):
            raise pytest.UsageError(
                f"{item.nodeid} commits its rows: it cannot read rows stored once (take committed_demo)"
            )
    items.sort(key=lambda item: (modules[item.nodeid.split("::")[0]], "module_transaction" in item.fixturenames))


@pytest.fixture
def data_dir(settings, tmp_path):
    """Originals go to a temporary data directory (workers are started with the same one)."""
    settings.DATA_DIR = tmp_path
    settings.UPLOADS_DIR = tmp_path / "uploads"
    return tmp_path


class Workers:
    """Real Celery worker processes consuming a queue of their own, against the test database.

    ``start(**env)`` starts one more (a prefork pool of two processes unless told otherwise), with
    extra environment variables (``INGEST_STALE_SECONDS=...``); tasks sent from the test go to the queue.
    ``start(queue=celery_workers.webhook_queue)`` starts one consuming the webhook tasks' queue instead.
    """

    def __init__(self, app, settings, database_url):
        self.app = app
        self.queue = f"test-{uuid.uuid4().hex[:12]}"
        # As the workers derive it from ARRAYBENCH_QUEUE.
        self.webhook_queue = f"{self.queue}-webhooks"
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": settings.REDIS_URL,
            "ARRAYBENCH_QUEUE": self.queue,
            "ARRAYBENCH_DATA_DIR": str(settings.DATA_DIR),
        }
        self.processes = []

    def start(self, *, name=None, pool="prefork", concurrency=2, queue=None, **env):
        hostname = f"{name or len(self.processes)}.{self.queue}"
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool", pool,
             "--concurrency", str(concurrency), "--queues", queue or self.queue, "--hostname", f"{hostname}@%h",
             "--loglevel", "WARNING"],
            cwd=REPO, env={**self.env, **{key: str(value) for key, value in env.items()}}, start_new_session=True,
        )  # fmt: skip
        self.processes.append(worker)
        _wait_for_worker(self.app, worker, hostname)
        return worker

    def kill(self, worker):
        """SIGKILL to the worker and its pool processes, as the kernel's OOM killer or a power cut would."""
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)

    def stop_all(self):
        for worker in self.processes:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
        for worker in self.processes:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)


@pytest.fixture
def celery_workers(transactional_db, settings):
    """Start real workers with ``celery_workers.start()``; all are stopped at the end of the test."""
    from django.db import connection

    from portal.celery import app

    workers = Workers(app, settings, database_url(connection.settings_dict))
    previous_queue = app.conf.task_default_queue
    app.conf.task_default_queue = workers.queue
    settings.WEBHOOK_QUEUE = workers.webhook_queue
    try:
        yield workers
    finally:
        app.conf.task_default_queue = previous_queue
        workers.stop_all()


@pytest.fixture
def celery_worker_process(celery_workers):
    """One real worker (a prefork pool of two processes, so tasks really run in parallel); yields the app."""
    celery_workers.start()
    return celery_workers.app


def _wait_for_worker(app, worker, hostname, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise RuntimeError(f"the Celery worker exited with status {worker.returncode}")
        replies = app.control.ping(timeout=0.5)
        if any(name.startswith(f"{hostname}@") for reply in replies for name in reply):
            return
    raise RuntimeError("the Celery worker did not answer within a minute")


def wait_until(condition, *, seconds=30, interval=0.1):
    """Poll ``condition`` until it returns something true; return that, or fail the test."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"condition not met within {seconds} s")


# Set on a test whose call phase failed: the browser fixture keeps a screenshot then.
FAILED = pytest.StashKey[bool]()
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"  # Debian's Chromium, installed by `make browsers`
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
    return report


class BrowserPage:
    """A Playwright page and the problems the browser reported (console errors, failed requests)."""

    def __init__(self, page):
        self.page = page
        self.problems = []
        page.on("console", lambda message: message.type == "error" and self.problems.append(message.text))
        page.on("pageerror", lambda error: self.problems.append(str(error)))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"{r.status} {r.url}"))


@pytest.fixture
def browser_page(request, monkeypatch):
    """A headless Chromium page; a screenshot of it is kept in test-artifacts/ when the test fails.

    Rows should be made before the browser starts: the Playwright sync API runs an event loop in
    this thread, so Django must be told that synchronous ORM calls here are intended. While that loop
    runs, Django keeps connections apart from the test's own (per context, as in async code): they are
    closed here, or the test database could not be dropped at the end of the session.
    """
    from django.db import connections
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_default_timeout(30_000)
        try:
            yield BrowserPage(page)
        finally:
            if request.node.stash.get(FAILED, False):
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
            connections.close_all()
            browser.close()


LAB = "Engineering lab"


@pytest.fixture
def engineer(db):
    """An engineer who uploads for their lab's team (the results are private to it until published)."""
    from django.contrib.auth import get_user_model

    from portal.models import Role

    user = get_user_model().objects.create_user("engineer", password="disk-arrays-42")
    team_member(user, role=Role.UPLOADER)
    return user


@pytest.fixture
def lab(engineer):
    """The engineer's team: systems it uploads to are its own."""
    return engineer.memberships.get().team


def team_member(user, *, role, team=LAB):
    """Make ``user`` a member of ``team`` (created when missing) with ``role``; return the team."""
    from portal.models import Membership, Team

    found, _ = Team.objects.get_or_create(name=team, defaults={"slug": team.lower().replace(" ", "-")})
    Membership.objects.update_or_create(team=found, user=user, defaults={"role": role})
    return found


def pytest_configure(config):
    """Two test processes (pytest-xdist) share the embedded Redis: each counts API requests under its own keys."""
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker:
        from django.conf import settings

        settings.CACHES["api"]["KEY_PREFIX"] = f"api-{worker}"


def pytest_unconfigure(config):
    """A test run that had to start the embedded PostgreSQL and Redis stops them when it ends."""
    from portal import embedded

    embedded.stop_started()


def pytest_sessionfinish(session, exitstatus):
    """The chart browser the tests kept open is closed while pytest still holds its output streams."""
    from portal.publishing.chart_browser import CHART_BROWSER

    CHART_BROWSER.close()
