# Each run's single transfer size kept as a column the database computes (filled for existing runs by the
# ALTER TABLE itself), the system page's index of single-size runs by configuration and size, and the workload
# each run is of kept in the index of a configuration's runs by name.

import django.db.models.fields.json
import django.db.models.functions.comparison
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0022_iometer_metrics_arrays"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="run",
            name="run_config_single_size",
        ),
        migrations.AddField(
            model_name="run",
            name="single_transfer_bytes",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Case(
                    models.When(
                        models.Q(
                            ("transfer_sizes__0__bytes__regex", "^[0-9]{1,18}$"), ("transfer_sizes__1__isnull", True)
                        ),
                        then=django.db.models.functions.comparison.Cast(
                            django.db.models.fields.json.KeyTextTransform(
                                "bytes", django.db.models.fields.json.KeyTextTransform("0", "transfer_sizes")
                            ),
                            models.BigIntegerField(),
                        ),
                    )
                ),
                output_field=models.BigIntegerField(null=True),
            ),
        ),
        migrations.AddIndex(
            model_name="run",
            index=models.Index(
                condition=models.Q(("single_transfer_bytes__gt", 0)),
                fields=["config", "single_transfer_bytes"],
                include=["tool", "random_pct", "read_pct", "id"],
                name="run_config_single_size",
            ),
        ),
        migrations.RemoveIndex(
            model_name="run",
            name="run_config_workload_id",
        ),
        migrations.AddIndex(
            model_name="run",
            index=models.Index(
                fields=["config", "workload_name", "id"], include=("workload_id",), name="run_config_workload_id"
            ),
        ),
    ]
