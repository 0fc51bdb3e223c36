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
    best integer;
    first_over integer;
    share double precision;
BEGIN
    reached := true;
    IF n = 0 THEN
        status := 'no_data';
        reached := false;
        RETURN;
    END IF;
    IF rule = 'at_or_below' THEN
        FOR i IN 1..n LOOP
            IF responses[i] <= threshold_ms AND (best IS NULL OR throughputs[i] > throughputs[best]) THEN
                best := i;
            END IF;
        END LOOP;
        IF best IS NULL THEN
            status := 'first_point_over';
        ELSIF threshold_ms > ALL (responses) THEN
            value := (SELECT max(t) FROM unnest(throughputs) AS t);
            status := 'not_reached';
            reached := false;
        ELSE
            value := throughputs[best];
            status := 'measured';
        END IF;
        RETURN;
    END IF;
    FOR i IN 1..n LOOP
        IF responses[i] > threshold_ms THEN
            first_over := i;
            EXIT;
        END IF;
    END LOOP;
    IF first_over = 1 THEN
        status := 'first_point_over';
    ELSIF first_over IS NULL THEN
        FOR i IN 1..n LOOP
            IF responses[i] = threshold_ms THEN
                value := throughputs[i];
                status := 'measured';
                RETURN;
            END IF;
        END LOOP;
        value := (SELECT max(t) FROM unnest(throughputs) AS t);
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
