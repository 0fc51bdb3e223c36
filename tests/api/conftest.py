"""API fixtures: a user with a token, an API client sending it, a worker."""

import pytest
from rest_framework.test import APIClient

from portal.api.auth import token_create
from portal.models import Upload
from tests.conftest import wait_until

FINISHED = {Upload.Status.DONE, Upload.Status.FAILED, Upload.Status.DUPLICATE}


@pytest.fixture(autouse=True)
def throttle_counters(settings, request):
    """Rate-limit counters of this test only (the portal keeps them in Redis, shared by web processes)."""
    settings.CACHES = {
        **settings.CACHES,
        "api": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": request.node.nodeid},
    }


@pytest.fixture
def token(engineer):
    """A token of ``engineer``, as a script holds it."""
    return token_create(user=engineer, name="lab 3 push script")[1]


@pytest.fixture
def api(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def worker(data_dir, celery_worker_process):
    return celery_worker_process


def follow(client, upload_ids, seconds=60):
    """Poll the API as a script would until every upload is finished; return the rows by id."""

    def finished():
        query = ",".join(map(str, upload_ids))
        rows = {row["id"]: row for row in client.get(f"/api/v1/uploads/?ids={query}").json()["results"]}
        return rows if len(rows) == len(upload_ids) and all(row["finished"] for row in rows.values()) else None

    return wait_until(finished, seconds=seconds, interval=0.2)


def error_of(response):
    """The one error shape: {"error": {"status", "message", "fields"}}."""
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"status", "message", "fields"}, body
    assert body["error"]["status"] == response.status_code
    return body["error"]
