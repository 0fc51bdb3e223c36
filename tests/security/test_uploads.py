"""Uploads: internal error details only for the uploader and staff, the file-count limit and the
per-user rate limit answered with a sentence (JSON for the page's script, a message for the form)."""

import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from portal.models import IngestJob, Role, Upload
from portal.uploads.selectors import upload_rate_wait_seconds
from tests.conftest import team_member

from .conftest import INTERNAL_ERROR

JSON = {"accept": "application/json"}


def test_visitors_outside_the_team_do_not_see_the_upload(client, failed_upload):
    assert client.get(f"/uploads/status.json?ids={failed_upload.id}").json()["uploads"] == []
    assert client.get(f"/uploads/{failed_upload.id}/").status_code == 404
    assert failed_upload.original_name not in client.get("/uploads/").content.decode()


def status_error(client, upload):
    return client.get(f"/uploads/status.json?ids={upload.id}").json()["uploads"][0]["error"]


def small_files(count):
    files = [io.BytesIO(f"not a result file {index}\n".encode()) for index in range(count)]
    for index, file in enumerate(files):
        file.name = f"notes-{index}.txt"
    return files


@pytest.mark.django_db
@pytest.mark.parametrize("reader", ["uploader", "staff"])
def test_the_uploader_and_staff_see_the_internal_error(client, failed_upload, reader, request):
    client.force_login(request.getfixturevalue(reader))
    assert status_error(client, failed_upload) == INTERNAL_ERROR
    for page in ("/uploads/", f"/uploads/{failed_upload.id}/"):
        assert "KeyError, reference abc123def456" in client.get(page).content.decode()
    assert "abc123def456</code>" in client.get(f"/uploads/{failed_upload.id}/").content.decode()


@pytest.mark.django_db
def test_others_are_told_only_that_the_file_could_not_be_read(client, failed_upload, other_user):
    client.force_login(other_user)
    assert status_error(client, failed_upload) == "could not be read"
    for page in ("/uploads/", f"/uploads/{failed_upload.id}/"):
        text = client.get(page).content.decode()
        assert "could not be read" in text
        assert "KeyError" not in text and "abc123def456" not in text and "internal error" not in text


@pytest.mark.django_db
def test_a_failed_re_ingest_says_the_earlier_results_are_kept(client, failed_upload, other_user):
    kept = f"re-ingest failed: {INTERNAL_ERROR}; the earlier results are kept"
    Upload.objects.filter(id=failed_upload.id).update(status=Upload.Status.DONE, error=kept)
    client.force_login(other_user)
    assert status_error(client, failed_upload) == "re-ingest failed: could not be read; the earlier results are kept"


@pytest.mark.django_db
def test_a_parser_message_is_shown_to_everyone(client, failed_upload, other_user):
    client.force_login(other_user)
    message = "results.csv:12: expected 56 columns after 'Target Type', found 31"
    Upload.objects.filter(id=failed_upload.id).update(error=message)
    IngestJob.objects.filter(id=failed_upload.job_id).update(error_ref="")
    assert status_error(client, failed_upload) == message


@pytest.mark.django_db
def test_too_many_files_get_a_sentence_as_json(client, uploader, settings, data_dir):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 3
    client.force_login(uploader)
    response = client.post("/uploads/files", {"files": small_files(4), "measurement": "end_to_end"}, headers=JSON)
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert message.startswith("At most 3 files can be sent at once") and ".zip archive" in message
    assert "TooManyFilesSent" not in response.content.decode() and not Upload.objects.exists()


@pytest.mark.django_db
def test_too_many_files_get_a_message_on_the_form(client, uploader, settings, data_dir):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 3
    client.force_login(uploader)
    response = client.post("/uploads/files", {"files": small_files(4), "measurement": "end_to_end"}, follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and "At most 3 files can be sent at once" in page
    assert "Traceback" not in page and "SuspiciousOperation" not in page


def recent_uploads(user, minutes_ago):
    """Uploads recorded by ``user`` the given minutes ago."""
    for index, minutes in enumerate(minutes_ago):
        upload = Upload.objects.create(
            original_name=f"old-{index}.csv", size_bytes=1, sha256=f"{index:064x}", stored_path="x", uploader=user
        )
        Upload.objects.filter(id=upload.id).update(created_at=timezone.now() - timedelta(minutes=minutes))


@pytest.mark.django_db
def test_the_upload_rate_limit_answers_429_with_retry_after(client, uploader, other_user, settings, data_dir):
    settings.UPLOAD_RATE_FILES, settings.UPLOAD_RATE_WINDOW_SECONDS = 3, 3600
    recent_uploads(uploader, [50, 40])
    client.force_login(uploader)
    assert (
        client.post("/uploads/files", {"files": small_files(1), "measurement": "end_to_end"}, headers=JSON).status_code
        == 201
    )
    response = client.post("/uploads/files", {"files": small_files(1), "measurement": "end_to_end"}, headers=JSON)
    assert response.status_code == 429
    # The oldest upload leaves the hour in 10 minutes.
    assert 590 <= int(response["Retry-After"]) <= 600
    message = response.json()["error"]["message"]
    assert message.startswith("Upload limit reached: at most 3 files per user every 1 hour(s). Try again in 10 minutes")
    assert Upload.objects.filter(uploader=uploader).count() == 3
    # Another user has an allowance of their own.
    second = get_user_model().objects.create_user("second-uploader")
    team_member(second, role=Role.UPLOADER)
    client.force_login(second)
    assert (
        client.post("/uploads/files", {"files": small_files(1), "measurement": "end_to_end"}, headers=JSON).status_code
        == 201
    )


@pytest.mark.django_db
def test_the_form_shows_the_rate_limit_message(client, uploader, settings, data_dir):
    settings.UPLOAD_RATE_FILES = 2
    recent_uploads(uploader, [5, 1])
    client.force_login(uploader)
    response = client.post("/uploads/files", {"files": small_files(1), "measurement": "end_to_end"}, follow=True)
    assert "Upload limit reached: at most 2 files per user" in response.content.decode()


@pytest.mark.django_db
def test_rate_wait_counts_the_uploads_that_must_leave_the_window(uploader, settings):
    settings.UPLOAD_RATE_FILES, settings.UPLOAD_RATE_WINDOW_SECONDS = 4, 3600
    recent_uploads(uploader, [55, 30, 20])
    now = timezone.now()
    assert upload_rate_wait_seconds(user=uploader, file_count=1, now=now) == 0
    # Two files need the upload of 55 minutes ago to leave: 5 minutes; three need the next one too: 30 minutes.
    assert 299 <= upload_rate_wait_seconds(user=uploader, file_count=2, now=now) <= 300
    assert 1799 <= upload_rate_wait_seconds(user=uploader, file_count=3, now=now) <= 1800
    assert upload_rate_wait_seconds(user=uploader, file_count=5, now=now) == 3600
