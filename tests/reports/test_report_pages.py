"""The report asked for from the compare page: the compose form, a real Celery worker building it, the
progress page's state, each format's download, and a private system's report kept to its team.

Figures: seed 000 (000_f52f16ce4c762121.txt) line 295, the DS4500's 30,020 8K IOPS with 140 drives."""

import io
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from docx import Document

from portal.models import Membership, Role, Team
from portal.publishing import bundle_jobs
from tests.conftest import wait_until
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory

COMPARE = "a=IBM+DS4500&b=IBM+DS4400&threshold_ms=20"


def test_the_compare_page_links_the_compose_form_which_offers_the_compared_workloads(demo, client, django_user_model):
    user = django_user_model.objects.create_user("jane", password="disk-arrays-42", first_name="Jane", last_name="Doe")
    client.force_login(user)
    page = client.get(f"/compare/?{COMPARE}").content.decode()
    assert f'href="/reports/new/?{COMPARE.replace("&", "&amp;")}"' in page
    form = client.get(f"/reports/new/?{COMPARE}").content.decode()
    for name in ("Random Reads 8K", "Streaming Reads 64K", "Streaming Writes 64K"):
        assert f'<input type="checkbox" name="workloads" value="{name}" checked>' in form
    assert "File Server" not in form.split("<legend>Workloads</legend>")[1].split("</fieldset>")[0]
    assert 'name="author" size="40" maxlength="200" value="Jane Doe"' in form
    assert '<input type="hidden" name="a" value="IBM DS4500">' in form


