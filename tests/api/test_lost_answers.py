"""An upload stored while its answer was lost (the database restarted, a proxy failed): sending the same
bytes again answers with the earlier upload and its status, and ``python -m ingest push`` retries and
follows it."""

import pytest

from portal.api import views
from portal.api.auth import token_create
from portal.models import Upload
from tests.api.test_push import push
from tests.samples import sample

IOMETER = sample("iometer", "maluramichael_results_1.1.0_network_emptyruns.csv")


@pytest.mark.django_db
def test_the_same_bytes_again_name_the_earlier_upload_and_its_status(api, data_dir):
    answers = []
    for _ in range(2):
        with open(IOMETER, "rb") as file:
            answers.append(api.post("/api/v1/uploads/", {"files": [file]}).json()["uploads"][0])
    first, again = answers
    assert (first["status"], first["duplicate_of"], first["duplicate_of_status"]) == ("queued", None, None)
    assert (again["status"], again["duplicate_of"], again["duplicate_of_status"]) == (
        "duplicate",
        first["id"],
        "queued",
    )


def test_push_retries_a_lost_answer_and_follows_the_earlier_upload(live_server, engineer, data_dir, monkeypatch):
    create = views.UploadViewSet.create
    lost = []

    def stored_then_lost(self, request, *args, **kwargs):
        response = create(self, request, *args, **kwargs)
        if not lost:
            lost.append(response.data["uploads"][0]["id"])
            raise ConnectionError("the database went away after the upload was stored")
        return response

    monkeypatch.setattr(views.UploadViewSet, "create", stored_then_lost)
    _, token = token_create(user=engineer, name="lab 3")
    pushed = push(live_server.url, IOMETER, "--token", token, "--wait", "1")
    assert pushed.returncode == 0, pushed.stderr
    assert pushed.stdout == f"duplicate  {IOMETER.name}: already stored as upload #{lost[0]} (queued)\n"
    assert Upload.objects.filter(status=Upload.Status.QUEUED).values_list("id", flat=True).get() == lost[0]
