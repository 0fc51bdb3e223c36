"""Several systems against one baseline, and a system picker that stays small whatever the portal holds."""

import re

from portal.models import System
from tests.factories import ConfigFactory, PointFactory, RunFactory


def _cells(page, label):
    row = page[page.index(f'<th scope="row">{label}</th>') :]
    return re.findall(
        r'<td class="num">([^<]*)(?:<span class="pct">\(([^)]*)\)</span>)?'
        r'(?: <span class="config-note">[^<]*</span>)?</td>',
        row[: row.index("</tr>")],
    )


def test_two_candidates_against_one_baseline_give_the_two_system_numbers(demo, client):
    lab = System.objects.create(name="Lab array", published=True)
    config = ConfigFactory(system=lab, raid_level="RAID-5", drive_count=140, read_cache=False, write_cache=False)
    run = RunFactory(config=config, workload_name="Random Reads 8K", read_pct=100, random_pct=100,
                     transfer_sizes=[{"bytes": 8192, "pct": 100}])  # fmt: skip
    PointFactory(run=run, seq=0, iops=29304.0, avg_response_ms=20.0)
    query = [("a", "IBM DS4500"), ("a", "Lab array"), ("b", "IBM DS4400"), ("raid_level", "RAID-5")]
    page = client.get("/compare/?" + "&".join(f"{k}={v.replace(' ', '+')}" for k, v in query)).content.decode()
    assert "<h1>IBM DS4500, Lab array against IBM DS4400</h1>" in page
    section = page[page.index(">Random Reads 8K</h2>") :]
    # Seed 000 line 295: DS4400 26,640, DS4500 30,020 (+12.7 %); the lab array 29,304 is +10.0 %. A row is a
    # configuration of the baseline (the DS4400's states no cache setting); each system's is named in its cell.
    assert _cells(section, "RAID-5, 140 drives") == [
        ("26,640", ""),
        ("30,020 ", "12.7 %"),
        ("29,304 ", "10.0 %"),
    ]


def test_the_picker_offers_at_most_twenty_names_matching_what_was_typed(db, client):
    System.objects.bulk_create([System(name=f"Array {n:02}", vendor="Acme", published=True) for n in range(30)])
    System.objects.create(name="IBM DS4500", vendor="IBM", model="DS4500", published=True)
    assert client.get("/systems/search.json", {"q": "ibm 4500"}).json() == {"systems": ["IBM DS4500"], "private": []}
    assert len(client.get("/systems/search.json", {"q": "acme"}).json()["systems"]) == 20
    page = client.get("/compare/").content.decode()
    choices = page[page.index('<datalist id="system-choices"') : page.index("</datalist>")]
    assert choices.count("<option value=") == 20, "the page lists a bounded number of names, not every system"
