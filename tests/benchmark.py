"""``make benchmark``: how fast large result files parse and store (a measurement, not a test).

Builds a ~50 MB Iometer results file by appending the shared 1.1.0 sample to itself (Iometer
appends tests to one file the same way), times parsing it, then times storing the result in
the database inside a transaction that is rolled back.
"""

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.samples import sample  # noqa: E402

TARGET_BYTES = 50 * 1024 * 1024


def build_iometer_file(directory):
    chunk = sample("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv").read_bytes()
    path = Path(directory) / "big_iometer.csv"
    with path.open("wb") as out:
        written = 0
        while written < TARGET_BYTES:
            out.write(chunk)
            written += len(chunk)
    return path


def timed(label, function):
    start = time.perf_counter()
    value = function()
    seconds = time.perf_counter() - start
    print(f"{label:<40} {seconds:7.2f} s")
    return value, seconds


def main():
    from ingest import parse_paths

    with tempfile.TemporaryDirectory() as directory:
        path = build_iometer_file(directory)
        size_mb = path.stat().st_size / 1e6
        results, seconds = timed(f"parse Iometer CSV ({size_mb:.0f} MB)", lambda: parse_paths([path]))
        runs = sum(len(r["runs"]) for r in results)
        points = sum(len(run["points"]) for r in results for run in r["runs"])
        print(f"{'':<40} {size_mb / seconds:7.1f} MB/s, {runs} runs, {points} points")

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
        import django

        django.setup()
        from django.db import transaction

        from portal.models import System, Upload
        from portal.services import result_sets_store

        with transaction.atomic():
            system = System.objects.create(name="benchmark system")
            upload = Upload.objects.create(original_name=path.name, size_bytes=1, sha256="0" * 64, stored_path="-")
            timed(
                f"store {runs} runs / {points} points",
                lambda: result_sets_store(results=results, upload=upload, system=system),
            )
            transaction.set_rollback(True)


if __name__ == "__main__":
    main()
