"""Each run's curve stored with it as arrays in load order (``RunCurve``), filled for the runs stored so far
from their points in one statement, and ``arraybench_figure_at`` read from those arrays as they are stored.

The function is plain SQL the planner inlines. Given the highest response time up to each point (a curve row
holds it where it differs from the response time itself) and the peak throughput, a curve whose points all
have both figures is read by the interpolation rule with a binary search (``width_bucket``) and a few
subscripts; any other curve (points missing a figure, ``at_or_below``) in one pass over its points, skipping
those missing the throughput or the response time.
The rules are those of ``portal.analysis.curves.throughput_at`` for a measured run, with the same statuses and
the same arithmetic."""

import importlib

import django.contrib.postgres.fields
import django.db.models.deletion
from django.db import migrations, models

LOAD = "coalesce(outstanding_io, nullif(threads, 0), seq)"
RESPONSES = {
    "avg_response_ms": "avg_response_ms",
    "max_response_ms": "max_response_ms",
    "p50_ms": "(latency_percentiles_ms ->> '50')::double precision",
    "p90_ms": "(latency_percentiles_ms ->> '90')::double precision",
    "p95_ms": "(latency_percentiles_ms ->> '95')::double precision",
    "p99_ms": "(latency_percentiles_ms ->> '99')::double precision",
    "p99_9_ms": "(latency_percentiles_ms ->> '99.9')::double precision",
}
ARRAYS = ("loads", "iops", "mbps", *RESPONSES)

HIGHEST = tuple(f"highest_{name}" for name in RESPONSES)
# NULL where the highest so far is the response time itself.
HIGHEST_SQL = tuple(
    f"nullif(array_agg(highest_{name} ORDER BY loads, seq), array_agg({name} ORDER BY loads, seq))"
    for name in RESPONSES
)

FILL = f"""
INSERT INTO portal_runcurve ({", ".join(ARRAYS)}, {", ".join(HIGHEST)}, run_id, peak_iops, peak_mbps)
SELECT {", ".join(f"array_agg({name} ORDER BY loads, seq)" for name in ARRAYS)},
       {", ".join(HIGHEST_SQL)},
       run_id, max(iops), max(mbps)
FROM (SELECT run_id, seq, {LOAD} AS loads, iops, mbps,
             {", ".join(f"{sql} AS {name}" for name, sql in RESPONSES.items())},
             {", ".join(f"max({sql}) OVER by_load AS highest_{name}" for name, sql in RESPONSES.items())}
      FROM portal_point
      WINDOW by_load AS (PARTITION BY run_id ORDER BY {LOAD}, seq ROWS UNBOUNDED PRECEDING)) AS point
GROUP BY run_id
"""

EVERY_POINT = """
CREATE FUNCTION arraybench_figure_at_every_point(
    throughputs double precision[], responses double precision[], threshold_ms double precision, rule text
) RETURNS TABLE (value double precision, status text, reached boolean)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE
           WHEN crossing.n = 0 THEN NULL
           WHEN rule = 'at_or_below' THEN
               CASE WHEN crossing.best IS NULL THEN NULL
                    WHEN crossing.first_over IS NULL AND crossing.first_at IS NULL THEN crossing.highest
                    ELSE crossing.best END
           WHEN crossing.first_over = crossing.first_usable THEN NULL
           WHEN crossing.first_over IS NULL AND crossing.first_at IS NOT NULL THEN throughputs[crossing.first_at]
           WHEN crossing.first_over IS NULL THEN crossing.highest
           WHEN responses[below.i] = threshold_ms THEN throughputs[below.i]
           ELSE throughputs[below.i]
                + ((threshold_ms - responses[below.i]) / (responses[crossing.first_over] - responses[below.i]))
                  * (throughputs[crossing.first_over] - throughputs[below.i])
       END,
       CASE
           WHEN crossing.n = 0 THEN 'no_data'
           WHEN rule = 'at_or_below' THEN
               CASE WHEN crossing.best IS NULL THEN 'first_point_over'
                    WHEN crossing.first_over IS NULL AND crossing.first_at IS NULL THEN 'not_reached'
                    ELSE 'measured' END
           WHEN crossing.first_over = crossing.first_usable THEN 'first_point_over'
           WHEN crossing.first_over IS NULL AND crossing.first_at IS NOT NULL THEN 'measured'
           WHEN crossing.first_over IS NULL THEN 'not_reached'
           WHEN responses[below.i] = threshold_ms THEN 'measured'
           ELSE 'interpolated'
       END,
       crossing.n > 0 AND (crossing.first_over IS NOT NULL OR crossing.first_at IS NOT NULL)
FROM (
    -- One pass over the points with both figures: where the curve first goes over the threshold, first
    -- touches it, its best point at or under it and its best point of all.
    SELECT count(*) AS n, min(i)::int AS first_usable,
           (min(i) FILTER (WHERE r > threshold_ms))::int AS first_over,
           (min(i) FILTER (WHERE r = threshold_ms))::int AS first_at,
           max(t) AS highest, max(t) FILTER (WHERE r <= threshold_ms) AS best
    FROM unnest(throughputs, responses) WITH ORDINALITY AS point(t, r, i)
    WHERE t IS NOT NULL AND r IS NOT NULL
) AS crossing
CROSS JOIN LATERAL (
    -- The last point with both figures before the first one over: read only when interpolating.
    SELECT max(i)::int AS i
    FROM unnest(throughputs, responses) WITH ORDINALITY AS point(t, r, i)
    WHERE rule <> 'at_or_below' AND crossing.first_over > crossing.first_usable
      AND i < crossing.first_over AND t IS NOT NULL AND r IS NOT NULL
) AS below
$$
"""

