from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0011_run_stored_figures"),
    ]

    operations = [
        # Replaced by the same columns and the id: equality on (config, workload_name) is served as
        # before, and a system page reads the first runs of a workload in id order from it.
        migrations.RemoveIndex(model_name="run", name="run_config_workload"),
        migrations.AddIndex(
            model_name="run",
            index=models.Index(fields=["config", "workload_name", "id"], name="run_config_workload_id"),
        ),
        migrations.AddIndex(
            model_name="run",
            index=models.Index(fields=["config", "workload_name", "tool", "id"], name="run_config_workload_tool"),
        ),
        migrations.AddIndex(
            model_name="run",
            index=models.Index(
                condition=models.Q(("transfer_sizes__0__isnull", False), ("transfer_sizes__1__isnull", True)),
                fields=["config"],
                name="run_config_single_size",
            ),
        ),
    ]
