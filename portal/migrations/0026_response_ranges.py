"""Each run's range of response times at each latency (the lowest and highest of the points a figure is read
from, and their best throughput), filled for the runs whose figures are stored from their curves in one
statement, as ``portal.results.figures.run_response_ranges`` computes them when runs are stored; and the index
of published runs by configuration."""

from django.db import migrations, models

RESPONSES = ("avg_response_ms", "max_response_ms", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "p99_9_ms")
KINDS = ("lowest", "highest", "peak_with")
COLUMNS = tuple(f"{kind}_{name}" for name in RESPONSES for kind in KINDS)

# The points with the run's throughput and the response time, in each latency's lateral subquery.
RANGE = """
CROSS JOIN LATERAL (
    SELECT min(r) AS lowest, max(r) AS highest, max(t) AS peak_with
    FROM unnest(CASE WHEN run.throughput_metric = 'iops' THEN curve.iops ELSE curve.mbps END, curve.{response})
         AS point(t, r)
    WHERE t IS NOT NULL AND r IS NOT NULL
) AS {response}
"""

FILL = f"""
UPDATE portal_run AS run SET {", ".join(f"{column} = ranges.{column}" for column in COLUMNS)}
FROM (SELECT run.id, {", ".join(f"{name}.{kind} AS {kind}_{name}" for name in RESPONSES for kind in KINDS)}
      FROM portal_run AS run
      JOIN portal_runcurve AS curve ON curve.run_id = run.id
      {"".join(RANGE.format(response=name) for name in RESPONSES)}
      WHERE run.throughput_metric <> '') AS ranges
WHERE run.id = ranges.id
"""


class Migration(migrations.Migration):
    dependencies = [("portal", "0025_run_compared_index")]

    operations = [
        *(
            migrations.AddField(model_name="run", name=f"{kind}_{name}", field=models.FloatField(blank=True, null=True))
            for name in RESPONSES
            for kind in KINDS
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
        migrations.AddIndex(
            model_name="run",
            index=models.Index(condition=models.Q(("origin", "published")), fields=["config"], name="run_published"),
        ),
    ]
