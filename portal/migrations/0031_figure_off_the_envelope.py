"""``arraybench_figure_at`` reads the interpolation rule off a curve's upper envelope, as
``portal.analysis.curves.throughput_at`` does: the best throughput at or under the threshold (of equal
throughputs, the quickest point), interpolated towards the quickest point over the threshold with more
throughput. Reading the first crossing in load order stated a grid's figure (fio iodepth x numjobs, ordered by
outstanding I/Os) below a cell measured under the threshold. The stored figures of measured runs are read
again by the same rule."""

import importlib

from django.db import migrations
from django.db.models import Count

from portal.sql import text

# The function as portal/sql/figure_at.sql holds it (its one home).
FIGURE_AT = text("figure_at.sql")


def _figure_at_before() -> str:
    before = importlib.import_module("portal.migrations.0021_run_curves")
    return before.EVERY_POINT + ";" + before.FIGURE_AT.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)


def measured_figures_read_again(apps, schema_editor):
    """Runs of several measured points whose stored figures were read at the first crossing are read again."""
    from portal.results.figures import runs_stored_figures_recompute

    run = apps.get_model("portal", "Run")
    ids = list(
        run.objects.filter(origin="measured")
        .annotate(point_count=Count("points"))
        .filter(point_count__gt=1)
        .order_by("id")
        .values_list("id", flat=True)
    )
    for start in range(0, len(ids), 5_000):
        runs_stored_figures_recompute(run_ids=ids[start : start + 5_000], curves=False)


class Migration(migrations.Migration):
    dependencies = [("portal", "0030_default_alignment")]

    operations = [
        migrations.RunSQL(FIGURE_AT, _figure_at_before()),
        migrations.RunPython(measured_figures_read_again, migrations.RunPython.noop),
    ]
