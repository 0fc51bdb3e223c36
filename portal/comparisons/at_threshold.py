"""Measured runs' figures at any threshold or latency summed up in the database: each run's curve is read
by ``arraybench_figure_at`` (migration 0018, the rules of :func:`~portal.analysis.curves.throughput_at`)
and each group of replicates comes back as one row, whatever the number of runs and points."""

from django.db import connection
from django.db.models import QuerySet

from portal.models import Run

# A point's load as ``portal.results.selectors.points_curve`` orders the curve by it.
_LOAD = "coalesce(point.outstanding_io, nullif(point.threads, 0), point.seq)"

_GROUPS = """
SELECT run.workload_id, run.workload_name, run.read_pct, run.random_pct,
       config.raid_level, config.drive_count, config.read_cache, config.write_cache,
       run.throughput_metric, config.system_id, figure.value IS NOT NULL AS valued,
       count(figure.value), avg(figure.value), var_samp(figure.value),
       array_agg(ARRAY[run.id, run.published_mbps_binary]) FILTER (WHERE run.published_mbps_binary IS NOT NULL),
       NULL::double precision[],
       array_agg(figure.status) FILTER (WHERE NOT figure.reached),
       array_agg(DISTINCT figure.status)
FROM portal_run AS run
JOIN portal_config AS config ON config.id = run.config_id
LEFT JOIN (
    -- Every curve in one pass over the runs' points (a lookup per run costs five times as much).
    SELECT point.run_id,
           array_agg({throughput} ORDER BY {load}, point.seq) AS throughputs,
           array_agg({response} ORDER BY {load}, point.seq) AS responses
    FROM portal_point AS point
    JOIN portal_run AS run ON run.id = point.run_id
    WHERE point.run_id IN ({runs}) AND {throughput} IS NOT NULL AND {response} IS NOT NULL
    GROUP BY point.run_id
) AS curve ON curve.run_id = run.id
CROSS JOIN LATERAL arraybench_figure_at(
    curve.throughputs, curve.responses, %s::double precision,
    coalesce(nullif(run.params ->> 'threshold_rule', ''), 'interpolate')
) AS figure
WHERE run.id IN ({runs})
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
"""


def _response(latency: str) -> str:
    if latency in ("avg", "max"):
        return f"point.{latency}_response_ms"
    return "(point.latency_percentiles_ms ->> %s)::double precision"


def replicate_rows_at(runs: QuerySet[Run], *, threshold_ms: float, latency: str) -> list[tuple]:
    """The figures of ``runs`` (measured runs with stored figures: their metric is known) at ``threshold_ms``
    of ``latency``, summed up per workload, configuration and metric in one query: rows as
    ``_stored_replicates`` reads them (key columns, configuration, metric, system, whether valued, count,
    mean, variance, printed MB/s with run ids, no stated figures, the statuses of unreached figures, every
    status)."""
    throughput = "CASE WHEN run.throughput_metric = 'iops' THEN point.iops ELSE point.mbps END"
    response = _response(latency)
    runs_sql, runs_params = runs.order_by().values("id").query.sql_with_params()
    sql = _GROUPS.format(throughput=throughput, load=_LOAD, response=response, runs=runs_sql)
    percentile = [] if latency in ("avg", "max") else [latency.removeprefix("p")]
    # In the order of the placeholders: the curve's responses, its runs and filter, the threshold, the runs.
    params = [*percentile, *runs_params, *percentile, threshold_ms, *runs_params]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
