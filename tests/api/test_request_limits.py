"""Requests over a limit answer the JSON sentence docs/api.md promises; every page carries the policy."""

import io

import pytest
from django.test import Client


@pytest.mark.django_db
def test_101_files_in_one_request_answer_a_json_sentence(api, settings):
    files = []
    for number in range(settings.DATA_UPLOAD_MAX_NUMBER_FILES + 1):
        file = io.BytesIO(b"Target,IOps\n")
        file.name = f"run-{number}.csv"
        files.append(file)
    response = api.post("/api/v1/uploads/", {"files": files})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == {
        "status": 400,
        "message": "At most 100 files can be sent at once; send the others in another upload, "
        "or put the files in a .zip archive",
        "fields": {
            "files": [
                "At most 100 files can be sent at once; send the others in another upload, "
                "or put the files in a .zip archive"
            ]
        },
    }


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
def test_a_page_not_found_carries_the_content_security_policy(settings, debug):
    settings.DEBUG = debug
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
