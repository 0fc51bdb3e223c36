"""Changes found in a configuration's history across firmware versions, and how people triaged them."""

from django.conf import settings
from django.db import models

from .results import Workload
from .systems import Config, System
from .teams import Team


class AlertSummary(models.Model):
    """The alerts of one new version of a system, sent together to the team's webhook."""

    class Delivery(models.TextChoices):
        NONE = "none", "no webhook"
        PENDING = "pending", "not sent yet"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"

    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="alert_summaries")
    version = models.CharField(max_length=100, help_text="The firmware version (or measured date) changes start at.")
    created_at = models.DateTimeField(auto_now_add=True)
    delivery = models.CharField(max_length=8, choices=Delivery.choices, default=Delivery.NONE)
    delivery_attempts = models.PositiveSmallIntegerField(default=0)
    delivery_error = models.CharField(max_length=500, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "portal"
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["system", "version"], name="alertsummary_system_version")]

    def __str__(self) -> str:
        return f"{self.system} from {self.version}"


class AlertStatus(models.TextChoices):
    UNTRIAGED = "untriaged"
    INVESTIGATING = "investigating"
    ACKNOWLEDGED = "acknowledged"
    EXPECTED = "expected", "expected (a new baseline)"
    INVALID = "invalid"
    FIXED = "fixed"


class AlertKind(models.TextChoices):
    STEP = "step"
    DRIFT = "drift"


class AlertState(models.TextChoices):
    """What detection last said of an alert (its status is what people said)."""

    NEW = "new", "new"
    UPDATED = "updated", "updated"
    CONFIRMED = "confirmed", "confirmed"
    # Later versions do not show it.
    WITHDRAWN = "withdrawn", "withdrawn"


class Alert(models.Model):
    """A change in one series (configuration x workload x figure) starting at one version."""

    class Figure(models.TextChoices):
        THROUGHPUT = "throughput_at_20ms", "throughput at 20 ms"
        # The average response time at the heaviest load every run of the series measured.
        RESPONSE = "response_at_load", "average response time at a fixed load"
        # A response-time percentile at that load, where the tool measured it.
        P50 = "p50_at_load", "50th percentile response time at a fixed load"
        P90 = "p90_at_load", "90th percentile response time at a fixed load"
        P95 = "p95_at_load", "95th percentile response time at a fixed load"
        P99 = "p99_at_load", "99th percentile response time at a fixed load"
        P999 = "p99.9_at_load", "99.9th percentile response time at a fixed load"

    summary = models.ForeignKey(AlertSummary, on_delete=models.CASCADE, related_name="alerts")
    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="alerts")
    config = models.ForeignKey(Config, on_delete=models.CASCADE, related_name="alerts")
    # The series: runs of one workload, or of one stored name where the file did not say what they do.
    workload = models.ForeignKey(Workload, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    workload_name = models.CharField(max_length=200)
    series = models.CharField(max_length=220, help_text='"workload:<id>" or "name:<stored name>".')
    figure = models.CharField(max_length=24, choices=Figure.choices, default=Figure.THROUGHPUT)
    metric = models.CharField(max_length=4, help_text='"iops", "mbps" or "ms".')
    version = models.CharField(max_length=100)
    previous_version = models.CharField(max_length=100, blank=True)
    before_mean = models.FloatField()
    after_mean = models.FloatField()
    change_pct = models.FloatField()
    p_value = models.FloatField()
    kind = models.CharField(max_length=8, choices=AlertKind.choices, default=AlertKind.STEP)
    # A drift's last version, and its change per version (% of its value at its first version).
    end_version = models.CharField(max_length=100, blank=True)
    slope_pct = models.FloatField(null=True, blank=True)
    # A step with fewer than three versions after it, until later versions confirm it.
    tentative = models.BooleanField(default=False)
    state = models.CharField(max_length=10, choices=AlertState.choices, default=AlertState.NEW)
    state_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=AlertStatus.choices, default=AlertStatus.UNTRIAGED)
    note = models.TextField(blank=True)
    status_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    status_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "portal"
        ordering = ["-created_at", "-id"]
        constraints = [
            # One open alert of a kind per version of a series (withdrawn ones stay beside it); also the index
            # for "the alerts of a series" (detection, history page).
            models.UniqueConstraint(
                fields=["config", "series", "figure", "kind", "version"],
                condition=~models.Q(state="withdrawn"),
                name="alert_series_version",
            ),
        ]
        indexes = [
            # A system's alerts by status (alerts page, system page counts).
            models.Index(fields=["system", "status"], name="alert_system_status"),
            # Untriaged alerts first (alerts page, API).
            models.Index(fields=["status", "-created_at"], name="alert_status_created"),
        ]

    def __str__(self) -> str:
        return f"{self.workload_name}: {self.change_pct:+.1f} % from {self.version}"


