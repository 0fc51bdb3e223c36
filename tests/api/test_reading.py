"""Reading systems, configurations, runs and points: filters, pagination, a run's curve and threshold figure."""

import pytest

from tests.api.conftest import error_of
from tests.factories import PointFactory, RunFactory


def names(response):
    return [item["name"] for item in response.json()["results"]]


def test_systems_filtered_and_paginated(demo, api):
    assert api.get("/api/v1/systems/", {"vendor": "hp"}).json()["count"] == 2
    # Seed 000's RAID-5 140-drive configurations exist for both IBM DS4000s only.
    with_140 = api.get("/api/v1/systems/", {"raid_level": "RAID 5", "drive_count": "140"})
    assert names(with_140) == ["IBM DS4400", "IBM DS4500"]
    assert "IBM DS4500" in names(api.get("/api/v1/systems/", {"workload": "Random Reads 8K", "tool": "iometer"}))
    first = api.get("/api/v1/systems/", {"page_size": "4"}).json()
    assert (first["count"], len(first["results"])) == (6, 4)
    second = api.get(first["next"]).json()
    assert len(second["results"]) == 2 and second["next"] is None
    ds4500 = api.get(f"/api/v1/systems/{demo['IBM DS4500'].id}/").json()
    assert (ds4500["name"], ds4500["page_url"], "profile" in ds4500) == (
        "IBM DS4500",
        f"/systems/{ds4500['id']}/",
        True,
    )


def test_configs_and_runs_filtered(demo, api):
    configs = api.get("/api/v1/configs/", {"system": "IBM DS4500", "drive_count": "140", "raid_level": "RAID-5"}).json()
    assert {c["cache_setting"] for c in configs["results"]} >= {"All Caches Disabled", "Write Cache Enabled"}
    runs = api.get(
        "/api/v1/runs/",
        {"system": "IBM DS4500", "raid_level": "RAID 5", "drive_count": "140", "workload": "Random Reads 8K"},
    ).json()["results"]
    (run,) = runs
    # Seed 000 Table 4 line 272, typed in as a published figure at 20 ms.
    assert (run["origin"], run["citation"]["table"], run["config"]["cache_setting"]) == (
        "published", "Table 4", "All Caches Disabled",
    )  # fmt: skip
    assert (run["tool"], run["workload"]["read_pct"], run["workload"]["random_pct"]) == ("Iometer", 100, 100)
    by_id = api.get("/api/v1/runs/", {"system": str(demo["IBM DS4500"].id), "workload": "Random Reads 8K"}).json()
    assert run["id"] in [r["id"] for r in by_id["results"]]
    assert api.get("/api/v1/runs/", {"stored_after": "2999-01-01"}).json()["count"] == 0
    assert api.get("/api/v1/runs/", {"tag": "nightly"}).json()["count"] == 0
    bad = api.get("/api/v1/runs/", {"drive_count": "many"})
    assert bad.status_code == 400 and set(error_of(bad)["fields"]) == {"drive_count"}


@pytest.fixture
def sweep(db):
    """A measured run: 1,000 IOPS at 5 ms, 3,000 at 15 ms, 4,000 at 25 ms (outstanding I/Os 1, 4, 8), tagged;
    their 99th percentiles 10, 30 and 50 ms."""
    run = RunFactory(tags=["nightly"])
    for seq, (load, iops, ms) in enumerate([(1, 1000, 5), (4, 3000, 15), (8, 4000, 25)]):
        PointFactory(
            run=run, seq=seq, outstanding_io=load, iops=iops, mbps=iops * 8192 / 1e6, avg_response_ms=ms,
            latency_percentiles_ms={"99": 2 * ms},
        )  # fmt: skip
    return run


