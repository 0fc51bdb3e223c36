"""The API answers a comparison with the compare page's parameters and the page's numbers: the same
query string sent to ``/compare/`` and ``/api/v1/compare/`` gives the same figures, statuses and
improvements, read from the page's table cells and from the API's JSON."""

import io
import json
from html.parser import HTMLParser
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from portal.results.figures import runs_stored_figures_recompute
from tests.api.conftest import error_of
from tests.factories import ConfigFactory, PointFactory, RunFactory, SystemFactory

A, B, C = "Acme A100", "Acme B200", "Acme C300"
RAID_5 = "RAID-5, 140 drives"
RAID_10 = "RAID-10, 140 drives"
LOWER_BOUND = "threshold not reached: the best point, a lower bound"


def _sweep(system, raid_level, points):
    """A measured OLTP 8K run: points (outstanding I/Os, IOPS, average ms, 99th percentile ms)."""
    run = RunFactory(config=ConfigFactory(system=system, raid_level=raid_level))
    for seq, (load, iops, avg_ms, p99_ms) in enumerate(points):
        PointFactory(
            run=run, seq=seq, outstanding_io=load, iops=iops, mbps=iops * 8192 / 1e6, avg_response_ms=avg_ms,
            latency_percentiles_ms={"99": p99_ms},
        )  # fmt: skip
    return run


@pytest.fixture
def arrays(db):
    """A and B measured at RAID-5 and RAID-10, their figures at 20 ms stored as ingesting stores them.

    At an average of 20 ms: A's RAID-5 never reaches it (69,656 at 12 ms: a lower bound); B's RAID-5
    crosses it between 10 ms and 25 ms: 40,000 + 12,000 x 10 / 15 = 48,000. At a 99th percentile of
    25 ms: A's RAID-5 50,000 + 19,656 x 10 / 15 = 63,104; B's 40,000 + 12,000 x 7 / 22 = 43,818.2.
    """
    a, b, c = (SystemFactory(vendor="Acme", model=model) for model in ("A100", "B200", "C300"))
    runs = [
        _sweep(a, "RAID-5", [(1, 20000, 2, 6), (4, 50000, 6, 15), (8, 69656, 12, 30)]),
        _sweep(b, "RAID-5", [(1, 15000, 3, 8), (4, 40000, 10, 18), (8, 52000, 25, 40)]),
        _sweep(a, "RAID-10", [(1, 24000, 2, 5), (4, 60000, 8, 16), (8, 80000, 24, 44)]),
        _sweep(b, "RAID-10", [(1, 18000, 3, 7), (4, 45000, 9, 19), (8, 58000, 21, 35)]),
        _sweep(c, "RAID-5", [(1, 30000, 4, 9), (4, 55000, 15, 22), (8, 60000, 30, 50)]),
    ]
    runs_stored_figures_recompute(run_ids=[run.id for run in runs])
    return a, b, c


class _ComparisonCells(HTMLParser):
    """The text of each cell of the compare page's comparison tables, row by row."""

    def __init__(self):
        super().__init__()
        self.rows: list[list[str]] = []
        self._depth = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and "comparison" in (dict(attrs).get("class") or "").split():
            self._depth += 1
        elif self._depth and tag == "tr":
            self.rows.append([])
        elif self._depth and tag in ("td", "th") and self.rows:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "table" and self._depth:
            self._depth -= 1
        elif tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def page_rows(params):
    """The page's rows by configuration: A's figure, B's, the improvement and the notes as shown."""
    response = Client().get(f"/compare/?{urlencode(params)}")
    assert response.status_code == 200, response.content[:500]
    parser = _ComparisonCells()
    parser.feed(response.content.decode())
    body = [row for row in parser.rows if row and row[0] != "Configuration"]
    return {label: {"a": a, "b": b, "pct": pct, "notes": notes} for label, a, b, pct, _, notes in body}


def api_rows(api, params):
    response = api.get(f"/api/v1/compare/?{urlencode(params)}")
    assert response.status_code == 200, response.content[:500]
    (compared,) = response.json()["comparisons"]
    return {row["configuration"].split(", All")[0]: row for w in compared["workloads"] for row in w["rows"]}


def shown(text):
    """A number as the page printed it, and half its last printed digit (what rounding may hide)."""
    # A lower bound is marked as the page marks it ("≥ 69,656"); the number is the same.
    number = text.removesuffix("%").strip().lstrip("≥≤ ").replace(",", "")
    decimals = len(number.partition(".")[2])
    return float(number), 0.5 * 10**-decimals


