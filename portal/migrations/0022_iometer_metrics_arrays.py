"""Iometer points' per-worker, per-target and per-processor figures and latency histogram stored as arrays
(``ingest.formats.iometer``): ``{"columns": [...], "rows": [[...], ...]}`` for each kind of row instead of an
object per row, and ``{"bins": [...], "low_ms": [...], "high_ms": [...], "counts": [...]}`` instead of an
object per bin. The points stored so far are converted in one statement each way, rows and bins kept in
their order."""

import json

from django.db import migrations

# The columns as ``ingest.formats.iometer`` writes them (WORKER_COLUMNS, TARGET_COLUMNS, PROCESSOR_COLUMNS).
COLUMNS = {
    "workers": [
        "manager",
        "name",
        "access_specification",
        "iops",
        "mbps",
        "avg_response_ms",
        "max_response_ms",
        "queue_depth",
    ],
    "targets": [
        "manager",
        "name",
        "worker",
        "type",
        "iops",
        "mbps",
        "avg_response_ms",
        "max_response_ms",
        "queue_depth",
    ],
    "processors": ["manager", "name", "cpu_pct"],
}
BIN_ARRAYS = {"bins": "bin", "low_ms": "low_ms", "high_ms": "high_ms", "counts": "count"}
IOMETER_POINTS = "FROM portal_run AS r WHERE r.id = p.run_id AND r.tool = 'Iometer'"


def _rows_to_arrays(kind: str) -> str:
    cells = ", ".join(f"o -> '{column}'" for column in COLUMNS[kind])
    return f"""CASE WHEN jsonb_typeof(p.metrics -> '{kind}') = 'array' THEN jsonb_build_object('{kind}',
        jsonb_build_object('columns', '{json.dumps(COLUMNS[kind])}'::jsonb, 'rows', (
            SELECT coalesce(jsonb_agg(jsonb_build_array({cells}) ORDER BY n), '[]'::jsonb)
            FROM jsonb_array_elements(p.metrics -> '{kind}') WITH ORDINALITY AS e(o, n))))
        ELSE '{{}}'::jsonb END"""


def _arrays_to_rows(kind: str) -> str:
    fields = ", ".join(f"'{column}', a -> {i}" for i, column in enumerate(COLUMNS[kind]))
    return f"""CASE WHEN jsonb_typeof(p.metrics -> '{kind}' -> 'rows') = 'array' THEN jsonb_build_object('{kind}', (
            SELECT coalesce(jsonb_agg(jsonb_build_object({fields}) ORDER BY n), '[]'::jsonb)
            FROM jsonb_array_elements(p.metrics -> '{kind}' -> 'rows') WITH ORDINALITY AS e(a, n)))
        ELSE '{{}}'::jsonb END"""


_BINS_TO_ARRAYS = ", ".join(
    f"'{array}', (SELECT coalesce(jsonb_agg(o -> '{key}' ORDER BY n), '[]'::jsonb) "
    f"FROM jsonb_array_elements(p.metrics -> 'latency_histogram') WITH ORDINALITY AS e(o, n))"
    for array, key in BIN_ARRAYS.items()
)
_ARRAYS_TO_BINS = ", ".join(
    f"'{key}', p.metrics -> 'latency_histogram' -> '{array}' -> i" for array, key in BIN_ARRAYS.items()
)

TO_ARRAYS = f"""
UPDATE portal_point AS p SET metrics = p.metrics
    || {" || ".join(_rows_to_arrays(kind) for kind in COLUMNS)}
    || CASE WHEN jsonb_typeof(p.metrics -> 'latency_histogram') = 'array'
        THEN jsonb_build_object('latency_histogram', jsonb_build_object({_BINS_TO_ARRAYS}))
        ELSE '{{}}'::jsonb END
{IOMETER_POINTS}
  AND (jsonb_typeof(p.metrics -> 'workers') = 'array' OR jsonb_typeof(p.metrics -> 'latency_histogram') = 'array')
"""

TO_OBJECTS = f"""
UPDATE portal_point AS p SET metrics = p.metrics
    || {" || ".join(_arrays_to_rows(kind) for kind in COLUMNS)}
    || CASE WHEN jsonb_typeof(p.metrics -> 'latency_histogram') = 'object'
        THEN jsonb_build_object('latency_histogram', (
            SELECT coalesce(jsonb_agg(jsonb_build_object({_ARRAYS_TO_BINS}) ORDER BY i), '[]'::jsonb)
            FROM generate_series(0, jsonb_array_length(p.metrics -> 'latency_histogram' -> 'bins') - 1) AS i))
        ELSE '{{}}'::jsonb END
{IOMETER_POINTS}
  AND (jsonb_typeof(p.metrics -> 'workers') = 'object' OR jsonb_typeof(p.metrics -> 'latency_histogram') = 'object')
"""


class Migration(migrations.Migration):
    dependencies = [("portal", "0021_run_curves")]

    operations = [migrations.RunSQL(TO_ARRAYS, TO_OBJECTS)]
