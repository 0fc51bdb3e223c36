"""The claims audit's corpus (:mod:`tests.reports.test_claims_audit`) walked through the other ways out of the
portal: ``/api/v1/compare/``, ``manage.py compare`` (JSON and text) and the table of several systems against
one baseline. Each improvement they give is held to its row's figures, read from the comparison's rows:

- a difference ("12.7") only where both figures were read at the threshold, equal to (A - B x k) / (B x k) x 100
  computed here from the two figures;
- a bound where exactly one side is a lower bound, the other read at the threshold: "at most" ("≤",
  ``improvement_bound: at_most``) against a lower bound of B, "at least" ("≥", ``at_least``) for one of A;
- nothing (null, "–") where both are lower bounds or a figure was published at another threshold, with the
  reason given;
- every summary sentence in them held to the rules of the compare page's sentences.
"""

import io
import itertools
import json
import re

import pytest
from django.core.management import call_command

from portal.comparisons.query import ComparisonQuery
from portal.comparisons.selectors import multi_comparison
from portal.publishing.multi_tables import multi_comparison_table
from tests.reports.test_claims_audit import (
    _asked,
    _at_threshold,
    _audit_group_sentence,
    _bound,
    _compared,
    _drive_types,
    _group_of,
    _pct,
    corpus,  # noqa: F401 (the fixture)
    corpus_loaded,  # noqa: F401 (the fixture)
)


def _expected(row, threshold_ms):
    """What may be said of a row's improvement, from its figures: ("stated" | "at_most" | "at_least" |
    None)."""
    if row.pct is None:
        return None
    a_at, b_at = (_at_threshold(found, threshold_ms) for found in (row.a_figures, row.b_figures))
    if a_at and b_at:
        return "stated"
    if a_at and _bound(row.b_figures):
        return "at_most"
    if b_at and _bound(row.a_figures):
        return "at_least"
    return None


def _audit_answer(answered, row, adjust_b, where):
    """One row of the API or the command: improvement_pct, improvement_bound and improvement_not_stated."""
    kind = _expected(row, where[1])
    pct, bound, why = answered["improvement_pct"], answered["improvement_bound"], answered["improvement_not_stated"]
    if kind is None:
        return [] if pct is None and bound is None and why else [f"not stated but given {pct} {bound} {why!r}: {where}"]
    broken = [] if why == "" else [f"a reason {why!r} beside a stated improvement: {where}"]
    if bound != (None if kind == "stated" else kind):
        broken.append(f"bound {bound} where the figures allow {kind}: {where}")
    # The API gives the improvement unrounded, the command to two decimals.
    exact = (row.a_value - row.b_value * adjust_b) / (row.b_value * adjust_b) * 100
    if pct is None or abs(pct - exact) > 0.005:
        broken.append(f"improvement {pct} is not the figures' {exact}: {where}")
    return broken


def _api_query(asked):
    query = {key: value for key, value in asked.items() if key in ("threshold_ms", "latency", "a_config", "b_config")}
    return {**query, "a": asked["a"].name, "b": asked["b"].name}


def _rows_by_key(result):
    return {(workload.workload, row.label): row for workload in result.workloads for row in workload.rows}


def _audit_api(client, result, asked, types):
    where = (f"API {result.a.name} vs {result.b.name}", result.threshold_ms, result.latency)
    answer = client.get("/api/v1/compare/", {**_api_query(asked), "wpage": 1})
    assert answer.status_code == 200, where
    rows = _rows_by_key(result)
    broken = []
    for pages in itertools.count(1):
        (compared,) = answer.json()["comparisons"]
        for workload in compared["workloads"]:
            for answered in workload["rows"]:
                row = rows[(workload["workload"], answered["configuration"])]
                broken += _audit_answer(answered, row, result.adjust_b, (*where, answered["configuration"]))
            for sentence in workload["summaries"]:
                broken += _audit_group_sentence(sentence, _group_of(sentence, result), result, types)
        if pages >= compared["workload_page"]["pages"]:
            return broken
        answer = client.get("/api/v1/compare/", {**_api_query(asked), "wpage": pages + 1})


