"""The compare page offers drive-count sizing ("Which needs fewer drives for a target?") for workloads read
as I/Os or bytes at the response-time threshold: the demo's DS4500 and DS4400 were measured at several drive
counts (seed 000), so each compared workload links to both systems' sizing pages and to both side by side."""

import html
import re

import pytest

from portal.analysis.figure_kinds import (
    DATA_THROUGHPUT,
    FILES_CREATED,
    IO_OPERATIONS,
    METADATA_OPERATIONS,
    OBJECT_OPERATIONS,
    TRAINING_THROUGHPUT,
)
from portal.comparisons.comparison import WorkloadComparison

LINE = "Which needs fewer drives for a target?"


def test_each_compared_demo_workload_links_to_sizing_both_systems(demo, client):
    body = client.get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400"}).content.decode()
    sections = body.count('<section class="workload"')
    assert sections > 0 and body.count(LINE) == sections
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))
    # Random Reads 8K compared in IOPS, Streaming Reads 64K in MB/s: both at the default 20 ms.
    for name in ("Random Reads 8K", "Streaming Reads 64K"):
        assert f"{LINE} Size {name} on IBM DS4500 · IBM DS4400 · both side by side" in text
    a, b = demo["IBM DS4500"], demo["IBM DS4400"]
    assert f'href="/systems/{a.id}/sizing/?workload=Random%20Reads%208K&amp;threshold_ms=20"' in body
    assert f'href="/systems/{b.id}/sizing/?workload=Random%20Reads%208K&amp;threshold_ms=20"' in body


def workload(kind, *, as_published=""):
    return WorkloadComparison(
        workload="w", metric="iops", rows=[], only_a=[], only_b=[], summaries=[], as_published=as_published, kind=kind
    )


@pytest.mark.parametrize(
    ("kind", "as_published", "sizable"),
    [
        (IO_OPERATIONS, "", True),
        (DATA_THROUGHPUT, "", True),
        (None, "", True),  # no kind known: the metric's, IOPS
        (DATA_THROUGHPUT, "as published (no response time)", False),  # an IO500 phase
        (DATA_THROUGHPUT, "as measured / as published (no response time)", False),
        (METADATA_OPERATIONS, "", False),
        (FILES_CREATED, "", False),
        (OBJECT_OPERATIONS, "", False),
        (TRAINING_THROUGHPUT, "", False),  # MLPerf Storage: read at the AU rule, no response time
    ],
)
def test_only_figures_read_at_the_threshold_as_ios_or_bytes_are_sized(kind, as_published, sizable):
    assert workload(kind, as_published=as_published).sizable is sizable
