"""Text from an uploaded file is shown as text everywhere, never as HTML (a Jetstress report with <script>)."""

import io

import pytest
from django.core.management import call_command

from portal.models import Run, System, Upload
from tests.samples import data

RAW = '<script>alert("owned")</script>'
ESCAPED = "&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;"


@pytest.fixture
def stored_report(db):
    """The Jetstress report whose test description holds a <script> element, stored for a system."""
    call_command(
        "ingest", str(data("jetstress", "jetstress_script_in_description.html")), "--system", "Exchange <LUN>",
        stdout=io.StringIO(),
    )  # fmt: skip
    run = Run.objects.get()
    assert RAW in run.description or RAW in run.name, "the report's description is kept as it was written"
    return run


@pytest.mark.parametrize("page", ["run", "system", "upload", "uploads", "home"])
def test_every_page_shows_the_description_as_text(client, stored_report, page):
    run = stored_report
    url = {
        "run": f"/runs/{run.id}/",
        "system": f"/systems/{run.config.system_id}/",
        "upload": f"/uploads/{run.upload_id}/",
        "uploads": "/uploads/",
        "home": "/",
    }[page]
    body = client.get(url).content.decode()
    assert RAW not in body
    assert "<LUN>" not in body and "Exchange &lt;LUN&gt;" in body
    if page in ("run", "system"):
        assert ESCAPED in body


def test_the_html_export_escapes_it_too(client, stored_report):
    system = System.objects.get()
    response = client.get("/export/table/", {"system": system.name, "preset": "jetstress", "format": "html"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "<LUN>" not in body and RAW not in body
    assert Upload.objects.get().status == Upload.Status.DONE
