"""``GET /api/v1/reports/``: the compare page's parameters and the compose form's, the build's state,
and each format's address once built (built here in-process, as a worker would)."""

import io

from docx import Document

from portal.publishing import bundle_jobs

QUERY = "a=IBM+DS4500&b=IBM+DS4400&threshold_ms=20&workloads=Random+Reads+8K&workloads=Streaming+Reads+64K"
# Seed 000 line 295: 30,020 against 26,640 8K IOPS with 140 RAID-5 drives, 12.69 % better.


def test_the_api_queues_the_report_then_answers_its_formats(demo, data_dir, client, monkeypatch):
    sent = []
    monkeypatch.setattr("portal.publishing.services.bundle_task.delay", sent.append)
    response = client.get(f"/api/v1/reports/?{QUERY}&pct_decimals=2")
    assert response.status_code == 202
    state = response.json()
    assert state["status"] == "queued" and state["step"] == "Waiting for a worker"
    (key,) = sent
    assert state["page_url"] == f"/reports/{key}/" and "downloads" not in state
    assert bundle_jobs.bundle_build(key) == "done"
    response = client.get(f"/api/v1/reports/?{QUERY}&pct_decimals=2")
    assert response.status_code == 200 and len(sent) == 1  # built: not queued again
    downloads = response.json()["downloads"]
    assert set(downloads) == {"docx", "pdf", "html", "md", "tex"}
    document = Document(io.BytesIO(client.get(downloads["docx"]).content))
    results = [p.text for p in document.paragraphs if p.style.name == "Heading 2"]
    assert results[:2] == ["Random Reads 8K", "Streaming Reads 64K"] and "Streaming Writes 64K" not in results
    rows = [[cell.text for cell in row.cells] for table in document.tables for row in table.rows]
    assert ["RAID-5, 140 drives, All Caches Disabled", "30,020", "26,640", "12.69 %"] in [row[:4] for row in rows]


def test_the_api_refuses_an_unknown_parameter_and_a_bad_unit(db, client):
    response = client.get("/api/v1/reports/?a=IBM+DS4500&b=IBM+DS4400&format_x=1")
    assert response.status_code == 400
    assert "unknown parameter" in response.json()["error"]["fields"]["format_x"][0]
    response = client.get("/api/v1/reports/?a=IBM+DS4500&b=IBM+DS4400&mbps_unit=GB/s")
    assert response.status_code == 400
    assert "mbps_unit" in response.json()["error"]["fields"]
