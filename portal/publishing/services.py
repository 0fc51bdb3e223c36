"""Asking for a report: the page's build link and the API share this one service."""

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.db.models import Q
from django.http import QueryDict
from django.urls import reverse
from django.utils.text import slugify
from kombu.exceptions import KombuError

from portal.comparisons.query import ComparisonQuery
from portal.errors import ApplicationError
from portal.models import System
from portal.systems.selectors import system_by_name
from portal.teams.selectors import Viewer, visible

from . import bundle_jobs
from .build import REPORT_FILES
from .forms import REPORT_PARAMETERS, ReportForm
from .jobs import options_data, report_file
from .options import default_title
from .tasks import bundle_task

# Systems compared with one baseline in one report, as on the compare page.
MAX_CANDIDATES = 5


@dataclass(frozen=True)
class ReportRequest:
    key: str
    state: dict[str, Any]


def report_request(*, form: ReportForm, params: QueryDict, viewer: Viewer) -> ReportRequest:
    """The report of a valid compose form, queued for a worker unless it is built or being built: of system
    ``a`` against ``b``, or of each ``a`` against ``b`` when ``params`` name several (up to five, as the
    compare page). The systems are those ``viewer`` may read (a private system's report is its team's only)."""
    names = [name.strip() for name in params.getlist("a") if name.strip()] or [form.value("a")]
    if len(names) > MAX_CANDIDATES:
        raise ApplicationError(f"at most {MAX_CANDIDATES} systems against one baseline; got {len(names)}", field="a")
    candidates = [system_by_name(name=name, viewer=viewer) for name in names]
    a, b = candidates[0], system_by_name(name=form.value("b"), viewer=viewer)
    query = ComparisonQuery.from_form(form, a_names=names)
    options = options_data(form.options())
    report = {"options": options, "candidates": [system.id for system in candidates]}
    key = bundle_jobs.bundle_key(a=a, b=b, query=query, report=report)
    address = urlencode([(name, value) for name in REPORT_PARAMETERS for value in params.getlist(name) if value])
    firmware = {"a_firmware": query.a_side.firmware or "", "b_firmware": query.b_side.firmware or ""}
    named = default_title(candidates, b, **firmware)
    state, send = bundle_jobs.bundle_request(
        key,
        a=a,
        b=b,
        query=query,
        address=address,
        filename=f"{slugify(named.replace(' compared with ', ' vs '))}-report",
        title=options["title"] or named,
        report=report,
    )
    if send:
        try:
            bundle_task.delay(key)
        except KombuError as error:
            bundle_jobs.bundle_failed(key, f"The report could not be queued: the task queue is unreachable ({error}).")
            state = bundle_jobs.bundle_state(key) or state
    return ReportRequest(key=key, state=state)


def report_state(*, key: str, viewer: Viewer) -> dict[str, Any] | None:
    """The state of report ``key`` if ``viewer`` may read both its systems, else None."""
    state = bundle_jobs.bundle_state(key)
    if state is None or state.get("report") is None:
        return None
    ids = {state.get("a"), state.get("b"), *state["report"].get("candidates", [])}
    readable = visible(System.objects.filter(Q(id__in=ids)), viewer=viewer).values_list("id", flat=True)
    return state if ids <= set(readable) else None


def status_data(key: str, state: dict[str, Any]) -> dict[str, Any]:
    """What the progress page's script and the API read of report ``key``'s build: its state and, once built,
    the address of each format written."""
    answer = {name: state.get(name) for name in ("status", "progress", "step", "error", "note", "size_bytes")}
    answer["status_url"] = reverse("reports:status", kwargs={"key": key})
    answer["page_url"] = reverse("reports:progress", kwargs={"key": key})
    if state["status"] == "done":
        answer["download_url"] = reverse("reports:download", kwargs={"key": key, "extension": "docx"})
        answer["downloads"] = {
            extension: reverse("reports:download", kwargs={"key": key, "extension": extension})
            for extension in REPORT_FILES
            if report_file(bundle_jobs.bundle_path(key), extension) is not None
        }
    return answer
