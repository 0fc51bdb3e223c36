"""The system page's array profile: arrays with drive counts, drives summarised by model and listed."""

import pytest

from ingest import parse_paths
from tests.factories import SystemFactory
from tests.samples import sample

pytestmark = pytest.mark.django_db


def _profile(name):
    [result] = parse_paths([sample("profile", name)])
    return result["system"]


def text(response):
    return response.content.decode()


def test_the_drives_are_counted_by_model_and_listed_under_a_summary(client, django_assert_max_num_queries):
    system = SystemFactory(profile=_profile("supportbundle_storageArrayProfile.txt"))
    with django_assert_max_num_queries(10):
        page = text(client.get(f"/systems/{system.id}/"))
    assert "<h3>Drives (36)</h3>" in page
    # 32 ST32000445SS on MS02, 4 HUS723020ALS641 on MS01 (tray 2, slot 3) and MS04.
    assert "<td>ST32000445SS</td><td>HDD SAS</td>" in page
    assert '<td>MS01, MS04</td><td class="num">4</td>' in page
    assert "<details>" in page and "<td>Tray 2, Slot 3</td>" in page
    assert page.count("<td>Tray ") == 36


def test_arrays_show_their_drive_counts(client):
    system = SystemFactory(profile=_profile("supportbundle_storageArrayProfile6.txt"))
    page = text(client.get(f"/systems/{system.id}/"))
    # Volume group 22: its list is cut short, its drives name it (two assigned drives).
    assert "<tr><td>22</td><td>RAID 1</td><td>2</td></tr>" in page


def test_a_long_drive_list_is_bounded(client):
    drives = [{"location": f"Tray 0, Slot {slot}", "product_id": "X1", "capacity_gb": 100.0} for slot in range(700)]
    system = SystemFactory(profile={"drives": drives})
    page = text(client.get(f"/systems/{system.id}/"))
    assert "<h3>Drives (700)</h3>" in page and "(the first 500 of 700)" in page
    assert page.count("<td>Tray 0, Slot") == 500
    assert '<td class="num">700</td>' in page


def test_profile_text_is_escaped(client):
    drive = {"location": "<b>Tray 0</b>", "product_id": "<script>alert(1)</script>", "firmware": "M&S"}
    system = SystemFactory(profile={"drives": [drive], "arrays": [{"name": "<i>1</i>", "drive_count": 2}]})
    page = text(client.get(f"/systems/{system.id}/"))
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;Tray 0&lt;/b&gt;" in page and "M&amp;S" in page and "&lt;i&gt;1&lt;/i&gt;" in page