FIGURE_AT = """
CREATE FUNCTION arraybench_figure_at(
    throughputs double precision[], responses double precision[], threshold_ms double precision, rule text,
    highest_ms double precision[] DEFAULT NULL, highest double precision DEFAULT NULL
) RETURNS TABLE (value double precision, status text, reached boolean)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE WHEN NOT fast.ok THEN (
                SELECT every.value
                FROM arraybench_figure_at_every_point(throughputs, responses, threshold_ms, rule) AS every)
            WHEN fast.n = 0 OR fast.below = 0 THEN NULL
            WHEN fast.below = fast.n THEN coalesce(throughputs[array_position(highest_ms, threshold_ms)], highest)
            WHEN responses[fast.below] = threshold_ms THEN throughputs[fast.below]
            ELSE throughputs[fast.below]
                 + ((threshold_ms - responses[fast.below]) / (responses[fast.below + 1] - responses[fast.below]))
                   * (throughputs[fast.below + 1] - throughputs[fast.below])
       END,
       CASE WHEN NOT fast.ok THEN (
                SELECT every.status
                FROM arraybench_figure_at_every_point(throughputs, responses, threshold_ms, rule) AS every)
            WHEN fast.n = 0 THEN 'no_data'
            WHEN fast.below = 0 THEN 'first_point_over'
            WHEN fast.below = fast.n AND array_position(highest_ms, threshold_ms) IS NULL THEN 'not_reached'
            WHEN fast.below = fast.n OR responses[fast.below] = threshold_ms THEN 'measured'
            ELSE 'interpolated'
       END,
       CASE WHEN NOT fast.ok THEN (
                SELECT every.reached
                FROM arraybench_figure_at_every_point(throughputs, responses, threshold_ms, rule) AS every)
            ELSE fast.n > 0 AND (fast.below < fast.n OR array_position(highest_ms, threshold_ms) IS NOT NULL)
       END
FROM (
    -- Every point has both figures: the points up to the first one over the threshold are those whose
    -- highest response time so far is at or under it. Any other curve is read point by point.
    SELECT highest_ms IS NOT NULL AND rule <> 'at_or_below' AND array_position(throughputs, NULL) IS NULL
           AND array_position(responses, NULL) IS NULL AS ok,
           coalesce(cardinality(responses), 0) AS n, width_bucket(threshold_ms, highest_ms) AS below
) AS fast
$$
"""

DROP_BEFORE = "DROP FUNCTION arraybench_figure_at(double precision[], double precision[], double precision, text)"
DROP_NOW = (
    "DROP FUNCTION arraybench_figure_at(double precision[], double precision[], double precision, text, "
    "double precision[], double precision); "
    "DROP FUNCTION arraybench_figure_at_every_point(double precision[], double precision[], double precision, text)"
)


def _figure_at_before():
    return importlib.import_module("portal.migrations.0018_threshold_in_database").FIGURE_AT


def _array():
    return django.contrib.postgres.fields.ArrayField(base_field=models.FloatField(null=True), default=list, size=None)


def _highest_array():
    return django.contrib.postgres.fields.ArrayField(base_field=models.FloatField(null=True), null=True, size=None)


class Migration(migrations.Migration):
    dependencies = [("portal", "0020_invitations")]

    operations = [
        migrations.CreateModel(
            name="RunCurve",
            fields=[
                (
                    "run",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="curve",
                        serialize=False,
                        to="portal.run",
                    ),
                ),
                *((name, _array()) for name in ARRAYS),
                *((name, _highest_array()) for name in HIGHEST),
                ("peak_iops", models.FloatField(null=True)),
                ("peak_mbps", models.FloatField(null=True)),
            ],
        ),
        # A curve of a few dozen points stays in its row uncompressed (read by subscript, several times a figure).
        migrations.RunSQL(
            "ALTER TABLE portal_runcurve SET (toast_tuple_target = 8160)",
            "ALTER TABLE portal_runcurve RESET (toast_tuple_target)",
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
        migrations.RunSQL(DROP_BEFORE + ";" + EVERY_POINT + ";" + FIGURE_AT, DROP_NOW + ";" + _figure_at_before()),
    ]
