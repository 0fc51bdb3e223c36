"""Thresholds offered where a comparison's curves do not cross the one asked for."""

from portal.analysis.thresholds import thresholds_within


def test_two_ssds_measured_between_0_0716_and_0_920_ms_get_the_lowest_both_reach_and_round_values():
    # samples/fio-sweeps: the Samsung PM883's lowest average response time and the Intel D3-S4610's highest.
    assert thresholds_within(0.071554377327, 0.919624373343) == [0.072, 0.1, 0.2, 0.5]


def test_a_wide_range_is_offered_spread_over_it_and_a_narrow_one_its_lowest_time():
    assert thresholds_within(0.5, 30) == [0.5, 1, 5, 20]
    assert thresholds_within(12, 14) == [12]
    # Rounded up, the lowest time both curves reach lies beyond the range: nothing to offer.
    assert thresholds_within(0.0711, 0.0712) == []
