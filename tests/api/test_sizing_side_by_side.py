"""Which of several systems needs fewer drives for a target: the page reached from the compare page,
``manage.py size A B`` and ``GET /api/v1/sizing/side-by-side/`` give the same drives and sentence.

Seed 000 is 000_f52f16ce4c762121.txt (IBM DS4500 white paper); its Table 1 RAID-5 OLTP 8K column,
All Caches Disabled, reads 3,000 / 8,880 / 14,320 / 15,025 / 15,040 IOPS at 20 / 60 / 100 / 140 / 180
drives (20 ms), in the demo data: about 80-85 drives for 12,000 IOPS, 20,000 not reachable.
"""

import io
import json
from html import unescape

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tests.api.conftest import error_of
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory

QUESTION = {"workload": "OLTP 8K", "raid_level": "RAID-5", "cache": "All Caches Disabled"}


@pytest.fixture
def lab_array(demo):
    """A RAID-5 OLTP 8K sweep of exactly 100 IOPS a drive at 20 ms, no level-off: 120 drives for 12,000."""
    system = SystemFactory(name="Lab array")
    for drives in (20, 60, 100):
        run = RunFactory(config=ConfigFactory(system=system, drive_count=drives))
        PointFactory(run=run, seq=0, outstanding_io=8, iops=100.0 * drives, avg_response_ms=20.0)
    return system


def side_by_side_api(api, target, *systems):
    response = api.get("/api/v1/sizing/side-by-side/", {"system": list(systems), **QUESTION, "target": target})
    assert response.status_code == 200, response.content
    return response.json()


def size(*args):
    out = io.StringIO()
    call_command("size", *args, stdout=out)
    return out.getvalue()


def command(target, *systems, json_answer=False):
    options = ["--workload", "OLTP 8K", "--raid-level", "RAID-5", "--cache", "All Caches Disabled"]
    return size(*systems, *options, "--target", str(target), *(["--json"] if json_answer else []))


def test_the_ds4500_needs_fewer_drives_than_the_lab_array_for_12000_iops(lab_array, api):
    body = side_by_side_api(api, 12000, "IBM DS4500", "Lab array")
    ds4500, lab = body["systems"]
    assert (ds4500["system"], lab["system"]) == ("IBM DS4500", "Lab array")
    assert 80 <= ds4500["drives"] <= 85
    assert lab["drives"] == 120
    # Each system's figure is its own sizing answer, with that answer's error.
    alone = api.get("/api/v1/sizing/", {"system": "IBM DS4500", **QUESTION, "target": 12000}).json()["sweeps"][0]
    assert ds4500["drives"] == alone["needed"]["drives"]
    assert ds4500["error"] == {"median_pct": alone["error"]["median_pct"], "worst_pct": alone["error"]["worst_pct"]}
    assert lab["error"] == {"median_pct": 0, "worst_pct": 0}
    assert ds4500["how"] == lab["how"] == "modelled from the measured sweep"
    fewer = 120 - ds4500["drives"]
    assert body["fewer"] == (
        f"IBM DS4500 needs fewer drives for 12,000 IOPS of OLTP 8K at 20 ms: {ds4500['drives']} drives"
        f" (RAID-5, All Caches Disabled, OLTP 8K), {fewer} fewer than Lab array (120 drives: RAID-5, OLTP 8K)."
    )

    printed = command(12000, "IBM DS4500", "Lab array")
    assert printed.splitlines()[0] == body["fewer"]
    assert f"  {ds4500['text']}" in printed.splitlines()
    assert json.loads(command(12000, "IBM DS4500", "Lab array", json_answer=True)) == body

    page = Client().get("/compare/sizing/", {"system": ["IBM DS4500", "Lab array"], **QUESTION, "target": 12000})
    text = unescape(page.content.decode())
    assert page.status_code == 200
    assert body["fewer"] in text
    assert f"{ds4500['drives']} drives" in text and "120 drives" in text
    assert "median 0 %, worst 0 %" in text


def test_only_the_system_that_reaches_the_target_is_named(lab_array, api):
    body = side_by_side_api(api, 20000, "IBM DS4500", "Lab array")
    ds4500, lab = body["systems"]
    assert (ds4500["reachable"], ds4500["drives"]) == (False, None)
    assert 14_300 <= ds4500["levels_off_at"] <= 15_100
    assert lab["drives"] == 200
    assert body["fewer"] == (
        "Only Lab array reaches 20,000 IOPS of OLTP 8K at 20 ms: 200 drives (RAID-5, OLTP 8K)."
        " IBM DS4500 does not reach 20,000 IOPS of OLTP 8K at 20 ms in what was measured:"
        " IBM DS4500, RAID-5, All Caches Disabled, OLTP 8K: not reachable (levels off at about"
        f" {round(ds4500['levels_off_at']):,} IOPS)."
    )
    assert "not reachable (levels off at about 14," in ds4500["text"]
    page = Client().get("/compare/sizing/", {"system": ["IBM DS4500", "Lab array"], **QUESTION, "target": 20000})
    assert body["fewer"] in unescape(page.content.decode())


