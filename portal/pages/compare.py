"""The compare page: two systems side by side, or several against a baseline, and its charts."""

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from portal.charts import AnyChart
from portal.charts import comparison as compare_charts
from portal.charts.answers import chart_data
from portal.comparisons import selectors as comparison_selectors
from portal.comparisons.defaults import threshold_default, threshold_default_set
from portal.comparisons.query import PAGE, ComparisonQuery, stated_params
from portal.curation.selectors import compared_workload_aliases
from portal.errors import ApplicationError, NotFoundError, answers_errors, valid
from portal.models import Role, ThresholdDefault
from portal.results import selectors as result_selectors
from portal.systems import selectors as system_selectors
from portal.teams.selectors import SignedInRequest, teams_of

from .common import query_with
from .forms import CompareForm, ThresholdDefaultForm

# Systems compared with one baseline on one page, and names the picker offers before typing.
MAX_CANDIDATES = 5
PICKER_CHOICES = 20


def _candidates(query):
    """The systems named as A (several against one baseline), blank pickers left out."""
    return [name.strip() for name in query.getlist("a") if name.strip()]


def _first_candidate(query, candidates):
    """The query with one system A, the first named: blank extra pickers are not a selection."""
    data = query.copy()
    data.setlist("a", candidates[:1])
    return data


def _with_default_threshold(request: HttpRequest, query):
    """The query with the reader's default threshold and latency figure where it states neither, and the
    sentence saying which default applied (None when the address states them)."""
    if query.get("threshold_ms") or query.get("latency"):
        return query, None
    default = threshold_default(viewer=request.user)
    data = query.copy()
    data["threshold_ms"], data["latency"] = f"{default.threshold_ms:g}", default.latency
    return data, default.sentence


def _found(request: HttpRequest, name):
    try:
        return system_selectors.system_by_name(name=name, viewer=request.user)
    except system_selectors.SystemNotFound as error:
        message = error.message
        raise NotFoundError(message[0].upper() + message[1:] + ("" if message.endswith("?") else ".")) from None


def _query(form: CompareForm, candidates: list[str], *, page: int = 1) -> ComparisonQuery:
    """The comparison the page's valid form asks for, of every system A named."""
    return ComparisonQuery.from_form(valid(form), a_names=candidates, page=page)


def _multi_comparison(request: HttpRequest, query: ComparisonQuery, *, label: str | None = None):
    systems = [_found(request, name) for name in query.a_names]
    baseline = _found(request, query.b_name)
    return comparison_selectors.multi_comparison(candidates=systems, baseline=baseline, query=query, label=label)


def _link_multi_charts(multi, query, candidates):
    """Each workload's chart addresses: its data (JSON, CSV) and its images, with the page's selection;
    returns the selection as the table exports take it."""
    selection = [("a", name) for name in candidates]
    selection += [(name, value) for name, value in stated_params(query) if name != "a"]
    for workload in multi.workloads:
        workload.export_query = urlencode([*selection, ("label", workload.workload)])
        workload.chart_url = f"{reverse('pages:compare_chart', kwargs={'fmt': 'json'})}?{workload.export_query}"
        workload.csv_url = f"{reverse('pages:compare_chart', kwargs={'fmt': 'csv'})}?{workload.export_query}"
    return urlencode(selection)


@require_GET
def system_search(request: HttpRequest) -> HttpResponse:
    """Names for the system picker: ``?q=`` matched against name, vendor and model, at most 20;
    ``private`` names those of them private to the reader's team."""
    choices = system_selectors.system_choices(
        q=request.GET.get("q", "")[:100], limit=PICKER_CHOICES, viewer=request.user
    )
    return JsonResponse(
        {
            "systems": [choice.name for choice in choices],
            "private": [choice.name for choice in choices if choice.private],
        }
    )


# The compare page compares this many workloads a page and names at most this many only one side has.
COMPARED_PER_PAGE = 10
ONLY_ONE_SIDE_SHOWN = 50


def _comparison(
    request: HttpRequest,
    query: ComparisonQuery,
    *,
    label: str | None = None,
    workloads_per_page: int | None = None,
    offer_choices: bool = False,
):
    a, b = _found(request, query.a_names[0]), _found(request, query.b_name)
    return comparison_selectors.comparison(
        a=a,
        b=b,
        query=query,
        label=label,
        workloads_per_page=workloads_per_page,
        offer_choices=offer_choices,
        viewer=request.user,
    )


def _page_asked(query) -> int:
    """The page of compared workloads the address asks for; one that is not a page number opens the first."""
    text = query.get(PAGE) or ""
    return int(text) if text.isdigit() else 1


def _workload_pages(query, page):
    """Links to the previous and next pages of compared workloads (``wpage=``), None where there is none."""
    previous = query_with(query, wpage=page.previous_page_number()) if page.has_previous() else None
    following = query_with(query, wpage=page.next_page_number()) if page.has_next() else None
    return previous, following


def _side_filters(result, query):
    """Each side's filters as the page offers them: its letter, system, the values its runs have and the
    value chosen (the side's own, else the one of both sides)."""
    sides = []
    for letter, system, choices in (("a", result.a, result.a_choices), ("b", result.b, result.b_choices)):
        chosen = {
            name: query.get(f"{letter}_{name}") or query.get(name) or ""
            for name in ("raid_level", "drive_count", "cache", "config")
        }
        chosen["raid_level"] = result_selectors.raid_level_asked(raid_level=chosen["raid_level"]) or ""
        chosen["firmware"] = query.get(f"{letter}_firmware") or ""
        sides.append({"letter": letter, "system": system, "choices": choices, "chosen": chosen})
    return sides


