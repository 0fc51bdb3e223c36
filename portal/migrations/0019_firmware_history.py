import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0018_threshold_in_database"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="run",
            name="firmware",
            field=models.CharField(blank=True, db_default="", default="", max_length=100),
        ),
        migrations.CreateModel(
            name="AlertSummary",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "version",
                    models.CharField(
                        help_text="The firmware version (or measured date) changes start at.", max_length=100
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "delivery",
                    models.CharField(
                        choices=[
                            ("none", "no webhook"),
                            ("pending", "not sent yet"),
                            ("sent", "sent"),
                            ("failed", "failed"),
                        ],
                        default="none",
                        max_length=8,
                    ),
                ),
                ("delivery_attempts", models.PositiveSmallIntegerField(default=0)),
                ("delivery_error", models.CharField(blank=True, max_length=500)),
                ("delivered_at", models.DateTimeField(blank=True, null=True)),
                (
                    "system",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="alert_summaries", to="portal.system"
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Alert",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("workload_name", models.CharField(max_length=200)),
                ("series", models.CharField(help_text='"workload:<id>" or "name:<stored name>".', max_length=220)),
                (
                    "figure",
                    models.CharField(
                        choices=[
                            ("throughput_at_20ms", "throughput at 20 ms"),
                            ("response_at_load", "average response time at a fixed load"),
                            ("p50_at_load", "50th percentile response time at a fixed load"),
                            ("p90_at_load", "90th percentile response time at a fixed load"),
                            ("p95_at_load", "95th percentile response time at a fixed load"),
                            ("p99_at_load", "99th percentile response time at a fixed load"),
                            ("p99.9_at_load", "99.9th percentile response time at a fixed load"),
                        ],
                        default="throughput_at_20ms",
                        max_length=24,
                    ),
                ),
                ("metric", models.CharField(help_text='"iops", "mbps" or "ms".', max_length=4)),
                ("version", models.CharField(max_length=100)),
                ("previous_version", models.CharField(blank=True, max_length=100)),
                ("before_mean", models.FloatField()),
                ("after_mean", models.FloatField()),
                ("change_pct", models.FloatField()),
                ("p_value", models.FloatField()),
                ("tentative", models.BooleanField(default=False)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("untriaged", "Untriaged"),
                            ("investigating", "Investigating"),
                            ("acknowledged", "Acknowledged"),
                            ("expected", "expected (a new baseline)"),
                            ("invalid", "Invalid"),
                            ("fixed", "Fixed"),
                        ],
                        default="untriaged",
                        max_length=16,
                    ),
                ),
                ("note", models.TextField(blank=True)),
                ("status_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "config",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="alerts", to="portal.config"
                    ),
                ),
                (
                    "status_by",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "system",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="alerts", to="portal.system"
                    ),
                ),
                (
                    "workload",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="portal.workload",
                    ),
                ),
                (
                    "summary",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="alerts", to="portal.alertsummary"
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="AlertTriage",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("untriaged", "Untriaged"),
                            ("investigating", "Investigating"),
                            ("acknowledged", "Acknowledged"),
                            ("expected", "expected (a new baseline)"),
                            ("invalid", "Invalid"),
                            ("fixed", "Fixed"),
                        ],
                        max_length=16,
                    ),
                ),
                ("note", models.TextField(blank=True)),
                ("actor_name", models.CharField(blank=True, max_length=150)),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "alert",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="triages", to="portal.alert"
                    ),
                ),
            ],
            options={
                "ordering": ["alert", "at", "id"],
            },
        ),
        migrations.CreateModel(
            name="TeamWebhook",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("url", models.URLField(max_length=500)),
                ("set_at", models.DateTimeField(auto_now=True)),
                (
                    "team",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="webhook", to="portal.team"
                    ),
                ),
            ],
        ),
        migrations.AddConstraint(
            model_name="alertsummary",
            constraint=models.UniqueConstraint(fields=("system", "version"), name="alertsummary_system_version"),
        ),
        migrations.AddIndex(
            model_name="alert",
            index=models.Index(fields=["system", "status"], name="alert_system_status"),
        ),
        migrations.AddIndex(
            model_name="alert",
            index=models.Index(fields=["status", "-created_at"], name="alert_status_created"),
        ),
        migrations.AddConstraint(
            model_name="alert",
            constraint=models.UniqueConstraint(
                fields=("config", "series", "figure", "version"), name="alert_series_version"
            ),
        ),
    ]