def test_the_compare_page_links_the_two_systems_side_by_side(demo):
    page = Client().get("/compare/", {"a": "IBM DS4500", "b": "IBM DS4400"}).content.decode()
    assert (
        'href="/compare/sizing/?system=IBM%20DS4500&amp;system=IBM%20DS4400&amp;workload=Random%20Reads%208K'
        '&amp;threshold_ms=20">both side by side</a>' in page
    )


def test_side_by_side_needs_two_systems_and_a_target(demo, api):
    response = api.get("/api/v1/sizing/side-by-side/", {"system": "IBM DS4500", **QUESTION, "target": 12000})
    assert response.status_code == 400
    assert error_of(response)["fields"]["system"] == ["give two to 6 systems (repeat system=), got 1."]
    response = api.get("/api/v1/sizing/side-by-side/", {"system": ["IBM DS4500", "IBM DS4400"], **QUESTION})
    assert "target" in error_of(response)["fields"]
    response = api.get(
        "/api/v1/sizing/side-by-side/", {"system": ["IBM DS4500", "IBM DS9999"], **QUESTION, "target": 1}
    )
    assert response.status_code == 404
    with pytest.raises(CommandError, match="side by side for a --target"):
        size("IBM DS4500", "IBM DS4400", "--workload", "OLTP 8K")


def test_a_private_system_is_not_sized_side_by_side_outside_its_team(demo, api, lab):
    system = SystemFactory(name="Team array", published=False, team=lab)
    for drives in (10, 20):
        run = RunFactory(config=ConfigFactory(system=system, drive_count=drives))
        PointFactory(run=run, seq=0, outstanding_io=8, iops=100.0 * drives, avg_response_ms=20.0)
    assert side_by_side_api(api, 12000, "IBM DS4500", "Team array")["systems"][1]["system"] == "Team array"
    page = Client().get("/compare/sizing/", {"system": ["IBM DS4500", "Team array"], **QUESTION, "target": 12000})
    assert page.status_code == 404
    anonymous = Client().get(
        "/api/v1/sizing/side-by-side/", {"system": ["IBM DS4500", "Team array"], **QUESTION, "target": 1}
    )
    assert anonymous.status_code == 404


def test_a_system_with_no_run_of_the_workload_is_said_to_have_no_data(demo, api):
    # Seed 000 gives OLTP 8K (Tables 1 and 5) for the DS4500 only: the DS4400 has no run of it at all.
    body = side_by_side_api(api, 12000, "IBM DS4500", "IBM DS4400")
    ds4500, *others = body["systems"]
    assert others == [] and body["no_data"] == ["IBM DS4400"]
    assert body["fewer"] == (
        f"Only IBM DS4500 reaches 12,000 IOPS of OLTP 8K at 20 ms: {ds4500['drives']} drives (RAID-5, All Caches"
        " Disabled, OLTP 8K). No data: IBM DS4400 has no run of OLTP 8K (RAID level RAID-5, cache All Caches"
        " Disabled)."
    )
    assert "does not" not in body["fewer"]


def test_the_sweep_a_system_is_sized_from_is_stated(lab_array, api):
    """Without a cache setting the DS4500 has two RAID-5 OLTP 8K sweeps (seed 000 Table 1: All Caches Disabled
    and Write Cache Enabled): its figure is the one needing fewer drives, and the verdict says so."""
    question = {"workload": "OLTP 8K", "raid_level": "RAID-5", "target": 12000}
    body = api.get("/api/v1/sizing/side-by-side/", {"system": ["IBM DS4500", "Lab array"], **question}).json()
    sweeps = {row["sweep"]: row["drives"] for row in body["systems"] if row["system"] == "IBM DS4500"}
    assert set(sweeps) == {"RAID-5, All Caches Disabled, OLTP 8K", "RAID-5, Write Cache Enabled, OLTP 8K"}
    chosen, other = sorted(sweeps, key=sweeps.get)
    assert (
        f"IBM DS4500's figure is that of its sweep needing the fewest drives ({chosen}) of 2 ({other}:"
        f" {sweeps[other]} drives); choose a RAID level and cache setting to size one."
    ) in body["fewer"]
    assert body["fewer"].startswith(
        f"IBM DS4500 needs fewer drives for 12,000 IOPS of OLTP 8K at 20 ms: {sweeps[chosen]}"
    )
