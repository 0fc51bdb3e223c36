"""The throughput at a response-time threshold read in the database, so a comparison at any threshold or
latency sums each group of replicates up in one query instead of reading every point of every run.

``arraybench_figure_at`` reads a run's curve (its throughputs and response times in load order, points
without a response time left out) by the rules of ``portal.analysis.curves.throughput_at`` for a measured
run: ``interpolate`` or ``at_or_below``, with the same statuses and the same arithmetic."""

from django.db import migrations

FIGURE_AT = """
CREATE OR REPLACE FUNCTION arraybench_figure_at(
    throughputs double precision[], responses double precision[], threshold_ms double precision, rule text,
    OUT value double precision, OUT status text, OUT reached boolean
) LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    n integer := coalesce(array_length(throughputs, 1), 0);
    i integer;
    best integer;  -- at_or_below: the first best point at or under the threshold
    first_over integer;  -- interpolate: the first point over the threshold
    first_at integer;  -- the first point exactly at the threshold
    highest double precision;  -- the best throughput of all points
    share double precision;
BEGIN
    reached := true;
    IF n = 0 THEN
        status := 'no_data';
        reached := false;
        RETURN;
    END IF;
    -- One pass over the curve, every loop body a simple expression (no query per run).
    FOR i IN 1..n LOOP
        IF highest IS NULL OR throughputs[i] > highest THEN
            highest := throughputs[i];
        END IF;
        IF responses[i] <= threshold_ms AND (best IS NULL OR throughputs[i] > throughputs[best]) THEN
            best := i;
        END IF;
        IF first_over IS NULL AND responses[i] > threshold_ms THEN
            first_over := i;
        END IF;
        IF first_at IS NULL AND responses[i] = threshold_ms THEN
            first_at := i;
        END IF;
    END LOOP;
    IF rule = 'at_or_below' THEN
        IF best IS NULL THEN
            status := 'first_point_over';
        ELSIF first_over IS NULL AND first_at IS NULL THEN
            value := highest;
            status := 'not_reached';
            reached := false;
        ELSE
            value := throughputs[best];
            status := 'measured';
        END IF;
    ELSIF first_over = 1 THEN
        status := 'first_point_over';
    ELSIF first_over IS NULL AND first_at IS NOT NULL THEN
        value := throughputs[first_at];
        status := 'measured';
    ELSIF first_over IS NULL THEN
        value := highest;
        status := 'not_reached';
        reached := false;
    ELSIF responses[first_over - 1] = threshold_ms THEN
        value := throughputs[first_over - 1];
        status := 'measured';
    ELSE
        share := (threshold_ms - responses[first_over - 1]) / (responses[first_over] - responses[first_over - 1]);
        value := throughputs[first_over - 1] + share * (throughputs[first_over] - throughputs[first_over - 1]);
        status := 'interpolated';
    END IF;
END;
$$
"""


class Migration(migrations.Migration):
    dependencies = [("portal", "0017_single_measured_points")]

    operations = [
        migrations.RunSQL(
            FIGURE_AT,
            reverse_sql="DROP FUNCTION IF EXISTS arraybench_figure_at(double precision[], double precision[], "
            "double precision, text)",
        )
    ]