def test_points_by_cursor_and_a_runs_curve_and_threshold(sweep, api):
    first = api.get("/api/v1/points/", {"run": sweep.id, "page_size": "2"}).json()
    assert [p["iops"] for p in first["results"]] == [1000, 3000] and "cursor=" in first["next"]
    second = api.get(first["next"]).json()
    assert [p["iops"] for p in second["results"]] == [4000] and second["next"] is None

    curve = api.get(f"/api/v1/runs/{sweep.id}/curve/").json()
    assert curve["metric"] == "iops"
    assert curve["points"][1] == {"load": 4, "throughput": 3000, "response_ms": 15}
    assert api.get(f"/api/v1/runs/{sweep.id}/curve/", {"metric": "mbps"}).json()["points"][0]["throughput"] == 8.192

    # Interpolated between 15 ms and 25 ms: 3,000 + 1,000 x (20 - 15) / (25 - 15) = 3,500 IOPS.
    at_20 = api.get(f"/api/v1/runs/{sweep.id}/threshold/").json()
    assert (at_20["value"], at_20["status"], at_20["reached"], at_20["rule"]) == (
        3500,
        "interpolated",
        True,
        "interpolate",
    )
    beyond = api.get(f"/api/v1/runs/{sweep.id}/threshold/", {"threshold_ms": "30"}).json()
    assert (beyond["value"], beyond["reached"]) == (4000, False)
    assert set(error_of(api.get(f"/api/v1/runs/{sweep.id}/threshold/", {"threshold_ms": "0"}))["fields"]) == {
        "threshold_ms"
    }
    assert api.get("/api/v1/runs/", {"tag": "nightly"}).json()["results"][0]["point_count"] == 3
    assert api.get(f"/api/v1/points/{first['results'][0]['id']}/").json()["seq"] == 0
    assert api.get("/api/v1/runs/999999/curve/").status_code == 404


def test_a_runs_curve_and_threshold_at_a_percentile(sweep, api):
    curve = api.get(f"/api/v1/runs/{sweep.id}/curve/", {"latency": "p99"}).json()
    assert (curve["latency"], [point["response_ms"] for point in curve["points"]]) == ("p99", [10, 30, 50])
    # 99th percentiles 10 ms and 30 ms around 20 ms: 1,000 + 2,000 x (20 - 10) / (30 - 10) = 2,000 IOPS.
    at_p99 = api.get(f"/api/v1/runs/{sweep.id}/threshold/", {"latency": "p99"}).json()
    assert (at_p99["value"], at_p99["status"], at_p99["latency"], at_p99["threshold_ms"]) == (
        2000, "interpolated", "p99", 20,
    )  # fmt: skip
    # Every 99th percentile is under 60 ms: the best point, a lower bound.
    beyond = api.get(f"/api/v1/runs/{sweep.id}/threshold/", {"latency": "p99", "threshold_ms": "60"}).json()
    assert (beyond["value"], beyond["status"], beyond["status_text"]) == (
        4000, "not_reached", "threshold not reached: the best point, a lower bound",
    )  # fmt: skip
    bogus = api.get(f"/api/v1/runs/{sweep.id}/threshold/", {"latency": "bogus"})
    assert error_of(bogus)["fields"] == {
        "latency": ["must be one of avg, p50, p90, p95, p99, p99.9, max; got 'bogus'."]
    }
    assert error_of(api.get(f"/api/v1/runs/{sweep.id}/curve/", {"metric": "kbps"}))["fields"] == {
        "metric": ["Select a valid choice. kbps is not one of the available choices."]
    }


def test_every_endpoint_refuses_parameters_it_does_not_take(sweep, api):
    systems = api.get("/api/v1/systems/", {"colour": "red"})
    assert systems.status_code == 400
    (text,) = error_of(systems)["fields"]["colour"]
    assert text == (
        "unknown parameter; this endpoint takes drive_count, format, model, name, page, page_size, q, raid_level, "
        "tag, tool, vendor, workload."
    )
    # A run list gives no figures: a threshold there is refused, not ignored.
    runs = api.get("/api/v1/runs/", {"threshold_ms": "20", "stored_after": "2000-01-01"})
    assert set(error_of(runs)["fields"]) == {"threshold_ms"}
    assert "stored_after, stored_before" in error_of(runs)["fields"]["threshold_ms"][0]
    detail = api.get(f"/api/v1/runs/{sweep.id}/", {"latency": "p99"})
    assert error_of(detail)["fields"] == {"latency": ["unknown parameter; this endpoint takes format."]}
    curve = api.get(f"/api/v1/runs/{sweep.id}/curve/", {"threshold_ms": "20"})
    assert error_of(curve)["fields"] == {
        "threshold_ms": ["unknown parameter; this endpoint takes format, latency, metric."]
    }
    points = api.get("/api/v1/points/", {"run": sweep.id, "page": "2"})
    assert "cursor, format, page_size, run, system" in error_of(points)["fields"]["page"][0]
    assert api.get("/api/v1/uploads/", {"ids": "1,2", "page_size": "5"}).status_code == 200
