"""docker-compose.yml wires the same configuration docs/operations.md documents."""

import yaml

from tests.samples import REPO


def _compose():
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def test_services_images_and_health_checks():
    services = _compose()["services"]
    assert set(services) == {"db", "redis", "web", "worker", "webhooks"}
    assert services["db"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"
    assert services["web"]["build"] == "." and (REPO / "Dockerfile").exists()
    for name in ("db", "redis", "web"):
        assert services[name]["healthcheck"]["test"]


def test_app_services_point_at_the_db_and_redis_services():
    compose = _compose()
    db_env = compose["services"]["db"]["environment"]
    for name in ("web", "worker", "webhooks"):
        env = compose["services"][name]["environment"]
        expected_db = f"postgresql://{db_env['POSTGRES_USER']}:{db_env['POSTGRES_PASSWORD']}@db:5432/"
        assert env["DATABASE_URL"] == expected_db + db_env["POSTGRES_DB"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert env["DEBUG"] == "false"
        assert env["HTTPS"] == "${HTTPS:-true}"
        assert env["SECRET_KEY"].startswith("${SECRET_KEY")
        depends = compose["services"][name]["depends_on"]
        assert depends == {"db": {"condition": "service_healthy"}, "redis": {"condition": "service_healthy"}}
    assert "celery" in compose["services"]["worker"]["command"]
    # The webhook worker consumes the notifications' queue only (WEBHOOK_QUEUE's default).
    webhooks = compose["services"]["webhooks"]["command"]
    assert webhooks[webhooks.index("--queues") + 1] == "arraybench-webhooks"


def test_volumes_are_declared_and_shared_by_web_and_worker():
    compose = _compose()
    declared = set(compose["volumes"])
    mounts = {
        name: {v.split(":")[0] for v in service.get("volumes", [])} for name, service in compose["services"].items()
    }
    assert set().union(*mounts.values()) == declared
    assert mounts["web"] == mounts["worker"] == {"appdata"}
    assert compose["services"]["web"]["environment"]["ARRAYBENCH_DATA_DIR"] == "/data"