def _audit_command(result, asked, types):
    """``manage.py compare`` as JSON (every row) and as text (each row's improvement column)."""
    where = (f"command {result.a.name} vs {result.b.name}", result.threshold_ms, result.latency)
    arguments = [result.a.name, result.b.name, "--threshold-ms", str(result.threshold_ms), "--latency", result.latency]
    out = io.StringIO()
    call_command("compare", *arguments, "--format", "json", stdout=out)
    document = json.loads(out.getvalue())
    rows = _rows_by_key(result)
    broken = []
    for answered in document["rows"]:
        row = rows[(answered["workload"], answered["configuration"])]
        broken += _audit_answer(answered, row, result.adjust_b, (*where, answered["configuration"]))
    for sentence in document["summaries"]:
        broken += _audit_group_sentence(sentence, _group_of(sentence, result), result, types)
    out = io.StringIO()
    call_command("compare", *arguments, stdout=out)
    lines = iter(out.getvalue().splitlines())
    for workload in result.workloads:
        next(line for line in lines if line.startswith(f"{workload.workload} ("))
        for row in workload.rows:
            line = next(lines)
            kind = _expected(row, result.threshold_ms)
            shown = re.search(r"  (none|–|(?:[≤≥] )?[+-][\d,]+\.\d %)(?:  \[|$)", line)
            wanted = "none" if row.pct is None else "–"
            if kind:
                mark = {"stated": "", "at_most": "≤ ", "at_least": "≥ "}[kind]
                wanted = f"{mark}{'+' if row.pct >= 0 else '-'}{abs(_pct(row, result.adjust_b)):,} %"
            if shown is None or shown[1] != wanted:
                broken.append(f"text {line!r} where the figures allow {kind}: {where}")
    return broken


def _audit_multi_table(baseline, pairs, threshold_ms, latency):
    """The table of several systems against ``baseline``: each improvement cell as the figures allow it."""
    candidates = [result.a for result in pairs]
    multi = multi_comparison(
        candidates=candidates, baseline=baseline, query=ComparisonQuery(threshold_ms=threshold_ms, latency=latency)
    )
    table = multi_comparison_table(multi)
    by_b_label = [
        {(workload.workload, row.b_label): row for workload in result.workloads for row in workload.rows}
        for result in multi.pairs
    ]
    broken = []
    for i, table_row in enumerate(table.rows):
        name, label = table_row.headers
        workload = name.rsplit(" (", 1)[0]
        for index, rows in enumerate(by_b_label):
            row = rows.get((workload, label))
            if row is None:
                continue
            # The baseline's figure and each candidate's come first, then each candidate's improvement.
            text = table.cell_text(i, 1 + len(candidates) + index)
            kind = _expected(row, threshold_ms)
            mark = {"stated": "", "at_most": "≤ ", "at_least": "≥ "}.get(kind or "", "")
            wanted = f"{mark}{_pct(row, 1)}" if kind else "–"
            if text != wanted:
                where = f"{candidates[index].name} vs {baseline.name} at {threshold_ms:g} ms {latency}, {name}, {label}"
                broken.append(f"multi table: {text!r} where the figures give {wanted!r}: {where}")
    return broken


@pytest.fixture
def unthrottled(settings):
    # The walk asks the API hundreds of times, as no reader does: counted apart from other tests.
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "anon": "100000/minute"}
    settings.CACHES = {**settings.CACHES, "api": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def test_the_api_the_command_and_the_multi_table_state_only_what_the_rows_show(corpus, client, unthrottled):  # noqa: F811
    types = _drive_types(corpus.values())
    broken, kinds, by_baseline = [], set(), {}
    for asked in _asked(corpus):
        result = _compared(asked)
        kinds |= {_expected(row, result.threshold_ms) for workload in result.workloads for row in workload.rows}
        broken += _audit_api(client, result, asked, types)
        if "a_config" not in asked:
            broken += _audit_command(result, asked, types)
            basis = (asked["b"].id, result.threshold_ms, result.latency)
            by_baseline.setdefault(basis, (asked["b"], []))[1].append(result)
    for (_, threshold_ms, latency), (baseline, pairs) in by_baseline.items():
        for first in range(0, len(pairs), 5):
            broken += _audit_multi_table(baseline, pairs[first : first + 5], threshold_ms, latency)
    # The corpus holds every kind of row: findings, both bounds, and figures not stated at the threshold.
    assert kinds == {"stated", "at_most", "at_least", None}
    assert broken == []
