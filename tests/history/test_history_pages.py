"""The history page, its chart, the team's alerts page with triage and its webhook."""

import json

import pytest
from django.test import Client

from portal.models import Alert, Run, TeamWebhook
from tests.factories import SystemFactory

from .conftest import upload_version

VERSIONS = ("07.4.25.00", "07.15.07.00", "07.30.12.00", "07.35.02.00")


@pytest.fixture
def history(engineer, lab):
    system = SystemFactory(name="IBM DS5020", team=lab, published=False)
    # Uploaded in the order of their numbers, not of their text ("07.4" sorts after "07.35" as text).
    for day, (firmware, level) in enumerate(zip(VERSIONS, (1.0, 1.0, 0.8, 0.8), strict=True)):
        upload_version(system, firmware, level, engineer, day=day)
    return system


def _signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_history_page_lists_versions_in_order_with_the_change_where_it_starts(history, viewer):
    client = _signed_in(viewer)
    listing = client.get(f"/systems/{history.id}/history/").content.decode()
    assert "RAID-5, 16 drives" in listing
    # Four firmware versions, one alert (the throughput step).
    assert '<td class="num">4</td><td class="num">1</td>' in listing
    alert = Alert.objects.get(system=history)
    page = client.get(f"/systems/{history.id}/history/", {"config": alert.config_id, "series": alert.series})
    text = page.content.decode()
    positions = [text.index(f"<td>{version}</td>") for version in VERSIONS]
    assert positions == sorted(positions)
    assert "<strong>-20.0 %</strong> (10,103 IOPS before, 8,082 IOPS from 07.30.12.00; p &lt; 0.0001" in text
    chart = json.loads(
        client.get(
            f"/systems/{history.id}/history/chart.json", {"config": alert.config_id, "series": alert.series}
        ).content
    )
    runs, means, segments = chart["data"]
    assert len(runs["y"]) == 12
    assert [round(y) for y in segments["y"]] == [10103, 10103, 8082, 8082]
    assert chart["layout"]["xaxis"]["ticktext"] == list(VERSIONS)
    assert chart["layout"]["annotations"][0]["text"].startswith("-20.0 % from 07.30.12.00")
    curves = "/compare/?a=IBM+DS5020&amp;b=IBM+DS5020&amp;a_firmware=07.30.12.00&amp;b_firmware=07.15.07.00"
    assert curves in text
    compared = client.get(
        "/compare/",
        {"a": "IBM DS5020", "b": "IBM DS5020", "a_firmware": "07.30.12.00", "b_firmware": "07.15.07.00",
         "a_config": alert.config_id, "b_config": alert.config_id, "workload": alert.workload_name},
    )  # fmt: skip
    assert compared.status_code == 200


def test_a_private_systems_history_and_alerts_are_not_shown_to_others(history, django_user_model):
    outsider = django_user_model.objects.create_user("outsider", password="disk-arrays-42")
    client = _signed_in(outsider)
    assert client.get(f"/systems/{history.id}/history/").status_code == 404
    assert client.get("/teams/engineering-lab/alerts/").status_code == 404
    alert = Alert.objects.get(system=history)
    assert client.post(f"/alerts/{alert.id}/triage", {"status": "invalid"}).status_code == 404
    assert Alert.objects.get(id=alert.id).status == "untriaged"


def test_the_alerts_page_lists_untriaged_alerts_and_uploaders_triage_them(history, engineer, viewer):
    page = _signed_in(viewer).get("/teams/engineering-lab/alerts/", {"status": "untriaged"}).content.decode()
    assert "07.30.12.00 (after 07.15.07.00)" in page and "-20.0 %" in page
    assert 'action="/alerts/' not in page  # viewers read
    alert = Alert.objects.get(system=history)
    client = _signed_in(engineer)
    client.post(f"/alerts/{alert.id}/triage", {"status": "expected", "note": "new cache policy"})
    assert Alert.objects.get(id=alert.id).status == "expected"
    page = client.get("/teams/engineering-lab/alerts/", {"status": "untriaged"}).content.decode()
    assert "No alerts with this status." in page
    system_page = client.get(f"/systems/{history.id}/").content.decode()
    assert "History across firmware versions" in system_page