class AlertRevision(models.Model):
    """An alert's figures each time detection changed them or its state, as they were told."""

    alert = models.ForeignKey(Alert, on_delete=models.CASCADE, related_name="revisions")
    state = models.CharField(max_length=10, choices=AlertState.choices)
    version = models.CharField(max_length=100)
    end_version = models.CharField(max_length=100, blank=True)
    before_mean = models.FloatField()
    after_mean = models.FloatField()
    change_pct = models.FloatField()
    slope_pct = models.FloatField(null=True, blank=True)
    p_value = models.FloatField()
    # The newest version of the history when detection said so.
    newest_version = models.CharField(max_length=100)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "portal"
        ordering = ["alert", "at", "id"]

    def __str__(self) -> str:
        return f"{self.state}: {self.change_pct:+.1f} % from {self.version}"


class AlertTriage(models.Model):
    """Who set an alert's status, when, with what note (the alert keeps the latest)."""

    alert = models.ForeignKey(Alert, on_delete=models.CASCADE, related_name="triages")
    status = models.CharField(max_length=16, choices=AlertStatus.choices)
    note = models.TextField(blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    actor_name = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "portal"
        ordering = ["alert", "at", "id"]

    def __str__(self) -> str:
        return f"{self.actor_name}: {self.status}"


class TeamWebhook(models.Model):
    """Where a team's alert summaries are POSTed as JSON."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="webhook")
    url = models.URLField(max_length=500)
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "portal"

    def __str__(self) -> str:
        return f"{self.team} -> {self.url}"


class WebhookDelivery(models.Model):
    """One POST of changed alerts of a summary to the team's webhook: its idempotency key (in the JSON
    and the ``Idempotency-Key`` header) and its fate. A task claims it with a conditional update, so a
    retried or duplicated task never posts again a delivery the webhook acknowledged."""

    class Status(models.TextChoices):
        NONE = "none", "no webhook"
        PENDING = "pending", "not sent yet"
        SENDING = "sending", "being sent"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"
        REFUSED = "refused", "refused (not a public address)"

    summary = models.ForeignKey(AlertSummary, on_delete=models.CASCADE, related_name="deliveries")
    key = models.UUIDField(unique=True)
    url = models.URLField(max_length=500, blank=True)
    payload = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Retries stop here; an attempt is cut at it too.
    deadline_at = models.DateTimeField()
    # When the attempt under way started: a claim older than an attempt can last is a killed worker's.
    sending_since = models.DateTimeField(null=True, blank=True)
    # When the next attempt is due (or recovery last sent it again): long past, its task was lost.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "portal"
        ordering = ["id"]
        indexes = [
            # Deliveries still to be made, for recovery (deliveries_recover).
            models.Index(
                fields=["next_attempt_at"],
                condition=models.Q(status__in=["pending", "sending"]),
                name="webhookdelivery_due",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.summary}: {self.status}"


class AlertNotice(models.Model):
    """A change of an alert's state (new, updated, confirmed, withdrawn) with the figures it had, to be
    told once: the same change reported twice in a row is one row (the alert's next in ``sequence``),
    and its delivery says when it went out."""

    class State(models.TextChoices):
        NEW = "new"
        UPDATED = "updated"
        CONFIRMED = "confirmed"
        WITHDRAWN = "withdrawn"

    alert = models.ForeignKey(Alert, on_delete=models.CASCADE, related_name="notices")
    sequence = models.PositiveIntegerField(help_text="1 for the alert's first change, then 2, 3...")
    state = models.CharField(max_length=10, choices=State.choices)
    # A digest of the alert's figures at the change: a second update with other figures is told too.
    figures = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    delivery = models.ForeignKey(
        WebhookDelivery, null=True, blank=True, on_delete=models.SET_NULL, related_name="notices"
    )

    class Meta:
        app_label = "portal"
        ordering = ["id"]
        constraints = [
            # Also the index for "the alert's latest change" and "the notices of an alert" (a summary's
            # undelivered ones, through its alerts).
            models.UniqueConstraint(fields=["alert", "sequence"], name="alertnotice_alert_sequence"),
        ]

    def __str__(self) -> str:
        return f"{self.alert}: {self.state}"
