"""Comparison selectors on the seed papers' published figures (loaded by `loaddemo`)."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command

from portal.comparisons.filters import SideFilters
from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import Membership, Run, Team
from portal.results.selectors import run_curve
from portal.systems.selectors import system_by_name
from tests.factories import ConfigFactory, RunFactory, SystemFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ds4500_vs_ds4400(demo):
    anyone = AnonymousUser()
    return system_by_name(name="IBM DS4500", viewer=anyone), system_by_name(name="IBM DS4400", viewer=anyone)


def _rows(result, workload):
    (found,) = [w for w in result.workloads if w.workload == workload]
    return found


def test_file_server_without_a_cache_setting_asks_the_user_to_choose_one(ds4500_vs_ds4400):
    a, b = ds4500_vs_ds4400
    file_server = _rows(
        comparison(a=a, b=b, query=ComparisonQuery(threshold_ms=20, workload="File Server")), "File Server"
    )
    # The DS4400's 140-drive figure states no cache setting; the DS4500 has two at 140 drives.
    assert file_server.rows == []
    assert (
        "B's RAID-5, 140 drives could match A's 'All Caches Disabled' or 'Write Cache Enabled': "
        "choose a cache setting to compare them"
    ) in file_server.ambiguous


@pytest.mark.parametrize(
    ("raid_level", "cache", "a_mbps", "b_mbps", "pct"),
    [
        # 000_f52f16ce4c762121.txt, Chart 4 text: 133 MBps vs 114 MBps, "approximately 16 %" (16.7 %).
        ("RAID-5", "All Caches Disabled", 133, 114, 16.7),
        # 000_f52f16ce4c762121.txt, Chart 10 text: 186 MBps vs 163 MBps, "approximately 14 %" (14.1 %).
        ("RAID-10", "Write Cache Enabled", 186, 163, 14.1),
    ],
)
def test_file_server_with_the_cache_setting_chosen(ds4500_vs_ds4400, raid_level, cache, a_mbps, b_mbps, pct):
    a, b = ds4500_vs_ds4400
    result = comparison(
        a=a,
        b=b,
        query=ComparisonQuery(
            threshold_ms=20, workload="File Server", both_sides=SideFilters(raid_level=raid_level, cache=cache)
        ),
    )
    (row,) = _rows(result, "File Server").rows
    assert round(row.pct, 1) == pct
    assert row.a_value == pytest.approx(a_mbps * 2**20 / 1e6)
    assert f"IBM DS4500 published {a_mbps} MBps (2^20 bytes/s)" in row.notes
    assert f"IBM DS4400 published {b_mbps} MBps (2^20 bytes/s)" in row.notes


def test_streaming_reads_with_the_older_drives_boosted_5_pct(ds4500_vs_ds4400):
    a, b = ds4500_vs_ds4400
    result = comparison(
        a=a,
        b=b,
        query=ComparisonQuery(
            threshold_ms=20, adjust_b=1.05, workload="Streaming Reads 64K", both_sides=SideFilters(raid_level="RAID-5")
        ),
    )
    (row,) = _rows(result, "Streaming Reads 64K").rows
    # 000_f52f16ce4c762121.txt, Chart 2 text: 722 vs 388 MBps boosted 5 %, "approximately 75 %" (77.2 %).
    assert round(row.pct, 1) == 77.2
    assert "different drive counts: 60 vs 108" in row.notes
    assert "IBM DS4500 published 722 MBps (2^20 bytes/s)" in row.notes


def test_a_published_figure_is_drawn_at_the_response_time_it_is_stated_at(ds4500_vs_ds4400):
    run = Run.objects.get(
        config__system__name="IBM DS4400", workload_name="Random Reads 8K", config__raid_level="RAID-5"
    )
    # 000_f52f16ce4c762121.txt, Chart 6 text: 26,640 IOPS for the DS4400, sampled at 20 ms.
    (point,) = run_curve(run=run, metric="iops")
    assert (point.throughput, point.response_ms) == (26640, run.published_at_ms)
    assert run.published_at_ms == 20


def test_the_compare_command_says_what_it_could_not_compare(ds4500_vs_ds4400):
    out = io.StringIO()
    call_command("compare", "IBM DS4500", "IBM DS4400", "--workload", "File Server", stdout=out)
    assert (
        "not compared: File Server: B's RAID-5, 140 drives could match A's 'All Caches Disabled' or "
        "'Write Cache Enabled': choose a cache setting to compare them"
    ) in out.getvalue()


@pytest.mark.django_db
def test_the_systems_list_offers_each_tool_and_workload_once_in_order():
    from portal.systems.selectors import filter_choices

    config = ConfigFactory()
    for tool, workload in [("vdbench", "rd1"), ("fio", "randread"), ("Iometer", "OLTP 8K"), ("fio", "rd1")] * 3:
        RunFactory(config=config, tool=tool, workload_name=workload)
    # A team's private system: its tool and workload names are offered to its members only.
    lab = Team.objects.create(name="Lab", slug="lab")
    RunFactory(config=ConfigFactory(system=SystemFactory(team=lab, published=False)), tool="elbencho",
               workload_name="Project Z read")  # fmt: skip
    choices = filter_choices(viewer=AnonymousUser())
    assert choices["tool"] == ["fio", "Iometer", "vdbench"]
    assert choices["workload"] == ["OLTP 8K", "randread", "rd1"]
    member = get_user_model().objects.create_user("member")
    Membership.objects.create(team=lab, user=member)
    choices = filter_choices(viewer=member)
    assert choices["tool"] == ["elbencho", "fio", "Iometer", "vdbench"]
    assert choices["workload"] == ["OLTP 8K", "Project Z read", "randread", "rd1"]
