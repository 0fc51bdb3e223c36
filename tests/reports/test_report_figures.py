"""IOPS or MB/s per workload, chosen on the compose form and kept in the report's address.

Figures of seed 000 (000_f52f16ce4c762121.txt): line 295 (with 140 RAID-5 drives the DS4500 achieves
about 30,020 8K IOPS and the DS4400 26,640) and line 359 (RAID-10 Streaming Reads with 64K transfers:
the DS4500 728 MBps, the DS4400 379 MBps, the paper's MBps being 2^20 bytes per second)."""

import html
import io
import re
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from docx import Document

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.models import System
from portal.publishing.build import build_report
from portal.publishing.content import report_content
from portal.publishing.forms import ReportForm
from tests.reports.test_report import seed_line

QUERY = [
    ("a", "IBM DS4500"),
    ("b", "IBM DS4400"),
    ("threshold_ms", "20"),
    ("figures", "Random Reads 8K: MB/s"),
    ("figures", "Streaming Reads 64K: IOPS"),
]
MIB = 2**20


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _results(document, caption_start: str) -> list[list[str]]:
    """The rows of the results table whose caption starts with ``caption_start``."""
    captions = [p.text for p in document.paragraphs if p.style.name == "Caption" and p.text.startswith("Table")]
    by_caption = dict(zip(captions, document.tables, strict=True))
    (table,) = [table for caption, table in by_caption.items() if caption.split(". ", 1)[1].startswith(caption_start)]
    return [[cell.text for cell in row.cells][:4] for row in list(table.rows)[1:]]


