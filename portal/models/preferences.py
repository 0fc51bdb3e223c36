"""Defaults a reader chose for the pages that read throughput at a threshold."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from .teams import Team

# The response-time figures a threshold can apply to (as ``portal.results.selectors.LATENCIES``).
LATENCY_CHOICES = [
    ("avg", "average"),
    ("p50", "50th percentile"),
    ("p90", "90th percentile"),
    ("p95", "95th percentile"),
    ("p99", "99th percentile"),
    ("p99.9", "99.9th percentile"),
    ("max", "maximum"),
]


class ThresholdDefault(models.Model):
    """The threshold and latency figure the compare page (and the run and system pages) read at when the
    address states none: a user's own, else their team's (set by its admin), else the papers' 20 ms average."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="threshold_default"
    )
    team = models.OneToOneField(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="threshold_default")
    threshold_ms = models.FloatField()
    latency = models.CharField(max_length=8, choices=LATENCY_CHOICES, default="avg")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(user__isnull=False, team__isnull=True) | Q(user__isnull=True, team__isnull=False),
                name="threshold_default_user_or_team",
            ),
            models.CheckConstraint(
                condition=Q(threshold_ms__gt=0, threshold_ms__lte=100_000), name="threshold_default_positive"
            ),
        ]

    def __str__(self) -> str:
        owner = self.user or self.team
        return f"{owner}: {self.threshold_ms:g} ms, {self.get_latency_display()}"
