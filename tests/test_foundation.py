"""The foundation: health endpoint, the schema's rules, the real Celery worker."""

import hashlib
import json

import pytest
from django.db import IntegrityError, transaction

from portal.models import Config, Run
from portal.tasks import run_summary_task
from tests.conftest import wait_until
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory


@pytest.fixture
def private_queue():
    """Point task sending at a queue no worker consumes."""
    from portal.celery import app

    previous = app.conf.task_default_queue
    app.conf.task_default_queue = "no-worker-here"
    yield
    app.conf.task_default_queue = previous


@pytest.mark.django_db
def test_healthz_is_503_and_names_the_missing_worker(client, settings, private_queue):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] == "ok"
    assert body["worker"] == "error: no Celery worker consumes the queue 'no-worker-here'"
    assert body["version"] == settings.VERSION


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_is_down(client, settings, private_queue):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"].startswith("error: ")


@pytest.mark.worker
def test_healthz_all_ok_with_a_running_worker(celery_worker_process, client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert {k: v for k, v in response.json().items() if k != "version"} == {
        "database": "ok",
        "broker": "ok",
        "worker": "ok",
        "webhook_worker": "not needed: no team has a webhook",
    }


@pytest.mark.worker
def test_healthz_names_the_missing_webhook_worker_once_a_team_has_a_webhook(celery_workers, client):
    from portal.models import Team, TeamWebhook

    celery_workers.start()
    TeamWebhook.objects.create(team=Team.objects.create(name="Lab", slug="lab"), url="https://hooks.example.com/a")
    response = client.get("/healthz")
    assert response.status_code == 503
    queue = celery_workers.webhook_queue
    assert response.json()["webhook_worker"] == f"error: no Celery worker consumes the queue {queue!r}"
    assert response.json()["worker"] == "ok"
    celery_workers.start(queue=queue)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["webhook_worker"] == "ok"


@pytest.mark.django_db
def test_config_identity_is_a_stable_hash_and_unique():
    system = SystemFactory(name="IBM DS4500")
    config = ConfigFactory(system=system, raid_level="RAID-5", drive_count=140, write_cache=True)
    # Pinned: changing the identity recipe would duplicate every stored configuration. The recipe, written
    # out here: SHA-256 of the canonical JSON of the system id and every property (text unknown as "").
    properties = {
        "drive_capacity_gb": None, "drive_count": 140, "drive_model": "", "drive_rpm": None, "drive_type": "HDD",
        "drives_per_array": None, "extra": {}, "host_hba": "", "host_os": "", "host_server": "", "prefetch": None,
        "raid_level": "RAID-5", "read_cache": None, "segment_kb": None, "stroke_pct": None, "system": system.id,
        "write_cache": True, "write_cache_mirroring": None,
    }  # fmt: skip
    canonical = json.dumps(properties, sort_keys=True, separators=(",", ":"))
    assert config.identity == hashlib.sha256(canonical.encode()).hexdigest()
    assert len(config.identity) == 64
    with pytest.raises(IntegrityError), transaction.atomic():
        ConfigFactory(system=system, raid_level="RAID-5", drive_count=140, write_cache=True)
    other = ConfigFactory(system=system, raid_level="RAID-5", drive_count=140, write_cache=False)
    assert other.identity != config.identity


def test_config_identity_recipe_is_pinned():
    # The hash of a known configuration, so a change to the recipe cannot pass unnoticed.
    identity = Config.identity_of(1, {"raid_level": "RAID-10", "drive_count": 20})
    assert identity == Config.identity_of(1, {"drive_count": 20, "raid_level": "RAID-10", "extra": {}})
    assert identity == "079b3c6c5516c90fbcc76ba8b613a392f03e219ecaa42a73741f8df442290bbd"


@pytest.mark.django_db
def test_published_run_needs_a_citation():
    with pytest.raises(IntegrityError), transaction.atomic():
        RunFactory(origin=Run.Origin.PUBLISHED, citation_document="")
    run = RunFactory(origin=Run.Origin.PUBLISHED, citation_document="000_f52f16ce4c762121.txt")
    assert run.pk


@pytest.mark.worker
def test_a_real_worker_recomputes_a_run_summary(celery_worker_process):
    run = RunFactory()
    for seq, (iops, response_ms) in enumerate([(5000, 4.0), (9000, 11.0), (11000, 22.0)]):
        PointFactory(run=run, seq=seq, iops=iops, avg_response_ms=response_ms)
    run_summary_task.delay(run.id)
    summary = wait_until(lambda: Run.objects.get(id=run.id).summary)
    assert summary == {
        "points": 3,
        "peak_iops": 11000.0,
        "peak_mbps": None,
        "min_response_ms": 4.0,
        "max_response_ms": 22.0,
    }


@pytest.mark.django_db
def test_the_admin_lists_the_schema(admin_client):
    page = admin_client.get("/admin/").content.decode()
    for path in ("system", "config", "run", "point", "upload", "publishedstrokemultipliers"):
        assert f'href="/admin/portal/{path}/"' in page
