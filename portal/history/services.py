"""Change detection over a configuration's history, alerts and their triage, and the team's webhook."""

import hashlib
import logging
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from portal.analysis.alert_life import KEPT, WITHDRAWN, Known, Transition, transitions
from portal.analysis.changepoints import Change, changes, newest_complete
from portal.errors import ApplicationError
from portal.models import (
    Alert,
    AlertKind,
    AlertRevision,
    AlertStatus,
    AlertSummary,
    AlertTriage,
    Config,
    Role,
    Run,
    System,
    Team,
    TeamWebhook,
)
from portal.teams import selectors as teams
from portal.teams.selectors import Viewer

from . import notifications, webhooks
from .selectors import FIGURE, FIGURES, Series, Version, series_baseline, series_load, series_of_config, series_touched

logger = logging.getLogger(__name__)


def series_detect(*, config: Config, series: str, figure: str = FIGURE) -> list[Alert]:
    """Judge one series as it now stands (from the version the latest "expected" change starts at) and
    bring its alerts along: a change found is a new alert, or the alert it already is (updated when its
    version or size moved, confirmed once three versions stand after a step); an alert no change supports
    any more is withdrawn. Each of these is kept as a revision and told to the team once the transaction
    commits. Nothing is judged while the newest version holds fewer runs than most versions before it.
    Returns the new alerts."""
    with transaction.atomic():
        # Read under the lock: the detection that runs last sees every run stored before it.
        _series_lock(config.id, series, figure)
        loaded = series_load(config=config, series=series, figure=figure)
        if loaded is None:
            return []
        baseline = series_baseline(config_id=config.id, series=series, figure=figure)
        start = next((i for i, v in enumerate(loaded.versions) if v.version == baseline), 0)
        versions = loaded.versions[start:]
        if not newest_complete([version.values for version in versions]):
            return []
        found = changes([version.values for version in versions]) if len(versions) > 1 else []
        stored = _stored_alerts(loaded, [v.version for v in loaded.versions[:start]])
        positions = {version.version: i for i, version in enumerate(versions)}
        told = _told_pct(stored)
        known = [
            Known(alert.id, alert.kind, positions.get(alert.version), told[alert.id], alert.state, alert.tentative)
            for alert in stored.values()
        ]
        moves = transitions(known, found)
        # Withdrawals first: a version they free may be taken by an alert that moves there.
        moves.sort(key=lambda move: move.state != WITHDRAWN)
        return [alert for move in moves if (alert := _alert_move(loaded, versions, stored, move)) is not None]


def _series_lock(config_id: int, series: str, figure: str) -> None:
    """Serialise detection of one series (two uploads of it at once) until the transaction ends."""
    key = int.from_bytes(hashlib.blake2b(f"{config_id}:{series}:{figure}".encode(), digest_size=8).digest(), "big")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key - 2**63])


def _told_pct(stored: dict[int, Alert]) -> dict[int, float]:
    """Each alert's size as last told (its latest revision), else its own."""
    told = {alert_id: alert.change_pct for alert_id, alert in stored.items()}
    revisions = AlertRevision.objects.filter(alert_id__in=list(stored)).order_by("alert_id", "-at", "-id")
    for alert_id, change_pct in revisions.distinct("alert_id").values_list("alert_id", "change_pct"):
        told[alert_id] = change_pct
    return told


def _stored_alerts(series: Series, before_baseline: list[str]) -> dict[int, Alert]:
    """The series' alerts detection may change: not those starting before its baseline nor the baseline's."""
    alerts = Alert.objects.filter(config=series.config, series=series.series, figure=series.figure)
    baseline = series_baseline(config_id=series.config.id, series=series.series, figure=series.figure)
    alerts = alerts.exclude(version__in=[*before_baseline, *([baseline] if baseline else [])])
    return {alert.id: alert for alert in alerts.order_by("id")}


def _alert_move(series: Series, versions: list[Version], stored: dict[int, Alert], move: Transition) -> Alert | None:
    """Apply one transition to the rows; the new alert when it makes one."""
    change, now = move.change, timezone.now()
    if change is None:
        alert = stored[move.key or 0]
        Alert.objects.filter(id=alert.id).update(state=move.state, state_at=now)
        alert.state = move.state
        _revision(alert, versions[-1].version)
        return None
    numbers = _figures(versions, change)
    summary = _summary(series.config.system_id, numbers["version"])
    state = {"state": move.state, "state_at": now, "tentative": change.tentative, "summary": summary}
    if move.state == KEPT:
        # Refreshed figures of the same alert, less than is told again: no revision, nobody told.
        state = {"tentative": change.tentative}
    if move.key is None:
        alert = Alert.objects.create(
            config=series.config, series=series.series, figure=series.figure, system_id=series.config.system_id,
            workload_id=series.workload_id, workload_name=series.label, metric=series.metric,
            **numbers, **state,
        )  # fmt: skip
    else:
        alert = stored[move.key]
        for name, value in {**numbers, **state}.items():
            setattr(alert, name, value)
        alert.save(update_fields=[*numbers, *state])
    if move.state != KEPT:
        _revision(alert, versions[-1].version)
    return alert if move.key is None else None


def _summary(system_id: int, version: str) -> AlertSummary:
    return AlertSummary.objects.get_or_create(system_id=system_id, version=version)[0]


def _figures(versions: list[Version], change: Change) -> dict:
    drift = change.kind == AlertKind.DRIFT
    return {
        "kind": change.kind,
        "version": versions[change.index].version,
        "previous_version": versions[change.index - 1].version if change.index else "",
        "end_version": versions[change.end_index].version if drift and change.end_index is not None else "",
        "before_mean": change.before_mean,
        "after_mean": change.after_mean,
        "change_pct": change.change_pct,
        "slope_pct": change.slope_pct if drift else None,
        "p_value": change.p_value,
    }


def _revision(alert: Alert, newest_version: str) -> None:
    AlertRevision.objects.create(
        alert=alert, state=alert.state, version=alert.version, end_version=alert.end_version,
        before_mean=alert.before_mean, after_mean=alert.after_mean, change_pct=alert.change_pct,
        slope_pct=alert.slope_pct, p_value=alert.p_value, newest_version=newest_version,
    )  # fmt: skip
    alert_id, state = alert.id, alert.state
    transaction.on_commit(lambda: notifications.alert_changed(alert_id, state))


def changes_detect(*, run_ids: Iterable[int] | None = None, configs: Iterable[Config] | None = None) -> list[Alert]:
    """Detect changes in the series these runs touch (or every series of these configurations); returns
    the new alerts. Each alert created or changed is told to its team once stored."""
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
