"""The change-point detector and the firmware version order, without a database."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from portal.analysis.changepoints import changes, newest_complete, series_noise, student_t_p
from portal.analysis.versions import version_key


def test_versions_are_ordered_as_vendors_number_them():
    versions = ["8.10.0", "07.15.07.00", "8.3.2", "07.10.25.00", "8.3.beta"]
    assert sorted(versions, key=version_key) == ["07.10.25.00", "07.15.07.00", "8.3.beta", "8.3.2", "8.10.0"]


def test_student_t_p_matches_the_textbook_example():
    # Welch (1947)-style check by hand: means 10 and 12, both sample variances 1, n = m = 5:
    # t = 2 / sqrt(1 * (1/5 + 1/5)) = 3.1623 with 8 df, two-sided p = 0.01335 (R: 2 * pt(-sqrt(10), 8)).
    before, after = [9, 9.5, 10, 10.5, 11], [11, 11.5, 12, 12.5, 13]
    scale = (1 / (sum((x - 10) ** 2 for x in before) / 4)) ** 0.5
    before = [10 + (x - 10) * scale for x in before]
    after = [12 + (y - 12) * scale for y in after]
    assert abs(student_t_p(before, after) - 0.01335) < 5e-5


def _history(seed, means, replicates=3, noise=0.01):
    rnd = random.Random(seed)
    return [[mean * (1 + rnd.gauss(0, noise)) for _ in range(replicates)] for mean in means]


def test_a_step_in_the_middle_is_found_at_its_version_with_its_size():
    history = _history(1, [1000] * 10 + [940] * 10)
    (change,) = changes(history)
    assert change.index == 10 and not change.tentative
    assert round(change.change_pct) == -6
    assert change.p_value < 0.001


def test_the_newest_version_alone_is_a_tentative_change():
    history = [[1000, 1010, 990], [1000, 995, 1005], [800, 805, 795]]
    (change,) = changes(history)
    assert (change.index, change.tentative, round(change.change_pct)) == (2, True, -20)


def test_a_step_after_two_versions_stays_at_its_version_once_the_next_one_is_stored():
    history = [[1000, 1010, 990], [1000, 995, 1005], [800, 805, 795], [801, 799, 800]]
    (change,) = changes(history)
    assert (change.index, change.kind, change.versions_after, round(change.change_pct)) == (2, "step", 2, -20)
    assert change.tentative
    (change,) = changes([*history, [802, 798, 800]])
    assert (change.index, change.tentative) == (2, False)


def test_a_10_percent_step_after_two_versions_is_found_at_its_version_when_it_is_stored_and_confirmed_later():
    before, after = [990.0, 1000.0, 1010.0], [891.0, 900.0, 909.0]  # runs 1 % apart, -10 % from the third
    for versions_after, tentative in ((1, True), (2, True), (3, False), (5, False)):
        (change,) = changes([before, before] + [after] * versions_after)
        assert (change.kind, change.index, round(change.change_pct, 1)) == ("step", 2, -10.0)
        assert (change.versions_after, change.tentative) == (versions_after, tentative)


def test_two_runs_a_version_a_step_after_two_versions_is_found_once_the_next_version_is_stored():
    # Runs 40 IOPS apart (standard deviation 28.28), -12 % from the third version. On the runs' own 4 degrees
    # of freedom: t = 120 / (28.28 x sqrt(1/4 + 1/4)) = 6.0, p = 0.0039 (0.0078 for the two places a step could
    # start). The versions' means agree within each side: pooled in, the variance is 4/6 of the runs' and the
    # degrees of freedom 6, t = 7.35, p = 0.00032 (0.00065).
    history = [[980.0, 1020.0], [1020.0, 980.0], [860.0, 900.0], [900.0, 860.0]]
    (change,) = changes(history)
    assert (change.kind, change.index, round(change.change_pct), change.tentative) == ("step", 2, -12, True)
    assert 0.0006 < change.p_value < 0.0007


def test_a_small_step_after_two_versions_is_found_once_the_next_version_is_stored_at_five_times_the_p_value():
    # Runs 10 IOPS apart (standard deviation 10, 8 degrees of freedom), then -25 IOPS from the third version;
    # the versions' means agree within each side, so pooled in: variance 8/10 of the runs', 10 degrees of
    # freedom. t = 25 / sqrt(80 x (1/6 + 1/6)) = 4.841, two-sided p = 0.000680 (by numerical integration of
    # Student's density), 0.00136 for the two places a step could start: over 0.001, under 5 x 0.001 for a
    # step with two versions before it.
    before = [990.0, 1000.0, 1010.0]
    after = [value - 25 for value in before]
    (change,) = changes([before, before, after, after])
    assert (change.kind, change.index, change.before_mean, change.after_mean) == ("step", 2, 1000.0, 975.0)
    assert round(change.p_value, 5) == 0.00136
    # One more version: t = 25 / sqrt(100 x 10/13 x (1/6 + 1/9)) = 5.41 on 13 degrees of freedom, p x 3 places
    # = 0.00036, under 0.001 itself.
    (change,) = changes([before, before, after, after, after])
    assert (change.index, round(change.p_value, 5)) == (2, 0.00036)
    # -20 IOPS: t = 3.873, p = 0.00309, 0.0062 for two places: over 5 x 0.001, nothing.
    smaller = [value - 20 for value in before]
    assert changes([before, before, smaller, smaller]) == []


def test_one_slow_run_in_the_newest_version_is_not_a_step_but_three_lower_runs_are():
    base = [[970.0, 1000.0, 1030.0]] * 9  # standard deviation 30 in every version
    # 935, 955 and 820 (a mean of 903.3, -9.7 %): pooled noise sqrt((18 x 900 + 2 x 5308.3) / 20) = 36.62, so
    # t = 96.67 / 36.62 / sqrt(20/28 x (1/27 + 1/3)) = 5.13 on 28 degrees of freedom, p x 8 places = 0.00015
    # by itself; at its median (935, the runs moved by +31.7, their spread kept), t = 65 / 36.62 / 0.5143 =
    # 3.45, p x 8 = 0.014 (numerical integration of Student's density). One slow run: nothing.
    assert changes([*base, [935.0, 955.0, 820.0]]) == []
    # 850, 880 and 910 (-12 %, the median the mean): t = 120 / 30 / sqrt(20/28 x (1/27 + 1/3)) = 7.78, p x 8 =
    # 1.44e-7: a tentative step at the newest version.
    (change,) = changes([*base, [850.0, 880.0, 910.0]])
    assert (change.kind, change.index, change.after_mean, change.tentative) == ("step", 9, 880.0, True)
    assert round(change.p_value, 9) == 1.44e-7


def test_a_drift_of_0_2_percent_a_version_over_12_versions_is_one_drift_with_its_range():
    # Runs 0.1 % apart around 1,000 IOPS less 0.2 % a version: each version a little below the last, never a
    # staircase of small steps.
    history = [[1000 * (1 - 0.002 * v) * f for f in (0.999, 1.0, 1.001)] for v in range(12)]
    (drift,) = changes(history)
    assert (drift.kind, drift.index, drift.end_index) == ("drift", 0, 11)
    assert round(drift.slope_pct, 2) == -0.2
    assert round(drift.before_mean) == 1000 and round(drift.after_mean) == 978
    # From 6 versions on (DRIFT_MIN_VERSIONS), as the history grows, it is the same drift over all its versions.
    for end in range(6, 12):
        assert [(c.kind, c.index, c.end_index) for c in changes(history[:end])] == [("drift", 0, end - 1)]


def test_a_newest_version_whose_runs_happen_to_agree_is_judged_by_the_noise_of_the_whole_history():
    # Nine versions with 3 % noise, then one at +2.5 % whose three runs lie close: Welch's test on its own
    # runs gave p = 0.00031; against the pooled noise (30 IOPS) it is 1.4 standard errors.
    assert changes([[970.0, 1000.0, 1030.0]] * 9 + [[1020.0, 1025.0, 1030.0]]) == []
    noise = series_noise([[970.0, 1000.0, 1030.0]] * 9 + [[1020.0, 1025.0, 1030.0]])
    assert noise is not None and 28 < noise.sd < 30


def test_one_slow_run_neither_hides_the_noise_nor_raises_a_change():
    history = [[970.0, 1000.0, 1030.0]] * 9 + [[1000.0, 1030.0, 700.0]]
    assert changes(history) == []
    # Left out of the pooled noise: the sample standard deviation of 970, 1000, 1030 is 30.
    noise = series_noise(history)
    assert noise is not None and round(noise.sd) == 30


def test_a_slow_drift_is_a_trend_over_its_versions_not_a_step():
    # -0.5 % a version over 20 versions, 3 runs each with +-0.5 % around the trend.
    history = [[1000 * (1 - 0.005 * v) * f for f in (0.995, 1.0, 1.005)] for v in range(20)]
    (drift,) = changes(history)
    assert (drift.kind, drift.index, drift.end_index) == ("drift", 0, 19)
    assert round(drift.slope_pct, 2) == -0.5  # -5 IOPS a version, 0.5 % of the 1,000 at its first version
    assert round(drift.before_mean) == 1000 and round(drift.after_mean) == 905


def test_a_step_in_a_flat_history_is_not_taken_for_a_drift():
    history = _history(3, [1000] * 10 + [950] * 10, noise=0.01)
    assert [(c.kind, c.index) for c in changes(history)] == [("step", 10)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), versions=st.integers(1, 40), level=st.floats(1, 1e6))
def test_a_flat_history_without_noise_raises_nothing(seed, versions, level):
    assert changes([[level] * 3 for _ in range(versions)]) == []


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), at=st.integers(3, 17), step=st.floats(0.15, 0.5), scale=st.floats(1, 1e5))
def test_a_large_step_is_found_exactly_where_it_starts_whatever_the_scale(seed, at, step, scale):
    history = _history(seed, [scale] * at + [scale * (1 - step)] * (20 - at))
    confirmed = [change for change in changes(history) if not change.tentative]
    assert at in [change.index for change in confirmed]
    # With 1 % noise a real shift of a few tenths of a percent between later versions can be
    # significant too (seed 65, at 3: 0.9 % at version 11, p = 0.0009); none is near the step's size.
    assert all(abs(change.change_pct) < 3 for change in confirmed if change.index != at)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_detection_is_deterministic(seed):
    history = _history(seed, [1000] * 12 + [950] * 12, noise=0.03)
    assert changes(history) == changes([list(values) for values in history])


# The series and results of the published implementation's own tests: DataStax Hunter (now Apache Otava),
# repository datastax-labs/hunter, tests/analysis_test.py (test_single_series, test_significance_tester).
HUNTER_SERIES = [1.02, 0.95, 0.99, 1.00, 1.12, 1.00, 1.01, 0.98, 1.01, 0.96,
                 0.50, 0.51, 0.48, 0.48, 0.55, 0.50, 0.49, 0.51, 0.50, 0.49]  # fmt: skip


def test_the_published_implementations_series_gives_its_change_point():
    # Hunter: compute_change_points(series, window_len=10, max_pvalue=0.0001) gives the indexes [10].
    found = changes([[value] for value in HUNTER_SERIES], p_value=0.0001)
    assert [change.index for change in found] == [10]
    assert round(found[0].before_mean, 3) == 1.004 and round(found[0].after_mean, 3) == 0.501


def test_the_published_implementations_significance_checks():
    # Hunter's TTestSignificanceTester(0.001) at index 5: p-value about 1 for the first series (no change),
    # under 0.001 for the second.
    same = [1.00, 1.02, 1.05, 0.95, 0.98, 1.00, 1.02, 1.05, 0.95, 0.98]
    assert 0.99 < student_t_p(same[:5], same[5:]) < 1.01
    step = [1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77]
    assert 0.0 < student_t_p(step[:5], step[5:]) < 0.001


def test_the_newest_version_is_judged_once_it_holds_as_many_runs_as_most_versions_before_it():
    assert not newest_complete([[1000, 1010, 990], [1000, 995, 1005], [800]])
    assert not newest_complete([[1000, 1010, 990], [1000, 995, 1005], [800, 808]])
    assert newest_complete([[1000, 1010, 990], [1000, 995, 1005], [800, 808, 792]])
    # One version of two runs among versions of three: the newest with two is not complete.
    assert not newest_complete([[1000, 1010, 990], [1000, 995], [1000, 995, 1005], [800, 808]])
    assert newest_complete([[1000], [1000, 995], [800, 808]])
