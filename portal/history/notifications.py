"""Telling a team's webhook of its alerts: one POST per alert summary and change of state, sent by tasks
on a queue of their own, never on the time of the worker that stored the results.

``alert_changed`` is called (after the commit) whenever an alert is created or changes state. It records
the change once (an :class:`AlertNotice`; the same state with the same figures twice in a row is one) and
queues ``webhook_notify`` for the alert's summary, which gathers the summary's changes not told yet into one
:class:`WebhookDelivery` with an idempotency key and its JSON, and queues ``webhook_deliver``. Each
attempt claims the delivery with a conditional update, is cut at ``WEBHOOK_ATTEMPT_SECONDS``, and is
retried after a doubling pause until ``WEBHOOK_DEADLINE_SECONDS`` after the change; an acknowledged
delivery is never posted again. A worker killed after the webhook answered but before the answer was
recorded sends it once more, with the same key: receivers drop a key they have seen.
"""

import functools
import hashlib
import json
import logging
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from portal import formatting
from portal.celery import app
from portal.models import Alert, AlertNotice, AlertSummary, TeamWebhook, WebhookDelivery

from . import webhooks
from .selectors import alert_units

logger = logging.getLogger(__name__)

NOTIFY_TASK = "portal.webhook_notify"
DELIVER_TASK = "portal.webhook_deliver"
STATES = AlertNotice.State


def alert_changed(alert_id: int, state: str) -> None:
    """An alert was created (``"new"``) or changed state (``"updated"``, ``"confirmed"``,
    ``"withdrawn"``): tell its team's webhook, unless this state with these figures is the alert's
    latest change already."""
    if state not in STATES.values:
        raise ValueError(f"an alert's state is one of {', '.join(STATES.values)}, not {state!r}")
    alert = Alert.objects.select_related("system").filter(id=alert_id).first()
    if alert is None or not notice_record(alert=alert, state=state):
        return
    if alert.system.team_id and TeamWebhook.objects.filter(team_id=alert.system.team_id).exists():
        summary_id = alert.summary_id
        transaction.on_commit(lambda: _send(NOTIFY_TASK, summary_id))
    else:
        summary_notify(summary_id=alert.summary_id)  # recorded as told to no webhook


def _send(task: str, object_id: int) -> None:
    try:
        app.send_task(task, args=[object_id], queue=settings.WEBHOOK_QUEUE)
    except Exception:  # the broker is down: the rows are kept, and the workers' recovery sends them
        logger.exception("queueing %s %s failed", task, object_id)


def figures_digest(alert: Alert) -> str:
    """What identifies the alert's figures: the same change with the same figures is told once."""
    figures = [alert.kind, alert.version, alert.previous_version, alert.end_version, alert.before_mean,
               alert.after_mean, alert.change_pct, alert.slope_pct, alert.p_value, alert.tentative]  # fmt: skip
    return hashlib.sha256(json.dumps(figures).encode()).hexdigest()


def notice_record(*, alert: Alert, state: str) -> bool:
    """Record that the alert took this state with its current figures; False when that is its latest
    change already (a detection run twice, a task retried). An alert withdrawn and then found again
    is told each time. Changes of one alert are recorded one at a time (its row locked)."""
    figures = figures_digest(alert)
    with transaction.atomic():
        Alert.objects.select_for_update().filter(id=alert.id).exists()
        latest = AlertNotice.objects.filter(alert=alert).order_by("-sequence").first()
        if latest is not None and (latest.state, latest.figures) == (state, figures):
            return False
        sequence = latest.sequence + 1 if latest is not None else 1
        AlertNotice.objects.create(alert=alert, sequence=sequence, state=state, figures=figures)
    return True


def summary_notify(*, summary_id: int) -> WebhookDelivery | None:
    """Gather the summary's changes not told yet into one delivery (None when there are none: another
    task gathered them), and queue it when the team has a webhook."""
    with transaction.atomic():
        summary = AlertSummary.objects.select_for_update().select_related("system").get(id=summary_id)
        notices = list(
            AlertNotice.objects.filter(alert__summary_id=summary_id, delivery=None)
            .select_related("alert__config")
            .order_by("id")
        )
        if not notices:
            return None
        hook = TeamWebhook.objects.filter(team_id=summary.system.team_id).first() if summary.system.team_id else None
        key = uuid.uuid4()
        delivery = WebhookDelivery.objects.create(
            summary=summary, key=key, url=hook.url if hook else "", payload=delivery_payload(summary, notices, key),
            status=WebhookDelivery.Status.PENDING if hook else WebhookDelivery.Status.NONE,
            deadline_at=timezone.now() + timedelta(seconds=settings.WEBHOOK_DEADLINE_SECONDS),
            next_attempt_at=timezone.now() if hook else None,
        )  # fmt: skip
        AlertNotice.objects.filter(id__in=[notice.id for notice in notices]).update(delivery=delivery)
        _summary_show(delivery)
        if hook:
            transaction.on_commit(lambda: _send(DELIVER_TASK, delivery.id))
    return delivery