def test_a_caption_that_names_no_workload_is_refused_with_its_line(demo, client):
    query = urlencode({"a": "IBM DS4500", "b": "IBM DS4400", "captions": "Random Reads 8K: fine\nno colon here"})
    response = client.get(f"/reports/build/?{query}", HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert "line 2: write the table or chart, a colon and the caption" in response.json()["error"]["message"]


@pytest.mark.django_db(transaction=True)
def test_a_worker_builds_the_chosen_workloads_with_the_authors_caption(
    committed_demo, data_dir, celery_workers, client
):
    celery_workers.start()
    query = urlencode(
        [
            ("a", "IBM DS4500"),
            ("b", "IBM DS4400"),
            ("workloads", "Random Reads 8K"),
            ("workloads", "Streaming Writes 64K"),
            ("captions", "Random Reads 8K: Eight-kilobyte random reads, 140 drives"),
            ("title", "DS4500 versus DS4400"),
        ]
    )
    response = client.get(f"/reports/build/?{query}")
    assert response.status_code == 302
    progress_url = response["Location"]
    assert "<h1>Report: DS4500 versus DS4400</h1>" in client.get(progress_url).content.decode()
    status = wait_until(
        lambda: (s := client.get(f"{progress_url}status.json").json())["status"] in ("done", "failed") and s,
        seconds=180,
        interval=0.3,
    )
    assert status["status"] == "done", status
    assert set(status["downloads"]) == {"docx", "pdf", "html", "md", "tex"}
    downloaded = client.get(status["downloads"]["docx"])
    assert downloaded["Content-Disposition"] == 'attachment; filename="ibm-ds4500-vs-ibm-ds4400-report.docx"'
    document = Document(io.BytesIO(downloaded.content))
    assert document.paragraphs[0].text == "DS4500 versus DS4400"
    assert [p.text for p in document.paragraphs if p.style.name == "Heading 2"][:2] == [
        "Random Reads 8K",
        "Streaming Writes 64K",
    ]
    captions = [p.text for p in document.paragraphs if p.style.name == "Caption" and p.text.startswith("Figure")]
    assert captions[0] == "Figure 1. Eight-kilobyte random reads, 140 drives"
    assert len(captions) == len(document.inline_shapes) == 2
    assert client.get(status["downloads"]["pdf"]).content.startswith(b"%PDF")
    # The same address again is answered from the built report, without a new build.
    again = client.get(f"/reports/build/?{query}")
    assert again["Location"] == progress_url
    assert client.get(f"{progress_url}status.json").json()["status"] == "done"


def _private_pair():
    team = Team.objects.create(name="Acme storage lab", slug="acme")
    private = SystemFactory(name="Acme prototype", team=team, published=False)
    public = SystemFactory(name="Open array")
    for system, iops in ((private, 1200.0), (public, 1000.0)):
        run = RunFactory(
            config=ConfigFactory(system=system, raid_level="RAID-5", drive_count=8), workload_name="OLTP 8K"
        )
        PointFactory(run=run, seq=0, iops=iops / 2, avg_response_ms=5.0)
        PointFactory(run=run, seq=1, iops=iops, avg_response_ms=19.0)
        PointFactory(run=run, seq=2, iops=iops * 1.1, avg_response_ms=30.0)
    return team


def test_a_private_systems_report_is_its_teams_only(db, data_dir, monkeypatch):
    team = _private_pair()
    member = get_user_model().objects.create_user("member")
    Membership.objects.create(team=team, user=member, role=Role.VIEWER)
    outsider = get_user_model().objects.create_user("outsider")
    sent = []
    monkeypatch.setattr("portal.publishing.services.bundle_task.delay", sent.append)
    insider, other = Client(), Client()
    insider.force_login(member)
    other.force_login(outsider)
    query = urlencode({"a": "Acme prototype", "b": "Open array"})
    response = insider.get(f"/reports/build/?{query}")
    assert response.status_code == 302 and len(sent) == 1
    progress_url = response["Location"]
    assert insider.get(progress_url).status_code == 200
    # Someone outside the team can neither ask for it nor follow or download the one the team asked for.
    assert other.get(f"/reports/build/?{query}").status_code == 404
    assert other.get(progress_url).status_code == 404
    assert other.get(f"{progress_url}status.json").status_code == 404
    assert other.get(f"{progress_url}docx/").status_code == 404
    assert Client().get(f"{progress_url}status.json").status_code == 404


def test_several_systems_against_a_baseline_are_carried_through_the_compose_form(demo, data_dir, client, monkeypatch):
    query = urlencode([("a", "IBM DS4500"), ("a", "HP EVA4400"), ("b", "IBM DS4400")])
    page = client.get(f"/compare/?{query}").content.decode()
    assert f'href="/reports/new/?{query.replace("&", "&amp;")}&amp;threshold_ms=20&amp;latency=avg"' in page
    form = client.get(f"/reports/new/?{query}").content.decode()
    assert "<h1>Report: IBM DS4500 and HP EVA4400 vs IBM DS4400</h1>" in form
    assert '<input type="hidden" name="a" value="IBM DS4500">' in form
    assert '<input type="hidden" name="a" value="HP EVA4400">' in form
    sent = []
    monkeypatch.setattr("portal.publishing.services.bundle_task.delay", sent.append)
    progress = client.get(f"/reports/build/?{query}")["Location"]
    assert (
        "<h1>Report: IBM DS4500 and HP EVA4400 compared with IBM DS4400</h1>" in client.get(progress).content.decode()
    )
    assert len(sent) == 1
    # Built as a worker builds it: each system against the baseline.
    assert bundle_jobs.bundle_build(sent[0]) == "done"
    document = Document(io.BytesIO(client.get(f"{progress}docx/").content))
    assert document.paragraphs[0].text == "IBM DS4500 and HP EVA4400 compared with IBM DS4400"
    assert "IBM DS4500 against IBM DS4400" in [p.text for p in document.paragraphs if p.style.name == "Heading 2"]


def test_the_compose_form_offers_the_threshold_basis(demo, client):
    form = client.get("/reports/new/?a=IBM+DS4500&b=IBM+DS4400&threshold_ms=30&latency=p99").content.decode()
    assert '<input id="id_threshold_ms" name="threshold_ms" size="8" value="30">' in form
    assert '<option value="p99" selected>99th percentile response time</option>' in form
    assert 'type="hidden" name="threshold_ms"' not in form and 'type="hidden" name="latency"' not in form
