"""The systems list sorted by its column headings, the filters kept."""

import re

import pytest

from tests.factories import ConfigFactory, RunFactory, SystemFactory

pytestmark = pytest.mark.django_db


def _names(page):
    return re.findall(r'<th scope="row"><a href="/systems/\d+/">([^<]+)</a></th>', page)


def test_the_list_sorts_by_name_vendor_runs_and_keeps_the_filters(client):
    for name, vendor, runs in (("Alpha 1", "Zeta", 1), ("Beta 2", "Acme", 3), ("Gamma 3", "Mid", 2)):
        config = ConfigFactory(system=SystemFactory(name=name, vendor=vendor))
        for number in range(runs):
            RunFactory(config=config, name=f"run {number}")
    assert _names(client.get("/").content.decode()) == ["Alpha 1", "Beta 2", "Gamma 3"]
    assert _names(client.get("/?sort=vendor").content.decode()) == ["Beta 2", "Gamma 3", "Alpha 1"]
    page = client.get("/?sort=runs").content.decode()
    assert _names(page) == ["Beta 2", "Gamma 3", "Alpha 1"]
    assert '<th scope="col" class="num" aria-sort="descending">Runs</th>' in page
    # The headings keep the filters: sorting a filtered list sorts what it shows.
    page = client.get("/?tool=Iometer&sort=runs").content.decode()
    assert '<a href="?tool=Iometer&amp;sort=vendor">Vendor</a>' in page
    assert "Clear filters" in page
    assert "Clear filters" not in client.get("/?sort=vendor").content.decode()
    assert client.get("/?sort=price").status_code == 400
