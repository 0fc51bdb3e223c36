"""Student's t distribution, from the regularized incomplete beta function.

Written out here so the analysis needs nothing beyond the standard library. The continued
fraction is the modified Lentz evaluation of Numerical Recipes (Press et al., section 6.4).
"""

import math

_TINY = 1e-300
_EPSILON = 1e-15
_MAX_TERMS = 500


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1 and a, b > 0."""
    if a <= 0 or b <= 0:
        raise ValueError(f"the beta function needs a > 0 and b > 0, got a={a}, b={b}")
    if not 0 <= x <= 1:
        raise ValueError(f"the incomplete beta function needs 0 <= x <= 1, got {x}")
    if x in (0, 1):
        return float(x)
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    # The continued fraction converges fast only below this point; use the symmetry above it.
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_continued_fraction(x, a, b) / a
    return 1 - math.exp(log_front) * _beta_continued_fraction(1 - x, b, a) / b


def _beta_continued_fraction(x: float, a: float, b: float) -> float:
    c = 1.0
    d = _not_tiny(1 - (a + b) * x / (a + 1))
    d = 1 / d
    fraction = d
    for m in range(1, _MAX_TERMS):
        even = m * (b - m) * x / ((a - 1 + 2 * m) * (a + 2 * m))
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1 + 2 * m))
        for coefficient in (even, odd):
            d = 1 / _not_tiny(1 + coefficient * d)
            c = _not_tiny(1 + coefficient / c)
            step = d * c
            fraction *= step
        if abs(step - 1) < _EPSILON:
            return fraction
    raise ArithmeticError(f"the incomplete beta fraction did not converge for x={x}, a={a}, b={b}")


def _not_tiny(number: float) -> float:
    return _TINY if abs(number) < _TINY else number


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom (``df`` may be fractional, as in Welch's test)."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * regularized_beta(df / (df + t * t), df / 2, 0.5)
    return 1 - tail if t > 0 else tail


def student_t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|), the two-sided p-value of a t statistic."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(t):
        return 0.0
    return regularized_beta(df / (df + t * t), df / 2, 0.5)


def student_t_quantile(probability: float, df: float) -> float:
    """The t with P(T <= t) = ``probability``, found by bisection on the distribution function."""
    if not 0 < probability < 1:
        raise ValueError(f"the probability must be between 0 and 1, got {probability}")
    if probability == 0.5:
        return 0.0
    if probability < 0.5:
        return -student_t_quantile(1 - probability, df)
    low, high = 0.0, 1.0
    while student_t_cdf(high, df) < probability:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if student_t_cdf(middle, df) < probability:
            low = middle
        else:
            high = middle
        if high - low <= 1e-12 * max(1.0, high):
            break
    return (low + high) / 2
