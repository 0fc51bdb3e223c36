"""Every export states the compare page's exact basis and draws the page's chart, at the 99th percentile
and at a threshold of the reader's choosing. Two measured curves (three points each, average and 99th
percentile response times), so the page draws curves, never bars."""

import csv
import io
import json
import re
from urllib.parse import urlencode

import pytest
from docx import Document
from openpyxl import load_workbook

from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory

# Per point: IOPS, average and 99th percentile response times (ms).
CURVES = {
    "Array One": [(1000, 0.2, 0.5), (2000, 0.4, 0.9), (3000, 0.8, 1.6)],
    "Array Two": [(800, 0.3, 0.6), (1600, 0.5, 1.2), (2400, 1.0, 2.0)],
}
BASES = {
    "p99 at 1 ms": ({"latency": "p99", "threshold_ms": "1"}, "Throughput at a 99th percentile response time of 1 ms."),
    "average at 0.6 ms": ({"threshold_ms": "0.6"}, "Throughput at an average response time of 0.6 ms."),
}


@pytest.fixture
def two_curves(db, data_dir):
    for name, points in CURVES.items():
        config = ConfigFactory(system=SystemFactory(name=name), raid_level="RAID-5", drive_count=8)
        run = RunFactory(config=config, workload_name="OLTP 8K", read_pct=67, random_pct=100)
        for seq, (iops, avg, p99) in enumerate(points):
            PointFactory(run=run, seq=seq, outstanding_io=2**seq, iops=iops, avg_response_ms=avg,
                         latency_percentiles_ms={"99": p99})  # fmt: skip


def query(params):
    return urlencode({"a": "Array One", "b": "Array Two", **params})


def trace_types_of_svg(svg: str) -> set[str]:
    return set(re.findall(r'class="trace (scatter|bars) ', svg))


@pytest.mark.parametrize("basis", BASES)
def test_every_export_states_the_pages_basis_and_draws_its_chart(two_curves, client, basis):
    params, sentence = BASES[basis]
    page = re.sub(r"<[^>]+>", "", client.get(f"/compare/?{query(params)}").content.decode())
    page_words = sentence.replace("Throughput at ", "").rstrip(".")
    assert " ".join(page.split()).count(f"Throughput at {page_words}") == 1, "the page states the basis"

    exported = {
        fmt: client.get(f"/export/comparison/?{query(params)}&table=comparison&format={fmt}").content
        for fmt in ("csv", "xlsx", "docx", "latex", "markdown", "html")
    }
    rows = list(csv.reader(io.StringIO(exported["csv"].decode("utf-8-sig"))))
    assert any(row and row[0].startswith(sentence) for row in rows)
    heading = rows[1][2]
    assert heading == ("At 1 ms (99th percentile)" if "latency" in params else "At 0.6 ms")
    sheet = load_workbook(io.BytesIO(exported["xlsx"])).worksheets[0]
    assert any(str(cell.value).startswith(sentence) for row in sheet.iter_rows() for cell in row if cell.value)
    side_by_side = client.get(f"/export/comparison/?{query(params)}&table=side_by_side&format=xlsx").content
    name = load_workbook(io.BytesIO(side_by_side)).worksheets[0].title
    # Cut to Excel's 31 characters at a word, never after a number that would read as the threshold.
    assert name.startswith("1 Performance at ") and not re.search(r"[\d<=@]$", name.rstrip("…")), name
    document = Document(io.BytesIO(exported["docx"]))
    assert any(p.text.startswith(sentence) for p in document.paragraphs)
    for fmt in ("latex", "markdown", "html"):
        assert sentence in exported[fmt].decode(), fmt

    chart_query = f"{query(params)}&label=OLTP+8K"
    page_chart = json.loads(client.get(f"/compare/chart.json?{chart_query}").content)
    page_types = {trace["type"] for trace in page_chart["data"]}
    assert page_types == {"scatter"}  # curves overlaid: both sides were measured as curves
    svg = client.get(f"/export/chart/?{chart_query}&format=svg").content.decode()
    assert trace_types_of_svg(svg) == {"scatter"}
    png = client.get(f"/export/chart/?{chart_query}&format=png").content
    width = int.from_bytes(png[16:20], "big")
    assert png.startswith(b"\x89PNG") and width == 1890  # 900 px at print resolution: 300 dpi over 6.3 in
