"""A signed-in reader (or a team, set by its admin) chooses the threshold and latency figure the compare
page reads at when its address states none, and the page says which default applied.

The SSDs are fio-plot's sweeps (samples/fio-sweeps/): at 0.5 ms both average-response-time curves cross
(they are measured between 0.0716 and 0.920 ms), at the papers' 20 ms neither does."""

import html
import re

import pytest
from django.contrib.auth import get_user_model

from portal.models import Membership, Role, Team, ThresholdDefault
from tests.pages.test_compare_thresholds import QUERY, ssds  # noqa: F401 (a fixture)


def _text(response):
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def reader(db):
    return get_user_model().objects.create_user("reader", password="x")


def test_a_reader_sets_a_default_and_the_compare_page_reads_at_it(ssds, reader, client):  # noqa: F811
    client.force_login(reader)
    before = client.get("/compare/", QUERY)
    assert "The address states no threshold: the papers' default applies, 20 ms at the average response time." in (
        _text(before)
    )
    assert "No crossing at 20 ms" in _text(before)

    saved = client.post("/compare/defaults/", {"threshold_ms": "0.5", "latency": "avg", "owner": ""})
    assert saved.status_code == 302
    assert ThresholdDefault.objects.get(user=reader).threshold_ms == 0.5

    page = client.get("/compare/", QUERY)
    text = _text(page)
    assert "The address states no threshold: your default applies, 0.5 ms at the average response time." in text
    assert "4 KiB random read at 0.5 ms (IOPS)" in text and "No crossing" not in text
    exports = re.findall(r'href="(/export/comparison/\?[^"]+)"', page.content.decode())
    assert exports and all("threshold_ms=0.5" in html.unescape(link) for link in exports)
    # A threshold in the address is read as stated, and no default is named.
    stated = _text(client.get("/compare/", {**QUERY, "threshold_ms": "0.2"}))
    assert "The address states no threshold" not in stated and "4 KiB random read at 0.2 ms (IOPS)" in stated


def test_a_team_admin_sets_the_team_default_its_members_read_at(ssds, reader, client):  # noqa: F811
    team = Team.objects.create(name="Flash lab", slug="flash-lab")
    admin = get_user_model().objects.create_user("lead", password="x")
    Membership.objects.create(team=team, user=admin, role=Role.ADMIN)
    Membership.objects.create(team=team, user=reader, role=Role.VIEWER)

    client.force_login(reader)
    refused = client.post("/compare/defaults/", {"threshold_ms": "1", "latency": "avg", "owner": "flash-lab"})
    assert refused.status_code == 200 and "Select a valid choice" in _text(refused)
    assert not ThresholdDefault.objects.exists()

    client.force_login(admin)
    client.post("/compare/defaults/", {"threshold_ms": "0.5", "latency": "p99", "owner": "flash-lab"})
    client.force_login(reader)
    text = _text(client.get("/compare/", QUERY))
    assert (
        "The address states no threshold: the default of team Flash lab applies, 0.5 ms at the 99th percentile "
        "response time."
    ) in text
    assert "Applied to you now: the default of team Flash lab, 0.5 ms at the 99th percentile response time." in (
        _text(client.get("/compare/defaults/"))
    )


def test_the_defaults_page_needs_a_signed_in_reader(db, client):
    assert client.get("/compare/defaults/").status_code == 302
