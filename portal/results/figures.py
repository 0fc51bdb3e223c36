"""Stored figures of results: each run's summary, its figures at the papers' default and its curve as
arrays, computed when runs are stored and recomputed in bulk for runs stored before."""

from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from typing import Any, cast

from django.db import connection
from django.db.models.fields.json import KT
from psycopg.types.json import Jsonb

from ingest.latency import PERCENTILES
from portal.models import Point, Run, RunCurve
from portal.results.selectors import (
    CurveSource,
    points_by_run,
    points_metric,
    points_threshold,
    published_mbps_binary,
    run_rule,
    stated_response_ms,
)


def run_summary_of(points: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A run's summary: how many points it has, its peak IOPS and MB/s and its lowest and highest average
    response time (None: no point has the figure), from its points of the result contract (or rows with
    their ``iops``, ``mbps`` and ``avg_response_ms``). Written with the run when it is stored (an UPDATE of
    thousands of runs just copied cost a sixth of storing them); :func:`runs_summaries_recompute` writes it
    for runs stored before."""
    iops = [point["iops"] for point in points if point.get("iops") is not None]
    mbps = [point["mbps"] for point in points if point.get("mbps") is not None]
    response = [point["avg_response_ms"] for point in points if point.get("avg_response_ms") is not None]
    return {
        "points": len(points),
        "peak_iops": max(iops, default=None),
        "peak_mbps": max(mbps, default=None),
        "min_response_ms": min(response, default=None),
        "max_response_ms": max(response, default=None),
    }


_SUMMARIES_UPDATE_SQL = f"""
    UPDATE {Run._meta.db_table} AS run SET summary = figures.summary
    FROM unnest(%s::bigint[], %s::jsonb[]) AS figures(id, summary)
    WHERE run.id = figures.id
"""


def runs_summaries_recompute(*, run_ids: Iterable[int], batch: int = 5_000) -> dict[int, dict[str, Any]]:
    """Recompute the summaries (:func:`run_summary_of`) of runs already stored, from their points, inside the
    caller's transaction: two statements per ``batch`` runs, so the points of a whole database are never held
    at once. Returns each run's summary by id."""
    wanted = list(run_ids)
    summaries: dict[int, dict[str, Any]] = {}
    for start in range(0, len(wanted), batch):
        summaries |= _summaries_recompute(wanted[start : start + batch])
    return summaries


def _summaries_recompute(run_ids: list[int]) -> dict[int, dict[str, Any]]:
    points: dict[int, list[dict[str, Any]]] = {run_id: [] for run_id in run_ids}
    rows = Point.objects.filter(run_id__in=run_ids).order_by().values_list("run_id", "iops", "mbps", "avg_response_ms")
    for run_id, iops, mbps, avg_response_ms in rows:
        points[run_id].append({"iops": iops, "mbps": mbps, "avg_response_ms": avg_response_ms})
    summaries = {run_id: run_summary_of(run_points) for run_id, run_points in points.items()}
    if summaries:
        with connection.cursor() as cursor:
            cursor.execute(_SUMMARIES_UPDATE_SQL, [list(summaries), [Jsonb(found) for found in summaries.values()]])
    return summaries


# The columns of a run's stored figures, in the order :func:`run_stored_figures` gives them.
STORED_FIGURE_COLUMNS = (
    "throughput_metric",
    "iops_at_20ms",
    "iops_at_20ms_status",
    "mbps_at_20ms",
    "mbps_at_20ms_status",
    "reached_20ms",
    "published_mbps_binary",
)


# The columns of each run's range of response times at each latency (``Run.lowest_avg_response_ms``, ...),
# in the order :func:`run_response_ranges` gives them.
_KINDS = ("lowest", "highest", "peak_with")
RESPONSE_RANGE_COLUMNS = tuple(
    f"{kind}_{response}" for response in RunCurve.RESPONSE_COLUMNS.values() for kind in _KINDS
)


# Each latency's key ("avg", "max" or a percentile's, "99") and its three columns.
_RANGE_READS: tuple[tuple[str, str, str, str], ...] = tuple(
    (latency.removeprefix("p"), f"lowest_{response}", f"highest_{response}", f"peak_with_{response}")
    for latency, response in RunCurve.RESPONSE_COLUMNS.items()
)


def run_response_ranges(*, points: Sequence[CurveSource], metric: str) -> dict[str, float | None]:
    """At each latency, the lowest and highest response time of the points a measured figure is read from
    (those with ``metric`` and that response time, as :func:`~portal.results.selectors.points_curve` keeps them;
    their percentiles in ``latency_percentiles_ms``) and their best throughput, as the run's columns
    (:data:`RESPONSE_RANGE_COLUMNS`; None: no such point). A pass per latency over the points with the metric,
    none over percentiles no point has: thousands of runs are stored at once."""
    columns: dict[str, Any] = dict.fromkeys(RESPONSE_RANGE_COLUMNS)
    measured = [(point, getattr(point, metric)) for point in points]
    measured = [(point, throughput) for point, throughput in measured if throughput is not None]
    with_percentiles = any(point.latency_percentiles_ms for point, _ in measured)
    for key, lowest, highest, peak in _RANGE_READS:
        if key == "avg":
            read = [(point.avg_response_ms, throughput) for point, throughput in measured]
        elif key == "max":
            read = [(point.max_response_ms, throughput) for point, throughput in measured]
        elif with_percentiles:
            read = [((point.latency_percentiles_ms or {}).get(key), throughput) for point, throughput in measured]
        else:
            continue
        responses = [ms for ms, _ in read if ms is not None]
        if responses:
            columns[lowest], columns[highest] = min(responses), max(responses)
            columns[peak] = max(throughput for ms, throughput in read if ms is not None)
    return columns


def run_stored_figures(
    *,
    points: Sequence[CurveSource],
    params: dict | None,
    origin: str,
    published_at_ms: float | None,
    printed_mbps_binary: Sequence[float | None] = (),
) -> dict[str, Any]:
    """A run's figures at the papers' default (``Run.STORED_FIGURES_AT_MS`` of average response time) in
    IOPS and MB/s, each with the status the curve gives, as the run's columns (:data:`STORED_FIGURE_COLUMNS`),
    and its range of response times at each latency (:func:`run_response_ranges`).

    ``points`` in load order; ``printed_mbps_binary``: each point's MB/s as a paper printed it in binary
    units, where it did (``metrics.published_mbps_binary``)."""
    latency = Run.STORED_FIGURES_LATENCY
    stated_ms = stated_response_ms(origin=origin, published_at_ms=published_at_ms, latency=latency)
    judged_by = points_metric(points=points)
    columns: dict[str, Any] = {"throughput_metric": judged_by}
    for metric in ("iops", "mbps"):
        _, answer = points_threshold(
            points=points,
            threshold_ms=Run.STORED_FIGURES_AT_MS,
            rule=run_rule(params=params),
            stated_ms=stated_ms,
            metric=metric,
            latency=latency,
            published=origin == Run.Origin.PUBLISHED,
        )
        columns |= {f"{metric}_at_20ms": answer.value, f"{metric}_at_20ms_status": str(answer.status)}
        if metric == judged_by:
            columns["reached_20ms"] = answer.reached
    columns["published_mbps_binary"] = published_mbps_binary(printed=printed_mbps_binary)
    return columns | run_response_ranges(points=points, metric=judged_by)


_STORED_COLUMNS = (*STORED_FIGURE_COLUMNS, *RESPONSE_RANGE_COLUMNS)
# The array type each column is sent in, after the run ids.
_STORED_TYPES = (
    "varchar",
    "float8",
    "varchar",
    "float8",
    "varchar",
    "bool",
    *("float8",) * (1 + len(RESPONSE_RANGE_COLUMNS)),
)
_STORED_UPDATE_SQL = f"""
    UPDATE {Run._meta.db_table} AS run SET {", ".join(f"{name} = figures.{name}" for name in _STORED_COLUMNS)}
    FROM unnest(%s::bigint[], {", ".join(f"%s::{kind}[]" for kind in _STORED_TYPES)})
         AS figures(id, {", ".join(_STORED_COLUMNS)})
    WHERE run.id = figures.id
"""


def runs_stored_figures_recompute(*, run_ids: Sequence[int], curves: bool = True) -> None:
    """Compute and store the figures of runs already stored (:func:`run_stored_figures`), from their points
    in load order, and their curves (:func:`runs_curves_recompute`; ``curves=False`` for a database older
    than the curves' table): four statements for the runs given, whatever their number."""
    runs = {
        run_id: (rule, origin, published_at_ms)
        for run_id, rule, origin, published_at_ms in Run.objects.filter(id__in=list(run_ids))
        .order_by()
        .values_list("id", KT("params__threshold_rule"), "origin", "published_at_ms")
    }
    rows = []
    # With their percentiles: the range of response times at each latency is stored too.
    for run_id, (points, printed) in points_by_run(list(runs), latency="p99").items():
        rule, origin, published_at_ms = runs[run_id]
        figures = run_stored_figures(
            points=points,
            params={"threshold_rule": rule},
            origin=origin,
            published_at_ms=published_at_ms,
            printed_mbps_binary=printed,
        )
        rows.append((run_id, *(figures[name] for name in _STORED_COLUMNS)))
    if rows:
        with connection.cursor() as cursor:
            cursor.execute(_STORED_UPDATE_SQL, [list(column) for column in zip(*rows, strict=True)])
    if curves:
        runs_curves_recompute(run_ids=list(runs))


def runs_stored_figures_fill(*, batch: int = 5_000, curves: bool = True) -> int:
    """Store the figures (and, unless ``curves=False``, the curves) of every run without them (stored before
    they were kept, or edited since), ``batch`` runs at a time in id order; returns how many runs were filled."""
    filled, after = 0, 0
    while True:
        ids = list(
            Run.objects.filter(throughput_metric="", id__gt=after).order_by("id").values_list("id", flat=True)[:batch]
        )
        if not ids:
            return filled
        runs_stored_figures_recompute(run_ids=ids, curves=curves)
        filled, after = filled + len(ids), ids[-1]


# The response times a curve holds (each also as the highest up to each point).
_RESPONSES = tuple(RunCurve.RESPONSE_COLUMNS.values())
_PERCENTILE_COLUMNS = {f"p{pct.replace('.', '_')}_ms": pct for pct in PERCENTILES}
# The curve's order: increasing load; points of equal load in increasing average response time, then IOPS,
# then MB/s (a missing figure last), as ``portal.analysis.curves.curve`` orders them, so that no figure read
# off a curve depends on the order its file listed points of equal load in.
CURVE_TIES = ("avg_response_ms", "iops", "mbps")
CURVE_ORDER = f"load, {', '.join(f'{name} NULLS LAST' for name in CURVE_TIES)}, seq"
# The columns of a run's curve, in the order :func:`run_curve_row` gives them.
CURVE_COLUMNS = (
    *("run_id", "loads", "iops", "mbps", *_RESPONSES),
    *(f"highest_{name}" for name in _RESPONSES),
    *("peak_iops", "peak_mbps"),
)


def _point_load(point: Mapping[str, Any], seq: int) -> float:
    """A point's place on its curve, as ``portal.results.selectors.points_curve`` orders it."""
    load = point.get("load") or {}
    if load.get("outstanding_io") is not None:
        return float(load["outstanding_io"])
    return float(load.get("threads") or seq)


def _curve_order(load: float, point: Mapping[str, Any]) -> tuple:
    """A point's place on its curve (:data:`CURVE_ORDER`): its load, then (among points of equal load) its
    average response time, IOPS and MB/s, each increasing, a missing figure last."""
    return (load, *((point.get(name) is None, point.get(name) or 0.0) for name in CURVE_TIES))


def _highest(values: list[float | None]) -> list[float | None] | None:
    """The highest of ``values`` up to each one (None before the first known); None when that is ``values``
    themselves (response times that never fall), as the curve stores it."""
    if len(values) < 2:  # a single point (most runs of an Iometer file): its own highest, or unknown
        return None
    if None not in values:
        rising: list[float] = list(accumulate(cast(list[float], values), max))
        return None if rising == values else list(rising)
    if values.count(None) == len(values):  # a latency no point has (most tools report no percentiles)
        return None
    highest: list[float | None] = []
    for value in values:
        before = highest[-1] if highest else None
        highest.append(value if before is None or (value is not None and value > before) else before)
    return None if highest == values else highest


def _in_order(values: Iterable[float | None], order: Sequence[int] | None) -> list[float | None]:
    """Numbers as floats, in ``order`` (None: as given)."""
    found = [None if value is None else float(value) for value in values]
    return found if order is None else [found[seq] for seq in order]


def run_curve_row(*, run_id: int, points: Sequence[Mapping[str, Any]], percentiles: Sequence[dict[str, float]]) -> list:
    """A run of the result contract's curve as the row ``portal.results.copy.curves_copy`` writes
    (:data:`CURVE_COLUMNS`): its points' loads, IOPS, MB/s, average and maximum response times and each latency
    percentile (``percentiles``, a dict per point) in load order, each response time's highest up to each
    point (None where it is the response time itself), and the peak IOPS and MB/s."""
    loads = [_point_load(point, seq) for seq, point in enumerate(points)]
    ordered = all(before < after for before, after in zip(loads, loads[1:], strict=False))
    order = None if ordered else sorted(range(len(points)), key=lambda seq: _curve_order(loads[seq], points[seq]))
    figures = {
        name: _in_order((point.get(name) for point in points), order)
        for name in ("iops", "mbps", "avg_response_ms", "max_response_ms")
    }
    if any(percentiles):
        figures |= {
            name: _in_order((found.get(pct) for found in percentiles), order)
            for name, pct in _PERCENTILE_COLUMNS.items()
        }
    else:
        figures |= dict.fromkeys(_PERCENTILE_COLUMNS, [None] * len(points))
    peaks = [max((value for value in figures[name] if value is not None), default=None) for name in ("iops", "mbps")]
    return [
        *(run_id, sorted(loads)),
        *(figures[name] for name in ("iops", "mbps", *_RESPONSES)),
        *(_highest(figures[name]) for name in _RESPONSES),
        *peaks,
    ]


# The curve of each run from its points in load order, in one statement whatever their number.
_LOAD = "coalesce(outstanding_io, nullif(threads, 0), seq)"
_RESPONSE_SQL = {
    "avg_response_ms": "avg_response_ms",
    "max_response_ms": "max_response_ms",
    **{name: f"(latency_percentiles_ms ->> '{pct}')::double precision" for name, pct in _PERCENTILE_COLUMNS.items()},
}
_ARRAYS = ("load", "iops", "mbps", *_RESPONSES)
# A response time's highest so far is stored as NULL where it is the response time itself (never falling).
_HIGHEST = tuple(
    f"nullif(array_agg(highest_{name} ORDER BY {CURVE_ORDER}), array_agg({name} ORDER BY {CURVE_ORDER}))"
    for name in _RESPONSES
)
_CURVES_SQL = f"""
    INSERT INTO {RunCurve._meta.db_table} ({", ".join(CURVE_COLUMNS)})
    SELECT run_id, {", ".join(f"array_agg({name} ORDER BY {CURVE_ORDER})" for name in _ARRAYS)},
           {", ".join(_HIGHEST)}, max(iops), max(mbps)
    FROM (SELECT run_id, seq, {_LOAD} AS load, iops, mbps,
                 {", ".join(f"{sql} AS {name}" for name, sql in _RESPONSE_SQL.items())},
                 {", ".join(f"max({sql}) OVER by_load AS highest_{name}" for name, sql in _RESPONSE_SQL.items())}
          FROM {Point._meta.db_table} WHERE run_id = ANY(%s)
          WINDOW by_load AS (PARTITION BY run_id ORDER BY {_LOAD}, {CURVE_ORDER.split(", ", 1)[1]}
                             ROWS UNBOUNDED PRECEDING)) AS point
    GROUP BY run_id
"""


def runs_curves_recompute(*, run_ids: Sequence[int]) -> None:
    """Store the curves of runs already stored, from their points: two statements for the runs given (a run
    without points keeps none, and is read as having no data)."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {RunCurve._meta.db_table} WHERE run_id = ANY(%s)", [list(run_ids)])
        cursor.execute(_CURVES_SQL, [list(run_ids)])
