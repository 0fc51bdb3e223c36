"""A private system stays private on every URL of the portal and the API, and in the commands.

Every named URL of the URLconf is walked as an anonymous visitor, a member of another team and a
member of the owning team, against a private system with runs, points, an upload and its original.
A URL about one private thing answers 404 to the first two (anonymous visitors are sent to sign in
where a page needs it: that says nothing either) and 200 to the owner; a list or search shows the
private system's name to the owner only. A URL added to the portal fails
:func:`test_every_url_is_walked` until it has a row here.
"""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from portal.api.auth import token_create
from portal.models import Membership, Point, PublishedStrokeMultipliers, Role, Team, Upload
from portal.uploads.services import original_keep
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory

SECRET = "Acme Secret X9"
NOBODY = "Nobody Array Z0"
PUBLIC = "Public Array P1"
TEAM = "Zenith array lab"
ROLES = ("anonymous", "stranger", "owner")
# Both systems sized side by side for 1,000 IOPS of OLTP 8K.
SIDE_BY_SIDE = {"system": [SECRET, PUBLIC], "workload": "OLTP 8K", "target": "1000"}
# An OLTP 8K curve crossing 20 ms: both systems are compared on it.
CURVE = ((1, 1500.0, 4.0), (8, 6000.0, 12.0), (32, 9000.0, 30.0))


def _system(name, **fields):
    system = SystemFactory(name=name, **fields)
    config = ConfigFactory(system=system)
    run = RunFactory(config=config, name=f"{name} OLTP 8K", workload_name="OLTP 8K")
    for seq, (outstanding, iops, response) in enumerate(CURVE):
        PointFactory(run=run, seq=seq, outstanding_io=outstanding, iops=iops, mbps=iops * 8192 / 1e6,
                     avg_response_ms=response)  # fmt: skip
    return system, run


@pytest.fixture
def world(db, data_dir):
    users = get_user_model().objects
    owner, stranger = users.create_user("lab-owner"), users.create_user("stranger")
    acme = Team.objects.create(name=TEAM, slug="acme")
    other = Team.objects.create(name="Other lab", slug="other")
    Membership.objects.create(team=acme, user=owner, role=Role.ADMIN)
    Membership.objects.create(team=other, user=stranger, role=Role.ADMIN)
    public, _ = _system(PUBLIC, published=True)
    secret, run = _system(SECRET, team=acme, published=False, profile={"arrays": [{"name": "A1", "raid_level": "5"}]})
    sha256, size, path = original_keep(stream=io.BytesIO(b"Secret results\n"))
    upload = Upload.objects.create(
        original_name="secret-x9.csv", size_bytes=size, sha256=sha256,
        stored_path=str(path.relative_to(data_dir / "uploads")),
        status=Upload.Status.DONE, uploader=owner, team=acme, system=secret,
    )  # fmt: skip
    run.upload = upload
    run.save(update_fields=["upload"])
    PublishedStrokeMultipliers.objects.create(
        system=secret, raid_level="RAID-5", workload_name="OLTP 8K", baseline_stroke_pct=8.0, multipliers={"25": 0.8}
    )
    membership = Membership.objects.get(team=acme, user=owner)
    alert = _alert(run)
    token = token_create(user=owner, name="lab script")[0]
    # The owner asks for the white-paper bundle of the private system: it is addressed by a key.
    asked = _client("owner", {"owner": owner}).get("/export/bundle/", {"a": SECRET, "b": PUBLIC})
    # And for its white-paper report.
    report = _client("owner", {"owner": owner}).get("/reports/build/", {"a": SECRET, "b": PUBLIC})
    return {
        "bundle": asked["Location"].rstrip("/").rsplit("/", 1)[-1],
        "report": report["Location"].rstrip("/").rsplit("/", 1)[-1],
        "owner": owner, "stranger": stranger, "system": secret.id, "run": run.id, "upload": upload.id,
        "config": run.config_id, "point": Point.objects.filter(run=run).first().id, "membership": membership.id,
        "token": token.id, "alert": alert.id,
    }  # fmt: skip


