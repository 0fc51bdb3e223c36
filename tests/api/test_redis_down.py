"""Redis killed: the API's reads are served (throttling lets them through uncounted); an upload answers
503 in the JSON error shape with Retry-After, and its files are kept for recovery to send."""

import pytest

from portal import embedded
from portal.models import IngestJob, Upload
from tests.conftest import wait_until
from tests.samples import sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")


@pytest.fixture
def own_redis(settings, tmp_path):
    """A Redis of this test's own holding the API's counters, so that the test may kill it."""
    url = embedded.redis_url(tmp_path)
    settings.CACHES = {
        **settings.CACHES,
        "api": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url, "KEY_PREFIX": "api"},
    }
    yield tmp_path
    embedded.stop_all(tmp_path, postgres=False)


@pytest.mark.django_db
def test_with_redis_killed_reads_are_served_and_an_upload_is_kept_with_a_json_503(api, own_redis, data_dir):
    assert api.get("/api/v1/systems/").status_code == 200
    assert embedded.stop_all(own_redis, postgres=False) == ["redis"]
    assert wait_until(lambda: not embedded.redis_running(own_redis), seconds=10)

    for path in ("/api/v1/systems/", "/api/v1/runs/", "/api/v1/uploads/"):
        response = api.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"] == "application/json"

    with open(FIO, "rb") as file:
        response = api.post("/api/v1/uploads/", {"files": [file]})
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "30"
    body = response.json()
    [row] = body["uploads"]
    assert body["error"]["status"] == 503
    assert body["error"]["message"] == (
        f"The job queue (Redis) does not answer: the files are kept as upload(s) #{row['id']} and are read "
        "when it is back; follow them at their url, do not send them again."
    )
    assert (row["name"], row["status"]) == (FIO.name, "queued")
    upload = Upload.objects.get(id=row["id"])
    assert upload.status == Upload.Status.QUEUED
    assert upload.job_id is not None and IngestJob.objects.filter(id=upload.job_id).exists()
