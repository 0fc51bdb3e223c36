"""P3: pages at 2 M points / 100 k runs against the same pages at 20 k points, with their query counts; the
compare page away from the stored default against the same page at it; and pages on a real lab's shape."""

import io
from urllib.parse import urlencode

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.bench.files import IOMETER_SAMPLE, iometer_file
from tests.bench.servers import LARGE, REAL, SMALL
from tests.bench.timing import alternate
from tests.samples import sample

PAGE_GOAL = 1.5
# (systems, runs of the first system, runs of every other system, points per run)
SHAPES = {SMALL: (100, 200, 9, 20), LARGE: (1000, 10_000, 90, 20)}

_CONFIGS = """
    INSERT INTO portal_config (system_id, identity, raid_level, drive_count, drive_model, drive_type, host_server,
                               host_os, host_hba, extra, created_at)
    SELECT id, md5(id::text), 'RAID-5', 8 + id %% 8, '', 'HDD', '', '', '', '{}', now() FROM portal_system
"""
_RUNS = """
    INSERT INTO portal_run (config_id, name, description, tool, tool_version, workload_name, transfer_sizes, params,
                            verdict, measurement, origin, citation_document, citation_table, citation_note, tags, notes,
                            summary, created_at)
    SELECT config.id, 'run ' || r, '', (ARRAY['fio', 'Iometer', 'vdbench'])[r %% 3 + 1], '', 'Workload ' || r %% 10,
           '[]', '{}', '', 'end_to_end', 'measured', '', '', '', '{}', '', '{}', now()
    FROM portal_config AS config
    CROSS JOIN LATERAL generate_series(1, CASE WHEN config.system_id = (SELECT min(id) FROM portal_system)
                                               THEN %(first_runs)s ELSE %(runs)s END) AS r
"""
_POINTS = """
    INSERT INTO portal_point (run_id, seq, outstanding_io, threads, load, iops, mbps, avg_response_ms, {extra_columns}
                              metrics)
    SELECT run.id, s, s + 1, 1, jsonb_build_object('outstanding_io', s + 1, 'threads', 1), 1000.0 * (s + 1),
           8.0 * (s + 1), 0.5 + s * 1.5, {extra_values}
           jsonb_build_object('usr_cpu_pct', 3.5, 'sys_cpu_pct', 9.25, 'note', repeat('x', 200))
    FROM portal_run AS run CROSS JOIN generate_series(0, %(points)s - 1) AS s
"""


def generate(server, name):
    """Fill database ``name`` with its shape of systems, runs and points, summaries, stored figures, facets and
    statistics."""
    from django.utils import timezone

    from portal.models import Point, Run, System
    from portal.results.figures import runs_stored_figures_fill, runs_summaries_recompute
    from portal.systems.services import systems_facets_recompute

    systems, first_runs, runs, points = SHAPES[name]
    server.use(name)
    # Published, as the operator's studies are: every reader (the anonymous client here) sees them.
    published = {"published": True, "published_at": timezone.now()}
    System.objects.bulk_create(
        System(name=f"Array {g:05}", vendor=f"Vendor {g % 20}", model=f"Model {g % 50}", **published)
        for g in range(1, systems + 1)
    )
    # JSON columns without a database default (added since) get an empty object.
    extra = [f.column for f in Point._meta.concrete_fields if f.column == "latency_percentiles_ms"]
    points_sql = _POINTS.format(extra_columns="".join(f"{c}, " for c in extra), extra_values="'{}', " * len(extra))
    shape = {"systems": systems, "first_runs": first_runs, "runs": runs, "points": points}
    with connection.cursor() as cursor:
        for statement in (_CONFIGS, _RUNS, points_sql):
            cursor.execute(statement, shape)
    runs_summaries_recompute(run_ids=list(Run.objects.values_list("id", flat=True)))
    # As storing them does (and the migration for runs stored before): each run's figures at the default.
    runs_stored_figures_fill()
    systems_facets_recompute(system_ids=list(System.objects.values_list("id", flat=True)))
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def _urls(server, name):
    from portal.models import Run, System

    server.use(name)
    (first, first_name), (_, second_name) = System.objects.order_by("id").values_list("id", "name")[:2]
    run = Run.objects.filter(config__system_id=first).order_by("id").values_list("id", flat=True).first()
    return {
        "run": f"/runs/{run}/",
        "system": f"/systems/{first}/",
        "systems list": "/",
        "compare": "/compare/?" + urlencode({"a": first_name, "b": second_name}),
    }