def test_two_firmware_versions_of_one_system_are_a_compare_page_api_and_export(history, engineer):
    client = _signed_in(engineer)
    query = {"a": "IBM DS5020", "b": "IBM DS5020", "a_firmware": "07.30.12.00", "b_firmware": "07.15.07.00"}
    page = client.get("/compare/", query).content.decode()
    assert "<h1>Firmware 07.30.12.00 (A) vs 07.15.07.00 (B) on IBM DS5020" in page
    api = client.get("/api/v1/compare/", query, HTTP_ACCEPT="application/json").json()
    (compared,) = api["comparisons"]
    (workload,) = compared["workloads"]
    (row,) = workload["rows"]
    assert [figure["run"] for figure in row["a"]["figures"]] == list(
        Run.objects.filter(firmware="07.30.12.00").order_by("id").values_list("id", flat=True)
    )
    # A: three runs at 0.8 x (1, 1.01, 0.99) of the sample's IOPS, B: three at 1 x: A's figure is 0.8 x B's.
    # Each run is one point at about 1 ms: at 20 ms both are lower bounds, and no difference is stated.
    assert round(row["a"]["value"] / row["b"]["value"], 3) == 0.8
    assert row["a"]["status"] == row["b"]["status"] == "not_reached"
    assert (row["improvement_pct"], row["improvement_bound"]) == (None, None)
    assert row["improvement_not_stated"] == "neither reaches 20 ms: both figures are lower bounds"
    refused = client.get("/compare/", {**query, "b_firmware": "9.99"})
    assert refused.status_code == 400
    assert "IBM DS5020 (B) has no runs under firmware 9.99 to compare" in refused.content.decode()
    exported = client.get("/export/comparison/", {**query, "format": "csv"})
    lines = exported.content.decode().lstrip("\ufeff").splitlines()
    assert lines[0] == "IBM DS5020 firmware 07.30.12.00 compared with IBM DS5020 firmware 07.15.07.00"
    assert lines[2].split(",")[2:4] == ["IBM DS5020 firmware 07.30.12.00", "IBM DS5020 firmware 07.15.07.00"]
    # The single fio points are lower bounds at 20 ms: marked, and no difference stated between them.
    assert lines[3].endswith(',"≥ 8,082","≥ 10,103",–')


def test_the_teams_admin_sets_the_webhook_and_others_may_not(history, engineer, lab, django_user_model):
    from portal.models import Role
    from tests.conftest import team_member

    admin = django_user_model.objects.create_user("lead", password="disk-arrays-42")
    team_member(admin, role=Role.ADMIN)
    refused = _signed_in(engineer).post("/teams/engineering-lab/webhook", {"url": "https://chat.example.com/hook"})
    assert refused.status_code == 403
    client = _signed_in(admin)
    bad = client.post("/teams/engineering-lab/webhook", {"url": "ftp://files.example.com/hook"})
    assert bad.status_code == 400 and "Give an http:// or https:// address." in bad.content.decode()
    client.post("/teams/engineering-lab/webhook", {"url": "https://chat.example.com/hook"})
    assert TeamWebhook.objects.get(team=lab).url == "https://chat.example.com/hook"
    assert "https://chat.example.com/hook" in client.get("/teams/engineering-lab/alerts/").content.decode()


def test_a_drift_and_a_withdrawn_step_are_written_as_such():
    from portal.history.views import change_words

    # A drift from 1,000 to 970 IOPS over versions 3.1 to 4.7 (15 versions apart): -3 % in 15 versions.
    drift = Alert(kind="drift", version="3.1", end_version="4.7", before_mean=1000, after_mean=970,
                  change_pct=-3.0, slope_pct=-0.2, p_value=0.00002, state="new")  # fmt: skip
    assert change_words(drift) == "-0.2 % a version from 3.1 to 4.7 (p < 0.0001)"
    blip = Alert(kind="step", version="3.3", before_mean=1000, after_mean=800, change_pct=-20.0, p_value=0.0004,
                 tentative=True, state="withdrawn")  # fmt: skip
    assert change_words(blip) == "-20.0 % from 3.3 (p = 0.0004, tentative, withdrawn)"
