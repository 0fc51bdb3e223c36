"""The system page stays bounded: a page of workloads with their first runs, one workload's runs page by page."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from portal.models import Point, Run
from portal.pages.system_runs import RUNS_PER_PAGE, WORKLOADS_PER_PAGE
from portal.results.figures import runs_stored_figures_recompute
from portal.results.system_runs import RUN_SORTS, RUNS_PER_WORKLOAD, workload_figures
from tests.factories import ConfigFactory, RunFactory, SystemFactory

WORKLOADS = ("OLTP 8K", "Random Reads 8K", "Sequential Reads 64K")
# Whatever the system holds: the system, configurations, workload counts, runs, points, stroke
# tables, families (runs and points), session and user.
PAGE_QUERIES = 12
RUN_ROW = re.compile(r'<tr><td><a href="/runs/(\d+)/">')


def system_with_runs(total):
    """A system with ``total`` runs spread over three workloads and two configurations, two points each."""
    system = SystemFactory(name="Acme 9000")
    configs = [ConfigFactory(system=system, drive_count=8), ConfigFactory(system=system, drive_count=16)]
    runs = [
        RunFactory(config=configs[n % 2], workload_name=WORKLOADS[n % 3], tool="fio", transfer_sizes=[])
        for n in range(total)
    ]
    # 1,000 IOPS at 10 ms and 2,000 at 30 ms: 1,500 IOPS at 20 ms.
    Point.objects.bulk_create(
        Point(run=run, seq=seq, outstanding_io=seq + 1, iops=iops, avg_response_ms=ms)
        for run in runs
        for seq, (iops, ms) in enumerate(((1000, 10), (2000, 30)))
    )
    return system


def run_ids(body):
    return [int(run_id) for run_id in RUN_ROW.findall(body)]


@pytest.mark.django_db
@pytest.mark.parametrize("total", [30, 300])
def test_the_system_page_shows_a_bounded_number_of_runs_with_fixed_queries(
    client, django_assert_max_num_queries, total
):
    system = system_with_runs(total)
    with django_assert_max_num_queries(PAGE_QUERIES):
        body = client.get(f"/systems/{system.id}/").content.decode()
    per_workload = total // 3
    assert f"3 workloads, {total} runs" in body
    for workload in WORKLOADS:
        assert f'{workload} <span class="muted">({per_workload} runs)</span>' in body
    assert len(run_ids(body)) == 3 * min(per_workload, RUNS_PER_WORKLOAD)
    assert body.count('<td class="num">1,500 IOPS</td>') == len(run_ids(body))
    # 1,500 IOPS over 8 drives = 187.5 per drive, written as whole IOPS (runs by configuration: the 8-drive runs
    # come first).
    assert '<td class="num">188 IOPS</td>' in body
    assert ("All 100 runs of OLTP 8K" in body) == (per_workload > RUNS_PER_WORKLOAD)


@pytest.mark.django_db
def test_all_runs_of_a_workload_page_by_page(client, django_assert_max_num_queries):
    system = system_with_runs(300)
    overview = client.get(f"/systems/{system.id}/").content.decode()
    link = re.search(r'<a href="\?([^"]+)#runs">All 100 runs of Random Reads 8K</a>', overview).group(1)
    assert link == "runs=Random+Reads+8K"
    with django_assert_max_num_queries(PAGE_QUERIES):
        first = client.get(f"/systems/{system.id}/?{link}").content.decode()
    assert "Page 1 of 2" in first and "OLTP 8K <span" not in first
    next_page = re.search(r'rel="next" href="\?([^"]+)#runs"', first).group(1).replace("&amp;", "&")
    second = client.get(f"/systems/{system.id}/?{next_page}").content.decode()
    assert "Page 2 of 2" in second
    shown = run_ids(first) + run_ids(second)
    assert len(run_ids(first)) == RUNS_PER_PAGE and len(shown) == 100
    expected = system.configs.filter(runs__workload_name="Random Reads 8K").values_list("runs", flat=True)
    assert sorted(shown) == sorted(expected)
    # By configuration: the 8-drive runs first, then the 16-drive runs.
    first_rows, second_rows = (
        page.split('id="runs"')[1].split("<tbody>")[1].split("</tbody>")[0] for page in (first, second)
    )
    assert "8 HDDs" in first_rows.split("</tr>")[0] and "16 HDDs" in second_rows.rsplit("<tr>", 1)[1]


@pytest.mark.django_db
def test_runs_sorted_newest_first_and_an_unknown_workload_is_a_404(client):
    system = system_with_runs(30)
    body = client.get(f"/systems/{system.id}/", {"runs": "OLTP 8K", "sort": "newest"}).content.decode()
    newest = system.configs.filter(runs__workload_name="OLTP 8K").order_by("-runs").values_list("runs", flat=True)
    assert run_ids(body) == list(newest)
    assert "<strong>newest first</strong>" in body
    missing = client.get(f"/systems/{system.id}/", {"runs": "nothing"})
    assert (
        missing.status_code == 404
        and "Acme 9000 has no runs of workload &#x27;nothing&#x27;." in missing.content.decode()
    )
    assert client.get(f"/systems/{system.id}/", {"sort": "size"}).status_code == 400


@pytest.mark.django_db
def test_workloads_are_paged(client):
    system = SystemFactory(name="Many workloads")
    config = ConfigFactory(system=system)
    for n in range(WORKLOADS_PER_PAGE + 2):
        RunFactory(config=config, workload_name=f"Workload {n:02}", transfer_sizes=[])
    first = client.get(f"/systems/{system.id}/").content.decode()
    assert "Workload 00" in first and f"Workload {WORKLOADS_PER_PAGE:02} <span" not in first
    assert f"Page 1 of 2 ({WORKLOADS_PER_PAGE} workloads a page)" in first
    second = client.get(f"/systems/{system.id}/", {"page": "2"}).content.decode()
    assert f"Workload {WORKLOADS_PER_PAGE + 1:02} <span" in second and "Workload 00 <span" not in second


def expected_order(system, workload, sort):
    """The runs of a workload in ``sort`` order, ordered by Django over every run (what a page slices)."""
    order = RUN_SORTS[sort][1]
    return list(
        Run.objects.filter(config__system=system, workload_name=workload).order_by(*order).values_list("id", flat=True)
    )


@pytest.mark.django_db
@pytest.mark.parametrize("sort", list(RUN_SORTS))
def test_the_runs_a_page_picks_are_the_slice_of_every_run_in_order(sort):
    system = SystemFactory(name="Mixed")
    # Two configurations alike but for their stroke: ties in RAID level and drive count.
    configs = [
        ConfigFactory(system=system, raid_level=raid_level, drive_count=drives, stroke_pct=stroke_pct)
        for raid_level, drives, stroke_pct in (("RAID-5", 16, None), ("RAID-10", 8, None), ("RAID-5", 8, None))
    ]
    configs.append(ConfigFactory(system=system, raid_level="RAID-5", drive_count=8, stroke_pct=50))
    # 30 runs of each workload on each configuration: more than the first runs a page reads of one.
    for n in range(240):
        RunFactory(
            config=configs[n // 2 % 4], workload_name=WORKLOADS[n % 2], tool=("vdbench", "fio", "Iometer")[n % 3]
        )
    for first, limit in ((0, RUNS_PER_WORKLOAD), (5, 7), (40, 10)):
        figures = workload_figures(
            system=system, workloads=list(WORKLOADS[:2]), threshold_ms=20, sort=sort, first=first, limit=limit
        )
        for workload in WORKLOADS[:2]:
            shown = [figure.run.id for figure in figures[workload]]
            assert shown == expected_order(system, workload, sort)[first : first + limit]


@pytest.mark.django_db
def test_figures_stored_with_the_runs_are_shown_at_the_default_threshold_without_reading_points(client):
    system = system_with_runs(30)
    runs_stored_figures_recompute(run_ids=list(Run.objects.filter(config__system=system).values_list("id", flat=True)))
    with CaptureQueriesContext(connection) as queries:
        body = client.get(f"/systems/{system.id}/").content.decode()
    assert not [query for query in queries.captured_queries if "portal_point" in query["sql"]]
    assert body.count('<td class="num">1,500 IOPS</td>') == len(run_ids(body)) == 30
    assert '<td class="num">188 IOPS</td>' in body
    # At another threshold the figures are read from the points: 1,250 IOPS at 15 ms.
    body = client.get(f"/systems/{system.id}/", {"threshold_ms": "15"}).content.decode()
    assert body.count('<td class="num">1,250 IOPS</td>') == 30


@pytest.mark.django_db
def test_the_sweep_offers_the_workloads_measured_in_several_configurations(client):
    # Three workloads measured in both configurations, and 300 runs named apart in one of them (as an
    # Iometer file names each test's run): a sweep of one of those would be a single point.
    system = system_with_runs(30)
    config = system.configs.order_by("id").first()
    Run.objects.bulk_create(
        RunFactory.build(config=config, workload_name=f"spec (test {n})", transfer_sizes=[]) for n in range(300)
    )
    body = client.get(f"/systems/{system.id}/").content.decode()
    assert "303 workloads, 330 runs" in body
    assert sweep_choices(body) == [("OLTP 8K", True), ("Random Reads 8K", False), ("Sequential Reads 64K", False)]
    # A workload asked for by name is offered too, chosen.
    asked = client.get(f"/systems/{system.id}/?workload=spec+(test+7)").content.decode()
    assert sweep_choices(asked)[:2] == [("spec (test 7)", True), ("OLTP 8K", False)]


def sweep_choices(body):
    """(workload as the option reads, selected) of each option of the sweep's workload choice; each option's value is
    the name its runs were stored under."""
    select = re.search(r'<select id="id_sweep_workload" name="workload">(.*?)</select>', body, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select)
    return [(label, bool(selected)) for _, selected, label in options]


@pytest.mark.django_db
def test_a_rows_text_from_a_file_is_shown_as_text(client):
    system = system_with_runs(1)
    Run.objects.filter(config__system=system).update(
        tool='<img src=x onerror="alert(1)">', excluded_reason="<b>warm-up</b> & fill"
    )
    body = client.get(f"/systems/{system.id}/").content.decode()
    assert "<img src=x" not in body and "<b>warm-up</b>" not in body
    assert "<td>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</td>" in body
    assert "excluded from comparisons: &lt;b&gt;warm-up&lt;/b&gt; &amp; fill, by a maintainer</span>" in body
