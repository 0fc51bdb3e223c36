"""Change detection over a configuration's history, alerts and their triage, and the team's webhook."""

import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from portal import formatting
from portal.analysis.changepoints import Change, changes
from portal.errors import ApplicationError
from portal.models import Alert, AlertStatus, AlertSummary, AlertTriage, Config, Role, Run, System, Team, TeamWebhook
from portal.teams import selectors as teams
from portal.teams.selectors import Viewer

from .selectors import FIGURE, FIGURES, Series, Version, series_baseline, series_load, series_of_config, series_touched

logger = logging.getLogger(__name__)

WEBHOOK_ATTEMPTS = 3
WEBHOOK_TIMEOUT_S = 5
WEBHOOK_BACKOFF_S = 0.5


def series_detect(*, config: Config, series: str, figure: str = FIGURE) -> list[Alert]:
    """Find the changes of one series (from the version the latest "expected" change starts at) and
    store each as an alert; returns the alerts new to it. An alert found again keeps its status; a
    tentative one is confirmed once the whole history shows the change."""
    loaded = series_load(config=config, series=series, figure=figure)
    if loaded is None:
        return []
    versions = loaded.versions
    baseline = series_baseline(config_id=config.id, series=series, figure=figure)
    start = next((i for i, v in enumerate(versions) if v.version == baseline), 0)
    versions = versions[start:]
    if len(versions) < 2:
        return []
    found = changes([version.values for version in versions])
    return [alert for change in found if (alert := _alert_store(loaded, versions, change)) is not None]


def _alert_store(series: Series, versions: list[Version], change: Change) -> Alert | None:
    version = versions[change.index].version
    numbers = {
        "before_mean": change.before_mean,
        "after_mean": change.after_mean,
        "change_pct": change.change_pct,
        "p_value": change.p_value,
        "previous_version": versions[change.index - 1].version,
    }
    key = {"config": series.config, "series": series.series, "figure": series.figure, "version": version}
    existing = Alert.objects.filter(**key).first()
    if existing is not None:
        # Confirmed by later versions; a confirmed change is not made tentative again by one version.
        tentative = existing.tentative and change.tentative
        Alert.objects.filter(id=existing.id).update(**numbers, tentative=tentative)
        return None
    summary, _ = AlertSummary.objects.get_or_create(system_id=series.config.system_id, version=version)
    try:
        with transaction.atomic():
            return Alert.objects.create(
                **key, **numbers, summary=summary, system_id=series.config.system_id, workload_id=series.workload_id,
                workload_name=series.label, metric=series.metric, tentative=change.tentative,
            )  # fmt: skip
    except IntegrityError:  # stored a moment ago by another worker
        return None


def changes_detect(*, run_ids: Iterable[int] | None = None, configs: Iterable[Config] | None = None) -> list[Alert]:
    """Detect changes in the series these runs touch (or every series of these configurations); new alerts
    are summarised by system and version, and each new summary is sent to its team's webhook."""
    if run_ids is not None:
        pairs = series_touched(run_ids=list(run_ids))
        by_id = Config.objects.in_bulk({config_id for config_id, _ in pairs})
        wanted = [(by_id[config_id], series) for config_id, series in pairs]
    else:
        wanted = [(config, series) for config in configs or () for series in series_of_config(config_id=config.id)]
    new = [
        alert
        for config, series in wanted
        for figure in FIGURES
        for alert in series_detect(config=config, series=series, figure=figure)
    ]
    for summary_id in sorted({alert.summary_id for alert in new}):
        summary_deliver(summary_id=summary_id)
    return new


def alert_triage(*, alert: Alert, status: str, note: str, actor: User) -> Alert:
    """Set an alert's status with a note (an uploader of the system's team, or the operator); audited."""
    if status not in AlertStatus.values:
        raise ApplicationError(f"status must be one of {', '.join(AlertStatus.values)}", status=400, field="status")
    if not _may_triage(actor, alert.system):
        raise ApplicationError("Only the team's uploaders and maintainers triage its alerts.", status=403)
    with transaction.atomic():
        now = timezone.now()
        Alert.objects.filter(id=alert.id).update(status=status, note=note, status_by=actor, status_at=now)
        AlertTriage.objects.create(alert=alert, status=status, note=note, actor=actor, actor_name=actor.get_username())
    alert.refresh_from_db()
    return alert


