"""Figures parsers derive from others: totals of known figures, the read share of measured I/O."""

import pytest

from ingest.figures import known_max, known_sum, measured_read_pct


def test_a_total_counts_the_known_figures_only():
    assert known_sum([1200.0, None, 800.5]) == 2000.5
    assert known_sum([None, 42.0]) == 42.0
    assert known_sum(value for value in (3.0, 4.0)) == 7.0


def test_a_total_of_nothing_known_is_unknown_not_zero():
    assert known_sum([None, None]) is None
    assert known_sum([]) is None
    # A figure of 0 is known: the total is 0.
    assert known_sum([0.0, None]) == 0.0


def test_the_read_share_of_measured_io():
    # 750 reads/s of 750 + 250 = 1000 I/O per second: 75 %.
    assert measured_read_pct(750.0, 250.0) == 75.0
    # 1 of 3: 33.33 %.
    assert measured_read_pct(100.0, 200.0) == pytest.approx(33.333333)
    assert measured_read_pct(500.0, 0.0) == 100.0
    assert measured_read_pct(0.0, 500.0) == 0.0


def test_no_read_share_without_both_directions_or_without_io():
    assert measured_read_pct(None, 250.0) is None
    assert measured_read_pct(750.0, None) is None
    assert measured_read_pct(0.0, 0.0) is None


def test_the_largest_known_figure():
    assert known_max([12.5, None, 80.02]) == 80.02
    assert known_max(value for value in (None, 3.0)) == 3.0
    assert known_max([None, None]) is None
    assert known_max([]) is None