def _alert(run):
    """A change found in the private system's history (its runs' figures stored, as uploads store them)."""
    from portal.models import Alert, AlertSummary
    from portal.results.figures import runs_stored_figures_fill

    runs_stored_figures_fill()
    summary = AlertSummary.objects.create(system=run.config.system, version="7.10")
    return Alert.objects.create(
        summary=summary, system=run.config.system, config=run.config, workload_name="OLTP 8K",
        series="name:OLTP 8K", metric="iops", version="7.10", previous_version="7.8", before_mean=1000,
        after_mean=940, change_pct=-6, p_value=0.0004,
    )  # fmt: skip


def _compare(path, **extra):
    return {"path": path, "query": {"a": SECRET, "b": PUBLIC, **extra}}


# What each URL is asked, and what it answers. "one": about one private thing (404 / 404 / 200).
# "list": 200 for everyone, the private name shown to the owner only. POSTs change state, so the
# owner's answer is a redirect back to a page.
ONE, LIST = "one", "list"
WALK = {
    "pages:home": {"kind": LIST, "path": "/"},
    "pages:system": {"kind": ONE, "path": "/systems/{system}/"},
    "pages:system_sweep": {"kind": ONE, "path": "/systems/{system}/sweep.json", "query": {"workload": "OLTP 8K"}},
    # The system has no transfer-size family: the owner is told so by name, others of no system.
    "pages:system_family": {"kind": ONE, "path": "/systems/{system}/family.csv", "owner": 404},
    "pages:stroke": {"kind": ONE, "path": "/systems/{system}/stroke/"},
    "pages:run": {"kind": ONE, "path": "/runs/{run}/"},
    "pages:run_chart": {"kind": ONE, "path": "/runs/{run}/charts/curve.json"},
    "pages:compare": {"kind": ONE, **_compare("/compare/")},
    "pages:sizing": {"kind": ONE, "path": "/systems/{system}/sizing/"},
    "pages:predict": {"kind": ONE, "path": "/systems/{system}/predict/"},
    "pages:system_search": {"kind": LIST, "path": "/systems/search.json", "query": {"q": "X9"}},
    "pages:compare_chart": {"kind": ONE, **_compare("/compare/chart.json", label="OLTP 8K")},
    "uploads:list": {"kind": LIST, "path": "/uploads/", "shows": "secret-x9.csv"},
    "uploads:status": {
        "kind": LIST,
        "path": "/uploads/status.json",
        "query": {"ids": "{upload}"},
        "shows": "secret-x9",
    },
    "uploads:detail": {"kind": ONE, "path": "/uploads/{upload}/"},
    "uploads:original": {"kind": ONE, "path": "/uploads/{upload}/original", "shows": "Secret results"},
    "uploads:reingest": {"kind": ONE, "path": "/uploads/{upload}/reingest", "method": "post"},
    "uploads:relabel": {
        "kind": ONE,
        "path": "/uploads/{upload}/relabel",
        "method": "post",
        "data": {"relabel-measurement": "end_to_end", "relabel-raid_level": "RAID-6"},
    },
    "uploads:delete": {"kind": ONE, "path": "/uploads/{upload}/delete", "method": "post", "data": {"confirm": "yes"}},
    "uploads:system_profile": {"kind": ONE, "path": "/uploads/systems/{system}/profile.json", "shows": "A1"},
    "exports:table": {"kind": ONE, "path": "/export/table/", "query": {"system": SECRET, "preset": "pivot"}},
    "exports:comparison": {"kind": ONE, **_compare("/export/comparison/")},
    "exports:chart": {"kind": ONE, **_compare("/export/chart/", label="OLTP 8K", format="svg"), "shows": "<svg"},
    # The owner is sent to the bundle's progress page (or the file when it is built).
    "exports:bundle": {"kind": ONE, **_compare("/export/bundle/"), "owner": 302, "shows": ""},
    "exports:bundle_progress": {"kind": ONE, "path": "/export/bundles/{bundle}/"},
    "exports:bundle_status": {"kind": ONE, "path": "/export/bundles/{bundle}/status.json", "shows": "status"},
    # Not built in this test (no worker runs): the owner is told so, others as for any key.
    "exports:bundle_download": {"kind": ONE, "path": "/export/bundles/{bundle}/download/", "owner": 404, "shows": ""},
    "reports:compose": {"kind": ONE, **_compare("/reports/new/")},
    # The owner is sent to the report's progress page.
    "reports:build": {"kind": ONE, **_compare("/reports/build/"), "owner": 302, "shows": ""},
    "reports:progress": {"kind": ONE, "path": "/reports/{report}/"},
    "reports:status": {"kind": ONE, "path": "/reports/{report}/status.json", "shows": "status"},
    # Not built in this test (no worker runs): the owner is told so, others as for any key.
    "reports:download": {"kind": ONE, "path": "/reports/{report}/docx/", "owner": 404, "shows": ""},
    "api:reports": {"kind": ONE, **_compare("/api/v1/reports/"), "owner": 202, "shows": "status"},
    "api:compare": {"kind": ONE, **_compare("/api/v1/compare/")},
    "api:sizing": {"kind": ONE, "path": "/api/v1/sizing/", "query": {"system": SECRET, "workload": "OLTP 8K"}},
    "pages:sizing_side_by_side": {"kind": ONE, "path": "/compare/sizing/", "query": SIDE_BY_SIDE},
    "api:sizing_side_by_side": {"kind": ONE, "path": "/api/v1/sizing/side-by-side/", "query": SIDE_BY_SIDE},
    # The private system's runs differ in no parameter alone: its owner is told so, others of no system.
    "api:predict_along": {
        "kind": ONE,
        "path": "/api/v1/predict/along/",
        "query": {"system": SECRET, "parameter": "read_pct"},
        "owner": 400,
        "shows": "no runs that differ",
    },  # fmt: skip
    # The private run has no grid: its owner is told so, others of no run.
    "api:predict": {
        "kind": ONE,
        "path": "/api/v1/predict/",
        "query": {"run": "{run}"},
        "owner": 400,
        "shows": "no queue depth",
    },  # fmt: skip
    "api:tables": {"kind": ONE, "path": "/api/v1/tables/pivot/", "query": {"system": SECRET}},
    "api:system-list": {"kind": LIST, "path": "/api/v1/systems/"},
    "api:system-detail": {"kind": ONE, "path": "/api/v1/systems/{system}/"},
    "api:config-list": {"kind": LIST, "path": "/api/v1/configs/"},
    "api:config-detail": {"kind": ONE, "path": "/api/v1/configs/{config}/"},
    "api:run-list": {"kind": LIST, "path": "/api/v1/runs/"},
    "api:run-detail": {"kind": ONE, "path": "/api/v1/runs/{run}/"},
    "api:run-curve": {"kind": ONE, "path": "/api/v1/runs/{run}/curve/", "shows": "9000"},
    "api:run-threshold": {"kind": ONE, "path": "/api/v1/runs/{run}/threshold/", "shows": '"interpolated"'},
    "api:point-list": {"kind": LIST, "path": "/api/v1/points/", "query": {"run": "{run}"}, "shows": '"id":{point}'},
    "api:point-detail": {"kind": ONE, "path": "/api/v1/points/{point}/", "shows": '"id":{point}'},
    "api:upload-list": {"kind": LIST, "path": "/api/v1/uploads/", "shows": "secret-x9.csv"},
    "api:upload-detail": {"kind": ONE, "path": "/api/v1/uploads/{upload}/", "shows": "secret-x9.csv"},
    "teams:list": {"kind": LIST, "path": "/teams/", "shows": TEAM, "anonymous": 302},
    "teams:detail": {"kind": ONE, "path": "/teams/acme/"},
    "teams:publish": {
        "kind": ONE,
        "path": "/teams/systems/{system}/publish",
        "method": "post",
        "data": {"publish": "1", "confirmed": "1"},
    },
    "teams:rename": {
        "kind": ONE,
        "path": "/teams/systems/{system}/rename",
        "method": "post",
        "data": {"name": "Acme X10"},
    },
    "teams:member_set": {
        "kind": ONE,
        "path": "/teams/acme/members",
        "method": "post",
        "data": {"username": "stranger", "role": "viewer"},
    },  # fmt: skip
    "teams:invite": {
        "kind": ONE,
        "path": "/teams/acme/invitations",
        "method": "post",
        "data": {"email": "someone@lab.example", "role": "viewer"},
    },
    "teams:member_remove": {"kind": ONE, "path": "/teams/acme/members/{membership}/remove", "method": "post"},
    "tokens:revoke": {"kind": ONE, "path": "/accounts/tokens/{token}/revoke", "method": "post"},
    "curation:exclude": {"kind": ONE, "path": "/runs/{run}/exclude", "method": "post", "data": {"reason": "failed"}},
    "curation:include": {"kind": ONE, "path": "/runs/{run}/include", "method": "post"},
    "curation:alias": {"kind": ONE, "path": "/runs/{run}/alias", "method": "post", "data": {"name": "Lab OLTP"}},
    "curation:alias_remove": {"kind": ONE, "path": "/runs/{run}/alias/remove", "method": "post"},
    "curation:statement": {"kind": ONE, "path": "/runs/{run}/statement", "method": "post", "data": {"read_pct": "67"}},
    "curation:statement_remove": {"kind": ONE, "path": "/runs/{run}/statement/remove", "method": "post"},
    "history:system": {"kind": ONE, "path": "/systems/{system}/history/"},
    "history:chart": {
        "kind": ONE,
        "path": "/systems/{system}/history/chart.json",
        "query": {"config": "{config}", "series": "name:OLTP 8K"},
    },
    "history:alerts": {"kind": ONE, "path": "/teams/acme/alerts/"},
    "history:webhook": {
        "kind": ONE,
        "path": "/teams/acme/webhook",
        "method": "post",
        "data": {"url": "https://a.example/h"},
    },
    "history:triage": {"kind": ONE, "path": "/alerts/{alert}/triage", "method": "post", "data": {"status": "invalid"}},
    "api:alert-list": {"kind": LIST, "path": "/api/v1/alerts/"},
    "api:alert-detail": {"kind": ONE, "path": "/api/v1/alerts/{alert}/"},
}
# URLs that hold nothing of any system: who may use them is tested where they are built.
NOTHING_PRIVATE = {
    "healthz": "the health check",
    "uploads:files": "receiving files: tests below check a stranger cannot add to the private system",
    "teams:create": "creating a team",
    "accounts:signup": "creating an account",
    "accounts:signup_complete": "choosing the user name and password of a confirmed address",
    "accounts:invitation": "following an invitation: tests/security/test_accounts.py",
    "tokens:list": "the signed-in user's own tokens",
    "pages:compare_defaults": "the reader's own default threshold, or a team's they administer (tests/pages)",
    "api:schema": "the API's description",
    "api:docs": "the API's documentation page",
    "docs:index": "the project's documentation (README.md)",
    "docs:page": "the project's documentation (docs/*.md)",
}


