"""Throughput at a response-time threshold: both rules and every awkward case."""

import math
import random

import pytest

from portal.analysis.curves import CurvePoint, Rule, Status, curve, marker_response_ms, throughput_at
from portal.formatting import reading

# A synthetic queue-depth sweep: (outstanding I/Os, IOPS, average response ms).
SWEEP = [
    CurvePoint(1, 1000, 2.0),
    CurvePoint(2, 1800, 3.0),
    CurvePoint(4, 3000, 5.0),
    CurvePoint(8, 5000, 10.0),
    CurvePoint(16, 6000, 16.0),
    CurvePoint(32, 6400, 26.0),
]


def test_interpolates_between_the_last_point_under_and_the_first_over():
    result = throughput_at(SWEEP, threshold_ms=20)
    # By hand: 20 ms lies 4/10 of the way from 16 ms to 26 ms, so 6000 + 0.4 x (6400 - 6000) = 6160 IOPS
    # at 16 + 0.4 x 16 = 22.4 outstanding I/Os.
    assert result.status is Status.INTERPOLATED
    assert result.value == pytest.approx(6160)
    assert result.load == pytest.approx(22.4)
    assert result.reached is True
    assert (result.below, result.above) == (SWEEP[4], SWEEP[5])
    assert result.warnings == ()


def test_points_are_read_in_load_order_whatever_order_they_come_in():
    shuffled = SWEEP[:]
    random.Random(5).shuffle(shuffled)
    assert throughput_at(shuffled, threshold_ms=20).value == pytest.approx(6160)
    assert curve(shuffled).loads == (1, 2, 4, 8, 16, 32)


def test_curve_keeps_the_given_order_when_a_load_is_unknown():
    points = [CurvePoint(None, 10, 1.0), CurvePoint(4, 5, 2.0)]
    assert curve(points).throughputs == (10, 5)
    assert curve(points).response_ms == (1.0, 2.0)


def test_at_or_below_takes_the_best_measured_point_within_the_threshold():
    result = throughput_at(SWEEP, threshold_ms=20, rule="at_or_below")
    assert result.status is Status.MEASURED
    assert result.rule is Rule.AT_OR_BELOW
    assert result.value == 6000
    assert (result.below, result.above) == (SWEEP[4], SWEEP[5])


def test_a_point_exactly_at_the_threshold_is_the_answer():
    result = throughput_at(SWEEP, threshold_ms=16)
    assert (result.status, result.value, result.reached) == (Status.MEASURED, 6000, True)
    last = throughput_at(SWEEP, threshold_ms=26)
    assert (last.status, last.value, last.reached) == (Status.MEASURED, 6400, True)


@pytest.mark.parametrize("rule", ["interpolate", "at_or_below"])
def test_every_point_under_the_threshold_reports_the_highest_marked_not_reached(rule):
    result = throughput_at(SWEEP, threshold_ms=30, rule=rule)
    assert result.status is Status.NOT_REACHED
    assert result.reached is False
    assert result.value == 6400
    assert result.below == SWEEP[-1]
    assert result.warnings == (
        "the threshold of 30 ms was not reached (highest response time 26 ms): the best measured point is "
        "reported, a lower bound",
    )


def test_not_reached_reports_the_highest_throughput_even_when_it_is_not_the_last_point():
    saturating = [CurvePoint(1, 100, 1.0), CurvePoint(2, 300, 2.0), CurvePoint(4, 250, 3.0)]
    assert throughput_at(saturating, threshold_ms=20).value == 300


@pytest.mark.parametrize("rule", ["interpolate", "at_or_below"])
def test_first_point_already_over_the_threshold_gives_no_value(rule):
    result = throughput_at(SWEEP, threshold_ms=1.5, rule=rule)
    assert result.status is Status.FIRST_POINT_OVER
    assert result.value is None
    assert result.above == SWEEP[0]
    assert result.warnings == (
        "the first point, at the lowest load, is already over the threshold (2 ms > 1.5 ms): "
        "there is no throughput at the threshold",
    )