def delivery_payload(summary: AlertSummary, notices: list[AlertNotice], key: uuid.UUID) -> dict:
    """The JSON a webhook receives: the idempotency key, the system, the version, and each changed
    alert with its state and its figures as they are now, in numbers and in words."""
    states: dict[int, str] = {}
    for notice in notices:  # an alert both new and updated since the last delivery is new to the reader
        states[notice.alert_id] = STATES.NEW if states.get(notice.alert_id) == STATES.NEW else notice.state
    alerts = {notice.alert_id: notice.alert for notice in notices}
    counts = {state: list(states.values()).count(state) for state in STATES.values if state in states.values()}
    told = ", ".join(f"{count} {state}" for state, count in counts.items())
    units = alert_units(alerts=list(alerts.values()))
    return {
        "idempotency_key": str(key),
        "system": summary.system.name,
        "version": summary.version,
        "text": f"{summary.system.name}, changes from {summary.version}: {told}",
        "alerts": [_alert_entry(alerts[id_], state, units[id_]) for id_, state in sorted(states.items())],
    }


def _alert_entry(alert: Alert, state: str, unit: str) -> dict:
    return {
        "id": alert.id,
        "state": state,
        "configuration": formatting.configuration(alert.config),
        "workload": alert.workload_name,
        "figure": alert.get_figure_display(),
        "version": alert.version,
        "previous_version": alert.previous_version,
        "before": formatting.figure(alert.before_mean, alert.metric, unit=unit),
        "after": formatting.figure(alert.after_mean, alert.metric, unit=unit),
        "unit": unit,
        "change": formatting.improvement(alert.change_pct),
        "before_mean": alert.before_mean,
        "after_mean": alert.after_mean,
        "change_pct": alert.change_pct,
        "p_value": alert.p_value,
        "tentative": alert.tentative,
        "status": alert.status,
    }


def delivery_attempt(*, delivery_id: int) -> float | None:
    """POST the delivery once if it is still to be sent and no other worker is sending it; returns the
    seconds to wait before the next attempt, or None when there is none to make (sent, refused, given
    up at its deadline, or not this worker's to send)."""
    now = timezone.now()
    stale = now - _claim_lasts()
    claimable = Q(status=WebhookDelivery.Status.PENDING) | Q(
        status=WebhookDelivery.Status.SENDING, sending_since__lt=stale
    )
    claimed = WebhookDelivery.objects.filter(claimable, id=delivery_id).update(
        status=WebhookDelivery.Status.SENDING, sending_since=now, attempts=F("attempts") + 1
    )
    if not claimed:
        return None
    delivery = WebhookDelivery.objects.get(id=delivery_id)
    remaining_s = (delivery.deadline_at - now).total_seconds()
    if remaining_s <= 0:
        last = f": {delivery.error}" if delivery.error else ""
        _finish(delivery, WebhookDelivery.Status.FAILED, f"not sent by its deadline{last}")
        return None
    hook = TeamWebhook.objects.filter(team__systems__alert_summaries=delivery.summary_id).first()
    if hook is None:
        _finish(delivery, WebhookDelivery.Status.FAILED, "the webhook was removed before it was sent")
        return None
    if hook.url != delivery.url:  # changed since: sent where the team's admins point it now
        delivery.url = hook.url
        WebhookDelivery.objects.filter(id=delivery.id).update(url=hook.url)
    try:
        target = webhooks.target_checked(delivery.url)
    except webhooks.WebhookRefused as refused:
        _finish(delivery, WebhookDelivery.Status.REFUSED, str(refused))
        return None
    headers = {"Content-Type": "application/json", "Idempotency-Key": str(delivery.key)}
    body = json.dumps(delivery.payload).encode()
    error = webhooks.post(target, body, headers=headers, timeout_s=min(settings.WEBHOOK_ATTEMPT_SECONDS, remaining_s))
    if not error:
        _finish(delivery, WebhookDelivery.Status.SENT, "")
        return None
    pause_s = settings.WEBHOOK_BACKOFF_SECONDS * 2 ** (delivery.attempts - 1)
    if timezone.now() + timedelta(seconds=pause_s) >= delivery.deadline_at:
        logger.warning("webhook delivery %s given up after %s attempts: %s", delivery.id, delivery.attempts, error)
        given_up = f"given up after {delivery.attempts} attempts, at its deadline"
        _finish(delivery, WebhookDelivery.Status.FAILED, f"{error}; {given_up}")
        return None
    delivery.status, delivery.error = WebhookDelivery.Status.PENDING, error[:500]
    WebhookDelivery.objects.filter(id=delivery.id, sending_since=now).update(
        status=delivery.status, error=delivery.error, next_attempt_at=timezone.now() + timedelta(seconds=pause_s)
    )
    _summary_show(delivery)
    return pause_s


