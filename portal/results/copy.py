"""COPY writers of results: runs, their points and their curves inserted in bulk with PostgreSQL COPY, as
rows built without a model instance each."""

import operator
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models
from django.utils import timezone
from psycopg.types.json import Jsonb

from ingest.result_dicts import PointDict
from portal.models import Point, Run, RunCurve
from portal.results.figures import CURVE_COLUMNS

POINT_COPY_COLUMNS = (
    *("run_id", "seq", "outstanding_io", "threads", "load"),
    *Point.FIGURES,
    *("latency_percentiles_ms", "metrics"),
)


def point_row(run_id: int, seq: int, point: PointDict, *, percentiles: dict[str, float]) -> list:
    """A point of the result contract as the row COPY writes, in ``POINT_COPY_COLUMNS`` order (no model
    instance per point); ``percentiles``: its latency percentiles (``ingest.latency.point_percentiles``)."""
    load = point.get("load") or {}
    try:
        figures = _FIGURES_OF(point)  # a point of the contract's dict form holds every figure's key
    except KeyError:
        figures = tuple(point.get(name) for name in Point.FIGURES)
    return [
        *(run_id, seq, load.get("outstanding_io"), load.get("threads"), Jsonb(load)),
        *figures,
        *(Jsonb(percentiles), Jsonb(point.get("metrics") or {})),
    ]


_FIGURES_OF = operator.itemgetter(*Point.FIGURES)


def points_copy(*, rows: Iterable[list]) -> None:
    """Insert point rows (from :func:`point_row`) with PostgreSQL COPY: points carry kilobytes of JSON
    metrics each, and COPY streams them without building (and quoting) one huge INSERT statement."""
    _copy(Point._meta.db_table, POINT_COPY_COLUMNS, rows)


def curves_copy(*, rows: Iterable[Sequence]) -> None:
    """Insert run curves (rows from :func:`portal.results.figures.run_curve_row`) with a binary COPY: a curve
    is a run id, arrays of numbers and two numbers, sent without formatting each number as text."""
    types = ["int8", *("float8[]" for _ in CURVE_COLUMNS[1:-2]), "float8", "float8"]
    sql = f"COPY {RunCurve._meta.db_table} ({', '.join(CURVE_COLUMNS)}) FROM STDIN (FORMAT BINARY)"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


def _copy(table: str, columns: Sequence[str], rows: Iterable[Sequence]) -> None:
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def runs_copy(*, runs: list[dict[str, Any]]) -> list[int]:
    """Insert runs (column values by attribute name; the model's defaults for the others) with COPY,
    their ids reserved from the table's sequence in one query; returns their ids. One INSERT of
    thousands of runs binds hundreds of thousands of parameters, and a model instance per run costs
    more than its row."""
    if not runs:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [Run._meta.db_table, len(runs)],
        )
        ids = [run_id for (run_id,) in cursor.fetchall()]
    # Columns the database computes itself (a run's single transfer size) are not written.
    fields = [field for field in Run._meta.concrete_fields if not field.generated]
    # What the model gives a run that states nothing else; written as it holds values (Django's
    # per-field preparation costs more than the COPY itself for thousands of runs). JSON columns
    # need the adapter.
    defaults = {field.attname: field.get_default() for field in fields} | {"created_at": timezone.now()}
    values_of = operator.itemgetter(*(field.attname for field in fields))
    json_at = [index for index, field in enumerate(fields) if isinstance(field, models.JSONField)]
    _copy(
        Run._meta.db_table,
        [str(field.column) for field in fields],
        (
            _run_row(values_of({**defaults, **values, "id": run_id}), json_at)
            for run_id, values in zip(ids, runs, strict=True)
        ),
    )
    return ids


def _run_row(values: tuple, json_at: Sequence[int]) -> list:
    """A run's column values as COPY writes them: its JSON columns (at ``json_at``) through the adapter."""
    row = list(values)
    for index in json_at:
        row[index] = Jsonb(row[index])
    return row


def sweep_cells_lock(*, config_ids: Iterable[int]) -> None:
    """Take the locks the sweep cells' triggers (migration 0024) take on each configuration whose cells they
    sum up, for all of ``config_ids`` at once and in id order, until the transaction ends: a store then
    meets another writing the same configurations in one order, never crosswise (the triggers take a
    statement's locks only, one result set after another)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtext('portal_sweepcell'), (id %% 2147483647)::integer) "
            "FROM (SELECT DISTINCT id FROM unnest(%s::bigint[]) AS id ORDER BY id) AS locked",
            [sorted(set(config_ids))],
        )