NON_MONOTONIC = [
    CurvePoint(1, 1000, 5.0),
    CurvePoint(2, 2000, 25.0),
    CurvePoint(4, 2500, 15.0),
    CurvePoint(8, 3000, 40.0),
]


def test_non_monotonic_response_times_read_the_envelope_and_warn():
    result = throughput_at(NON_MONOTONIC, threshold_ms=20)
    # By hand: 2,500 IOPS at 15 ms meets the threshold; the first crossing in load order (5 ms to 25 ms,
    # 1,750) would state less. The next point over 20 ms with more throughput is 3,000 at 40 ms:
    # 2500 + (20 - 15) / (40 - 15) x 500 = 2,600.
    assert result.status is Status.INTERPOLATED
    assert result.value == pytest.approx(2600)
    assert (result.below, result.above) == (NON_MONOTONIC[2], NON_MONOTONIC[3])
    assert result.warnings == (
        "response times fall as the load rises (15 ms after 25 ms); the best throughput at or under the "
        "threshold and the next point over it with more throughput are used",
    )


def test_a_point_over_the_threshold_with_less_throughput_leaves_the_best_point_measured_under_it():
    # Throughput falls past saturation: 2,000 IOPS at 5 ms, 1,900 at 25 ms. The figure at 20 ms is the
    # 2,000 measured at 5 ms, not 1,925 read on the way down to 1,900.
    saturated = [CurvePoint(1, 1000, 1.0), CurvePoint(2, 2000, 5.0), CurvePoint(4, 1900, 25.0)]
    result = throughput_at(saturated, threshold_ms=20)
    assert (result.status, result.value, result.reached, result.above) == (Status.MEASURED, 2000, True, None)
    assert reading(result, metric="iops", load_kind="outstanding_io") == (
        "2,000 IOPS at 20 ms: the best point measured at or under the threshold, 5 ms at 2 outstanding I/Os."
    )


def test_a_curve_over_the_threshold_at_its_lowest_load_but_under_it_later_has_a_value():
    result = throughput_at([CurvePoint(1, 500, 30.0), CurvePoint(2, 800, 12.0)], threshold_ms=20)
    assert (result.status, result.value) == (Status.MEASURED, 800)


def test_non_monotonic_at_or_below_takes_the_best_point_and_warns():
    result = throughput_at(NON_MONOTONIC, threshold_ms=20, rule=Rule.AT_OR_BELOW)
    assert result.value == 2500
    assert result.warnings == ("response times fall as the load rises (15 ms after 25 ms); the best point is used",)


def test_a_single_published_point_is_used_as_is():
    # Seed 000 text under Chart 6: the DS4500 reaches approximately 30,020 8K IOPS at 20 ms with 140 drives.
    published = [CurvePoint(None, 30_020, 20.0)]
    result = throughput_at(published, threshold_ms=20, published=True)
    assert (result.status, result.value, result.reached, result.warnings) == (Status.SINGLE_POINT, 30_020, True, ())
    assert reading(result, metric="iops") == "30,020 IOPS at 20 ms: published by the paper at 20 ms."


def test_a_single_published_point_at_another_response_time_is_used_as_is_with_a_warning():
    result = throughput_at([CurvePoint(None, 30_020, 20.0)], threshold_ms=30, rule="at_or_below", published=True)
    assert result.value == 30_020
    assert result.warnings == ("a single point at 20 ms is used as is for the 30 ms threshold",)
    assert throughput_at([CurvePoint(None, 500, None)], threshold_ms=30, published=True).value == 500


def test_a_single_measured_point_under_the_threshold_is_a_lower_bound_at_its_own_latency():
    # One DiskSpd-like run: 219 IOPS measured at 4.1 ms. At 20 ms it did at least that, nothing more is known.
    result = throughput_at([CurvePoint(None, 219.0, 4.1)], threshold_ms=20)
    assert (result.status, result.value, result.reached) == (Status.NOT_REACHED, 219.0, False)
    assert result.warnings == (
        "its only point was measured at 4.1 ms, under the threshold of 20 ms: its throughput is a lower bound",
    )
    assert reading(result, metric="iops") == "At least 219 IOPS at 20 ms (a lower bound): measured at 4.1 ms."
    # A chart marks it where it was measured, not on the 20 ms line.
    assert marker_response_ms(result) == 4.1


