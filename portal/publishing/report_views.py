"""The compose form of a report, its progress page and its downloads; parameters in ``urls.py``."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from portal.comparisons.query import PARAMETERS, ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.errors import answers_errors, error_body, valid
from portal.results.selectors import LATENCIES
from portal.systems.selectors import system_by_name

from . import bundle_jobs
from .build import REPORT_FILES
from .content import report_outline, title_of
from .forms import ReportForm
from .jobs import report_file, report_notes
from .services import MAX_CANDIDATES, report_request, report_state, status_data

FORMAT_NAMES = {"docx": "Word (DOCX)", "pdf": "PDF", "html": "HTML (one file)", "md": "Markdown", "tex": "LaTeX"}


def _author(request: HttpRequest) -> str:
    user = request.user
    return (user.get_full_name() or user.get_username()) if user.is_authenticated else ""


@require_GET
@answers_errors()
def compose(request: HttpRequest) -> HttpResponse:
    """What goes in: workloads, parts, captions, title, author and unit, before the worker builds it."""
    data = request.GET.copy()
    if "author" not in data:
        data["author"] = _author(request)
    form = valid(ReportForm(data))
    names = [name.strip() for name in request.GET.getlist("a") if name.strip()] or [form.value("a")]
    candidates = [system_by_name(name=name, viewer=request.user) for name in names[:MAX_CANDIDATES]]
    b = system_by_name(name=form.value("b"), viewer=request.user)
    query = ComparisonQuery.from_form(form, a_names=names)
    results = [comparison(a=a, b=b, query=query) for a in candidates]
    workloads = list(dict.fromkeys(w.workload for result in results for w in result.workloads if w.rows))
    chosen = set(form.cleaned_data.get("workloads") or workloads)
    outline = report_outline(results, options=form.options())
    context = {
        "form": form,
        "heading": title_of(results).replace(" compared with ", " vs "),
        "threshold_ms": results[0].threshold_ms,
        "latency": results[0].latency,
        "latencies": LATENCIES,
        "workloads": [(name, name in chosen) for name in workloads],
        "hidden": [(name, value) for name, values in request.GET.lists() if _hidden(name) for value in values],
        "captions_text": "\n".join(f"{key}: {caption}" for key, caption in outline.captions),
        "caption_defaults": [f"{key}: {caption}" for key, caption in outline.defaults],
        "figures": outline.figures,
    }
    return render(request, "reports/compose.html", context)


# The threshold basis, which the compose form lets the author change.
BASIS_FIELDS = ("threshold_ms", "latency")


def _hidden(name: str) -> bool:
    """The compare page's selection, carried through the compose form unchanged (but its basis)."""
    return name in PARAMETERS and name not in BASIS_FIELDS


@require_GET
@answers_errors()
def build(request: HttpRequest) -> HttpResponse:
    form = valid(ReportForm(request.GET))
    asked = report_request(form=form, params=request.GET, viewer=request.user)
    return redirect("reports:progress", key=asked.key)


@require_GET
def progress(request: HttpRequest, key: str) -> HttpResponse:
    state = report_state(key=key, viewer=request.user)
    if state is None:
        return render(request, "reports/progress.html", {"missing": True}, status=404)
    done = state["status"] == "done"
    context = {
        "state": state,
        "key": key,
        "percent": round(100 * state.get("progress", 0)),
        "downloads": _downloads(key) if done else _downloads(key, every=True),
        "notes": report_notes(bundle_jobs.bundle_path(key)) if done else [],
        "compose_url": f"{reverse('reports:compose')}?{state.get('query', '')}",
        "again_url": f"{reverse('reports:build')}?{state.get('query', '')}",
    }
    return render(request, "reports/progress.html", context)


def _downloads(key: str, *, every: bool = False) -> list[tuple[str, str]]:
    """(label, address) of each format of a built report; of every format while it is being built."""
    path = bundle_jobs.bundle_path(key)
    return [
        (FORMAT_NAMES[extension], reverse("reports:download", kwargs={"key": key, "extension": extension}))
        for extension in REPORT_FILES
        if every or report_file(path, extension) is not None
    ]


@require_GET
def status(request: HttpRequest, key: str) -> JsonResponse:
    """The build's state for the progress page's script and the API: status, progress, step, error, note."""
    state = report_state(key=key, viewer=request.user)
    if state is None:
        return JsonResponse(
            {"status": "missing", **error_body(status=404, message="There is no such report.")}, status=404
        )
    return JsonResponse(status_data(key, state))


@require_GET
def download(request: HttpRequest, key: str, extension: str) -> HttpResponse:
    state = report_state(key=key, viewer=request.user)
    content = None
    if state is not None and state["status"] == "done":
        content = report_file(bundle_jobs.bundle_served(key), extension)
    if state is None or content is None:
        return HttpResponse(
            "This report is not built (yet) in this format.", status=404, content_type="text/plain; charset=utf-8"
        )
    response = HttpResponse(content, content_type=REPORT_FILES[extension])
    response["Content-Disposition"] = f'attachment; filename="{state["filename"]}.{extension}"'
    return response