def _may_triage(user: Viewer, system: System) -> bool:
    if system.team_id is None:
        return teams.sees_everything(user)
    return teams.allows(user, system.team, Role.UPLOADER)


def summary_payload(*, summary: AlertSummary) -> dict:
    """The JSON a webhook receives: the system, the version and each change in numbers and in words."""
    alerts = list(summary.alerts.select_related("config").order_by("id"))
    return {
        "system": summary.system.name,
        "version": summary.version,
        "text": f"{summary.system.name}: {len(alerts)} change(s) from {summary.version}",
        "alerts": [
            {
                "id": alert.id,
                "configuration": formatting.configuration(alert.config),
                "workload": alert.workload_name,
                "figure": alert.get_figure_display(),
                "version": alert.version,
                "previous_version": alert.previous_version,
                "before": formatting.figure(alert.before_mean, alert.metric),
                "after": formatting.figure(alert.after_mean, alert.metric),
                "change": formatting.improvement(alert.change_pct),
                "change_pct": alert.change_pct,
                "p_value": alert.p_value,
                "tentative": alert.tentative,
                "status": alert.status,
            }
            for alert in alerts
        ],
    }


def summary_deliver(*, summary_id: int) -> str:
    """POST the summary to its team's webhook, retried ``WEBHOOK_ATTEMPTS`` times; the outcome is kept on
    the summary (the team's alerts page shows failures). Returns the delivery status. Detection calls it
    once for each summary that gained alerts."""
    summary = AlertSummary.objects.select_related("system").get(id=summary_id)
    hook = TeamWebhook.objects.filter(team_id=summary.system.team_id).first() if summary.system.team_id else None
    if hook is None:
        return AlertSummary.Delivery.NONE
    # Called when the summary gained alerts: sent again with every alert of the version, so that a suite
    # uploaded file by file still tells the team of each change.
    AlertSummary.objects.filter(id=summary_id).update(delivery=AlertSummary.Delivery.PENDING)
    body = json.dumps(summary_payload(summary=summary)).encode()
    error = ""
    for attempt in range(1, WEBHOOK_ATTEMPTS + 1):
        error = _post(hook.url, body)
        AlertSummary.objects.filter(id=summary_id).update(delivery_attempts=attempt, delivery_error=error[:500])
        if not error:
            AlertSummary.objects.filter(id=summary_id).update(
                delivery=AlertSummary.Delivery.SENT, delivered_at=timezone.now()
            )
            return AlertSummary.Delivery.SENT
        time.sleep(WEBHOOK_BACKOFF_S * attempt)
    logger.warning("alert summary %s: webhook failed %s times: %s", summary_id, WEBHOOK_ATTEMPTS, error)
    AlertSummary.objects.filter(id=summary_id).update(delivery=AlertSummary.Delivery.FAILED)
    return AlertSummary.Delivery.FAILED


def _post(url: str, body: bytes) -> str:
    """'' when the webhook answered 2xx, else what went wrong in words."""
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT_S) as answer:  # noqa: S310 (the team's URL)
            return "" if 200 <= answer.status < 300 else f"the webhook answered HTTP {answer.status}"
    except urllib.error.HTTPError as failure:
        return f"the webhook answered HTTP {failure.code}"
    except (urllib.error.URLError, OSError) as failure:
        return f"the webhook could not be reached: {getattr(failure, 'reason', failure)}"


def changes_after_store(*, upload_id: int) -> list[Alert]:
    """Detection for the series an upload's runs touch, after the transaction that stored them: the
    results stay stored whatever happens here (a failure is logged, and ``manage.py changes`` finds it)."""
    try:
        run_ids = list(Run.objects.filter(upload_id=upload_id).values_list("id", flat=True))
        return changes_detect(run_ids=run_ids)
    except Exception:
        logger.exception("change detection after upload %s failed", upload_id)
        return []


def webhook_set(*, team: Team, url: str, actor: User) -> None:
    """Set (or, with no URL, remove) the team's webhook."""
    if url:
        TeamWebhook.objects.update_or_create(team=team, defaults={"url": url})
    else:
        TeamWebhook.objects.filter(team=team).delete()
