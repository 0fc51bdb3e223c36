"""Publishing that cannot happen by accident: uploads default to the uploader's team (superusers
included), publishing shows what becomes public and asks for confirmation, private systems are marked
on the lists, user names are shown to team members only."""

import re

import pytest
from django.test import Client

from portal.models import Role, System, Team
from portal.uploads.services import uploads_receive
from tests.ingesting import run_job_of
from tests.samples import sample
from tests.security.test_teams import _signed_in, _user

pytestmark = pytest.mark.django_db

FIO = sample("fio", "fioplot_fio-3.16_highpoint-raid5_randread-32-32.json")
FIO_NAME = "fioplot_fio-3.16_highpoint-raid5_randread-32-32.json"


@pytest.fixture
def acme():
    return Team.objects.create(name="Acme storage lab", slug="acme")


def _upload_for(acme, user, *, name="Acme A9000"):
    with open(FIO, "rb") as file:
        [upload] = uploads_receive(
            files=[file], uploader=user, team=acme, system=None, labels={}, new_system={"name": name}
        )
    return run_job_of(upload)


def _selected_team(page):
    select = re.search(r'<select name="team".*?</select>', page, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"[^>]*selected', select)


def test_a_superuser_with_a_team_uploads_for_it_by_default_and_no_team_is_said_in_red(acme):
    Team.objects.create(name="Another lab", slug="another")
    root = _user("root", team=acme, role=Role.ADMIN, is_superuser=True, is_staff=True)
    page = _signed_in(root).get("/uploads/").content.decode()
    assert _selected_team(page) == [str(acme.id)]
    assert "(no team: published at once, to everyone)" in page
    assert (
        '<p class="publish-warning">Choosing "no team" publishes the results at once: '
        "every visitor, signed in or not, reads them.</p>"
    ) in page.replace("&quot;", '"')


def test_a_user_in_no_team_is_told_before_choosing_files(acme):
    page = _signed_in(_user("newcomer")).get("/uploads/").content.decode()
    assert 'id="upload-form"' not in page and 'type="file"' not in page
    assert "You can upload only for a team" in page and 'href="/teams/"' in page


def test_user_names_only_to_team_members_and_admin_linked_only_for_staff(acme):
    engineer = _user("engineer-ann", team=acme, role=Role.MAINTAINER)
    upload = _upload_for(acme, engineer)
    system = System.objects.get(name="Acme A9000")
    _signed_in(engineer).post(f"/teams/systems/{system.id}/publish", {"publish": "1", "confirmed": "1"})
    system.refresh_from_db()
    assert system.published is True
    for reader in (Client(), _signed_in(_user("outsider"))):
        for path in ("/uploads/", f"/uploads/{upload.id}/", "/"):
            page = reader.get(path).content.decode()
            assert FIO_NAME in page, path
            assert "engineer-ann" not in page, path
        assert 'href="/admin/"' not in reader.get("/").content.decode()
    colleague = _signed_in(_user("colleague", team=acme, role=Role.VIEWER))
    for path in ("/uploads/", f"/uploads/{upload.id}/", "/"):
        assert "engineer-ann" in colleague.get(path).content.decode(), path
    staff = _signed_in(_user("operator", is_staff=True))
    assert 'href="/admin/"' in staff.get("/").content.decode()


def test_private_systems_are_marked_on_the_lists(acme):
    engineer = _user("engineer", team=acme, role=Role.MAINTAINER)
    _upload_for(acme, engineer, name="Acme A9000")
    private_row = r"Acme A9000</a> <span class=\"tag-private\">private</span>"
    home = _signed_in(engineer).get("/").content.decode()
    # On the systems table and in the recent uploads' system column.
    assert len(re.findall(private_row, home)) == 2
    upload_page = _signed_in(engineer).get("/uploads/").content.decode()
    assert re.search(r"<option value=\"\d+\">Acme A9000 \(private\)</option>", upload_page)


def test_the_pickers_mark_the_teams_private_systems_and_anonymous_visitors_never_see_them(acme):
    engineer = _user("engineer", team=acme, role=Role.MAINTAINER)
    _upload_for(acme, engineer, name="Acme A9000")
    System.objects.create(name="Acme A8000", vendor="Acme", published=True)
    member = _signed_in(engineer)
    compare = member.get("/compare/").content.decode()
    choices = compare[compare.index('<datalist id="system-choices"') : compare.index("</datalist>")]
    assert '<option value="Acme A9000" label="Acme A9000 (private)">' in choices
    assert '<option value="Acme A8000">' in choices
    found = member.get("/systems/search.json", {"q": "acme"}).json()
    assert found == {"systems": ["Acme A8000", "Acme A9000"], "private": ["Acme A9000"]}
    alerts = member.get("/teams/acme/alerts/").content.decode()
    assert re.search(r'<option value="\d+">Acme A9000 \(private\)</option>', alerts)

    for reader in (Client(), _signed_in(_user("outsider"))):
        compare = reader.get("/compare/").content.decode()
        assert "Acme A9000" not in compare and '<option value="Acme A8000">' in compare
        found = reader.get("/systems/search.json", {"q": "acme"}).json()
        assert found == {"systems": ["Acme A8000"], "private": []}


def test_publishing_shows_what_becomes_public_and_asks_for_confirmation(acme):
    maintainer = _user("maintainer", team=acme, role=Role.MAINTAINER)
    _upload_for(acme, maintainer)
    system = System.objects.get(name="Acme A9000")
    client = _signed_in(maintainer)
    system_page = client.get(f"/systems/{system.id}/").content.decode()
    assert f'href="/teams/systems/{system.id}/publish">Publish it…</a>' in system_page

    # One click (or a form without the confirmation) only shows what would become public.
    for response in (client.get(f"/teams/systems/{system.id}/publish"),
                     client.post(f"/teams/systems/{system.id}/publish", {"publish": "1"})):  # fmt: skip
        page = response.content.decode()
        assert response.status_code == 200
        assert "the system <strong>Acme A9000</strong>" in page and "now private to Acme storage lab" in page
        assert "1 run:" in page and "1 uploaded original, by file name:" in page
        assert f"{FIO_NAME}</li>" in page
        system.refresh_from_db()
        assert system.published is False
        assert Client().get(f"/systems/{system.id}/").status_code == 404

    client.post(f"/teams/systems/{system.id}/publish", {"publish": "1", "confirmed": "1"})
    system.refresh_from_db()
    assert system.published is True
    assert Client().get(f"/systems/{system.id}/").status_code == 200


def test_the_database_down_page_renders_without_the_database(rf, django_assert_num_queries):
    from django.db import OperationalError

    from portal.unavailable import DatabaseUnavailableMiddleware

    request = rf.get("/uploads/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    with django_assert_num_queries(0):
        response = DatabaseUnavailableMiddleware(lambda r: None).process_exception(request, OperationalError("down"))
    assert response is not None and (response.status_code, response["Retry-After"]) == (503, "5")
    page = response.content.decode()
    assert "<h1>The database does not answer</h1>" in page and "Nothing stored is lost" in page


@pytest.mark.urls("tests.security.error_urls")
def test_a_server_error_and_an_unknown_address_answer_with_the_portals_own_pages():
    failed = Client(raise_request_exception=False).get("/fails")
    assert failed.status_code == 500
    page = failed.content.decode()
    assert "<h1>Server error</h1>" in page and "the error is written to its log" in page
    assert "RuntimeError" not in page and "SECRET_KEY" not in page and "Traceback" not in page
    missing = Client().get("/no/such/page/")
    assert missing.status_code == 404
    assert "<h1>Page not found</h1>" in missing.content.decode()
    assert "There is no page at /no/such/page/, or it is not yours to read." in missing.content.decode()
