"""Measured runs' figures at any threshold or latency summed up in the database: each run's curve is read
by ``arraybench_figure_at`` (migration 0018, the rules of :func:`~portal.analysis.curves.throughput_at`)
and each group of replicates comes back as one row, whatever the number of runs and points."""

from django.db import connection
from django.db.models import QuerySet

from portal.models import Run

# A point's load as ``portal.results.selectors.points_curve`` orders the curve by it.
_LOAD = "coalesce(point.outstanding_io, nullif(point.threads, 0), point.seq)"

_GROUPS = """
WITH compared AS MATERIALIZED ({runs}),
curve AS MATERIALIZED (
    -- Every curve in one pass over the runs' points (a lookup per run costs five times as much), each
    -- run once: computed apart, whatever the planner guesses of the runs' number before statistics.
    SELECT run.id,
           array_agg({throughput} ORDER BY {load}, point.seq) FILTER (WHERE point.id IS NOT NULL) AS throughputs,
           array_agg({response} ORDER BY {load}, point.seq) FILTER (WHERE point.id IS NOT NULL) AS responses
    FROM compared
    JOIN portal_run AS run ON run.id = compared.id
    LEFT JOIN portal_point AS point ON point.run_id = run.id AND {throughput} IS NOT NULL AND {response} IS NOT NULL
    GROUP BY run.id
)
SELECT run.workload_id, run.workload_name, run.read_pct, run.random_pct,
       config.raid_level, config.drive_count, config.read_cache, config.write_cache,
       run.throughput_metric, config.system_id, figure.value IS NOT NULL AS valued,
       count(figure.value), avg(figure.value), var_samp(figure.value),
       array_agg(ARRAY[run.id, run.published_mbps_binary]) FILTER (WHERE run.published_mbps_binary IS NOT NULL),
       NULL::double precision[],
       array_agg(figure.status) FILTER (WHERE NOT figure.reached),
       array_agg(DISTINCT figure.status)
FROM curve
JOIN portal_run AS run ON run.id = curve.id
JOIN portal_config AS config ON config.id = run.config_id
CROSS JOIN LATERAL arraybench_figure_at(
    curve.throughputs, curve.responses, %s::double precision,
    coalesce(nullif(run.params ->> 'threshold_rule', ''), 'interpolate')
) AS figure
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
    # In the order of the placeholders: the runs (read once), the curve's responses and filter, the threshold.
    params = [*runs_params, *percentile * 2, threshold_ms]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
