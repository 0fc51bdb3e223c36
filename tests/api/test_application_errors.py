"""A team and a system are found by one rule wherever they are named (the API, the commands, the pages), and
the errors of teams, labels and stored results are answered in the one error shape."""

import contextlib
import io

import pytest
from django.core.management import call_command
from django.test import Client

from portal.models import Membership, Team, Upload
from tests.api.conftest import error_of
from tests.factories import SystemFactory
from tests.samples import sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")


def post(client, **labels):
    with contextlib.ExitStack() as stack:
        return client.post("/api/v1/uploads/", {"files": [stack.enter_context(open(FIO, "rb"))], **labels})


def test_a_team_named_with_runs_of_spaces_is_found_from_the_api_and_the_command(api, lab, engineer):
    # The engineer's team is "Engineering lab" (tests/conftest.py); a script and a shell both type it loosely.
    received = post(api, team="  engineering    LAB ")
    assert received.status_code == 202
    assert Upload.objects.get().team == lab

    listed = io.StringIO()
    call_command("team", "list", "  engineering    LAB ", stdout=listed)
    assert listed.getvalue().splitlines() == [f"{engineer.username}\tuploader"]
    by_slug = io.StringIO()
    call_command("team", "list", "engineering-lab", stdout=by_slug)
    assert by_slug.getvalue() == listed.getvalue()


def test_a_system_named_with_runs_of_spaces_is_found_from_the_api(api, lab):
    system = SystemFactory(name="IBM DS4500", team=lab)
    assert post(api, system="ibm   ds4500").status_code == 202
    assert Upload.objects.get().system == system


def test_a_team_error_is_answered_in_the_error_shape(api, lab):
    refused = post(api, team="Storage lab 9")
    assert refused.status_code == 400
    message = "you upload for no team named 'Storage lab 9'"
    assert error_of(refused) == {"status": 400, "message": message, "fields": {"team": [message]}}
    assert Upload.objects.count() == 0


def test_a_label_error_is_answered_in_the_error_shape(api, lab):
    refused = post(api, drives_per_array="many")
    assert refused.status_code == 400
    message = "drives_per_array='many' is not a valid value"
    assert error_of(refused) == {"status": 400, "message": message, "fields": {"drives_per_array": [message]}}
    assert Upload.objects.count() == 0


def test_a_store_error_is_answered_in_the_error_shape(api, lab):
    refused = post(api, system="IBM DS9999")
    assert refused.status_code == 400
    message = "no system named 'IBM DS9999'; to create one, send new_system_name instead"
    assert error_of(refused) == {"status": 400, "message": message, "fields": {"system": [message]}}
    assert Upload.objects.count() == 0


@pytest.mark.django_db
def test_a_team_error_is_said_on_the_teams_page(engineer):
    client = Client()
    client.force_login(engineer)
    # The engineer is in "Engineering lab" already; another team of that name, in any spacing, is refused.
    page = client.post("/teams/create", {"name": "engineering   LAB"}, follow=True).content.decode()
    assert "A team named &#x27;engineering LAB&#x27; exists already; ask one of its admins to add you." in page
    assert list(Team.objects.values_list("name", flat=True)) == ["Engineering lab"]
    assert Membership.objects.filter(user=engineer).count() == 1
