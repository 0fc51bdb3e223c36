"""Measured runs' figures at any threshold or latency summed up in the database: each run's curve is read from
its stored arrays (``RunCurve``) by ``arraybench_figure_at`` (migration 0021, the rules of
:func:`~portal.analysis.curves.throughput_at`) and each group of replicates comes back as one row, whatever
the number of runs; no point is read."""

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
WITH compared ({columns}) AS MATERIALIZED ({runs}),
figures AS MATERIALIZED (
    -- Each run's figure first: the groups are then summed up over narrow rows, not over curves.
    SELECT compared.*, figure.value, figure.status, figure.reached
    FROM compared
    LEFT JOIN {curve_table} AS curve ON curve.run_id = compared.id
    CROSS JOIN LATERAL arraybench_figure_at(
        CASE WHEN compared.throughput_metric = 'iops' THEN curve.iops ELSE curve.mbps END,
        curve.{response}, %s::double precision, coalesce(nullif(compared.rule, ''), 'interpolate'),
        coalesce(curve.highest_{response}, curve.{response}),
        CASE WHEN compared.throughput_metric = 'iops' THEN curve.peak_iops ELSE curve.peak_mbps END
    ) AS figure
)
SELECT workload_id, workload_name, read_pct, random_pct, raid_level, drive_count, read_cache, write_cache,
       throughput_metric, system_id, value IS NOT NULL AS valued,
       count(value), avg(value), var_samp(value),
       array_agg(ARRAY[id, published_mbps_binary]) FILTER (WHERE published_mbps_binary IS NOT NULL),
       NULL::double precision[],
       array_agg(status) FILTER (WHERE NOT reached),
       array_agg(DISTINCT status)
FROM figures
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
"""


def replicate_rows_at(runs: QuerySet[Run], *, threshold_ms: float, latency: str) -> list[tuple]:
    """The figures of ``runs`` (measured runs with stored figures: their metric and curve are known) at
    ``threshold_ms`` of ``latency``, summed up per workload, configuration and metric in one query: rows as
    ``_stored_replicates`` reads them (key columns, configuration, metric, system, whether valued, count,
    mean, variance, printed MB/s with run ids, no stated figures, the statuses of unreached figures, every
    status)."""
    read = runs.order_by().annotate(rule=KT("params__threshold_rule")).values(*_RUN_COLUMNS.values())
    runs_sql, runs_params = read.query.sql_with_params()
    sql = _GROUPS.format(
        columns=", ".join(_RUN_COLUMNS),
        runs=runs_sql,
        curve_table=RunCurve._meta.db_table,
        response=RunCurve.RESPONSE_COLUMNS[latency],
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*runs_params, threshold_ms])
        return cursor.fetchall()
