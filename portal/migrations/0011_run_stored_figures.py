from django.db import migrations, models


def fill(apps, schema_editor):
    """The figures of the runs stored so far, read from their points by the function that stores them."""
    from portal.results.figures import runs_stored_figures_fill

    runs_stored_figures_fill(curves=False)


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0010_system_run_facets"),
    ]

    operations = [
        migrations.AddField(
            model_name="run",
            name="iops_at_20ms",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="run",
            name="iops_at_20ms_status",
            field=models.CharField(blank=True, db_default="", default="", max_length=16),
        ),
        migrations.AddField(
            model_name="run",
            name="mbps_at_20ms",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="run",
            name="mbps_at_20ms_status",
            field=models.CharField(blank=True, db_default="", default="", max_length=16),
        ),
        migrations.AddField(
            model_name="run",
            name="published_mbps_binary",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="run",
            name="reached_20ms",
            field=models.BooleanField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="run",
            name="throughput_metric",
            field=models.CharField(
                blank=True,
                db_default="",
                default="",
                help_text='"iops" or "mbps": what the run is judged by.',
                max_length=4,
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="run",
            index=models.Index(
                condition=models.Q(("throughput_metric", "")), fields=["config"], name="run_figures_not_stored"
            ),
        ),
    ]
