"""Percentage improvement as the papers compute it, ranges over matched configurations, replicates."""

import math

import pytest

from portal.analysis.compare import (
    compare_replicates,
    compare_summaries,
    improvement_pct,
    improvement_range,
    replicates,
    replicates_summed,
    replicates_together,
    summary_sentence,
    welch_of,
    welch_t_test,
)


@pytest.mark.parametrize(
    ("a", "b", "adjust_b", "expected_pct"),
    [
        # Seed 000_f52f16ce4c762121.txt:
        # RAID-5 Random Reads 8K, 140 drives: Table 4 (30,020) and the text under Chart 6 (26,640),
        # "approximately 13 %".
        (30_020, 26_640, 1.0, 12.7),
        # RAID-10 Random Reads 8K, 140 drives: Table 8 (30,060) and the text under Chart 12 (26,700).
        (30_060, 26_700, 1.0, 12.6),
        # RAID-5 Streaming Reads 64K, DS4400 boosted 5 %: text under Chart 2 ("approximately 75 %").
        (722, 388, 1.05, 77.2),
        # RAID-10 Streaming Reads 64K, boosted 5 %: text under Chart 8 ("approximately 83 %").
        (728, 379, 1.05, 82.9),
        # RAID-5 Streaming Writes 64K against the 240 MB/s maximum: text under Chart 3 ("approximately 118 %").
        (525, 240, 1.0, 118.75),  # exactly: 285 / 240
        # RAID-10 Streaming Writes 64K, boosted 5 %: text under Chart 9 ("approximately 230 %").
        (518, 148, 1.05, 233.3),
        # RAID-5 File Server, 140 drives: Table 3 (133) and the text under Chart 4 (114); "approximately 16 %".
        (133, 114, 1.0, 16.7),
        # RAID-10 File Server, 140 drives: Table 7 (186) and the text under Chart 10 (163); "approximately 14 %".
        (186, 163, 1.0, 14.1),
        # Seed 002_a42e26287dbab2e7.txt:
        # EVA4400 vs EVA4100 random reads at <= 30 ms: Table 1 (26,000 vs 13,800), "approximately twice".
        (26_000, 13_800, 1.0, 88.4),
        # EVA4400 vs EVA4100 sequential reads: Table 1 (775 vs 350 MB/s).
        (775, 350, 1.0, 121.4),
    ],
)
def test_improvements_the_papers_print(a, b, adjust_b, expected_pct):
    assert improvement_pct(a, b, adjust_b=adjust_b) == pytest.approx(expected_pct, abs=0.05)


def test_whole_percent_figures_as_the_paper_quotes_them():
    # Seed 000 Charts 2, 8 and 9: 77 %, 83 % and 233 % once the DS4400 is boosted by 5 %.
    assert round(improvement_pct(722, 388, adjust_b=1.05)) == 77
    assert round(improvement_pct(728, 379, adjust_b=1.05)) == 83
    assert round(improvement_pct(518, 148, adjust_b=1.05)) == 233
    # Seed 000 Chart 3: 525 against the DS4400's 240 MB/s maximum, exactly 118.75 %.
    assert improvement_pct(525, 240) == 118.75


def test_a_worse_system_gives_a_negative_improvement():
    assert improvement_pct(90, 100) == pytest.approx(-10)


@pytest.mark.parametrize(
    ("b", "adjust_b", "message"), [(0, 1.0, "B's throughput must be positive"), (5, 0, "must be positive")]
)
def test_improvement_over_nothing_is_refused(b, adjust_b, message):
    with pytest.raises(ValueError, match=message):
        improvement_pct(10, b, adjust_b=adjust_b)


def test_range_names_the_matched_and_unmatched_configurations():
    # Seed 000 Table 4, RAID-5 Random Reads 8K IOps with all caches disabled, by drive count; the
    # DS4400 figure is known only at 140 drives (text under Chart 6).
    ds4500 = {20: 8365, 60: 24_395, 100: 30_180, 140: 30_020, 180: 29_480}
    ds4400 = {140: 26_640}
    result = improvement_range(ds4500, ds4400)
    assert [m.key for m in result.matched] == [140]
    assert result.only_a == (20, 60, 100, 180)
    assert result.only_b == ()
    assert result.text() == "13 %"
    assert result.text(decimals=1) == "12.7 %"


