"""The history of a system's configurations across firmware versions, and a team's alerts."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from portal import formatting
from portal.charts import Chart, Series
from portal.charts.answers import chart_data
from portal.errors import ApplicationError, NotFoundError, answers_errors, form_error
from portal.models import Alert, AlertRevision, AlertState, Config, Role, System, Team, TeamWebhook
from portal.systems.selectors import system_readable
from portal.teams import selectors as teams
from portal.teams.selectors import SignedInRequest, Viewer

from . import selectors, services
from .forms import AlertFilterForm, SeriesForm, TriageForm, WebhookForm
from .selectors import HistoryRow
from .selectors import Series as HistorySeries


def _series_of(request: HttpRequest, system: System) -> tuple[Config | None, str, str]:
    form = SeriesForm(request.GET)
    if not form.is_valid():
        raise form_error(form)
    config_id, series = form.cleaned_data["config"], form.cleaned_data["series"]
    figure = form.cleaned_data["figure"] or Alert.Figure.THROUGHPUT
    if not config_id or not series:
        return None, "", figure
    config = Config.objects.filter(id=config_id, system=system).first()
    if config is None:
        raise NotFoundError(f"{system.name} has no configuration #{config_id}.")
    return config, series, figure


@answers_errors()
def system_history(request: HttpRequest, system_id: int) -> HttpResponse:
    system = system_readable(system_id=system_id, viewer=request.user)
    config, series, figure = _series_of(request, system)
    if config is None:
        context = {"system": system, "entries": selectors.system_series(system_id=system.id)}
        return render(request, "history/system.html", context)
    loaded, rows = _history_of(system, config, series, figure)
    context = {
        "system": system,
        "config": config,
        "configuration": formatting.configuration(config),
        "loaded": loaded,
        "rows": rows,
        "version_rows": version_reports(system=system, config=config, loaded=loaded, rows=rows),
        "unit": loaded.unit,
        "query": request.GET.urlencode(),
        "figures": [(value, label) for value, label in Alert.Figure.choices if value != figure],
        "series": series,
    }
    return render(request, "history/series.html", context)


@chart_data
def system_history_chart(request: HttpRequest, system_id: int) -> Chart:
    system = system_readable(system_id=system_id, viewer=request.user)
    config, series, figure = _series_of(request, system)
    if config is None:
        raise ApplicationError("Choose a configuration and a workload.", field="series")
    loaded, rows = _history_of(system, config, series, figure)
    return history_chart(system=system, config=config, loaded=loaded, rows=rows)


def _history_of(system: System, config: Config, series: str, figure: str) -> tuple[HistorySeries, list[HistoryRow]]:
    loaded, rows = selectors.series_history(config=config, series=series, figure=figure)
    if loaded is None:
        raise NotFoundError(f"{system.name} has no {_figure_words(figure)} of this workload in this configuration.")
    if not rows and loaded.kind is not None:
        # mdtest's and fs_mark's rates come with no response time: nothing to read at 20 ms.
        raise NotFoundError(
            f"{system.name}, {formatting.configuration(config)}: {loaded.label} has no throughput at 20 ms to follow"
            f" across versions: its runs measured {loaded.kind.words} with no response time."
        )
    return loaded, rows


def version_reports(
    *, system: System, config: Config, loaded: HistorySeries, rows: list[HistoryRow]
) -> list[tuple[HistoryRow, str, str]]:
    """Each row with the address of the report of its firmware version against the version before it and
    that version ('' for the first, and for versions that are measured days): the compare page's selection
    of the two versions of the series."""
    urls, previous = [], None
    for row in rows:
        version = row.version
        if previous is None or not (version.by_firmware and previous.by_firmware):
            urls.append((row, "", ""))
        else:
            query = {
                "a": system.name, "b": system.name, "a_firmware": version.version, "b_firmware": previous.version,
                "a_config": str(config.id), "b_config": str(config.id), "workload": loaded.workload_name,
            }  # fmt: skip
            urls.append((row, f"{reverse('reports:compose')}?{urlencode(query)}", previous.version))
        previous = version
    return urls


def history_chart(*, system: System, config: Config, loaded: HistorySeries, rows: list[HistoryRow]) -> Chart:
    """Each run as a point over its version, the version means as a line, the segments' means dashed and
    each change called out with its size and significance."""
    unit = loaded.unit
    positions = range(len(rows))
    runs = Series(
        "Runs",
        [i for i, row in zip(positions, rows, strict=True) for _ in row.version.values],
        [value for row in rows for value in row.version.values],
        hover=[_hover(row, value, loaded) for row in rows for value in row.version.values],
        mode="markers",
    )  # fmt: skip
    means = Series("Mean of the version", list(positions), [row.version.mean for row in rows], style=1)
    segments = Series("Mean of the segment", list(positions), [row.segment_mean for row in rows], mode="lines", style=2)
    callouts = [
        (i, row.version.mean, change_words(alert))
        for i, row in zip(positions, rows, strict=True)
        for alert in ([row.alert] if row.alert else []) + row.others
        if alert.state != AlertState.WITHDRAWN
    ]  # fmt: skip
    title = f"{system.name}, {formatting.configuration(config)}: {loaded.label} across firmware versions"
    words = loaded.figure_words
    return Chart(
        title, "Firmware version (or measured date)", f"{words[:1].upper()}{words[1:]}, {unit}",
        [runs, means, segments],
        x_ticks=[(i, row.version.version) for i, row in zip(positions, rows, strict=True)], callouts=callouts,
    )  # fmt: skip


def _hover(row: HistoryRow, value: float, loaded: HistorySeries) -> str:
    return f"{row.version.version}: {formatting.figure(value, loaded.metric, unit=loaded.unit)}"


def change_words(alert: Alert | AlertRevision) -> str:
    """A change as the pages write it: a step "-20.0 % from 07.30.12.00 (p < 0.0001, tentative)", a drift
    "-0.2 % a version from 3.1 to 4.7 (p < 0.0001)"; an alert "withdrawn" when later versions do not show
    it (a revision says its state before these words)."""
    how = ", tentative" if isinstance(alert, Alert) and alert.tentative else ""
    how += ", withdrawn" if isinstance(alert, Alert) and alert.state == AlertState.WITHDRAWN else ""
    p = formatting.p_value(alert.p_value)
    if alert.end_version and alert.slope_pct is not None:
        slope = formatting.improvement(alert.slope_pct)
        return f"{slope} a version from {alert.version} to {alert.end_version} ({p}{how})"
    return f"{formatting.improvement(alert.change_pct)} from {alert.version} ({p}{how})"


def _figure_words(figure: str) -> str:
    return "figures" if figure == Alert.Figure.THROUGHPUT else "response times at a load all its runs measured"


def _team_of(user: Viewer, slug: str) -> Team:
    team = teams.team_named(name=slug)
    if team is None or not teams.allows(user, team, Role.VIEWER):
        raise NotFoundError("There is no such team.")
    return team


@login_required
@answers_errors()
def team_alerts(request: SignedInRequest, slug: str) -> HttpResponse:
    team = _team_of(request.user, slug)
    form = AlertFilterForm(request.GET)
    if not form.is_valid():
        raise form_error(form)
    filters = form.cleaned_data
    alerts = selectors.team_alerts(
        team=team, status=filters["status"], system_id=filters["system"], min_pct=filters["min_change_pct"]
    )
    hook = TeamWebhook.objects.filter(team=team).first()
    shown = list(alerts[:200])
    units = selectors.alert_units(alerts=shown)
    context = {
        "team": team,
        "form": form,
        "alerts": [(alert, units[alert.id]) for alert in shown],
        "triages": teams.allows(request.user, team, Role.UPLOADER),
        "administers": teams.allows(request.user, team, Role.ADMIN),
        "statuses": selectors.AlertStatus.choices,
        "systems": team.systems.order_by("name"),
        "webhook": hook,
        "webhook_form": WebhookForm(initial={"url": hook.url if hook else ""}),
        "failed_deliveries": selectors.failed_deliveries(team=team),
    }
    return render(request, "history/alerts.html", context)


@login_required
@require_POST
@answers_errors()
def alert_triage(request: SignedInRequest, alert_id: int) -> HttpResponse:
    alert = selectors.alerts_visible(viewer=request.user).filter(id=alert_id).first()
    if alert is None:
        raise NotFoundError(f"There is no alert #{alert_id}.")
    form = TriageForm(request.POST)
    if not form.is_valid():
        raise form_error(form)
    services.alert_triage(alert=alert, actor=request.user, **form.cleaned_data)
    messages.success(request, f"The change from {alert.version} is marked {alert.get_status_display()}.")
    back = request.POST.get("next") or ""
    local = back.startswith("/") and not back.startswith("//")
    return redirect(
        back if local else reverse("history:alerts", args=[alert.system.team.slug]) if alert.system.team else "/"
    )


@login_required
@require_POST
@answers_errors()
def webhook_set(request: SignedInRequest, slug: str) -> HttpResponse:
    team = _team_of(request.user, slug)
    if not teams.allows(request.user, team, Role.ADMIN):
        raise ApplicationError("Only the team's admins set its webhook.", status=403)
    form = WebhookForm(request.POST)
    if not form.is_valid():
        raise form_error(form)
    services.webhook_set(team=team, url=form.cleaned_data["url"], actor=request.user)
    messages.success(request, "The webhook is set." if form.cleaned_data["url"] else "The webhook is removed.")
    return redirect("history:alerts", slug=team.slug)