def _threshold_links(workload, query):
    """Links to the thresholds both curves of ``workload`` are measured at, each on the first page of workloads."""
    if not workload.thresholds:
        return []
    first_page = query.copy()
    first_page.pop("wpage", None)
    return [(f"{value:g} ms", query_with(first_page, threshold_ms=f"{value:g}")) for value in workload.thresholds]


def _first_names(names):
    """The first names of a list only one side has, and how many are not shown."""
    return names[:ONLY_ONE_SIDE_SHOWN], max(len(names) - ONLY_ONE_SIDE_SHOWN, 0)


@answers_errors()
def compare(request: HttpRequest) -> HttpResponse:
    candidates = _candidates(request.GET)[:MAX_CANDIDATES]
    query, default_sentence = _with_default_threshold(request, request.GET)
    chosen = _first_candidate(query, candidates)
    form = CompareForm(chosen)
    context = {
        "form": form,
        "default_sentence": default_sentence,
        "candidates": candidates + [""] * (len(candidates) < MAX_CANDIDATES),
        "system_choices": system_selectors.system_choices(limit=PICKER_CHOICES, viewer=request.user),
        "latencies": result_selectors.LATENCIES,
    }
    if not candidates or not request.GET.get("b"):
        # Opened from a system's page (or bare): that system is chosen, the page asks for the other.
        context["ask"] = "Choose the system to compare with." if candidates or request.GET.get("b") else ""
        return render(request, "pages/compare.html", context)
    try:
        asked = _query(form, candidates, page=_page_asked(request.GET))
        if len(candidates) > 1:
            context["multi"] = _multi_comparison(request, asked)
            context["export_query"] = _link_multi_charts(context["multi"], chosen, candidates)
            return render(request, "pages/compare.html", context)
        result = _comparison(request, asked, workloads_per_page=COMPARED_PER_PAGE, offer_choices=True)
    except ApplicationError as error:
        context["error"] = error.message
        return render(request, "pages/compare.html", context, status=error.status)
    chart_url = reverse("pages:compare_chart", kwargs={"fmt": "json"})
    csv_url = reverse("pages:compare_chart", kwargs={"fmt": "csv"})
    for workload in result.workloads:
        query = chosen.copy()
        query["label"] = workload.workload
        workload.chart_url = f"{chart_url}?{query.urlencode()}"
        workload.csv_url = f"{csv_url}?{query.urlencode()}"
        workload.cache_links = [(setting, query_with(chosen, cache=setting)) for setting in workload.cache_choices]
        workload.threshold_links = _threshold_links(workload, chosen)
    compared_workload_aliases(workloads=result.workloads, viewer=request.user)
    # Every export shows what the page shows (every workload, no page).
    export = stated_params(chosen)
    for workload in result.workloads:
        workload.export_query = urlencode([*export, ("label", workload.workload)])
    if result.as_published:
        # Figures published with no response time: the threshold, given or the default, applies to none.
        context["default_sentence"] = ""
    context.update(
        result=result,
        threshold_ms=result.threshold_ms,
        adjust_b=result.adjust_b,
        export_query=urlencode(export),
        latency_text=result_selectors.LATENCIES[result.latency],
        workload_pages=_workload_pages(chosen, result.page) if result.page else (None, None),
        only_a=_first_names(result.only_a_workloads),
        only_b=_first_names(result.only_b_workloads),
        sides=_side_filters(result, chosen) if result.a_choices else [],
    )
    return render(request, "pages/compare.html", context)


@chart_data
def compare_chart(request: HttpRequest) -> AnyChart:
    candidates = _candidates(request.GET)
    query = _query(CompareForm(_first_candidate(request.GET, candidates)), candidates)
    if not query.workload and not request.GET.get("label"):
        raise ApplicationError("Name the workload to chart (label=... or workload=...).", field="label")
    label = request.GET.get("label")
    if len(candidates) > 1:
        return _multi_chart(request, query, label=label)
    result = _comparison(request, query, label=label)
    matching = [w for w in result.workloads if label in (None, w.workload)]
    if not matching:
        named = label or query.workload
        raise NotFoundError(f"Both systems need runs of {named!r} to chart them together.")
    return compare_charts.compare_chart(
        matching[0],
        a_name=result.a_side,
        b_name=result.b_side,
        threshold_ms=result.threshold_ms,
        latency=result.latency,
    )


def _multi_chart(request: HttpRequest, query: ComparisonQuery, *, label):
    multi = _multi_comparison(request, query, label=label)
    matching = [w for w in multi.workloads if label in (None, w.workload)]
    if not matching:
        named = label or query.workload
        raise NotFoundError(f"No system could be compared with the baseline in {named!r}.")
    return compare_charts.multi_compare_chart(
        matching[0], baseline=multi.baseline, candidates=multi.candidates, threshold_ms=multi.threshold_ms
    )


@login_required
def compare_defaults(request: SignedInRequest) -> HttpResponse:
    """The reader's default threshold and latency figure, and those of the teams they administer."""
    teams = list(teams_of(request.user, role=Role.ADMIN))
    form = ThresholdDefaultForm(request.POST or None, teams=teams)
    if request.method == "POST" and form.is_valid():
        team = form.team()
        threshold_default_set(
            user=None if team else request.user,
            team=team,
            threshold_ms=form.cleaned_data["threshold_ms"],
            latency=form.cleaned_data["latency"] or "avg",
        )
        return redirect("pages:compare_defaults")
    applied = threshold_default(viewer=request.user)
    context = {
        "form": form,
        "applied": applied,
        "applied_latency": result_selectors.LATENCIES[applied.latency],
        "own": ThresholdDefault.objects.filter(user=request.user).first(),
        "team_defaults": ThresholdDefault.objects.filter(team__in=teams).select_related("team").order_by("team__name"),
    }
    return render(request, "pages/defaults.html", context)