def _get(server, name, url):
    server.use(name)
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(url)
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code} on {name}")
    return len(queries), len(response.content)


def bench_pages(report, server, work, *, repeat, parts):
    if "p3" not in parts:
        return
    for name in (SMALL, LARGE):
        generate(server, name)
    small_urls, large_urls = _urls(server, SMALL), _urls(server, LARGE)
    for page, small_url in small_urls.items():
        _measure(report, server, f"P3 {page} page", (LARGE, large_urls[page]), (SMALL, small_url), repeat=repeat)
    # Away from the stored default each run's figure is read from its curve: 1,000 replicates of 10 workloads.
    other = large_urls["compare"] + "&" + urlencode({"threshold_ms": 30})
    _measure(
        report, server, "P3 compare page at 30 ms vs 20 ms", (LARGE, other), (LARGE, large_urls["compare"]),
        repeat=repeat,
    )  # fmt: skip
    for page, (lab_url, one_url) in _real_urls(server, work).items():
        _measure(report, server, f"P3 real shape: {page}", (REAL, lab_url), (REAL, one_url), repeat=repeat)


def _measure(report, server, goal, candidate, baseline, *, repeat):
    """``candidate`` and ``baseline`` pages (``(database, url)``) timed alternately, with their query counts."""
    base_q, base_size = _get(server, *baseline)
    candidate_q, candidate_size = _get(server, *candidate)
    _, _, ratio = alternate(lambda: _get(server, *candidate), lambda: _get(server, *baseline), repeat=repeat)
    report.add(
        goal,
        f"{ratio:.2f}x",
        f"<= {PAGE_GOAL}x, fixed queries",
        ratio <= PAGE_GOAL and base_q == candidate_q,
        f"queries {base_q} -> {candidate_q}, {base_size / 1024:.1f} -> {candidate_size / 1024:.1f} KiB",
    )


def _real_urls(server, work):
    """A lab's system holding a 50 MB Iometer multitest upload (6,726 single-point runs) and a system holding
    one copy of it, each compared with a third one-copy system, stored by ``manage.py ingest`` as an upload
    is: {page: (the lab's URL, the one-copy system's URL)}."""
    from django.core.management import call_command

    from portal.models import System

    server.use(REAL)
    one_copy = work / "one_copy_iometer.csv"
    one_copy.write_bytes(sample(*IOMETER_SAMPLE).read_bytes())
    files = {
        "Lab array": iometer_file(work, 50, name="lab_iometer.csv"),
        "One-copy array": one_copy,
        "Third array": iometer_file(work, 0.01, name="third_iometer.csv", marker="third"),
    }
    for system, path in files.items():
        call_command("ingest", str(path), "--system", system, stdout=io.StringIO())
    with connection.cursor() as cursor:  # as autovacuum would soon after an upload
        cursor.execute("VACUUM ANALYZE")
    ids = dict(System.objects.values_list("name", "id"))

    def compare(a, **query):
        return "/compare/?" + urlencode({"a": a, "b": "Third array", **query})

    return {
        "system page": (f"/systems/{ids['Lab array']}/", f"/systems/{ids['One-copy array']}/"),
        "compare at 20 ms": (compare("Lab array"), compare("One-copy array")),
        "compare at 30 ms": (compare("Lab array", threshold_ms=30), compare("One-copy array", threshold_ms=30)),
        "compare at p99 5 ms": (
            compare("Lab array", latency="p99", threshold_ms=5),
            compare("One-copy array", latency="p99", threshold_ms=5),
        ),
    }
