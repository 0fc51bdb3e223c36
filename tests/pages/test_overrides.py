"""A maintainer's exclusions and workload names as the run, system and compare pages show them.

Seed 000 is 000_f52f16ce4c762121.txt (IBM DS4500 white paper): Table 8 gives Random Reads 8K at
RAID-10 on 140 drives, 30,060 IOPS for the DS4500; the DS4400's 26,700 IOPS (Chart text) makes +12.6 %.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from portal.models import Role, Run, System
from tests.conftest import team_member

COMPARED = {"a": "IBM DS4500", "b": "IBM DS4400", "workload": "Random Reads 8K"}


def _signed_in(name, role, team="IBM lab"):
    user = get_user_model().objects.create_user(name, password="disk-arrays-42")
    team_member(user, role=role, team=team)
    client = Client()
    client.force_login(user)
    return client


def _text(response):
    return " ".join(response.content.decode().split())


@pytest.fixture
def ds4500(demo):
    """The DS4500's published figures, owned by a team with a maintainer."""
    maintainer = _signed_in("maria", Role.MAINTAINER)
    team = get_user_model().objects.get(username="maria").memberships.get().team
    System.objects.filter(name="IBM DS4500").update(team=team)
    run = Run.objects.get(config__system__name="IBM DS4500", workload_name="Random Reads 8K", **RAID10_140)
    return maintainer, run


RAID10_140 = {"config__raid_level": "RAID-10", "config__drive_count": 140}


def test_an_excluded_run_leaves_the_comparison_and_is_marked_on_its_pages(ds4500, client):
    maintainer, run = ds4500
    before = _text(client.get("/compare/", COMPARED))
    assert '<th scope="row">RAID-10, 140 drives, All Caches Disabled</th><td class="num">30,060' in before
    assert '<td class="num pct">12.6 %</td>' in before

    response = maintainer.post(f"/runs/{run.id}/exclude", {"reason": "a preconditioning pass"})
    assert response.status_code == 302 and response["Location"] == f"/runs/{run.id}/"

    after = _text(client.get("/compare/", COMPARED))
    assert "RAID-10, 140 drives, All Caches Disabled</th>" not in after and "12.6 %" not in after
    # The RAID-5 figures are compared as before (Table 4: 30,020 against 26,640, +12.7 %).
    assert '<td class="num pct">12.7 %</td>' in after
    today = run.__class__.objects.get(id=run.id).excluded_at.strftime("%-d %b %Y")
    mark = f"excluded from comparisons: a preconditioning pass, by maria on {today}"
    assert f"This run is {mark}." in _text(maintainer.get(f"/runs/{run.id}/"))
    system = run.config.system_id
    assert mark in _text(maintainer.get(f"/systems/{system}/", {"runs": "Random Reads 8K"}))
    # Who excluded it is named to the team's members only.
    public = _text(client.get(f"/systems/{system}/", {"runs": "Random Reads 8K"}))
    assert "a preconditioning pass, by a maintainer on" in public and "maria" not in public

    maintainer.post(f"/runs/{run.id}/include")
    assert '<td class="num pct">12.6 %</td>' in _text(client.get("/compare/", COMPARED))
    log = _text(maintainer.get("/teams/ibm-lab/"))
    subject = f"run #{run.id} {run.name} of IBM DS4500"
    assert f"<td>maria</td><td>excluded from comparisons</td><td>{subject}: a preconditioning pass</td>" in log
    assert f"<td>maria</td><td>compared again</td><td>{subject}</td>" in log


def test_the_teams_name_for_a_workload_is_shown_to_its_members_on_the_compare_and_system_pages(ds4500, client):
    maintainer, run = ds4500
    maintainer.post(f"/runs/{run.id}/alias", {"name": "Random read 8K (lab)"})
    heading = '<h2 id="w1">Random read 8K (lab) (Random Reads 8K)</h2>'
    assert heading in _text(maintainer.get("/compare/", COMPARED))
    assert '<h2 id="w1">Random Reads 8K</h2>' in _text(client.get("/compare/", COMPARED))
    system = _text(maintainer.get(f"/systems/{run.config.system_id}/", {"runs": "Random Reads 8K"}))
    assert '<h3>Random read 8K (lab) <span class="muted">(stored as “Random Reads 8K”, ' in system
    assert "<dd>Random read 8K (lab) (Random Reads 8K)</dd>" in _text(maintainer.get(f"/runs/{run.id}/"))
    # The team's name finds the workload for its members (the DS4400 knows it by the tool's name).
    asked = {**COMPARED, "workload": "Random read 8K (lab)"}
    assert '<td class="num pct">12.6 %</td>' in _text(maintainer.get("/compare/", asked))
    assert "12.6 %" not in _text(client.get("/compare/", asked))

    maintainer.post(f"/runs/{run.id}/alias/remove")
    assert '<h2 id="w1">Random Reads 8K</h2>' in _text(maintainer.get("/compare/", COMPARED))


def test_a_stated_read_pct_is_shown_with_who_stated_it(ds4500):
    maintainer, _run = ds4500
    run = Run.objects.filter(config__system__name="IBM DS4500").first()
    Run.objects.filter(id=run.id).update(read_pct=None)
    maintainer.post(f"/runs/{run.id}/statement", {"read_pct": "50"})
    page = _text(maintainer.get(f"/runs/{run.id}/"))
    assert "<dd>read %: 50 (stated by maria)</dd>" in page
    assert "read share not stated" in page


def test_only_a_maintainer_changes_a_run_by_post_with_its_csrf_token(ds4500):
    _maintainer, run = ds4500
    viewer = _signed_in("vera", Role.VIEWER)
    refused = viewer.post(f"/runs/{run.id}/exclude", {"reason": "failed"}, headers={"accept": "text/plain"})
    assert refused.status_code == 403
    assert "Only a maintainer of the system's team" in refused.content.decode()
    assert "Exclude</button>" not in viewer.get(f"/runs/{run.id}/").content.decode()
    assert viewer.get(f"/runs/{run.id}/exclude").status_code == 405
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(get_user_model().objects.get(username="maria"))
    assert checked.post(f"/runs/{run.id}/exclude", {"reason": "failed"}).status_code == 403
    System.objects.filter(id=run.config.system_id).update(published=False)
    other = _signed_in("otto", Role.MAINTAINER, team="Other lab")
    assert other.post(f"/runs/{run.id}/exclude", {"reason": "failed"}).status_code == 404
    assert Run.objects.get(id=run.id).excluded_reason == ""


def test_an_exclusion_without_a_reason_is_refused_on_the_run_page(ds4500):
    maintainer, run = ds4500
    response = maintainer.post(f"/runs/{run.id}/exclude", {"reason": " "}, follow=True)
    assert "Reason: This field is required." in _text(response)
    assert Run.objects.get(id=run.id).excluded_reason == ""
    assert re.search(r'<input id="id_reason" name="reason" required', response.content.decode())
