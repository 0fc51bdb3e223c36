"""Every kind of page, with the seeds' published figures and real uploaded files, speaks to its reader:
no internal names, Python reprs, worker names or numbers written as the code holds them."""

import re
from html.parser import HTMLParser

import pytest

from portal.models import Run, System
from tests.ingesting import store_file
from tests.samples import sample

INTERNAL = {
    "IOPS with a decimal zero": r"\d,\d{3}\.0\b",
    "a number with five or more decimals": r"\d\.\d{5,}",
    "a wrong plural": r"\b1 drives\b",
    "a Python list": r"\['",
    "a format id": r"array_profile",
    "a seed line number": r"seed line",
    "a rule's code name": r"rule interpolate",
    "a load as the code holds it": r"load \d+\.\d",
    "a worker name": r"celery@",
    "a process id": r" pid \d",
    "the word unknown": r"unknown",
}

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
        upload = store_file(sample(*parts), system=system, uploader=engineer)
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