def _names(patterns, namespace=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}{pattern.name}"


def test_every_url_is_walked():
    names = {name for name in _names(get_resolver().url_patterns) if name.split(":")[0] not in ("admin",)}
    # Django's own sign-in pages (login, logout, password change and reset) show no results.
    names = {name for name in names if not name.startswith(("login", "logout", "password_"))}
    assert names - set(WALK) - set(NOTHING_PRIVATE) == set()
    assert set(WALK) - names == set()


def _client(role, world):
    client = APIClient()
    if role != "anonymous":
        client.force_login(world["owner"] if role == "owner" else world["stranger"])
    return client


def _fill(text, world):
    return text.format(**{key: value for key, value in world.items() if isinstance(value, int | str)})


def _unknown(world):
    """The same world with every id and key replaced by one that names nothing."""
    numbers = {key: 999999 for key, value in world.items() if isinstance(value, int)}
    return {**world, **numbers, "bundle": "0" * 64, "report": "0" * 64}


def _ask(row, role, world, *, name=SECRET):
    """``row``'s request as ``role``; ``name`` in place of the private system's name."""
    client = _client(role, world)
    path = _fill(row["path"], world)
    query = {key: _filled(value, world, name) for key, value in row.get("query", {}).items()}
    if row.get("method") == "post":
        return client.post(path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""),
                           row.get("data", {}))  # fmt: skip
    return client.get(path, query)


