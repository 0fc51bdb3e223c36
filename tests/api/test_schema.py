"""The OpenAPI document is valid, documents every endpoint, and every endpoint in it answers here."""

import re

from django.contrib.staticfiles import finders
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from tests.factories import PointFactory, RunFactory
from tests.samples import sample

FIO = sample("fio", "fioplot_fio-3.34_randread-1-1.json")


def test_the_schema_validates_and_the_docs_page_works_offline(db):
    client = APIClient()
    schema = client.get("/api/v1/schema/", {"format": "json"})
    assert schema["Content-Type"].startswith("application/vnd.oai.openapi+json")
    validate(schema.json())
    assert client.get("/api/v1/schema/").content.startswith(b"openapi: 3")

    docs = client.get("/api/v1/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', docs)
    # Swagger UI from the static files, its settings in a script of their own: nothing inline, nothing remote.
    assert sources and all(source.startswith("/") for source in sources), sources
    assert re.search(r"<script>\s*\S", docs) is None
    script = next(source for source in sources if "script" in source and "static" not in source)
    assert b"SwaggerUIBundle" in client.get(script).content
    static = [source.split("?")[0].removeprefix("/static/") for source in sources if source.startswith("/static/")]
    assert len(static) >= 3 and all(finders.find(path) for path in static), static


def _alert(config):
    from portal.models import Alert, AlertSummary

    summary = AlertSummary.objects.create(system=config.system, version="7.10")
    return Alert.objects.create(
        summary=summary, system=config.system, config=config, workload_name="OLTP 8K", series="name:OLTP 8K",
        metric="iops", version="7.10", previous_version="7.8", before_mean=1000, after_mean=940, change_pct=-6,
        p_value=0.0004,
    )  # fmt: skip


def test_every_documented_endpoint_answers(demo, api, data_dir):
    """A request per operation of the document: an endpoint added without a test here fails this test."""
    run = RunFactory(config__system=demo["IBM DS4500"])
    point = PointFactory(run=run, seq=0, outstanding_io=1, iops=1000, avg_response_ms=5)
    system, config = demo["IBM DS4500"], run.config
    grid = RunFactory(config=run.config, name="iodepth x numjobs grid")
    for seq, (depth, jobs) in enumerate((d, j) for d in (1, 8) for j in (1, 8)):
        PointFactory(run=grid, seq=seq, outstanding_io=depth * jobs, threads=jobs, iops=100.0 * depth * jobs)
    with open(FIO, "rb") as file:
        upload_id = api.post("/api/v1/uploads/", {"files": [file]}).json()["uploads"][0]["id"]
    requests = {
        ("get", "/api/v1/systems/"): ("/api/v1/systems/?vendor=IBM", 200),
        ("get", "/api/v1/systems/{id}/"): (f"/api/v1/systems/{system.id}/", 200),
        ("get", "/api/v1/configs/"): ("/api/v1/configs/?system=IBM DS4500", 200),
        ("get", "/api/v1/configs/{id}/"): (f"/api/v1/configs/{config.id}/", 200),
        ("get", "/api/v1/runs/"): ("/api/v1/runs/?tool=Iometer", 200),
        ("get", "/api/v1/runs/{id}/"): (f"/api/v1/runs/{run.id}/", 200),
        ("get", "/api/v1/runs/{id}/curve/"): (f"/api/v1/runs/{run.id}/curve/", 200),
        ("get", "/api/v1/runs/{id}/threshold/"): (f"/api/v1/runs/{run.id}/threshold/?threshold_ms=20", 200),
        ("get", "/api/v1/points/"): (f"/api/v1/points/?run={run.id}", 200),
        ("get", "/api/v1/points/{id}/"): (f"/api/v1/points/{point.id}/", 200),
        ("get", "/api/v1/uploads/"): (f"/api/v1/uploads/?ids={upload_id}", 200),
        ("get", "/api/v1/uploads/{id}/"): (f"/api/v1/uploads/{upload_id}/", 200),
        ("get", "/api/v1/compare/"): ("/api/v1/compare/?a=IBM DS4500&b=IBM DS4400", 200),
        ("get", "/api/v1/tables/{preset}/"): ("/api/v1/tables/stroke/?system=IBM DS4500", 200),
        ("get", "/api/v1/sizing/"): ("/api/v1/sizing/?system=IBM DS4500&workload=OLTP 8K&target=12000", 200),
        ("get", "/api/v1/sizing/side-by-side/"): (
            "/api/v1/sizing/side-by-side/?system=IBM DS4500&system=IBM DS4400&workload=OLTP 8K&target=12000",
            200,
        ),
        ("get", "/api/v1/predict/"): (f"/api/v1/predict/?run={grid.id}", 200),
        ("get", "/api/v1/predict/along/"): ("/api/v1/predict/along/?system=IBM DS4500&parameter=read_pct", 400),
        ("get", "/api/v1/alerts/"): ("/api/v1/alerts/?status=untriaged&system=IBM DS4500", 200),
        ("get", "/api/v1/alerts/{id}/"): (f"/api/v1/alerts/{_alert(config).id}/", 200),
        ("get", "/api/v1/reports/"): ("/api/v1/reports/?a=IBM DS4500&b=IBM DS4400&leave_out=charts", 202),
    }
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    documented = {(method, path) for path, operations in schema["paths"].items() for method in operations}
    # Sending files and triaging alerts are tested where they are (tests/api/test_uploads.py, tests/history).
    assert documented == set(requests) | {("post", "/api/v1/uploads/"), ("patch", "/api/v1/alerts/{id}/")}
    for url, expected in requests.values():
        response = api.get(url)
        assert response.status_code == expected, (url, response.content[:300])
        assert response.json(), url


def test_the_schema_documents_the_parameters_the_endpoints_take(db):
    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()

    def parameters(path):
        return {p["name"]: p for p in schema["paths"][path]["get"]["parameters"] if p["in"] == "query"}

    latencies = ["avg", "max", "p50", "p90", "p95", "p99", "p99.9"]
    compare = parameters("/api/v1/compare/")
    assert set(compare) == {
        "a", "b", "threshold_ms", "latency", "adjust_b", "raid_level", "cache", "drive_count", "workload", "pair",
        "best", "wpage", "a_raid_level", "b_raid_level", "a_drive_count", "b_drive_count", "a_cache", "b_cache",
        "a_config", "b_config", "a_firmware", "b_firmware",
    }  # fmt: skip
    assert (compare["a"]["schema"]["type"], compare["a"]["required"], compare["b"]["required"]) == ("array", True, True)
    assert sorted(compare["latency"]["schema"]["enum"]) == latencies
    for path in ("/api/v1/runs/{id}/threshold/", "/api/v1/runs/{id}/curve/"):
        assert sorted(parameters(path)["latency"]["schema"]["enum"]) == latencies
    assert "threshold_ms" in parameters("/api/v1/runs/{id}/threshold/")
    tables = parameters("/api/v1/tables/{preset}/")
    assert {"system", "a", "b", "latency", "threshold_ms", "adjust_b"} <= set(tables)
    assert not tables["a"].get("required") and not tables["b"].get("required")
    side = schema["components"]["schemas"]["CompareSide"]["properties"]
    assert set(side) == {"value", "status", "status_text", "figures"}
