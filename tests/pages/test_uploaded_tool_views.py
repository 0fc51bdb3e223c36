"""Runs stored from uploaded files get their tool's view on the run page (not only the demo data)."""

import io

import pytest
from django.core.management import call_command

from portal.models import Run
from tests.samples import data

pytestmark = pytest.mark.django_db


def _store(*paths, system):
    call_command("ingest", *map(str, paths), "--system", system, stdout=io.StringIO())
    return Run.objects.get()


def test_a_jetstress_report_shows_mailbox_sizing(client):
    run = _store(data("jetstress", "jetstress2007_seed001.html"), system="IBM DS5020")
    body = client.get(f"/runs/{run.id}/").content.decode()
    assert '<h2 id="jetstress-heading">Jetstress</h2>' in body
    # 001_22c77edb183857dc.txt appendix, the Jetstress 2007 report: 1,101.114 achieved IOPS, so
    # 2,202 mailboxes at 0.5 IOPS each (rounded down).
    assert '<td class="num" id="mailboxes">2,202</td>' in body


def test_an_orion_test_shows_its_heat_maps_and_maxima(client):
    run = _store(
        *sorted(data("orion").glob("db11_20240305_1412_*")),
        system="Oracle test LUN",
    )
    body = client.get(f"/runs/{run.id}/").content.decode()
    assert '<h2 id="orion-heading">ORION</h2>' in body
