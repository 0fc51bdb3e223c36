"""Measured runs' figures at any threshold or latency summed up in the database: each run's curve is read from
its stored arrays (``RunCurve``) by ``arraybench_figure_at`` (migration 0021, the rules of
:func:`~portal.analysis.curves.throughput_at`) and each group of replicates comes back as one row, whatever
the number of runs; no point is read, and no curve where the threshold is outside a run's range of response
times (kept on the run: ``Run.lowest_avg_response_ms``, ...)."""

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet
from django.db.models.fields.json import KT

from portal.models import Run, RunCurve

# The run columns a group is summed up by and a figure is read with, as the CTE below names them.
_RUN_COLUMNS = {
    "id": "id",
    "workload_id": "workload_id",
    "workload_name": "workload_name",
    "read_pct": "read_pct",
    "random_pct": "random_pct",
    "raid_level": "config__raid_level",
    "drive_count": "config__drive_count",
    "read_cache": "config__read_cache",
    "write_cache": "config__write_cache",
    "throughput_metric": "throughput_metric",
    "system_id": "config__system_id",
    "published_mbps_binary": "published_mbps_binary",
    "rule": "rule",
}

_GROUPS = """
WITH compared ({columns}, threshold_ms) AS (SELECT runs.*, %s::double precision FROM ({runs}) AS runs)
SELECT workload_id, workload_name, read_pct, random_pct, raid_level, drive_count, read_cache, write_cache,
       throughput_metric, system_id, figure.value IS NOT NULL AS valued,
       count(figure.value), avg(figure.value), var_samp(figure.value),
       array_agg(ARRAY[id, published_mbps_binary]) FILTER (WHERE published_mbps_binary IS NOT NULL),
       NULL::double precision[],
       array_agg(figure.status) FILTER (WHERE NOT figure.reached),
       array_agg(DISTINCT figure.status),
       min(lowest), max(highest)
FROM compared
LEFT JOIN LATERAL (
    -- A figure at a threshold within the run's range of response times is read from its curve; the range is
    -- tested first (OFFSET 0 keeps the test in this subquery, before the curve is read).
    SELECT curve_figure.*
    FROM {curve_table} AS curve
    CROSS JOIN LATERAL arraybench_figure_at(
        CASE WHEN compared.throughput_metric = 'iops' THEN curve.iops ELSE curve.mbps END,
        curve.{response}, compared.threshold_ms, coalesce(nullif(compared.rule, ''), 'interpolate'),
        coalesce(curve.highest_{response}, curve.{response}),
        CASE WHEN compared.throughput_metric = 'iops' THEN curve.peak_iops ELSE curve.peak_mbps END
    ) AS curve_figure
    WHERE curve.run_id = compared.id AND compared.threshold_ms BETWEEN compared.lowest AND compared.highest
    OFFSET 0
) AS read ON true
CROSS JOIN LATERAL (
    -- Any other threshold is answered by the range: no point at or under it (over the threshold at the first
    -- point), every point under it (the best point, a lower bound), or no point at all (no data).
    SELECT CASE WHEN compared.highest < compared.threshold_ms THEN compared.peak_with ELSE read.value END AS value,
           CASE WHEN compared.lowest IS NULL THEN 'no_data'
                WHEN compared.threshold_ms < compared.lowest THEN 'first_point_over'
                WHEN compared.highest < compared.threshold_ms THEN 'not_reached'
                ELSE read.status END AS status,
           CASE WHEN compared.lowest IS NULL OR compared.highest < compared.threshold_ms THEN false
                WHEN compared.threshold_ms < compared.lowest THEN true
                ELSE read.reached END AS reached
) AS figure
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
"""


def replicate_rows_at(runs: QuerySet[Run], *, threshold_ms: float, latency: str) -> list[tuple]:
    """The figures of ``runs`` (measured runs with stored figures: their metric and curve are known) at
    ``threshold_ms`` of ``latency``, summed up per workload, configuration and metric in one query: rows as
    ``_stored_replicates`` reads them (key columns, configuration, metric, system, whether valued, count,
    mean, variance, printed MB/s with run ids, no stated figures, the statuses of unreached figures, every
    status), then the lowest and highest response time of the points the group's figures are read from."""
    response = RunCurve.RESPONSE_COLUMNS[latency]
    # The run's range of response times at ``latency``, before the rule (an annotation comes last).
    columns = {**_RUN_COLUMNS, **{kind: f"{kind}_{response}" for kind in ("lowest", "highest", "peak_with")}}
    columns["rule"] = columns.pop("rule")
    read = runs.order_by().annotate(rule=KT("params__threshold_rule")).values(*columns.values())
    try:
        runs_sql, runs_params = read.query.sql_with_params()
    except EmptyResultSet:
        # A condition no run can meet (two systems with no workload in common select ``pk IN ()``) has no
        # SQL to embed: the ORM answers such a query without asking the database, and so does this.
        return []
    sql = _GROUPS.format(
        columns=", ".join(columns),
        runs=runs_sql,
        curve_table=RunCurve._meta.db_table,
        response=response,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [threshold_ms, *runs_params])
        return cursor.fetchall()
