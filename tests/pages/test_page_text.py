"""Every kind of page, with the seeds' published figures and real uploaded files, speaks to its reader:
no internal names, Python reprs, worker names or numbers written as the code holds them."""

import re
from html.parser import HTMLParser

import pytest

from portal.models import Run, System
from tests.factories import SystemFactory
from tests.ingesting import store_file
from tests.pages.test_views import sweep_run
from tests.samples import sample

INTERNAL = {
    "IOPS with a decimal zero": r"\d,\d{3}\.0\b",
    "a number with five or more decimals": r"\d\.\d{5,}",
    "a wrong plural": r"\b1 drives\b",
    "a Python list": r"\['",
    "a format id": r"array_profile",
    "a seed line number": r"seed line",
    "a source text's line number": r"\(lines? \d",
    "a rule's code name": r"rule interpolate",
    "a load as the code holds it": r"load \d+\.\d",
    "a worker name": r"celery@",
    "a process id": r" pid \d",
    "the word unknown": r"unknown",
}

# The fio file is labelled as measured on one SSD, with two tags.
FIO_LABELS = {"drive_count": 1, "drive_type": "SSD", "tags": ["lab", "2024 refresh"]}
UPLOADED = {
    "fio": ("fio", "fioplot_fio-3.34_randread-1-1.json"),
    "DiskSpd": ("diskspd", "basilkisel_diskspd-text_goodsql2016.westeurope.cloudapp.azure.com.txt"),
    "vdbench": ("vdbench", "vdbenchexplorer_flatfile_kstat.html"),
    "Iometer": ("iometer", "quarchpy_an016_testfile_1.1.0_multitest.csv"),
}


class _VisibleText(HTMLParser):
    """The text a reader sees: text nodes outside scripts and styles, and the titles of elements."""

    def __init__(self):
        super().__init__()
        self.parts = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts.extend(value for name, value in attrs if name in ("title", "aria-label") and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html):
    parser = _VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def hits(pages):
    found = []
    for page, text in pages.items():
        for why, pattern in INTERNAL.items():
            for match in re.finditer(pattern, text, flags=re.IGNORECASE):
                context = text[max(0, match.start() - 40) : match.end() + 40]
                found.append(f"{page}: {why}: ...{context}...")
    return found


@pytest.fixture
def uploaded(demo, data_dir, engineer, lab):
    runs = {}
    for tool, parts in UPLOADED.items():
        system = System.objects.create(name=f"{tool} lab array", published=True, team=lab)
        labels = FIO_LABELS if tool == "fio" else None
        upload = store_file(sample(*parts), system=system, uploader=engineer, labels=labels)
        assert upload.status == "done", upload.error
        runs[tool] = Run.objects.filter(upload=upload).order_by("id").first()
    return runs


def test_no_page_shows_internal_words_or_raw_numbers(demo, uploaded, client, engineer):
    client.force_login(engineer)
    ds4500 = demo["IBM DS4500"]
    published = Run.objects.filter(config__system=ds4500, origin="published").order_by("id").first()
    urls = {
        "systems list": "/",
        "system page (published)": f"/systems/{ds4500.id}/",
        "stroke page": f"/systems/{ds4500.id}/stroke/",
        "run page (published)": f"/runs/{published.id}/",
        "compare page": "/compare/?a=IBM+DS4500&b=IBM+DS4400",
        "uploads page": "/uploads/",
    }
    for tool in ("Microsoft Exchange Jetstress", "Oracle ORION", "FFSB"):
        urls[f"run page (published {tool})"] = f"/runs/{Run.objects.filter(tool=tool).order_by('id').first().id}/"
    for tool, run in uploaded.items():
        urls[f"run page ({tool})"] = f"/runs/{run.id}/"
        urls[f"system page ({tool})"] = f"/systems/{run.config.system_id}/"
        urls[f"upload page ({tool})"] = f"/uploads/{run.upload_id}/"
    pages = {}
    for page, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (page, response.status_code)
        pages[page] = visible_text(response.content.decode())
    found = hits(pages)
    assert not found, "\n".join(found)


def test_labels_tags_and_drives_read_as_words(uploaded, client, engineer):
    client.force_login(engineer)
    run = uploaded["fio"]
    page = visible_text(client.get(f"/runs/{run.id}/").content.decode())
    assert "RAID level not stated, 1 SSD" in page and "HDD" not in page
    assert "Tags lab, 2024 refresh" in page
    # The fio sample's job options, line 20: "bs" : "4k"; one unit vocabulary on the page, as workloads'
    # descriptions ("4 KiB random read") name sizes.
    assert "Transfer sizes 4 KiB (100 %)" in page
    assert not re.search(r"\d KB\b", page)
    upload = visible_text(client.get(f"/uploads/{run.upload_id}/").content.decode())
    assert "Labels drives 1; drive type SSD; tags lab, 2024 refresh Warnings" in upload
    assert "Format fio" in upload and "by test" not in upload


def test_a_single_point_run_draws_one_marker_on_axes_from_zero(demo, client):
    # Seed 000 Table 1 (line 141): RAID-5, 20 HDDs, All Caches Disabled, OLTP 4K: 3,095 IOPS at 20 ms.
    run = Run.objects.get(
        config__system=demo["IBM DS4500"],
        config__raid_level="RAID-5",
        config__drive_count=20,
        config__write_cache=False,
        workload_name="OLTP 4K",
    )
    curve = client.get(f"/runs/{run.id}/charts/curve.json").json()
    measured = curve["data"][0]
    assert (measured["x"], measured["y"], measured["mode"]) == ([3095.0], [20.0], "lines+markers")
    assert curve["layout"]["xaxis"]["rangemode"] == curve["layout"]["yaxis"]["rangemode"] == "tozero"
    page = visible_text(client.get(f"/runs/{run.id}/").content.decode())
    assert "3,095 IOPS at 20 ms: published by the paper at 20 ms." in page
    assert "No chart of throughput against load: the paper states no load for its figure." in page
    assert f"/runs/{run.id}/charts/load.json" not in client.get(f"/runs/{run.id}/").content.decode()


def test_an_uploaded_single_point_says_it_was_measured_at_one_load(uploaded, client):
    # vdbenchexplorer_flatfile_kstat.html line 48: random_write_max_4k, avg_2-10 at 8 threads: 327.4444 IOPS at
    # 23.9089 ms average response time.
    run = uploaded["vdbench"]
    page = visible_text(client.get(f"/runs/{run.id}/").content.decode())
    # Measured once, over 20 ms: there is no throughput at 20 ms to state, and the page says why.
    assert "No value at 20 ms: its only point is at 23.9 ms with 8 threads, over 20 ms." in page
    at_30 = visible_text(client.get(f"/runs/{run.id}/?threshold_ms=30").content.decode())
    assert "At least 327 IOPS at 30 ms (a lower bound): measured at 23.9 ms with 8 threads." in at_30
    assert "No chart of throughput against load: the run was measured at one load." in page
    assert "The table below has its point." in page


def test_a_curve_of_several_points_keeps_plotlys_own_axes(db, client):
    run = sweep_run(SystemFactory())
    curve = client.get(f"/runs/{run.id}/charts/curve.json").json()
    assert "rangemode" not in curve["layout"]["xaxis"] and "rangemode" not in curve["layout"]["yaxis"]
    assert "/charts/load.json" in client.get(f"/runs/{run.id}/").content.decode()
