"""One comparison asked for on the compare page, through the API, as a download, by ``manage.py compare`` and
through a job's state gives the same figures: each reads its parameters into one ComparisonQuery and passes
it to the one selector.

Seed 000 (000_f52f16ce4c762121.txt) line 295: with 140 drives the DS4500 achieves about 30,020 8K IOPS and
the DS4400 26,640, "approximately 13% better" (30,020 / 26,640 = +12.7 %)."""

import csv
import html
import io
import json
import re

from django.core.management import call_command

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import comparison
from portal.management.commands.compare import query_of
from tests.samples import SEEDS_DIR

QUERY = {"a": "IBM DS4500", "b": "IBM DS4400", "raid_level": "RAID-5", "workload": "Random Reads 8K"}
ROW = "RAID-5, 140 drives, All Caches Disabled"


def _seed_000_line_295():
    """The DS4500's and the DS4400's 8K IOPS as the paper prints them, as numbers (30020, 26640)."""
    line = (SEEDS_DIR / "000_f52f16ce4c762121.txt").read_text(encoding="utf-8").splitlines()[294]
    return [float(found.replace(",", "")) for found in re.findall(r"approximately ([\d,]+) 8K IOPS", line)]


def _page(client):
    page = client.get("/compare/", QUERY).content.decode()
    row = re.search(rf'<th scope="row">{ROW}</th>(.*?)</tr>', page, flags=re.S)[1]
    cells = [
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", cell)).split())
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
    ]
    return float(cells[0].replace(",", "")), float(cells[1].replace(",", "")), cells[2]


def _api(client):
    answer = client.get("/api/v1/compare/", QUERY).json()
    ((workload,),) = [result["workloads"] for result in answer["comparisons"]]
    (row,) = [row for row in workload["rows"] if row["configuration"] == ROW]
    return row["a"]["value"], row["b"]["value"], round(row["improvement_pct"], 1)


def _download(client):
    text = client.get("/export/comparison/", {**QUERY, "table": "comparison", "format": "csv"}).content
    rows = list(csv.reader(io.StringIO(text.decode("utf-8-sig"))))
    (row,) = [row for row in rows if row[:2] == ["Random Reads 8K (IOPS)", ROW]]
    return float(row[2]), float(row[3]), float(row[4])


def _command():
    out = io.StringIO()
    call_command("compare", "IBM DS4500", "IBM DS4400", "--raid-level", "RAID-5", "--workload", "Random Reads 8K",
                 "--format", "json", stdout=out)  # fmt: skip
    (row,) = [row for row in json.loads(out.getvalue())["rows"] if row["configuration"] == ROW]
    return row["a"], row["b"], round(row["improvement_pct"], 1)


def _job(demo):
    """The comparison as a worker reads it back from a job's state."""
    state = json.loads(json.dumps({"comparison": ComparisonQuery.from_params(QUERY).to_json()}))
    query = ComparisonQuery.from_json(state["comparison"])
    result = comparison(a=demo[query.a_names[0]], b=demo[query.b_name], query=query)
    (row,) = [row for workload in result.workloads for row in workload.rows if row.label == ROW]
    return row.a_value, row.b_value, round(row.stated_pct, 1)


def test_the_page_the_api_a_download_the_command_and_a_job_give_the_same_figures(demo, client):
    a_iops, b_iops = _seed_000_line_295()
    page_a, page_b, page_improvement = _page(client)
    assert (page_a, page_b, page_improvement) == (a_iops, b_iops, "12.7 %")
    expected = (a_iops, b_iops, 12.7)
    assert _api(client) == expected
    assert _download(client) == expected
    assert _command() == expected
    assert _job(demo) == expected


def test_the_command_asks_for_the_comparison_the_pages_query_string_asks_for():
    options = {"system_a": "IBM DS4500", "system_b": "IBM DS4400", "threshold_ms": 20.0, "latency": "avg",
               "adjust_b": 1.0, "raid_level": "RAID-5", "drive_count": None, "cache": None,
               "workload": "Random Reads 8K", "pair": [], "best_of_transfer_sizes": False}  # fmt: skip
    assert query_of(options) == ComparisonQuery.from_params(QUERY)
