"""Student's t distribution against closed forms and printed tables."""

import math

import pytest

from portal.analysis.stats import regularized_beta, student_t_cdf, student_t_quantile, student_t_two_sided_p


@pytest.mark.parametrize("t", [-12.0, -1.5, -0.3, 0.0, 0.7, 2.0, 40.0])
def test_one_degree_of_freedom_is_the_cauchy_distribution(t):
    assert student_t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-13)


@pytest.mark.parametrize("t", [-5.0, -1.0, 0.5, 3.0])
def test_two_degrees_of_freedom_closed_form(t):
    assert student_t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-13)


@pytest.mark.parametrize(
    ("df", "t_975"),
    # Two-sided 5 % critical values as printed in every t table.
    [(1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)],
)
def test_quantiles_match_the_printed_t_table(df, t_975):
    assert round(student_t_quantile(0.975, df), 3) == t_975
    assert student_t_quantile(0.025, df) == pytest.approx(-student_t_quantile(0.975, df))
    assert student_t_two_sided_p(t_975, df) == pytest.approx(0.05, abs=2e-4)


def test_many_degrees_of_freedom_approach_the_normal_distribution():
    assert round(student_t_quantile(0.975, 1e7), 3) == 1.960


def test_incomplete_beta_special_cases():
    assert regularized_beta(0.3, 1, 1) == pytest.approx(0.3)
    assert regularized_beta(0.3, 2.5, 1) == pytest.approx(0.3**2.5)
    assert (regularized_beta(0, 2, 3), regularized_beta(1, 2, 3)) == (0.0, 1.0)


def test_infinite_t_and_bad_arguments():
    assert (student_t_cdf(math.inf, 3), student_t_cdf(-math.inf, 3), student_t_two_sided_p(math.inf, 3)) == (1, 0, 0)
    with pytest.raises(ValueError, match="degrees of freedom must be positive"):
        student_t_cdf(1.0, 0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        student_t_quantile(1.0, 3)
    with pytest.raises(ValueError, match="0 <= x <= 1"):
        regularized_beta(1.5, 1, 1)
