"""``arraybench_figure_at`` reads the interpolation rule off a curve's upper envelope, as
``portal.analysis.curves.throughput_at`` does: the best throughput at or under the threshold (of equal
throughputs, the quickest point), interpolated towards the quickest point over the threshold with more
throughput. Reading the first crossing in load order stated a grid's figure (fio iodepth x numjobs, ordered by
outstanding I/Os) below a cell measured under the threshold. The stored figures of measured runs are read
again by the same rule."""

import importlib

from django.db import migrations
from django.db.models import Count

FIGURE_AT = """
CREATE OR REPLACE FUNCTION arraybench_figure_at(
    throughputs double precision[], responses double precision[], threshold_ms double precision, rule text,
    highest_ms double precision[] DEFAULT NULL, highest double precision DEFAULT NULL
) RETURNS TABLE (value double precision, status text, reached boolean)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT CASE WHEN curve.n = 0 OR curve.best IS NULL THEN NULL
            WHEN NOT curve.reached OR rule = 'at_or_below' OR towards.r IS NULL OR best.r = threshold_ms THEN curve.best
            ELSE curve.best + ((threshold_ms - best.r) / (towards.r - best.r)) * (towards.t - curve.best)
       END,
       CASE WHEN curve.n = 0 THEN 'no_data'
            WHEN curve.best IS NULL THEN 'first_point_over'
            WHEN NOT curve.reached THEN 'not_reached'
            WHEN rule = 'at_or_below' OR towards.r IS NULL OR best.r = threshold_ms THEN 'measured'
            ELSE 'interpolated'
       END,
       curve.n > 0 AND curve.reached
FROM (
    -- The points with both figures: their number, the best throughput at or under the threshold, and
    -- whether any point reaches the threshold.
    SELECT count(*) AS n, max(t) FILTER (WHERE r <= threshold_ms) AS best,
           coalesce(bool_or(r >= threshold_ms), false) AS reached
    FROM unnest(throughputs, responses) AS point(t, r)
    WHERE t IS NOT NULL AND r IS NOT NULL
) AS curve
CROSS JOIN LATERAL (
    -- The quickest point with the best throughput at or under the threshold.
    SELECT min(r) AS r FROM unnest(throughputs, responses) AS point(t, r) WHERE r <= threshold_ms AND t = curve.best
) AS best
LEFT JOIN LATERAL (
    -- The envelope's next point: the quickest over the threshold with more throughput (interpolation only).
    SELECT t, r FROM unnest(throughputs, responses) AS point(t, r)
    WHERE rule <> 'at_or_below' AND r > threshold_ms AND t > curve.best
    ORDER BY r, t DESC LIMIT 1
) AS towards ON true
$$;
DROP FUNCTION arraybench_figure_at_every_point(double precision[], double precision[], double precision, text)
"""


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
