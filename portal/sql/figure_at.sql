-- A run's figure at a response-time threshold, read from its stored curve (portal_runcurve): the rules of
-- portal.analysis.curves.throughput_at for a measured run, with the same statuses and the same arithmetic.
-- The arrays come in the curve's order: increasing load, points of equal load in increasing average response
-- time, then IOPS, then MB/s (portal.results.figures). arraybench_figure_at reads a curve whose points all have
-- both figures by binary search on the highest response time up to each point (highest_ms); any other curve
-- (points missing a figure, rule at_or_below) is read point by point by arraybench_figure_at_every_point.

CREATE OR REPLACE FUNCTION arraybench_figure_at_every_point(
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
$$;

CREATE OR REPLACE FUNCTION arraybench_figure_at(
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
$$;
