"""The functions and triggers PostgreSQL keeps for the portal installed from their files (``portal/sql``), and
the stored curves of runs with points of equal load put in the curve's order (``CURVE_ORDER``: increasing
average response time, then IOPS, then MB/s), so their figures no longer depend on the order of their files."""

from django.db import migrations

from portal.sql import install

EQUAL_LOADS = """
SELECT DISTINCT run_id FROM portal_point
GROUP BY run_id, coalesce(outstanding_io, nullif(threads, 0), seq) HAVING count(*) > 1
"""


def curves_in_order(apps, schema_editor):
    from portal.results.figures import runs_curves_recompute

    with schema_editor.connection.cursor() as cursor:
        cursor.execute(EQUAL_LOADS)
        run_ids = [run_id for (run_id,) in cursor.fetchall()]
    for start in range(0, len(run_ids), 5_000):
        runs_curves_recompute(run_ids=run_ids[start : start + 5_000])


class Migration(migrations.Migration):
    dependencies = [("portal", "0031_figure_off_the_envelope")]

    operations = [
        install("figure_at.sql"),
        install("sweep_cells.sql"),
        migrations.RunPython(curves_in_order, migrations.RunPython.noop),
    ]
