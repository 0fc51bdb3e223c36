"""Users and an upload that failed with an internal error, for the security tests."""

import pytest
from django.contrib.auth import get_user_model

from portal.models import IngestJob, Role, Upload
from tests.conftest import team_member

INTERNAL_ERROR = (
    "ArrayBench could not read this file because of an internal error (KeyError, reference abc123def456); "
    "the file is kept and can be re-ingested once the problem is fixed"
)


@pytest.fixture
def uploader(db):
    user = get_user_model().objects.create_user("uploader", password="disk-arrays-42")
    team_member(user, role=Role.UPLOADER)
    return user


@pytest.fixture
def other_user(db):
    """A reader in the uploader's team: they see the team's uploads, not their internal errors."""
    user = get_user_model().objects.create_user("reader", password="disk-arrays-42")
    team_member(user, role=Role.VIEWER)
    return user


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_superuser("admin", password="disk-arrays-42")


@pytest.fixture
def failed_upload(uploader):
    """An upload whose reading raised a bug: the job holds the reference, the upload the message."""
    upload = Upload.objects.create(
        original_name="=cmd|' calc'!A0.csv",
        size_bytes=10,
        sha256="a" * 64,
        stored_path="aa/" + "a" * 64,
        status=Upload.Status.FAILED,
        error=INTERNAL_ERROR,
        uploader=uploader,
        team=uploader.memberships.get().team,
    )
    job = IngestJob.objects.create(
        anchor=upload, status=IngestJob.Status.FAILED, error=INTERNAL_ERROR, error_ref="abc123def456"
    )
    Upload.objects.filter(id=upload.id).update(job=job)
    upload.refresh_from_db()
    return upload
