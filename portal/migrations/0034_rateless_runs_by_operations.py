"""A run whose points state no rate (a test bonnie++ found too fast to time, '+++++'; an ORION latency table)
is judged by operations, not MB/s (``portal.results.selectors.points_metric``): such runs stored before are
read again, so that their figures are headed by their test's kind (bonnie++'s file stat: metadata ops/s)."""

from django.db import migrations

# Runs judged by MB/s whose points state MB/s nowhere without IOPS: the runs the rule now judges by IOPS.
_RATELESS = """
SELECT run.id FROM portal_run run
WHERE run.throughput_metric = 'mbps'
  AND EXISTS (SELECT 1 FROM portal_point point WHERE point.run_id = run.id)
  AND NOT EXISTS (
    SELECT 1 FROM portal_point point WHERE point.run_id = run.id AND point.iops IS NULL AND point.mbps IS NOT NULL
  )
ORDER BY run.id
"""


def rateless_runs_read_again(apps, schema_editor):
    from portal.results.figures import runs_stored_figures_recompute

    with schema_editor.connection.cursor() as cursor:
        cursor.execute(_RATELESS)
        ids = [row[0] for row in cursor.fetchall()]
    for start in range(0, len(ids), 5_000):
        runs_stored_figures_recompute(run_ids=ids[start : start + 5_000])


class Migration(migrations.Migration):
    dependencies = [("portal", "0033_run_config_firmware")]

    operations = [migrations.RunPython(rateless_runs_read_again, migrations.RunPython.noop)]