def test_range_over_several_configurations_and_missing_figures():
    a = {20: 105, 60: 130, 100: 115, 140: None, 180: 200}
    b = {20: 100, 60: 100, 100: 100, 140: 100, 220: 50, 180: None}
    result = improvement_range(a, b, adjust_b=1.0)
    assert [(m.key, m.pct) for m in result.matched] == [
        (20, pytest.approx(5)),
        (60, pytest.approx(30)),
        (100, pytest.approx(15)),
    ]
    assert (result.low_pct, result.high_pct) == (pytest.approx(5), pytest.approx(30))
    assert result.text() == "5 % to 30 %"
    assert result.only_a == (180,)
    assert result.only_b == (140, 220)


def test_adjustment_applies_to_every_matched_figure():
    result = improvement_range({60: 722}, {60: 388}, adjust_b=1.05)
    (match,) = result.matched
    assert match.b_adjusted == pytest.approx(407.4)
    assert round(match.pct) == 77


def test_nothing_matched_has_no_range():
    result = improvement_range({1: 10}, {2: 10})
    assert (result.low_pct, result.high_pct, result.text()) == (None, None, "")
    assert summary_sentence("A", "B", "OLTP 8K", result) == "A and B have no matching configuration for OLTP 8K"


def test_summary_sentence_as_the_paper_words_it():
    result = improvement_range({20: 105, 60: 130, 100: 115}, {20: 100, 60: 100, 100: 100})
    assert summary_sentence("IBM DS4500", "IBM DS4400", "RAID-5 OLTP 8K", result) == (
        "IBM DS4500 performs 5.0 % to 30.0 % better than IBM DS4400 for RAID-5 OLTP 8K depending on the number"
        " of drives"
    )


def test_summary_sentence_for_one_match_and_for_worse_and_mixed_results():
    one = improvement_range({140: 30_020}, {140: 26_640})
    assert (
        summary_sentence("A", "B", "RAID-5 Random Reads 8K", one)
        == "A performs 12.7 % better than B for RAID-5 Random Reads 8K"
    )
    # One decimal, rounded half up as the tables print it: 30,020 against 26,640 is +12.687... %.
    worse = improvement_range({1: 90, 2: 80}, {1: 100, 2: 100})
    assert (
        summary_sentence("A", "B", "X", worse)
        == "A performs 10.0 % to 20.0 % worse than B for X depending on the number of drives"
    )
    mixed = improvement_range({1: 90, 2: 120}, {1: 100, 2: 100})
    assert summary_sentence("A", "B", "X", mixed, varying="the transfer size") == (
        "A performs between 10.0 % worse and 20.0 % better than B for X depending on the transfer size"
    )


def test_replicates_mean_sd_and_count():
    summary = replicates([10, 12, 14])
    # By hand: mean 12, sample variance (4 + 0 + 4) / 2 = 4, sd 2.
    assert (summary.n, summary.mean, summary.sd) == (3, 12, pytest.approx(2))
    assert replicates([7]).sd is None
    with pytest.raises(ValueError, match="at least one value"):
        replicates([])


def test_replicates_of_groups_together_are_those_of_all_their_runs():
    # By hand: [10, 12] (mean 11, variance 2) and [20] together are [10, 12, 20]: mean 14, squared
    # deviations 16 + 4 + 36 = 56, variance 28.
    together = replicates_together([replicates([10, 12]), replicates([20])])
    assert (together.n, together.mean, together.variance) == (3, 14, 28)
    # Runs of one value each give exactly what the values give, to the last bit.
    values = [1000.1, 1200.7, 1399.3, 0.3]
    singles = replicates_together([replicates([value]) for value in values])
    assert (singles.n, singles.mean, singles.variance) == (4, replicates(values).mean, replicates(values).variance)
    assert replicates_together([replicates([7])]).sd is None


