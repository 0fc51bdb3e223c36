"""White-paper bundles built by a Celery worker and kept under ``DATA_DIR/bundles``.

A bundle is named by a key: the sha256 of what decides its content (the two systems, the compare
page's query, the runs the systems have and the portal's version). Beside ``<key>.zip`` lies
``<key>.json``, the build's state: what the bundle is of (the comparison as
:meth:`~portal.comparisons.query.ComparisonQuery.to_json` writes it), ``queued``, ``building`` (with the share
done, the step in words and a heartbeat), ``done`` or ``failed`` (with the message). The web process
answers a key whose zip exists at once; otherwise it writes the state and sends the task, and the
progress page follows the state. A build whose heartbeat stopped (its worker was killed) is started
again by the next request for it. Zips are trimmed to :data:`BUNDLES_MAX_BYTES`, least recently used
first.
"""

import hashlib
import json
import logging
import os
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import plotly
from django.conf import settings
from django.db.models import Count, Max

import ingest
from portal.comparisons.query import ComparisonQuery
from portal.models import Run, System

from . import presets
from .bundle import comparison_bundle
from .jobs import report_zip

logger = logging.getLogger(__name__)

# What changes the layout of a bundle: a new value makes every earlier bundle stale.
BUNDLE_LAYOUT = 2
BUNDLES_MAX_BYTES = 256 * 1024 * 1024
# A build moves its heartbeat this often; one silent for STALE_SECONDS lost its worker.
HEARTBEAT_SECONDS = 5
STALE_SECONDS = 60
# A queued build no worker has started after this long is reported (it keeps waiting).
WAITING_SECONDS = 30
# A half-written file older than this was left by a killed worker.
PARTIAL_SECONDS = 60 * 60


def bundles_dir() -> Path:
    return Path(settings.DATA_DIR) / "bundles"


def bundle_path(key: str) -> Path:
    return bundles_dir() / f"{key}.zip"


def _state_path(key: str) -> Path:
    return bundles_dir() / f"{key}.json"


def bundle_key(*, a: System, b: System, query: ComparisonQuery, report: dict[str, Any] | None = None) -> str:
    """sha256 of what decides the bundle's content (a report's: ``report``, as :func:`bundle_request` takes it).
    The systems' run count and newest run id change when results are stored, re-read or deleted, so a bundle
    is never served from older results."""
    runs = Run.objects.filter(config__system__in=[a.id, b.id]).aggregate(count=Count("id"), newest=Max("id"))
    material = {
        "layout": BUNDLE_LAYOUT,
        "version": ingest.__version__,
        "plotly": plotly.__version__,
        "systems": [[a.id, a.name], [b.id, b.name]],
        # The systems are named by id above: how the address spelt them does not change the bundle.
        "query": replace(query, a_names=(), b_name="").to_json(),
        "report": report,
        "runs": runs,
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True, default=str).encode()).hexdigest()


def bundle_state(key: str) -> dict[str, Any] | None:
    """The build's state as the progress page shows it, None for a key never asked for. A zip on disk
    is done whatever the state says; a build whose heartbeat stopped is failed."""
    state = _read_state(key)
    path = bundle_path(key)
    if path.is_file():
        return {**(state or {}), "status": "done", "progress": 1.0, "step": "Done", "size_bytes": path.stat().st_size}
    if state is None:
        return None
    age = time.time() - state.get("heartbeat_at", 0)
    if state["status"] == "building" and age > STALE_SECONDS:
        return {**state, "status": "failed", "error": f"The worker building it stopped {age:.0f} s ago (it was "
                "restarted or killed); ask for the bundle again to start a new build."}  # fmt: skip
    if state["status"] == "queued" and age > WAITING_SECONDS:
        return {**state, "note": f"No worker has started on it after {age:.0f} s: is a Celery worker running?"}
    return state


def bundle_request(
    key: str,
    *,
    a: System,
    b: System,
    query: ComparisonQuery,
    address: str,
    filename: str,
    title: str,
    report: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], bool]:
    """The state of bundle ``key``, queued now unless it is built, being built or waiting for a worker;
    returns (state, whether the caller must send the task). ``address``: the query string that asks for it
    again. ``report``: a white-paper report to build
    instead of a bundle, ``{"options": ReportOptions as a dict, "candidates": [system ids compared with b]}``
    (:mod:`portal.publishing.jobs`)."""
    state = bundle_state(key)
    if state is not None and state["status"] in ("done", "queued", "building"):
        return state, False
    now = time.time()
    fresh = {
        "key": key,
        "a": a.id,
        "b": b.id,
        "comparison": query.to_json(),
        "query": address,
        "filename": filename,
        "title": title,
        "report": report,
        "status": "queued",
        "progress": 0.0,
        "step": "Waiting for a worker",
        "error": None,
        "created_at": now,
        "heartbeat_at": now,
    }
    if state is not None:  # failed or stale: this request starts it again
        _state_path(key).unlink(missing_ok=True)
    try:
        _write_state(fresh, exclusive=True)
    except FileExistsError:  # another request queued it a moment ago
        return bundle_state(key) or fresh, False
    return fresh, True


