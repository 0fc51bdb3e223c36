"""P1 (parsers against bare ``csv.reader`` / ``json.load``) and the memory of a 200 MB file."""

import csv
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from tests.samples import sample

IOMETER_SAMPLE = ("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv")
FIO_SAMPLE = ("fio", "pkb_fio-2.17_multijob_group_reporting.json")
MB = 1024 * 1024
# Parse speed against the bare reader of the same file: fio's goal keeps a margin above 0.5x.
PARSE_GOALS = {"Iometer": 0.5, "fio": 0.55}
MEMORY_GOAL_MB = 1024


def iometer_file(directory, megabytes, *, name="big_iometer.csv", marker=""):
    """The 1.1.0 sample appended to itself (Iometer appends tests to one file the same way)."""
    chunk = sample(*IOMETER_SAMPLE).read_bytes()
    if marker:  # a different file (another sha256) with the same figures
        chunk = chunk.replace(b"512B Random Read", f"512B Random Read {marker}".encode(), 1)
    path = Path(directory) / name
    with path.open("wb") as out:
        written = 0
        while written < megabytes * MB:
            out.write(chunk)
            written += len(chunk)
    return path


def fio_file(directory, megabytes, *, name="big_fio.json"):
    """One fio JSON output holding the sample's jobs many times over, each job named apart."""
    document = json.loads(sample(*FIO_SAMPLE).read_text())
    template, jobs = document["jobs"], []
    size = len(json.dumps(template, indent=4))
    for copy in range(max(1, megabytes * MB // size)):
        for job in template:
            jobs.append({**job, "jobname": f"{job['jobname']}-{copy}"})
    document["jobs"] = jobs
    path = Path(directory) / name
    path.write_text(json.dumps(document, indent=2))
    return path


def _csv_read(path):
    with open(path, newline="", encoding="utf-8", errors="replace") as stream:
        for _row in csv.reader(stream):
            pass


def _json_read(path):
    with open(path, encoding="utf-8") as stream:
        json.load(stream)


def bench_parse(report, work, *, repeat):
    from ingest import parse_paths
    from tests.bench.timing import alternate

    for label, path, baseline, bare in (
        ("Iometer", iometer_file(work, 50), _csv_read, "csv.reader"),
        ("fio", fio_file(work, 15), _json_read, "json.load"),
    ):
        parsed, bare_s, ratio = alternate(
            lambda p=path: parse_paths([p]), lambda p=path, b=baseline: b(p), repeat=repeat
        )
        throughput = 1 / ratio
        size_mb = path.stat().st_size / 1e6
        goal = PARSE_GOALS[label]
        report.add(
            f"P1 parse {label} ({size_mb:.0f} MB)",
            f"{throughput:.2f}x",
            f">= {goal}x",
            throughput >= goal,
            f"{size_mb / parsed:.0f} MB/s vs {bare} {size_mb / bare_s:.0f} MB/s",
        )


def bench_memory(report, server, work):
    """Parse and store a 200 MB Iometer file in a child process (rolled back); its peak RSS is the figure.
    Run before any other child process: the kernel reports the largest child's peak."""
    from tests.bench.servers import SMALL

    path = iometer_file(work, 200, name="huge_iometer.csv")
    env = {**os.environ, "DATABASE_URL": server.url(SMALL)}
    command = [sys.executable, "-m", "tests.bench.memory", str(path)]
    subprocess.run(command, check=True, cwd=Path(__file__).parents[2], env=env)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    path.unlink()
    report.add(
        "memory: parse and store 200 MB", f"{peak_mb:.0f} MB RSS", f"< {MEMORY_GOAL_MB} MB", peak_mb < MEMORY_GOAL_MB
    )