def test_replicates_summed_up_elsewhere_give_the_same_test():
    # A database's count, mean and variance of [10, 12] and [7, 9] (by hand: 2, 11, 2 and 2, 8, 2).
    a, b = replicates_summed(n=2, mean=11, variance=2), replicates_summed(n=2, mean=8, variance=2)
    assert a.sd == pytest.approx(math.sqrt(2))
    assert welch_of(a, b).p_value == pytest.approx(1 - 3 / math.sqrt(13), abs=1e-12)
    # B adjusted x2 is [14, 18]: mean 16, variance 8, the same test as on the values.
    adjusted = compare_summaries(a, b, adjust_b=2.0)
    assert adjusted.welch.t == pytest.approx(welch_t_test([10, 12], [14, 18]).t)
    assert adjusted.welch.df == pytest.approx(welch_t_test([10, 12], [14, 18]).df)
    assert replicates_summed(n=1, mean=7, variance=None).variance is None
    with pytest.raises(ValueError, match="at least two runs on each side, got 1 and 2"):
        welch_of(replicates_summed(n=1, mean=7, variance=None), b)


def test_welch_on_a_hand_computed_example():
    # By hand: means 11 and 8, variances 2 and 2; se^2 = 2/2 + 2/2 = 2; t = 3 / sqrt(2);
    # df = 2^2 / (1^2/1 + 1^2/1) = 2. With 2 degrees of freedom P(T <= t) = 1/2 + t / (2 sqrt(2 + t^2)),
    # so the two-sided p = 1 - t / sqrt(2 + t^2) = 1 - sqrt(4.5 / 6.5) = 1 - 3 / sqrt(13) = 0.16795.
    result = welch_t_test([10, 12], [7, 9])
    assert result.t == pytest.approx(3 / math.sqrt(2))
    assert result.df == pytest.approx(2)
    assert result.p_value == pytest.approx(1 - 3 / math.sqrt(13), abs=1e-12)
    # 95 % interval: 3 +/- t(0.975, 2) x sqrt(2), with t(0.975, 2) = 4.303 from any t table.
    assert result.diff_low == pytest.approx(3 - 4.303 * math.sqrt(2), abs=1e-3)
    assert result.diff_high == pytest.approx(3 + 4.303 * math.sqrt(2), abs=1e-3)


def test_welch_on_the_textbook_sleep_data():
    # Student's sleep data (Cushny and Peebles, 1905; R's datasets::sleep). R's t.test(extra ~ group)
    # prints t = -1.8608, df = 17.776, p-value = 0.07939, 95 % CI -3.3654832 to 0.2054832.
    group_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    group_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    result = welch_t_test(group_1, group_2)
    assert round(result.t, 4) == -1.8608
    assert round(result.df, 3) == 17.776
    assert round(result.p_value, 5) == 0.07939
    assert (round(result.diff_low, 7), round(result.diff_high, 7)) == (-3.3654832, 0.2054832)


def test_welch_without_any_spread_is_certain():
    assert welch_t_test([5, 5], [3, 3]).p_value == 0.0
    assert welch_t_test([5, 5], [5, 5]).p_value == 1.0


def test_welch_needs_two_runs_a_side():
    with pytest.raises(ValueError, match="at least two runs on each side, got 1 and 2"):
        welch_t_test([1], [1, 2])


def test_compare_replicates_gives_the_improvement_and_its_confidence():
    result = compare_replicates([10, 12], [7, 9])
    # By hand: (11 - 8) / 8 = 37.5 %; the test is the one computed above.
    assert result.pct == pytest.approx(37.5)
    assert result.welch.p_value == pytest.approx(1 - 3 / math.sqrt(13))
    assert (result.a.n, result.b.n) == (2, 2)


def test_compare_replicates_tests_against_adjusted_b():
    result = compare_replicates([10, 12], [7, 9], adjust_b=2.0)
    # B becomes [14, 18]: difference -5, se^2 = 2/2 + 8/2 = 5.
    assert result.pct == pytest.approx((11 - 16) / 16 * 100)
    assert result.welch.t == pytest.approx(-5 / math.sqrt(5))


def test_compare_replicates_with_one_run_says_why_there_is_no_confidence():
    result = compare_replicates([30_020], [26_640, 26_700])
    assert result.welch is None
    assert result.reason == "no confidence: 1 run(s) of A and 2 of B; Welch's test needs two of each"
    assert result.pct == pytest.approx(improvement_pct(30_020, 26_670))
