"""A comparison asked for is the same comparison after a trip through a link (query parameters) or a job's
state (JSON), and the compare form, the API and the docs know one list of its parameters.

Queries are drawn over every field at once: names with spaces, '&', '=', '+', '%' and accented letters,
thresholds and factors anywhere in the form's range (whole or not), each side's filters set or not, a pair
of workloads, and pages past the first."""

import json
import re
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from portal.comparisons.filters import SideFilters
from portal.comparisons.forms import CompareForm
from portal.comparisons.query import PAGE, PARAMETERS, ComparisonQuery
from portal.errors import ApplicationError
from portal.results.selectors import LATENCIES
from tests.samples import REPO

# Letters, digits, punctuation a URL must escape, and spaces inside (the form strips them at the ends).
CHARACTERS = st.characters(categories=["L", "N"]) | st.sampled_from(" -_.&=+%/#?'\"()")


def _text(max_size: int, *, without: str = "") -> st.SearchStrategy[str]:
    return (
        st.text(CHARACTERS.filter(lambda c: c not in without), min_size=1, max_size=max_size)
        .map(str.strip)
        .filter(bool)
    )


def _maybe(strategy: st.SearchStrategy) -> st.SearchStrategy:
    return st.none() | strategy


counts = st.integers(1, 10_000)
both_sides = st.builds(SideFilters, raid_level=_maybe(_text(20)), drive_count=_maybe(counts), cache=_maybe(_text(100)))
one_side = st.builds(
    SideFilters,
    raid_level=_maybe(_text(20)),
    drive_count=_maybe(counts),
    cache=_maybe(_text(100)),
    config_id=_maybe(counts),
    firmware=_maybe(_text(100)),
)
workload_name = _text(199, without="|")


def queries(pairs: int) -> st.SearchStrategy[ComparisonQuery]:
    """Queries with at most ``pairs`` pairs of workloads (a query string states one)."""
    return st.builds(
        ComparisonQuery,
        a_names=st.lists(_text(200), min_size=1, max_size=5).map(tuple),
        b_name=_text(200),
        threshold_ms=st.sampled_from([20.0, 1.0, 0.5]) | st.floats(0.001, 100_000),
        latency=st.sampled_from(list(LATENCIES)),
        adjust_b=st.sampled_from([1.0, 1.05]) | st.floats(0.01, 100),
        both_sides=both_sides,
        a_side=one_side,
        b_side=one_side,
        workload=_maybe(_text(200)),
        pairs=st.lists(st.tuples(workload_name, workload_name), max_size=pairs).map(tuple),
        best_of_sizes=st.booleans(),
        page=st.integers(1, 1_000),
    )


@settings(max_examples=200, deadline=None)
@given(queries(pairs=1))
def test_a_query_is_the_same_after_a_link(query):
    address = urlencode(query.to_params())
    assert ComparisonQuery.from_params(QueryDict(address)) == query


@settings(max_examples=200, deadline=None)
@given(queries(pairs=3))
def test_a_query_is_the_same_after_a_jobs_state(query):
    state = json.loads(json.dumps({"comparison": query.to_json()}))
    assert ComparisonQuery.from_json(state["comparison"]) == query


def test_a_link_states_what_differs_from_the_papers_basis_in_the_forms_order():
    query = ComparisonQuery.from_params(
        QueryDict("workload=Random+Reads+8K&b=IBM+DS4400&a=IBM+DS4500&threshold_ms=20.0&raid_level=RAID-5&best=on")
    )
    assert query.to_params() == [
        ("a", "IBM DS4500"),
        ("b", "IBM DS4400"),
        ("raid_level", "RAID-5"),
        ("workload", "Random Reads 8K"),
        ("best", "1"),
    ]
    assert ComparisonQuery.from_params({"a": "x", "b": "y", "threshold_ms": "0.5", PAGE: "3"}).to_params() == [
        ("a", "x"),
        ("b", "y"),
        ("threshold_ms", "0.5"),
        (PAGE, "3"),
    ]


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"threshold_ms": "soon"}, "threshold_ms", "the threshold must be a number of milliseconds, such as 20."),
        ({"latency": "p42"}, "latency", "must be one of avg, p50, p90, p95, p99, p99.9, max; got 'p42'."),
        ({"a_drive_count": "0"}, "a_drive_count", "Ensure this value is greater than or equal to 1."),
        ({"pair": "rd1"}, "pair", "write A's workload and B's workload separated by |, e.g. rd1 | OLTP 8K."),
        ({PAGE: "last"}, PAGE, "a page number (1, 2, ...) is required."),
    ],
)
def test_a_refused_value_is_named_as_the_page_and_the_api_name_it(params, field, message):
    with pytest.raises(ApplicationError) as refused:
        ComparisonQuery.from_params({"a": "IBM DS4500", "b": "IBM DS4400", **params})
    assert refused.value.fields == {field: [message]}


def test_the_form_the_api_page_and_the_parameters_are_one_list():
    assert list(CompareForm.base_fields) == list(PARAMETERS)
    api = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    row = re.search(r"^\| `GET /api/v1/compare/` \| (.*) \|$", api, flags=re.M)[1]
    listed = re.findall(r"`([^`]+)`", row)
    assert sorted(listed) == sorted([*PARAMETERS, PAGE])
