"""The compare page stays bounded: a page of the workloads both systems have, with fixed queries."""

from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.comparisons.selectors import comparison
from portal.models import Point
from portal.pages.compare import COMPARED_PER_PAGE, ONLY_ONE_SIDE_SHOWN
from tests.factories import ConfigFactory, RunFactory, SystemFactory

RUNS_PER_WORKLOAD = 3


def system_with_runs(name, total, *, iops, only=0):
    """A system with ``total`` runs, three of each shared workload, and ``only`` workloads of its own.

    Each run reaches ``iops`` at 10 ms and twice that at 30 ms: 1.5 x ``iops`` at 20 ms.
    """
    config = ConfigFactory(system=SystemFactory(name=name), drive_count=16)
    names = [f"Workload {n // RUNS_PER_WORKLOAD:03d}" for n in range(total)]
    names += [f"{name} only {n:03d}" for n in range(only)]
    runs = [RunFactory(config=config, workload_name=workload, tool="fio", transfer_sizes=[]) for workload in names]
    Point.objects.bulk_create(
        Point(run=run, seq=seq, outstanding_io=seq + 1, iops=value, avg_response_ms=ms)
        for run in runs
        for seq, (value, ms) in enumerate(((iops, 10), (2 * iops, 30)))
    )
    return config.system


def compare_page(client, a, b, **extra):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/compare/?" + urlencode({"a": a.name, "b": b.name, **extra}))
    assert response.status_code == 200
    return len(queries), response.content.decode()


@pytest.mark.django_db
def test_the_compare_page_has_fixed_queries_and_bounded_output_at_30_and_300_runs(client):
    sizes, counts = {}, {}
    for total in (30, 300):
        a = system_with_runs(f"A{total}", total, iops=2000, only=total // 3)
        b = system_with_runs(f"B{total}", total, iops=1000)
        counts[total], body = compare_page(client, a, b)
        sizes[total] = len(body)
        shared = total // RUNS_PER_WORKLOAD
        assert body.count('<section class="workload"') == min(shared, COMPARED_PER_PAGE)
        # 3,000 IOPS at 20 ms against 1,500: +100 % in every workload shown.
        assert body.count('<td class="num pct">100.0 %</td>') == min(shared, COMPARED_PER_PAGE)
        assert ("of 100 both systems have" in body) == (total == 300)
        assert (f"and {total // 3 - ONLY_ONE_SIDE_SHOWN} more" in body) == (total // 3 > ONLY_ONE_SIDE_SHOWN)
    assert counts[30] == counts[300]
    assert sizes[300] < 1.5 * sizes[30]


@pytest.mark.django_db
def test_the_next_page_compares_the_next_workloads_and_exports_compare_every_one(client):
    a = system_with_runs("Acme A", 60, iops=2000)
    b = system_with_runs("Acme B", 60, iops=1000)
    _, first = compare_page(client, a, b)
    _, second = compare_page(client, a, b, wpage=2)
    assert ">Workload 009</h2>" in first and ">Workload 010</h2>" not in first
    assert ">Workload 010</h2>" in second and ">Workload 019</h2>" in second
    assert 'rel="next"' in first and 'rel="prev"' in second
    everything = comparison(a=a, b=b)
    assert [w.workload for w in everything.workloads] == [f"Workload {n:03d}" for n in range(20)]
    assert [row.pct for w in everything.workloads for row in w.rows] == [pytest.approx(100.0)] * 20