@pytest.fixture
def demo(demo, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    return demo


def test_the_compose_form_offers_each_workloads_figure_with_the_pages_chosen(demo, client):
    form = client.get(f"/reports/new/?{urlencode(QUERY[:3])}").content.decode()
    assert '<option value="Random Reads 8K: IOPS" selected>IOPS</option>' in form
    assert '<option value="Random Reads 8K: MB/s">MB/s</option>' in form
    assert '<option value="Streaming Writes 64K: MB/s" selected>MB/s</option>' in form
    assert '<option value="Streaming Writes 64K: MiB/s">MiB/s</option>' in form
    chosen = client.get(f"/reports/new/?{urlencode(QUERY)}").content.decode()
    assert '<option value="Streaming Reads 64K: IOPS" selected>IOPS</option>' in chosen
    refused = client.get(
        f"/reports/build/?{urlencode([*QUERY[:3], ('figures', 'Random Reads 8K: GB/s')])}",
        HTTP_ACCEPT="application/json",
    )
    assert refused.status_code == 400
    assert "one of IOPS, MB/s, MiB/s" in refused.json()["error"]["message"]


def test_mb_per_s_for_one_workload_and_iops_for_another_are_the_papers_and_the_pages(demo, client):
    form = ReportForm(QueryDict(urlencode(QUERY)))
    assert form.is_valid(), form.errors
    a, b = System.objects.get(name="IBM DS4500"), System.objects.get(name="IBM DS4400")
    built = build_report([comparison(a=a, b=b, query=ComparisonQuery.from_form(form))], options=form.options())
    document = Document(io.BytesIO(built.files["docx"]))
    page = html.unescape(client.get(f"/compare/?{urlencode(QUERY[:3])}").content.decode())

    # Random Reads 8K in MB/s: the paper's 8K IOPS times 8,192 bytes, in 10^6 bytes per second.
    ds4500, ds4400 = (_number(n) for n in re.findall(r"approximately ([\d,]+) 8K IOPS", seed_line(295)))
    raid_5 = next(row for row in _results(document, "Random Reads 8K") if row[0].startswith("RAID-5"))
    assert raid_5[1:3] == [f"{ds4500 * 8192 / 1e6:.0f}", f"{ds4400 * 8192 / 1e6:.0f}"] == ["246", "218"]
    assert f"{ds4500:,}" in page and f"{ds4400:,}" in page  # the page's IOPS, the same runs
    assert raid_5[3] == f"{(ds4500 - ds4400) / ds4400 * 100:.1f} %"

    # Streaming Reads 64K in IOPS: the paper's MBps (2^20 bytes/s) over 64 KiB transfers.
    ds4500, ds4400 = (int(n) for n in re.findall(r"(\d+)MBps", seed_line(359))[::-1])
    raid_10 = next(row for row in _results(document, "Streaming Reads 64K") if row[0].startswith("RAID-10"))
    assert raid_10[1:3] == [f"{ds4500 * MIB // 65536:,}", f"{ds4400 * MIB // 65536:,}"] == ["11,648", "6,064"]
    # The page prints the same figures in MB/s: 728 and 379 x 2^20 / 10^6.
    page_row = re.search(r"RAID-10, 60 vs 96 drives</th><td class=\"num\">([^<]+)</td><td class=\"num\">([^<]+)<", page)
    assert page_row.groups() == (f"{ds4500 * MIB / 1e6:.0f}", f"{ds4400 * MIB / 1e6:.0f}") == ("763", "397")

    captions = [p.text for p in document.paragraphs if p.style.name == "Caption"]
    assert any(c.endswith("Random Reads 8K at 20 ms (MB/s)") for c in captions)
    assert any(c.endswith("Streaming Reads 64K at 20 ms (IOPS)") for c in captions)
    assert any(c.endswith("Streaming Writes 64K at 20 ms (MB/s)") for c in captions)  # the page's, not chosen
    notes = [p.text for p in document.paragraphs]
    assert "MB/s = 10^6 bytes per second. Read in IOPS and converted at the workload's 8 KiB transfers." in notes


def _chart(report, workload: str):
    (figure,) = [block.figure for block in report.figures() if block.key == workload]
    return figure


def test_each_workloads_chart_is_drawn_in_its_chosen_figure(demo):
    chosen = [*QUERY[:3], ("figures", "Random Reads 8K: MB/s"), ("figures", "Streaming Reads 64K: MiB/s")]
    form = ReportForm(QueryDict(urlencode(chosen)))
    assert form.is_valid(), form.errors
    a, b = System.objects.get(name="IBM DS4500"), System.objects.get(name="IBM DS4400")
    report = report_content([comparison(a=a, b=b, query=ComparisonQuery.from_form(form))], options=form.options())

    # Random Reads 8K, IOPS on the page: the chart's bars in MB/s, the paper's 8K IOPS (line 295) x 8,192 bytes.
    random_reads = _chart(report, "Random Reads 8K")
    assert random_reads.layout.yaxis.title.text == "MB/s"
    ds4500, ds4400 = (_number(n) for n in re.findall(r"approximately ([\d,]+) 8K IOPS", seed_line(295)))
    bars = {trace.name: dict(zip(trace.x, trace.y, strict=True)) for trace in random_reads.data}
    raid_5 = next(label for label in bars["A: IBM DS4500"] if label.startswith("RAID-5, 140"))
    assert bars["A: IBM DS4500"][raid_5] == pytest.approx(ds4500 * 8192 / 1e6, abs=0.5)
    assert bars["B: IBM DS4400"][raid_5] == pytest.approx(ds4400 * 8192 / 1e6, abs=0.5)

    # Streaming Reads 64K, MB/s on the page: in MiB/s the bars are the paper's MBps (line 359) as printed.
    streaming = _chart(report, "Streaming Reads 64K")
    assert streaming.layout.yaxis.title.text == "MiB/s"
    ds4500, ds4400 = (int(n) for n in re.findall(r"(\d+)MBps", seed_line(359))[::-1])
    bars = {trace.name: dict(zip(trace.x, trace.y, strict=True)) for trace in streaming.data}
    raid_10 = next(label for label in bars["A: IBM DS4500"] if label.startswith("RAID-10"))
    assert (bars["A: IBM DS4500"][raid_10], bars["B: IBM DS4400"][raid_10]) == (
        pytest.approx(ds4500),
        pytest.approx(ds4400),
    )

    # A workload left at the page's figure keeps it.
    assert _chart(report, "Streaming Writes 64K").layout.yaxis.title.text == "MB/s"
