"""Throughput against transfer size, one curve per thread count and cache setting (system page)."""

import json

import pytest

from portal.models import Upload
from portal.pages import families
from portal.pages.families import SweepPoint, family_curves, is_family, size_label
from tests.factories import SystemFactory
from tests.ingesting import store_file
from tests.samples import data

MIB = 2**20 / 1e6  # FFSB prints MB/sec in 2^20 bytes/s; the portal stores 10^6 bytes/s
SWEEP = data("ffsb", "thread_size_sweep.txt")


def _point(size, threads, cache, mbps, run_id=1):
    return SweepPoint(size, threads, cache, mbps, None, run_id)


# ---------------------------------------------------------------- shaping, no database


def test_curves_are_split_by_thread_count_and_cache_setting():
    points = [
        _point(512, 4, "cache on", 3.0),
        _point(8192, 4, "cache on", 40.0),
        _point(512, 4, "cache off", 2.0),
        _point(8192, 4, "cache off", 20.0),
        _point(8192, 1, "cache off", 15.0),
        _point(512, 1, "cache off", 1.0),
    ]
    curves = family_curves(points, metric="mbps")
    # Without cache first (solid lines), then by thread count.
    assert [c.name for c in curves] == ["1 thread, cache off", "4 threads, cache off", "4 threads, cache on"]
    assert [(size, value) for size, value, _ in curves[0].points] == [(512, 1.0), (8192, 15.0)]
    assert [(size, value) for size, value, _ in curves[2].points] == [(512, 3.0), (8192, 40.0)]


def test_repeats_are_averaged_and_an_unknown_cache_setting_is_left_out_of_the_name():
    curves = family_curves([_point(512, 2, "", 1.0, run_id=7), _point(512, 2, "", 3.0, run_id=8)], metric="mbps")
    assert [(c.name, c.points) for c in curves] == [("2 threads", [(512, 2.0, (7, 8))])]


def test_one_size_or_one_thread_count_is_no_family():
    assert not is_family([_point(8192, 1, "", 15.6), _point(8192, 2, "", 28.1)])
    assert not is_family([_point(512, 4, "", 3.0), _point(8192, 4, "", 28.1)])
    assert is_family([_point(512, 1, "", 1.0), _point(8192, 4, "", 28.1)])


def test_sizes_are_labelled_in_binary_units():
    assert [size_label(s) for s in (512, 1024, 2048, 8192, 1536, 1048576)] == [
        "512 B",
        "1 KB",
        "2 KB",
        "8 KB",
        "1536 B",
        "1 MB",
    ]


# ---------------------------------------------------------------- a stored FFSB sweep


@pytest.fixture
def sweep(db):
    system = SystemFactory(name="Lab gateway", vendor="IBM", model="DR550")
    upload = store_file(SWEEP, system=system, labels={"read_cache": False, "write_cache": False})
    assert upload.status == Upload.Status.DONE, upload.error
    return system


def test_a_stored_ffsb_sweep_is_one_family_with_a_curve_per_thread_count(sweep):
    (family,) = families.transfer_size_families(system=sweep)
    assert family.title == "FFSB random reads"
    mbps = {c.name: {size: value for size, value, _ in c.points} for c in family_curves(family.points, metric="mbps")}
    assert list(mbps) == ["1 thread, cache off", "4 threads, cache off"]
    # thread_size_sweep.txt line 77: 1 thread, 512 B blocks, "Read Throughput: 1.27MB/sec"
    assert mbps["1 thread, cache off"][512] == pytest.approx(1.27 * MIB)
    # line 356: 4 threads, 2 KB blocks, "Read Throughput: 10.9MB/sec"
    assert mbps["4 threads, cache off"][2048] == pytest.approx(10.9 * MIB)
    # line 542: 4 threads, 8 KB blocks, "Read Throughput: 28.1MB/sec"
    assert mbps["4 threads, cache off"][8192] == pytest.approx(28.1 * MIB)
    iops = {c.name: {size: value for size, value, _ in c.points} for c in family_curves(family.points, metric="iops")}
    # line 445: 1 thread, 8 KB blocks, "2050.00 Transactions per Second"
    assert iops["1 thread, cache off"][8192] == 2050


def test_the_family_chart_has_titled_axes_and_size_ticks(client, sweep):
    response = client.get(
        f"/systems/{sweep.id}/family.json", {"family": "FFSB random reads", "metric": "mbps"}, HTTP_ACCEPT="*/*"
    )
    assert response.status_code == 200
    figure = json.loads(response.content)
    assert [trace["name"] for trace in figure["data"]] == ["1 thread, cache off", "4 threads, cache off"]
    xaxis = figure["layout"]["xaxis"]
    assert (xaxis["title"]["text"], xaxis["type"]) == ("Transfer size (bytes)", "log")
    assert (xaxis["tickvals"], xaxis["ticktext"]) == ([512, 2048, 8192], ["512 B", "2 KB", "8 KB"])
    assert figure["layout"]["yaxis"]["title"]["text"] == "MB/s (10^6 bytes/s)"
    csv = client.get(f"/systems/{sweep.id}/family.csv", {"family": "FFSB random reads", "metric": "iops"})
    assert '"4 threads, cache off",8192,3650.0' in csv.content.decode()


def test_the_system_page_offers_both_charts_and_an_unknown_family_is_refused(client, sweep):
    body = client.get(f"/systems/{sweep.id}/").content.decode()
    assert '<h2 id="families">' in body
    assert body.count("family.json?family=FFSB+random+reads&amp;metric=") == 2
    missing = client.get(f"/systems/{sweep.id}/family.json", {"family": "nothing", "metric": "mbps"})
    assert missing.status_code == 404
    assert "no thread-count x transfer-size sweep named 'nothing'" in missing.json()["error"]["message"]
