"""``make benchmark``: each performance goal as a ratio against its baseline (a measurement, not a test).

Every figure is measured alternately with its baseline in one run (A B A B ...), and the ratio is the
median of the pairwise ratios, so a machine whose speed drifts still gives a fair comparison. The
data is generated on the fly: a 50 MB Iometer file, a 15 MB fio file, 2 M points / 100 k runs in a
throw-away database, a batch of 200 result files of six formats that real Celery workers read (P4).
The databases (``arraybench_bench_*``) are created on the server ``DATABASE_URL`` names, or on an
embedded PostgreSQL in a temporary data dir, and dropped at the end; P4's workers use the broker
``REDIS_URL`` names (else the embedded Redis), each on a queue of its own.

    .venv/bin/python -m tests.benchmark [--parts p1,p2,memory,p3,bundle,p4] [--repeat 3]
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

PARTS = ("p1", "p2", "memory", "p3", "bundle", "p4")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {', '.join(PARTS)}")
    parser.add_argument("--repeat", type=int, default=3, help="alternating repetitions per figure")
    args = parser.parse_args(argv)
    parts = [part.strip() for part in args.parts.split(",") if part.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"unknown parts {', '.join(unknown)}; measured: {', '.join(PARTS)}")
    from tests.bench import files, servers
    from tests.bench.timing import Report

    report = Report()
    with tempfile.TemporaryDirectory(prefix="arraybench-bench-") as directory:
        work = Path(directory)
        if "p1" in parts:
            files.bench_parse(report, work, repeat=args.repeat)
        databases = _databases(parts)
        if databases:
            with servers.throwaway(work, databases) as server:
                _database_parts(parts, server, report, work, repeat=args.repeat)
    report.print()


def _databases(parts):
    """The throw-away databases the parts use."""
    from tests.bench.servers import LARGE, REAL, SMALL, WORKERS

    used = {"p2": [SMALL], "memory": [SMALL], "p3": [SMALL, LARGE, REAL], "bundle": [SMALL], "p4": [WORKERS]}
    return tuple(dict.fromkeys(name for part in parts for name in used.get(part, [])))


def _database_parts(parts, server, report, work, *, repeat):
    if "p2" in parts:
        from tests.bench.store import bench_store

        bench_store(report, server, work, repeat=repeat)
    if "memory" in parts:
        from tests.bench.files import bench_memory

        bench_memory(report, server, work)
    if "p3" in parts:
        from tests.bench.pages import bench_pages

        bench_pages(report, server, work, repeat=repeat, parts=parts)
    if "bundle" in parts:
        from tests.bench.bundle import bench_bundle

        bench_bundle(report, server, repeat=repeat)
    if "p4" in parts:  # after memory: its figure is the peak of every child process so far
        from tests.bench.workers import bench_workers

        bench_workers(report, server, work, repeat=repeat)


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    main()