@pytest.mark.parametrize("rule", list(Rule))
def test_a_single_measured_point_over_the_threshold_has_no_value(rule):
    result = throughput_at([CurvePoint(None, 219.0, 292.0)], threshold_ms=20, rule=rule)
    assert (result.status, result.value) == (Status.FIRST_POINT_OVER, None)
    assert reading(result, metric="iops") == "No value at 20 ms: its only point is at 292 ms, over 20 ms."
    assert result.warnings == ("its only point is at 292 ms, over 20 ms: there is no throughput at 20 ms",)


def test_a_single_measured_point_at_the_threshold_is_measured():
    result = throughput_at([CurvePoint(4, 1_234.5, 20.0)], threshold_ms=20)
    assert (result.status, result.value, result.reached) == (Status.MEASURED, 1_234.5, True)
    assert reading(result, metric="iops") == "1,235 IOPS at 20 ms: measured at 20 ms."


def test_a_single_measured_point_without_a_response_time_has_no_value():
    result = throughput_at([CurvePoint(None, 500, None)], threshold_ms=20)
    assert (result.status, result.value) == (Status.NO_DATA, None)
    assert reading(result, metric="mbps") == "No value at 20 ms: no response times were measured."


def test_the_sentences_say_how_a_curve_was_read():
    assert reading(throughput_at(SWEEP, threshold_ms=20), metric="iops", load_kind="outstanding_io") == (
        "6,160 IOPS at 20 ms: interpolated between 16 ms at 16 outstanding I/Os and 26 ms at 32 outstanding I/Os."
    )
    assert reading(throughput_at(SWEEP, threshold_ms=1.5), metric="mbps", latency_text="99th percentile") == (
        "No value at 1.5 ms (99th percentile response time): the first point, at the lowest load, is at 2 ms, "
        "over 1.5 ms."
    )
    lower = throughput_at([CurvePoint(1, 55.5, 0.0839169), CurvePoint(2, 98.25, 0.12)], threshold_ms=20)
    assert reading(lower, metric="mbps") == "At least 98.3 MB/s at 20 ms (a lower bound): measured at 0.12 ms."


def test_points_without_response_time_are_left_out_with_a_warning():
    points = [*SWEEP, CurvePoint(64, 9999, None)]
    result = throughput_at(points, threshold_ms=20)
    assert result.value == pytest.approx(6160)
    assert result.warnings == ("1 point(s) without a response time were left out",)


def test_no_usable_point_is_no_data():
    assert throughput_at([], threshold_ms=20).status is Status.NO_DATA
    result = throughput_at([CurvePoint(1, 5, None), CurvePoint(2, 6, None)], threshold_ms=20)
    assert (result.status, result.value) == (Status.NO_DATA, None)


@pytest.mark.parametrize("threshold", [-5, 0, "abc", math.nan, math.inf, None])
def test_a_bad_threshold_is_refused_with_a_clear_message(threshold):
    with pytest.raises(ValueError, match="the threshold must be a positive number of milliseconds"):
        throughput_at(SWEEP, threshold_ms=threshold)


def test_an_unknown_rule_lists_the_rules():
    with pytest.raises(ValueError, match="unknown threshold rule 'peak'; choose one of: interpolate, at_or_below"):
        throughput_at(SWEEP, threshold_ms=20, rule="peak")


@pytest.mark.parametrize(("throughput", "response_ms"), [(-1, 2.0), (math.nan, 2.0), (1, -2.0), (None, 2.0)])
def test_a_point_with_impossible_figures_is_refused(throughput, response_ms):
    with pytest.raises(ValueError, match="must be a non-negative number"):
        CurvePoint(1, throughput, response_ms)