def assert_same(page, api):
    """Every row of the page is in the API with the same figures, improvement and status notes."""
    assert {label.split(", All")[0] for label in page} == set(api)
    for label, cells in page.items():
        row = api[label.split(", All")[0]]
        for side in ("a", "b"):
            value, rounding = shown(cells[side])
            assert row[side]["value"] == pytest.approx(value, abs=rounding), (label, side)
        pct, rounding = shown(cells["pct"])
        assert row["improvement_pct"] == pytest.approx(pct, abs=rounding), label
        assert cells["notes"] == "; ".join(row["notes"]), label
        for side, name in (("a", A), ("b", B)):
            # The page names a lower bound in the notes; the API says it of the figure.
            assert (f"{name}: {LOWER_BOUND}" in cells["notes"]) == (row[side]["status"] == "not_reached")


def test_at_the_default_a_lower_bound_is_said_so_on_the_page_and_in_the_api(arrays, api):
    params = {"a": A, "b": B}
    page, found = page_rows(params), api_rows(api, params)
    assert_same(page, found)
    raid_5 = found[RAID_5]
    assert (raid_5["a"]["value"], raid_5["a"]["status"], raid_5["a"]["status_text"]) == (
        69656, "not_reached", LOWER_BOUND,
    )  # fmt: skip
    assert (raid_5["b"]["value"], raid_5["b"]["status"]) == (48000, "interpolated")
    # (69,656 - 48,000) / 48,000
    assert raid_5["improvement_pct"] == pytest.approx(45.117, abs=0.001)
    assert [figure["status"] for figure in raid_5["b"]["figures"]] == ["interpolated"]
    # The page marks A's lower bound, not B's figure read at the threshold.
    assert page[RAID_5]["a"] == "≥ 69,656" and page[RAID_5]["b"] == "48,000"


def test_at_the_99th_percentile_and_another_threshold(arrays, api):
    params = {"a": A, "b": B, "latency": "p99", "threshold_ms": "25"}
    page, found = page_rows(params), api_rows(api, params)
    assert_same(page, found)
    raid_5 = found[RAID_5]
    assert (raid_5["a"]["value"], raid_5["a"]["status"]) == (63104, "interpolated")
    assert raid_5["b"]["value"] == pytest.approx(43818.18, abs=0.01)
    body = api.get(f"/api/v1/compare/?{urlencode(params)}").json()
    assert (body["latency"], body["threshold_ms"]) == ("p99", 25)


def test_with_b_adjusted(arrays, api):
    params = {"a": A, "b": B, "adjust_b": "1.05"}
    page, found = page_rows(params), api_rows(api, params)
    assert_same(page, found)
    # 69,656 / (48,000 x 1.05) - 1; B's figure itself is shown before the factor.
    assert found[RAID_5]["improvement_pct"] == pytest.approx(38.206, abs=0.001)
    assert found[RAID_5]["b"]["value"] == 48000


def test_several_systems_each_against_b_as_the_page_shows_them(arrays, api):
    query = urlencode([("a", A), ("a", C), ("b", B), ("latency", "p99")])
    response = Client().get(f"/compare/?{query}")
    multi = response.context["multi"]
    body = api.get(f"/api/v1/compare/?{query}").json()
    assert [c["a"]["name"] for c in body["comparisons"]] == [A, C]
    on_page = {
        (w.workload, row.label): [cell[0] if cell else None for cell in row.cells]
        for w in multi.workloads
        for row in w.rows
    }
    from_api = {}
    for index, compared in enumerate(body["comparisons"]):
        for workload in compared["workloads"]:
            for row in workload["rows"]:
                from_api.setdefault((workload["workload"], row["configuration"]), [None, None])[index] = row["a"][
                    "value"
                ]
    assert on_page == from_api
    # C's RAID-5 at a 99th percentile of 20 ms: 30,000 + 25,000 x 11 / 13.
    ((_, c_raid_5),) = [(key, values) for key, values in from_api.items() if key[1].startswith(RAID_5)]
    assert c_raid_5[1] == pytest.approx(51153.85, abs=0.01)


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        (
            {"latency": "bogus"},
            "latency",
            "must be one of avg, p50, p90, p95, p99, p99.9, max; got 'bogus'.",
        ),
        ({"threshold_ms": "soon"}, "threshold_ms", "the threshold must be a number of milliseconds, such as 20."),
        ({"adjust_b": "0"}, "adjust_b", "Ensure this value is greater than or equal to 0.01."),
        ({"best": "maybe"}, "best", "must be one of 0, 1, false, true, off, on; got 'maybe'."),
        ({"pair": "rd1"}, "pair", "write A's workload and B's workload separated by |, e.g. rd1 | OLTP 8K."),
        ({"wpage": "last"}, "wpage", "a page number (1, 2, ...) is required."),
        (
            {"adjust": "1.05"},
            "adjust",
            "renamed adjust_b: the factor for the baseline B's figures, as on the compare page.",
        ),
    ],
)
def test_bad_values_are_refused_naming_the_parameter(arrays, api, params, field, message):
    response = api.get("/api/v1/compare/", {"a": A, "b": B, **params})
    assert response.status_code == 400
    assert error_of(response)["fields"] == {field: [message]}