def _filled(value, world, name):
    """A query value (a list for a repeated parameter) with the world's ids, ``name`` for the private system's."""
    if isinstance(value, list):
        return [_fill(item, world).replace(SECRET, name) for item in value]
    return _fill(value, world).replace(SECRET, name)


def _text(response):
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")


@pytest.mark.parametrize("name", sorted(WALK))
@pytest.mark.parametrize("role", ROLES)
def test_private_system_on_every_url(world, name, role):
    row = WALK[name]
    response = _ask(row, role, world)
    text = _text(response)
    shows = _fill(row.get("shows", SECRET), world)
    if row["kind"] == LIST:
        if role == "anonymous" and row.get("anonymous") == 302:
            assert response["Location"].startswith("/accounts/login/")
            return
        assert response.status_code == 200, text[:300]
        assert (shows in text) is (role == "owner"), f"{name} as {role}"
        return
    if role == "owner":
        expected = row.get("owner", 302 if row.get("method") == "post" else 200)
        assert response.status_code == expected, text[:300]
        if row.get("method") != "post" and shows:
            assert shows in text
        return
    # Answered as for a system, run or upload that does not exist: the same status, the name given
    # echoed no more often, nothing of the private system's data.
    unknown = _ask(row, role, _unknown(world), name=NOBODY)
    assert response.status_code == unknown.status_code, f"{name} as {role}: {response.status_code} {text[:300]}"
    assert response.status_code in (302, 404) if role == "anonymous" else response.status_code == 404
    if response.status_code == 302:
        assert response["Location"].startswith("/accounts/login/")
    assert text.count(SECRET) == _text(unknown).count(NOBODY)
    assert "secret-x9" not in text and "Secret results" not in text and TEAM not in text


