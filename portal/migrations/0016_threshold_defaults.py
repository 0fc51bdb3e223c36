# A reader's or a team's default threshold and latency figure.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0015_team_workload_overrides"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ThresholdDefault",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("threshold_ms", models.FloatField()),
                (
                    "latency",
                    models.CharField(
                        choices=[
                            ("avg", "average"),
                            ("p50", "50th percentile"),
                            ("p90", "90th percentile"),
                            ("p95", "95th percentile"),
                            ("p99", "99th percentile"),
                            ("p99.9", "99.9th percentile"),
                            ("max", "maximum"),
                        ],
                        default="avg",
                        max_length=8,
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "team",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="threshold_default",
                        to="portal.team",
                    ),
                ),
                (
                    "user",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="threshold_default",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("team__isnull", True), ("user__isnull", False)),
                            models.Q(("team__isnull", False), ("user__isnull", True)),
                            _connector="OR",
                        ),
                        name="threshold_default_user_or_team",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("threshold_ms__gt", 0), ("threshold_ms__lte", 100000)),
                        name="threshold_default_positive",
                    ),
                ],
            },
        ),
    ]
