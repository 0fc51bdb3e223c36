from django.db import migrations, models
from django.db.models import Count


def single_measured_points(apps, schema_editor):
    """A run of one measured point was read as if a paper had published it at the threshold; its stored
    figures are read again as a measurement at its own response time (a lower bound, or no value)."""
    from portal.results.figures import runs_stored_figures_recompute

    run = apps.get_model("portal", "Run")
    single = (
        run.objects.filter(origin="measured")
        .annotate(point_count=Count("points"))
        .filter(point_count=1)
        .order_by("id")
        .values_list("id", flat=True)
    )
    ids = list(single)
    for start in range(0, len(ids), 5_000):
        runs_stored_figures_recompute(run_ids=ids[start : start + 5_000], curves=False)


def workloads_titled_by_what_they_do(apps, schema_editor):
    """Workloads no paper named were titled by the first job name a tool stored them under ("iotest");
    they are titled by what they do, the job names kept as aliases."""
    from portal.analysis.workloads import Signature, describe

    workload = apps.get_model("portal", "Workload")
    renamed = []
    for found in workload.objects.exclude(runs__origin="published").distinct():
        sizes = tuple((int(size), int(pct)) for size, pct in found.transfer_sizes)
        sig = Signature(found.read_pct, found.random_pct, sizes, found.alignment_bytes, found.streams)
        found.name = describe(sig)[:200]
        renamed.append(found)
    workload.objects.bulk_update(renamed, ["name"], batch_size=1_000)


class Migration(migrations.Migration):
    dependencies = [("portal", "0016_threshold_defaults")]

    operations = [
        migrations.AlterField(
            model_name="workload",
            name="name",
            field=models.CharField(
                help_text="Shown everywhere: what it does in words, or the name a paper or a person gave it.",
                max_length=200,
            ),
        ),
        migrations.RunPython(single_measured_points, migrations.RunPython.noop),
        migrations.RunPython(workloads_titled_by_what_they_do, migrations.RunPython.noop),
    ]