def _claim_lasts() -> timedelta:
    """The longest an attempt holds its delivery: cut at WEBHOOK_ATTEMPT_SECONDS, with room for the
    database. A claim older than this is a killed worker's."""
    return timedelta(seconds=settings.WEBHOOK_ATTEMPT_SECONDS + 10)


def deliveries_recover() -> list[int]:
    """Deliver what no task will: changes a task was not queued for (the broker was down) are gathered,
    and deliveries whose task was lost (a worker killed during an attempt, a broker restarted while a
    retry waited) are sent again, at most once per ``_claim_lasts`` each; recovery runs in every
    worker. A delivery past its deadline is then given up by its task. Returns the ids sent again."""
    now = timezone.now()
    late = now - _claim_lasts()
    forgotten = AlertNotice.objects.filter(delivery=None, created_at__lt=late).values_list("alert__summary_id")
    for summary_id in sorted({summary_id for (summary_id,) in forgotten[:500]}):
        summary_notify(summary_id=summary_id)
    Status = WebhookDelivery.Status
    lost = Q(status=Status.PENDING) | Q(status=Status.SENDING, sending_since__lt=late)
    with transaction.atomic():
        due = WebhookDelivery.objects.select_for_update(skip_locked=True).filter(lost, next_attempt_at__lt=late)
        resend = list(due.order_by("id").values_list("id", flat=True)[:500])
        WebhookDelivery.objects.filter(id__in=resend).update(next_attempt_at=now)
        for delivery_id in resend:
            transaction.on_commit(functools.partial(_send, DELIVER_TASK, delivery_id), robust=True)
    if resend:
        logger.warning("webhook deliveries %s lost their task; sent again", resend)
    return resend


def _finish(delivery: WebhookDelivery, status: str, error: str) -> None:
    delivery.status, delivery.error = status, error[:500]
    delivery.delivered_at = timezone.now() if status == WebhookDelivery.Status.SENT else None
    WebhookDelivery.objects.filter(id=delivery.id, sending_since=delivery.sending_since).update(
        status=delivery.status, error=delivery.error, delivered_at=delivery.delivered_at
    )
    _summary_show(delivery)


# What the alerts and team pages show of a summary: its latest delivery.
SUMMARY_DELIVERY = {
    WebhookDelivery.Status.NONE: AlertSummary.Delivery.NONE,
    WebhookDelivery.Status.PENDING: AlertSummary.Delivery.PENDING,
    WebhookDelivery.Status.SENDING: AlertSummary.Delivery.PENDING,
    WebhookDelivery.Status.SENT: AlertSummary.Delivery.SENT,
    WebhookDelivery.Status.FAILED: AlertSummary.Delivery.FAILED,
    WebhookDelivery.Status.REFUSED: AlertSummary.Delivery.FAILED,
}


def _summary_show(delivery: WebhookDelivery) -> None:
    if WebhookDelivery.objects.filter(summary_id=delivery.summary_id, id__gt=delivery.id).exists():
        return  # a later delivery of the summary is the one shown
    AlertSummary.objects.filter(id=delivery.summary_id).update(
        delivery=SUMMARY_DELIVERY[WebhookDelivery.Status(delivery.status)],
        delivery_attempts=delivery.attempts,
        delivery_error=delivery.error[:500],
        delivered_at=delivery.delivered_at,
    )
