-- A run's figure at a response-time threshold, read from its stored curve (portal_runcurve): the rules of
-- portal.analysis.curves.throughput_at for a measured run, with the same statuses and the same arithmetic.
-- Rule interpolate reads the curve's upper envelope: the best throughput at or under the threshold (of equal
-- throughputs, the quickest point), interpolated towards the quickest point over the threshold with more
-- throughput; rule at_or_below takes that best point. Neither depends on the order of the points (the arrays
-- come in the curve's order all the same: increasing load, points of equal load in increasing average
-- response time, then IOPS, then MB/s, portal.results.figures). highest_ms and highest are accepted and not
-- read (the callers pass them; the envelope is read from the response times themselves).

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


DROP FUNCTION IF EXISTS arraybench_figure_at_every_point(double precision[], double precision[], double precision, text);
