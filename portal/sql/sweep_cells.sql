-- Each configuration's transfer-size sweep cells (portal_sweepcell), kept summed up by PostgreSQL: a function
-- sums a configuration's cells up again from its points, called by triggers after each statement that adds,
-- removes or changes points and after each change of what a run's cell is.
-- A cell names its first 5 runs by id (SweepCell.RUNS_NAMED).

CREATE OR REPLACE FUNCTION portal_sweep_cells_recompute(config_ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    -- One writer of a configuration's cells at a time, in id order; the sums below are read after the
    -- lock, so they see the points of a writer that held it before.
    PERFORM pg_advisory_xact_lock(hashtext('portal_sweepcell'), (id % 2147483647)::integer)
    FROM (SELECT DISTINCT id FROM unnest(config_ids) AS id WHERE id IS NOT NULL ORDER BY id) AS locked;
    DELETE FROM portal_sweepcell WHERE config_id = ANY(config_ids);
    INSERT INTO portal_sweepcell (config_id, tool, random_pct, read_pct, transfer_bytes, threads,
                                  mbps_sum, mbps_count, mbps_runs, mbps_first_runs,
                                  iops_sum, iops_count, iops_runs, iops_first_runs)
    SELECT config_id, tool, random_pct, read_pct, transfer_bytes, threads,
           sum(mbps_sum), sum(mbps_count), count(*) FILTER (WHERE mbps_count > 0),
           coalesce((array_agg(run_id ORDER BY run_id) FILTER (WHERE mbps_count > 0))[1:5], '{}'),
           sum(iops_sum), sum(iops_count), count(*) FILTER (WHERE iops_count > 0),
           coalesce((array_agg(run_id ORDER BY run_id) FILTER (WHERE iops_count > 0))[1:5], '{}')
    FROM (
        -- Each run's part of a cell first: a run is then one row of its cells, so the runs are counted and
        -- named without sorting every point to find the distinct ones (half the time for 20,000 points).
        SELECT run.id AS run_id, run.config_id, run.tool, run.random_pct, run.read_pct,
               run.single_transfer_bytes AS transfer_bytes, point.threads,
               sum(point.mbps) AS mbps_sum, count(point.mbps) AS mbps_count,
               sum(point.iops) AS iops_sum, count(point.iops) AS iops_count
        FROM portal_run AS run
        CROSS JOIN LATERAL (
            -- A point's thread count, else the whole number of its load's "threads".
            SELECT point.mbps, point.iops,
                   coalesce(point.threads::bigint, CASE WHEN point.load ->> 'threads' ~ '^[0-9]{1,18}$'
                                                        THEN (point.load ->> 'threads')::bigint END) AS threads
            FROM portal_point AS point
            WHERE point.run_id = run.id AND (point.mbps IS NOT NULL OR point.iops IS NOT NULL)
        ) AS point
        WHERE run.config_id = ANY(config_ids) AND run.single_transfer_bytes > 0 AND point.threads > 0
        GROUP BY run.id, point.threads
    ) AS per_run
    GROUP BY config_id, tool, random_pct, read_pct, transfer_bytes, threads;
END
$$;

-- Points a statement added, removed or changed (in the transition table "points", and "points_before" for a
-- change): the configurations of their runs of one transfer size.
CREATE OR REPLACE FUNCTION portal_sweep_cells_points_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM portal_sweep_cells_recompute(array_agg(DISTINCT run.config_id))
    FROM portal_run AS run WHERE run.single_transfer_bytes > 0 AND run.id IN (SELECT run_id FROM points);
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION portal_sweep_cells_points_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM portal_sweep_cells_recompute(array_agg(DISTINCT run.config_id))
    FROM portal_run AS run
    WHERE run.single_transfer_bytes > 0
      AND run.id IN (SELECT run_id FROM points UNION SELECT run_id FROM points_before);
    RETURN NULL;
END
$$;

-- A run whose cell changed (its configuration, tool, shares or transfer size): its old and new configuration.
CREATE OR REPLACE FUNCTION portal_sweep_cells_run_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM portal_sweep_cells_recompute(ARRAY[OLD.config_id, NEW.config_id]);
    RETURN NULL;
END
$$;

-- Runs a statement removed, in case their points went with them without a statement of their own.
CREATE OR REPLACE FUNCTION portal_sweep_cells_runs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM portal_sweep_cells_recompute(array_agg(DISTINCT config_id)) FROM runs WHERE single_transfer_bytes > 0;
    RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER sweep_cells_points_inserted AFTER INSERT ON portal_point
    REFERENCING NEW TABLE AS points FOR EACH STATEMENT EXECUTE FUNCTION portal_sweep_cells_points_changed();
CREATE OR REPLACE TRIGGER sweep_cells_points_deleted AFTER DELETE ON portal_point
    REFERENCING OLD TABLE AS points FOR EACH STATEMENT EXECUTE FUNCTION portal_sweep_cells_points_changed();
CREATE OR REPLACE TRIGGER sweep_cells_points_updated AFTER UPDATE ON portal_point
    REFERENCING OLD TABLE AS points_before NEW TABLE AS points FOR EACH STATEMENT
    EXECUTE FUNCTION portal_sweep_cells_points_updated();
CREATE OR REPLACE TRIGGER sweep_cells_run_changed AFTER UPDATE ON portal_run FOR EACH ROW
    WHEN ((OLD.config_id, OLD.tool, OLD.random_pct, OLD.read_pct, OLD.single_transfer_bytes)
          IS DISTINCT FROM (NEW.config_id, NEW.tool, NEW.random_pct, NEW.read_pct, NEW.single_transfer_bytes))
    EXECUTE FUNCTION portal_sweep_cells_run_changed();
CREATE OR REPLACE TRIGGER sweep_cells_runs_deleted AFTER DELETE ON portal_run
    REFERENCING OLD TABLE AS runs FOR EACH STATEMENT EXECUTE FUNCTION portal_sweep_cells_runs_deleted();
