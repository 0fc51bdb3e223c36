"""The compare page of one array at two firmware versions names each side with its firmware: the page's
sentences and table, the chart's legend, the API's sentences and the CSV's notes. The versions are made
from the fio sample as the history tests make them (tests/history/conftest.py: three replicates a version,
the sample's IOPS times a level; here 0.8 for the newer version and 1.0 for the older)."""

import csv
import html
import io
from urllib.parse import urlencode

import pytest
from django.test import Client
from rest_framework.test import APIClient

from portal.api.auth import token_create
from tests.factories import SystemFactory
from tests.history.conftest import upload_version

OLD, NEW = "07.15.07.00", "07.30.12.00"
QUERY = {"a": "IBM DS5020", "b": "IBM DS5020", "a_firmware": NEW, "b_firmware": OLD, "threshold_ms": "20"}
A, B = f"IBM DS5020 firmware {NEW}", f"IBM DS5020 firmware {OLD}"
# fio's single points are lower bounds at 20 ms: the page says so for each side, by its firmware.
LOWER_BOUNDS = "threshold not reached: the best point, a lower bound"


@pytest.fixture
def versions(engineer, lab):
    system = SystemFactory(name="IBM DS5020", model="DS5020", team=lab, published=False, firmware=OLD)
    for day, (firmware, level) in enumerate(((OLD, 1.0), (NEW, 0.8))):
        upload_version(system, firmware, level, engineer, day=day)
    return system


@pytest.fixture
def client(engineer):
    signed_in = Client()
    signed_in.force_login(engineer)
    return signed_in


def test_the_page_names_each_side_by_its_firmware(versions, client):
    page = html.unescape(client.get("/compare/", QUERY).content.decode())
    # Both sides' figures are lower bounds: what is known, no difference.
    assert f"Neither {A} nor {B} reaches 20 ms on average for RAID-5 " in page
    assert "20 % worse" not in page and "20.0 % worse" not in page
    assert f"A: {A}</th>" in page and f"B: {B}</th>" in page
    assert "than IBM DS5020 for" not in page and "IBM DS5020 performs" not in page


def test_the_chart_legend_names_each_side_by_its_firmware(versions, client, engineer):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token_create(user=engineer, name='lab script')[1]}")
    (compared,) = api.get(f"/api/v1/compare/?{urlencode(QUERY)}").json()["comparisons"]
    (workload,) = [w["workload"] for w in compared["workloads"] if w["rows"]]
    chart = client.get("/compare/chart.json", {**QUERY, "label": workload}).json()
    names = {trace["name"] for trace in chart["data"] if trace.get("name", "").startswith(("A:", "B:"))}
    assert {name.split(",")[0] for name in names} == {f"A: {A}", f"B: {B}"}
    title = chart["layout"]["title"]["text"].replace("<br>", " ")
    # Both sides' single fio points are under 20 ms: lower bounds, hatched, and the title's last line says so.
    assert title == (
        f"{workload} at 20 ms: {A} (A) vs {B} (B)"
        " Hatched, ≥: the curve never reaches the threshold; the bar is a lower bound (its best point)."
    )


def test_the_api_sentences_name_each_side_by_its_firmware(versions, engineer):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token_create(user=engineer, name='lab script')[1]}")
    (compared,) = api.get(f"/api/v1/compare/?{urlencode(QUERY)}").json()["comparisons"]
    (workload,) = [w for w in compared["workloads"] if w["rows"]]
    (summary,) = workload["summaries"]
    assert summary.startswith(
        f"Neither {A} nor {B} reaches 20 ms on average for RAID-5 {workload['workload']} (RAID-5, 16 drives): {A} at"
        " least "
    )
    assert summary.endswith("; no difference is stated") and "% worse" not in summary
    (row,) = workload["rows"]
    # Three replicates a version.
    assert row["notes"] == [f"{A}, 3 figures: {LOWER_BOUNDS}", f"{B}, 3 figures: {LOWER_BOUNDS}"]


def test_the_csv_notes_name_each_side_by_its_firmware(versions, client):
    response = client.get("/export/comparison/", {**QUERY, "table": "comparison", "format": "csv"})
    assert response.status_code == 200
    cells = [cell for line in csv.reader(io.StringIO(response.content.decode("utf-8-sig"))) for cell in line]
    assert f"{A} compared with {B}" in cells
    notes = [cell for cell in cells if LOWER_BOUNDS in cell]
    assert [note.split(": ", 2)[1] for note in notes] == [f"{A}, 3 figures", f"{B}, 3 figures"]
    assert "ibm-ds5020-firmware-07301200-vs-ibm-ds5020-firmware-07150700" in response["Content-Disposition"]
