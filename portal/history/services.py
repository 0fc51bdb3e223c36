"""Change detection over a configuration's history, alerts and their triage, and the team's webhook."""

import logging
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from portal.analysis.changepoints import Change, changes
from portal.errors import ApplicationError
from portal.models import Alert, AlertStatus, AlertSummary, AlertTriage, Config, Role, Run, System, Team, TeamWebhook
from portal.teams import selectors as teams
from portal.teams.selectors import Viewer

from . import notifications, webhooks
from .selectors import FIGURE, FIGURES, Series, Version, series_baseline, series_load, series_of_config, series_touched

logger = logging.getLogger(__name__)


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
        if Alert.objects.filter(id=existing.id).update(**numbers, tentative=tentative) and _changed(
            existing, numbers, tentative
        ):
            state = "confirmed" if existing.tentative and not tentative else "updated"
            transaction.on_commit(lambda: notifications.alert_changed(existing.id, state))
        return None
    summary, _ = AlertSummary.objects.get_or_create(system_id=series.config.system_id, version=version)
    try:
        with transaction.atomic():
            alert = Alert.objects.create(
                **key, **numbers, summary=summary, system_id=series.config.system_id, workload_id=series.workload_id,
                workload_name=series.workload_name, metric=series.metric, tentative=change.tentative,
            )  # fmt: skip
    except IntegrityError:  # stored a moment ago by another worker
        return None
    transaction.on_commit(lambda: notifications.alert_changed(alert.id, "new"))
    return alert


def _changed(alert: Alert, numbers: dict, tentative: bool) -> bool:
    """Whether an alert found again has other figures (or is confirmed now): its team is told."""
    return tentative != alert.tentative or any(getattr(alert, name) != value for name, value in numbers.items())


def changes_detect(*, run_ids: Iterable[int] | None = None, configs: Iterable[Config] | None = None) -> list[Alert]:
    """Detect changes in the series these runs touch (or every series of these configurations); new alerts
    are summarised by system and version, and each new or updated alert is told to its team's webhook
    (by the notification tasks, after the commit)."""
    if run_ids is not None:
        pairs = series_touched(run_ids=list(run_ids))
        by_id = Config.objects.in_bulk({config_id for config_id, _ in pairs})
        wanted = [(by_id[config_id], series) for config_id, series in pairs]
    else:
        wanted = [(config, series) for config in configs or () for series in series_of_config(config_id=config.id)]
    return [
        alert
        for config, series in wanted
        for figure in FIGURES
        for alert in series_detect(config=config, series=series, figure=figure)
    ]


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
    """Set (or, with no URL, remove) the team's webhook: http(s) to a public address only."""
    if url:
        try:
            webhooks.url_check(url)
        except webhooks.WebhookRefused as refused:
            raise ApplicationError(str(refused), status=400, field="url") from None
        TeamWebhook.objects.update_or_create(team=team, defaults={"url": url})
    else:
        TeamWebhook.objects.filter(team=team).delete()
