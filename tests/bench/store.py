"""P2: points stored per second by ``result_sets_store`` against a raw psycopg COPY of the same rows."""

from django.db import connection, transaction
from psycopg.types.json import Jsonb

from tests.bench.files import iometer_file
from tests.bench.servers import SMALL
from tests.bench.timing import alternate

STORE_GOAL = 0.5
RUN_COLUMNS = (
    "id",
    "config_id",
    "upload_id",
    "name",
    "description",
    "tool",
    "tool_version",
    "workload_name",
    "read_pct",
    "random_pct",
    "transfer_sizes",
    "params",
    "verdict",
    "measurement",
    "origin",
    "citation_document",
    "citation_table",
    "citation_note",
    "tags",
    "notes",
    "summary",
    "created_at",
)
FIRST_RAW_ID = 10**12  # ids the raw COPY gives its runs, far above the sequence's


def synthetic_result(runs, points):
    """A contract-shaped result set of ``runs`` runs with ``points`` points each."""
    return {
        "format": "fio",
        "tool": {"name": "fio", "version": "3.35"},
        "source": {"name": "synthetic.json", "sha256": "1" * 64},
        "system": None,
        "warnings": [],
        "runs": [
            {
                "name": f"run {r}",
                "description": "",
                "started_at": None,
                "verdict": None,
                "params": {"iodepth": r},
                "workload": {
                    "read_pct": 70,
                    "random_pct": 100,
                    "transfer_sizes": [{"bytes": 8192, "pct": 100}],
                    "alignment_bytes": None,
                    "streams": None,
                },
                "points": [_point(p) for p in range(points)],
            }
            for r in range(runs)
        ],
    }


def _point(load):
    figures = dict.fromkeys(
        (
            "read_iops",
            "write_iops",
            "read_mbps",
            "write_mbps",
            "avg_read_response_ms",
            "avg_write_response_ms",
            "max_response_ms",
            "cpu_pct",
        )
    )
    return {
        "load": {"outstanding_io": load + 1, "threads": 1},
        "iops": 1000.0 + load,
        "mbps": 8.2 + load,
        "avg_response_ms": 0.5 + load,
        "metrics": {"usr_cpu_pct": 3.5, "sys_cpu_pct": 9.25},
        **figures,
    }


def _raw_rows(results, config_id, upload_id):
    """The rows the store writes, built before timing: the baseline times COPY alone."""
    runs, points, run_id = [], [], FIRST_RAW_ID
    for result in results:
        for run in result["runs"]:
            run_id += 1
            runs.append(
                (
                    run_id,
                    config_id,
                    upload_id,
                    run["name"],
                    "",
                    result["tool"]["name"],
                    "",
                    run["name"],
                    None,
                    None,
                    Jsonb([]),
                    Jsonb(run["params"]),
                    "",
                    "end_to_end",
                    "measured",
                    "",
                    "",
                    "",
                    [],
                    "",
                    Jsonb({}),
                    "now",
                )
            )
            points.extend(_raw_point(run_id, seq, point) for seq, point in enumerate(run["points"]))
    return runs, points


def _raw_point(run_id, seq, point):
    from ingest.latency import point_percentiles
    from portal.results.copy import POINT_COPY_COLUMNS

    load = point["load"]
    values = {
        **point,
        "run_id": run_id,
        "seq": seq,
        "outstanding_io": load.get("outstanding_io"),
        "threads": load.get("threads"),
        "load": Jsonb(load),
        "metrics": Jsonb(point["metrics"]),
        "latency_percentiles_ms": Jsonb(point_percentiles(point["metrics"])),
    }
    return [values.get(column) for column in POINT_COPY_COLUMNS]


def _raw_copy(runs, points):
    from portal.results.copy import POINT_COPY_COLUMNS

    tables = (("portal_run", RUN_COLUMNS, runs), ("portal_point", POINT_COPY_COLUMNS, points))
    with transaction.atomic(), connection.cursor() as cursor:
        for table, columns, rows in tables:
            with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        transaction.set_rollback(True)


def _store(results, system, upload):
    from portal.results.services import result_sets_store

    with transaction.atomic():
        result_sets_store(results=results, upload=upload, system=system)
        transaction.set_rollback(True)


def bench_store(report, server, work, *, repeat):
    from ingest import parse_paths
    from portal.models import System, Upload
    from portal.results.workloads import config_for

    server.use(SMALL)
    system = System.objects.create(name="store benchmark")
    upload = Upload.objects.create(original_name="store.csv", size_bytes=1, sha256="0" * 64, stored_path="-")
    config = config_for(system=system, labels={})
    for label, results in (
        ("50 MB Iometer", parse_paths([iometer_file(work, 50)])),
        ("200 runs x 100 points", [synthetic_result(200, 100)]),
    ):
        runs, points = _raw_rows(results, config.id, upload.id)
        stored_s, raw_s, ratio = alternate(
            lambda r=results: _store(r, system, upload), lambda r=runs, p=points: _raw_copy(r, p), repeat=repeat
        )
        rate = 1 / ratio
        report.add(
            f"P2 store {label} ({len(runs)} runs)",
            f"{rate:.2f}x",
            f">= {STORE_GOAL}x",
            rate >= STORE_GOAL,
            f"{len(points) / stored_s:,.0f} vs raw COPY {len(points) / raw_s:,.0f} points/s",
        )
    system.delete()
    upload.delete()