def test_unknown_and_repeated_parameters_are_refused(arrays, api):
    unknown = api.get("/api/v1/compare/", {"a": A, "b": B, "treshold_ms": "25"})
    assert unknown.status_code == 400
    (text,) = error_of(unknown)["fields"]["treshold_ms"]
    assert text == (
        "unknown parameter; this endpoint takes a, a_cache, a_config, a_drive_count, a_firmware, a_raid_level, "
        "adjust_b, b, b_cache, b_config, b_drive_count, b_firmware, b_raid_level, best, cache, drive_count, format, "
        "latency, pair, raid_level, threshold_ms, workload, wpage."
    )
    old = api.get("/api/v1/compare/", {"systems": f"{B},{A}"})
    assert "name the baseline as b= and each system compared with it as a=" in error_of(old)["fields"]["systems"][0]
    twice = api.get(f"/api/v1/compare/?{urlencode([('a', A), ('b', B), ('latency', 'p99'), ('latency', 'avg')])}")
    assert error_of(twice)["fields"] == {"latency": ["given 2 times; give it once."]}
    too_many = urlencode([*(("a", A) for _ in range(6)), ("b", B)])
    assert error_of(api.get(f"/api/v1/compare/?{too_many}"))["fields"] == {
        "a": ["at most 5 systems against one baseline; got 6."]
    }


def _workloads(configs, count, *, first=0):
    """``count`` more workloads both A's and B's configuration ran (read % 0, 5, 10, ...), two points each."""
    a, b = configs
    for index in range(first, first + count):
        for config, iops in ((a, 10000 + index), (b, 9000 + index)):
            run = RunFactory(config=config, workload_name=f"Mix {index:02}", read_pct=5 * index)
            PointFactory(run=run, seq=0, outstanding_io=1, iops=iops / 2, avg_response_ms=10)
            PointFactory(run=run, seq=1, outstanding_io=4, iops=iops, avg_response_ms=30)


def test_compared_workloads_come_a_page_at_a_time_in_the_same_number_of_queries(db, api):
    configs = [ConfigFactory(system=SystemFactory(vendor="Acme", model=model)) for model in ("A100", "B200")]
    _workloads(configs, 3)
    with CaptureQueriesContext(connection) as few:
        assert api.get("/api/v1/compare/", {"a": A, "b": B}).status_code == 200
    _workloads(configs, 9, first=3)
    with CaptureQueriesContext(connection) as many:
        first = api.get("/api/v1/compare/", {"a": A, "b": B}).json()["comparisons"][0]
    assert len(many.captured_queries) == len(few.captured_queries)
    assert first["workload_page"] == {"number": 1, "pages": 2, "workloads": 12}
    assert len(first["workloads"]) == 10
    second = api.get("/api/v1/compare/", {"a": A, "b": B, "wpage": "2"}).json()["comparisons"][0]
    assert [w["workload"] for w in second["workloads"]] == ["Mix 10", "Mix 11"]
    # Mix 11: A 5,005.5 IOPS at 10 ms, 10,011 at 30 ms; 20 ms is half way: 10,011 x 0.75 = 7,508.25
    # (B: 9,011 x 0.75 = 6,758.25).
    row = second["workloads"][1]["rows"][0]
    assert (row["a"]["value"], row["b"]["value"], row["a"]["status"]) == (7508.25, 6758.25, "interpolated")


def test_manage_py_compare_gives_the_apis_numbers_at_a_percentile(arrays, api):
    out = io.StringIO()
    call_command(
        "compare", A, B, "--latency", "p99", "--threshold-ms", "25", "--adjust-b", "1.05", "--format", "json",
        stdout=out,
    )  # fmt: skip
    from_command = {row["configuration"]: row for row in json.loads(out.getvalue())["rows"]}
    found = api_rows(api, {"a": A, "b": B, "latency": "p99", "threshold_ms": "25", "adjust_b": "1.05"})
    assert {label.split(", All")[0] for label in from_command} == set(found) == {RAID_5, RAID_10}
    for label, row in from_command.items():
        api_row = found[label.split(", All")[0]]
        assert (row["a"], row["b"]) == (round(api_row["a"]["value"], 3), round(api_row["b"]["value"], 3))
        assert row["improvement_pct"] == round(api_row["improvement_pct"], 2)
    # 63,104 / (43,818.18 x 1.05) - 1 = 63,104 / 46,009.09 - 1
    assert found[RAID_5]["improvement_pct"] == pytest.approx(37.156, abs=0.001)