def bundle_failed(key: str, message: str) -> None:
    logger.warning("white-paper bundle %s failed: %s", key, message)
    state = _read_state(key)
    if state is not None:
        _write_state({**state, "status": "failed", "error": message, "heartbeat_at": time.time()})


def bundle_build(key: str) -> str:
    """Build bundle ``key`` from its state file; safe to run twice (the zip is written aside and renamed,
    a built one is left alone). Returns the final status."""
    state = _read_state(key)
    if state is None:
        return "unknown"
    if bundle_path(key).is_file():
        return "done"
    with _heartbeat(state) as report:
        try:
            report(0.0, "Starting")
            systems = System.objects.in_bulk([state["a"], state["b"]])
            if state["a"] not in systems or state["b"] not in systems:
                raise presets.PresetError("a system of this comparison was deleted meanwhile")
            query = ComparisonQuery.from_json(state["comparison"])
            content = _content(state, a=systems[state["a"]], b=systems[state["b"]], query=query, progress=report)
            _write_atomically(bundle_path(key), content)
        except presets.PresetError as error:
            logger.info("white-paper bundle %s cannot be built: %s", key, error)
            report.finish("failed", error=f"The bundle cannot be built: {error}.")
            return "failed"
        except Exception as error:
            reference = uuid.uuid4().hex[:12]
            logger.exception("building white-paper bundle %s failed (reference %s)", key, reference)
            report.finish("failed", error=f"The bundle could not be built because of an internal error "
                          f"({type(error).__name__}, reference {reference} in the worker's log).")  # fmt: skip
            return "failed"
        report.finish("done")
    logger.info("white-paper bundle %s built", key)
    _trim()
    return "done"


def _content(state: dict[str, Any], *, a: System, b: System, query: ComparisonQuery, progress) -> bytes:
    """The zip a state asks for: a white-paper report's files, or the bundle."""
    if state.get("report") is not None:
        return report_zip(a=a, b=b, query=query, report=state["report"], progress=progress)
    return comparison_bundle(a=a, b=b, query=query, progress=progress)


class _Reporter:
    """Writes the build's progress and, from a thread, its heartbeat into the state file."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = dict(state)
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def __call__(self, done: float, step: str) -> None:
        self._update(status="building", progress=round(done, 3), step=step)

    def beat(self) -> None:
        while not self.stopped.wait(HEARTBEAT_SECONDS):
            self._update()

    def finish(self, status: str, error: str | None = None) -> None:
        self.stopped.set()
        self._update(status=status, error=error, progress=1.0 if status == "done" else self.state["progress"])

    def _update(self, **changes: Any) -> None:
        with self.lock:
            if self.state["status"] in ("done", "failed") and "status" not in changes:
                return
            self.state.update(changes, heartbeat_at=time.time())
            _write_state(self.state)


@contextmanager
def _heartbeat(state: dict[str, Any]) -> Iterator[_Reporter]:
    reporter = _Reporter(state)
    thread = threading.Thread(target=reporter.beat, name="bundle-heartbeat", daemon=True)
    thread.start()
    try:
        yield reporter
    finally:
        reporter.stopped.set()
        thread.join()


def _read_state(key: str) -> dict[str, Any] | None:
    try:
        return json.loads(_state_path(key).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except ValueError:  # cut short by a full disk: treated as never asked for
        return None


def _write_state(state: dict[str, Any], *, exclusive: bool = False) -> None:
    content = json.dumps(state, default=str).encode()
    path = _state_path(state["key"])
    if exclusive:
        bundles_dir().mkdir(parents=True, exist_ok=True)
        with open(path, "xb") as out:  # FileExistsError when another request got there first
            out.write(content)
        return
    _write_atomically(path, content)


def _write_atomically(path: Path, content: bytes) -> None:
    """Written aside and renamed, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".partial-")
    with os.fdopen(handle, "wb") as out:
        out.write(content)
    os.replace(temporary, path)


def bundle_served(key: str) -> Path:
    """The zip of a built bundle, marked as recently used (the last to be trimmed)."""
    path = bundle_path(key)
    path.touch()
    return path


def _trim() -> None:
    """Remove the least recently used zips (and their states) beyond :data:`BUNDLES_MAX_BYTES`."""
    entries = []
    for path in bundles_dir().glob("*.zip"):
        try:
            stat = path.stat()
        except FileNotFoundError:  # trimmed by another worker meanwhile
            continue
        entries.append((stat.st_mtime, stat.st_size, path))
    for partial in bundles_dir().glob(".partial-*"):
        try:
            if time.time() - partial.stat().st_mtime > PARTIAL_SECONDS:
                partial.unlink()  # left by a killed worker
        except FileNotFoundError:
            continue
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= BUNDLES_MAX_BYTES:
            break
        path.unlink(missing_ok=True)
        path.with_suffix(".json").unlink(missing_ok=True)
        total -= size
