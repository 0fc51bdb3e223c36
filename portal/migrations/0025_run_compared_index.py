# Each run's lowest and highest average response time, and its stored figure and status in the metric it is
# judged by, kept as columns the database computes (filled for existing runs by the ALTER TABLE itself), and the
# index a comparison at the stored default reads a system's comparable runs from alone.

import django.db.models.fields.json
import django.db.models.functions.comparison
from django.db import migrations, models


def _summary_ms(key):
    return models.Case(
        models.When(
            **{f"summary__{key}__regex": "^-?[0-9]{1,18}(\\.[0-9]{1,255})?$"},
            then=django.db.models.functions.comparison.Cast(
                django.db.models.fields.json.KeyTextTransform(key, "summary"), models.FloatField()
            ),
        )
    )


def _in_metric(iops, mbps, *, default):
    return models.Case(
        models.When(throughput_metric="iops", then=models.F(iops)),
        models.When(throughput_metric="mbps", then=models.F(mbps)),
        default=default,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0024_sweep_cells"),
    ]

    operations = [
        migrations.AddField(
            model_name="run",
            name="min_avg_response_ms",
            field=models.GeneratedField(
                db_persist=True, expression=_summary_ms("min_response_ms"), output_field=models.FloatField(null=True)
            ),
        ),
        migrations.AddField(
            model_name="run",
            name="max_avg_response_ms",
            field=models.GeneratedField(
                db_persist=True, expression=_summary_ms("max_response_ms"), output_field=models.FloatField(null=True)
            ),
        ),
        migrations.AddField(
            model_name="run",
            name="throughput_at_20ms",
            field=models.GeneratedField(
                db_persist=True,
                expression=_in_metric("iops_at_20ms", "mbps_at_20ms", default=None),
                output_field=models.FloatField(null=True),
            ),
        ),
        migrations.AddField(
            model_name="run",
            name="throughput_at_20ms_status",
            field=models.GeneratedField(
                db_persist=True,
                expression=_in_metric("iops_at_20ms_status", "mbps_at_20ms_status", default=models.Value("")),
                output_field=models.CharField(max_length=16),
            ),
        ),
        migrations.AddIndex(
            model_name="run",
            index=models.Index(
                condition=models.Q(("excluded_reason", ""), ("phase", "measurement")),
                fields=["config"],
                include=(
                    *("workload_id", "workload_name", "read_pct", "random_pct", "id", "origin", "published_at_ms"),
                    *("throughput_metric", "throughput_at_20ms", "throughput_at_20ms_status", "reached_20ms"),
                    *("published_mbps_binary", "min_avg_response_ms", "max_avg_response_ms"),
                ),
                name="run_config_compared",
            ),
        ),
    ]