def test_stranger_cannot_upload_into_the_private_system(world, settings):
    client = _client("stranger", world)
    response = client.post(
        "/uploads/files",
        {"files": [io.BytesIO(b"x")], "system": str(world["system"]), "measurement": "end_to_end"},
        headers={"accept": "application/json"},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.json()["error"]["fields"]["system"][0]
    assert SECRET not in response.content.decode()
    assert Upload.objects.filter(uploader=world["stranger"]).count() == 0


def test_publishing_shows_the_system_to_everyone(world):
    anonymous, owner = _client("anonymous", world), _client("owner", world)
    assert anonymous.get(f"/systems/{world['system']}/").status_code == 404
    assert (
        owner.post(f"/teams/systems/{world['system']}/publish", {"publish": "1", "confirmed": "1"}).status_code == 302
    )
    page = anonymous.get(f"/systems/{world['system']}/")
    assert page.status_code == 200 and SECRET in page.content.decode()
    log = owner.get("/teams/acme/").content.decode()
    assert "publish" in log and f"system {SECRET}" in log and "lab-owner" in log


def test_a_viewer_reads_but_cannot_publish(world):
    viewer = get_user_model().objects.create_user("viewer")
    Membership.objects.create(team=Team.objects.get(slug="acme"), user=viewer, role=Role.VIEWER)
    client = APIClient()
    client.force_login(viewer)
    assert client.get(f"/systems/{world['system']}/").status_code == 200
    client.post(f"/teams/systems/{world['system']}/publish", {"publish": "1", "confirmed": "1"})
    assert _client("anonymous", world).get(f"/systems/{world['system']}/").status_code == 404
    # Nor does a viewer see the audit log or manage members.
    page = client.get("/teams/acme/").content.decode()
    assert "Audit log" not in page and "Add a member" not in page


@pytest.mark.parametrize(("as_user", "sees"), [(None, False), ("stranger", False), ("lab-owner", True)])
def test_commands_read_as_a_user(world, as_user, sees):
    options = {"as_user": as_user} if as_user else {}
    side_by_side = (SECRET, PUBLIC, "--workload", "OLTP 8K", "--target", "1000")
    for command, args in (
        ("compare", (SECRET, PUBLIC)),
        ("table", (SECRET, "--layout", "pivot")),
        ("size", side_by_side),
    ):
        out = io.StringIO()
        if sees:
            call_command(command, *args, stdout=out, **options)
            assert "OLTP 8K" in out.getvalue()
            continue
        with pytest.raises(CommandError, match="no system named"):
            call_command(command, *args, stdout=out, **options)
        # A near miss is not answered with the private name as a suggestion.
        with pytest.raises(CommandError) as error:
            call_command(command, "Acme Secret X8", *args[1:], stdout=out, **options)
        assert "X9" not in str(error.value)
