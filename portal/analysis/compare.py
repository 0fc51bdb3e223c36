"""How much better system A is than system B, as the white papers say it, and with a confidence.

The improvement of A over B at the same workload and configuration is
``(A - B x k) / (B x k) x 100`` where ``k`` adjusts B (the DS4400 paper boosts the older array by
5 %, ``k = 1.05``, to compensate for its slower drives). Over several matched configurations the
papers quote a range ("5 % to 30 % depending on the number of drives"); the configurations that
had no counterpart are named, not dropped. Where runs were repeated, the means are compared and
Welch's t-test says how likely a difference that large is by chance.
"""

import math
import statistics
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from portal.analysis.digits import rounded_half_up
from portal.analysis.stats import student_t_quantile, student_t_two_sided_p


def improvement_pct(a: float, b: float, *, adjust_b: float = 1.0) -> float:
    """Percentage by which ``a`` exceeds ``b x adjust_b`` (negative when A is worse)."""
    if adjust_b <= 0:
        raise ValueError(f"the adjustment factor for B must be positive, got {adjust_b}")
    reference = b * adjust_b
    if reference <= 0:
        raise ValueError(f"B's throughput must be positive to compare against it, got {b}")
    return (a - reference) / reference * 100


@dataclass(frozen=True)
class Improvement:
    """One matched configuration: A's and B's figures and the improvement of A over adjusted B."""

    key: Hashable
    a: float
    b: float
    adjust_b: float
    pct: float

    @property
    def b_adjusted(self) -> float:
        return self.b * self.adjust_b


@dataclass(frozen=True)
class ImprovementRange:
    """Improvements over the matched configurations, in A's order, and the keys only one side has.

    ``low_pct`` and ``high_pct`` are ``None`` when nothing matched.
    """

    matched: tuple[Improvement, ...]
    only_a: tuple[Hashable, ...]
    only_b: tuple[Hashable, ...]

    @property
    def low_pct(self) -> float | None:
        return min((m.pct for m in self.matched), default=None)

    @property
    def high_pct(self) -> float | None:
        return max((m.pct for m in self.matched), default=None)

    def text(self, *, decimals: int = 0) -> str:
        """The range as the papers quote it ("5 % to 30 %", or "13 %" when both ends print alike);
        an empty string when nothing matched."""
        if not self.matched:
            return ""
        low, high = f"{self.low_pct:.{decimals}f}", f"{self.high_pct:.{decimals}f}"
        return f"{low} %" if low == high else f"{low} % to {high} %"


def improvement_range(
    a: Mapping[Hashable, float | None], b: Mapping[Hashable, float | None], *, adjust_b: float = 1.0
) -> ImprovementRange:
    """Match A's and B's figures by key (a configuration: drive count, cache setting, ...).

    A key whose figure is ``None`` (no measurement, "N/A") counts as missing on that side; ``only_a``
    and ``only_b`` list the keys with a figure on one side only.
    """
    a_known = {key: value for key, value in a.items() if value is not None}
    b_known = {key: value for key, value in b.items() if value is not None}
    matched = tuple(
        Improvement(
            key=key,
            a=value,
            b=b_known[key],
            adjust_b=adjust_b,
            pct=improvement_pct(value, b_known[key], adjust_b=adjust_b),
        )
        for key, value in a_known.items()
        if key in b_known
    )
    return ImprovementRange(
        matched=matched,
        only_a=tuple(key for key in a_known if key not in b_known),
        only_b=tuple(key for key in b_known if key not in a_known),
    )


def improvement_size(pct: float) -> str:
    """The size of an improvement as every table and sentence prints it: one decimal, rounded half up,
    without its sign ("12.7", "1,234.5")."""
    return f"{rounded_half_up(abs(pct), 1):,.1f}"


def summary_sentence(
    a_name: str, b_name: str, subject: str, improvements: ImprovementRange, *, varying: str = "the number of drives"
) -> str:
    """The papers' summary, e.g. "IBM DS4500 performs 5.0 % to 30.0 % better than IBM DS4400 for RAID-5
    OLTP 8K depending on the number of drives"; percentages as the tables print them (one decimal), "worse"
    when A is behind."""
    low_pct, high_pct = improvements.low_pct, improvements.high_pct
    if low_pct is None or high_pct is None:
        return f"{a_name} and {b_name} have no matching configuration for {subject}"
    low, high = rounded_half_up(low_pct, 1), rounded_half_up(high_pct, 1)
    if low >= 0:
        how = _pct_span(low_pct, high_pct) + " better than"
    elif high <= 0:
        how = _pct_span(high_pct, low_pct) + " worse than"
    else:
        how = f"between {improvement_size(low_pct)} % worse and {improvement_size(high_pct)} % better than"
    tail = f" depending on {varying}" if len(improvements.matched) > 1 else ""
    return f"{a_name} performs {how} {b_name} for {subject}{tail}"


def _pct_span(low_pct: float, high_pct: float) -> str:
    low, high = improvement_size(low_pct), improvement_size(high_pct)
    return f"{low} %" if low == high else f"{low} % to {high} %"


def _variance(values: Sequence[float]) -> float:
    """The sample variance in two passes over exactly rounded sums (``math.fsum``): as accurate as
    ``statistics.variance`` for measured figures, without its exact rational arithmetic, which takes
    milliseconds for a thousand replicates."""
    mean = math.fsum(values) / len(values)
    return math.fsum((value - mean) ** 2 for value in values) / (len(values) - 1)


@dataclass(frozen=True)
class Replicates:
    """Repeated runs of one configuration and workload: count, mean, sample standard deviation and
    variance (``None`` for a single run). The variance is kept as computed: Welch's test does not
    square a rounded standard deviation."""

    n: int
    mean: float
    sd: float | None
    variance: float | None = None

    def scaled(self, factor: float) -> "Replicates":
        """The same runs with every figure multiplied by ``factor`` (B adjusted for its drive count)."""
        if factor == 1:
            return self
        variance = None if self.variance is None else self.variance * factor * factor
        return replicates_summed(n=self.n, mean=self.mean * factor, variance=variance)


def replicates(values: Sequence[float]) -> Replicates:
    if not values:
        raise ValueError("replicates need at least one value")
    variance = _variance(values) if len(values) > 1 else None
    return replicates_summed(n=len(values), mean=statistics.fmean(values), variance=variance)


def replicates_summed(*, n: int, mean: float, variance: float | None) -> Replicates:
    """Replicates from their count, mean and sample variance (``None`` for one run), as a database sums
    them up."""
    if n < 1:
        raise ValueError("replicates need at least one value")
    variance = variance if n > 1 else None
    return Replicates(n=n, mean=mean, sd=None if variance is None else math.sqrt(variance), variance=variance)


def replicates_together(parts: Sequence[Replicates]) -> Replicates:
    """Replicates of several groups as one: the mean and variance of all their runs (each group's
    sum of squared deviations, and its mean's from the whole, added exactly). Groups of one run
    each give what :func:`replicates` gives for their values."""
    n = sum(part.n for part in parts)
    mean = math.fsum(part.n * part.mean for part in parts) / n
    if n < 2:
        return replicates_summed(n=n, mean=mean, variance=None)
    squares = math.fsum((part.variance or 0.0) * (part.n - 1) + part.n * (part.mean - mean) ** 2 for part in parts)
    return replicates_summed(n=n, mean=mean, variance=squares / (n - 1))


@dataclass(frozen=True)
class WelchTest:
    """Welch's unequal-variance t-test of mean(A) - mean(B).

    ``p_value`` is two-sided; ``diff_low`` / ``diff_high`` bound the difference of the means at
    ``confidence_pct``.
    """

    t: float
    df: float
    p_value: float
    diff: float
    diff_low: float
    diff_high: float
    confidence_pct: float


def welch_t_test(a: Sequence[float], b: Sequence[float], *, confidence_pct: float = 95.0) -> WelchTest:
    """Welch's t-test; both samples need at least two values.

    When neither sample varies, the difference is certain: p is 0 (or 1 when the means are
    equal) and the interval is the difference itself.
    """
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"Welch's t-test needs at least two runs on each side, got {len(a)} and {len(b)}")
    return welch_of(replicates(a), replicates(b), confidence_pct=confidence_pct)


def welch_of(a: Replicates, b: Replicates, *, confidence_pct: float = 95.0) -> WelchTest:
    """Welch's t-test from each side's count, mean and variance (:func:`welch_t_test` of the values)."""
    if a.variance is None or b.variance is None:
        raise ValueError(f"Welch's t-test needs at least two runs on each side, got {a.n} and {b.n}")
    if not 0 < confidence_pct < 100:
        raise ValueError(f"the confidence must be between 0 and 100 %, got {confidence_pct}")
    share_a = a.variance / a.n
    share_b = b.variance / b.n
    diff = a.mean - b.mean
    standard_error = math.sqrt(share_a + share_b)
    if standard_error == 0:
        return WelchTest(
            t=math.copysign(math.inf, diff) if diff else 0.0,
            df=a.n + b.n - 2,
            p_value=0.0 if diff else 1.0,
            diff=diff,
            diff_low=diff,
            diff_high=diff,
            confidence_pct=confidence_pct,
        )
    df = (share_a + share_b) ** 2 / (share_a**2 / (a.n - 1) + share_b**2 / (b.n - 1))
    t = diff / standard_error
    margin = student_t_quantile(0.5 + confidence_pct / 200, df) * standard_error
    return WelchTest(
        t=t,
        df=df,
        p_value=student_t_two_sided_p(t, df),
        diff=diff,
        diff_low=diff - margin,
        diff_high=diff + margin,
        confidence_pct=confidence_pct,
    )


@dataclass(frozen=True)
class ReplicateComparison:
    """A against B where runs were repeated: the improvement of the means, and Welch's test on
    A against adjusted B (``None`` with ``reason`` when a side has fewer than two runs)."""

    a: Replicates
    b: Replicates
    adjust_b: float
    pct: float
    welch: WelchTest | None
    reason: str


def compare_replicates(
    a: Sequence[float], b: Sequence[float], *, adjust_b: float = 1.0, confidence_pct: float = 95.0
) -> ReplicateComparison:
    return compare_summaries(replicates(a), replicates(b), adjust_b=adjust_b, confidence_pct=confidence_pct)


def compare_summaries(
    a: Replicates, b: Replicates, *, adjust_b: float = 1.0, confidence_pct: float = 95.0
) -> ReplicateComparison:
    """:func:`compare_replicates` from each side's count, mean and variance."""
    pct = improvement_pct(a.mean, b.mean, adjust_b=adjust_b)
    if a.n < 2 or b.n < 2:
        reason = f"no confidence: {a.n} run(s) of A and {b.n} of B; Welch's test needs two of each"
        return ReplicateComparison(a, b, adjust_b, pct, welch=None, reason=reason)
    welch = welch_of(a, b.scaled(adjust_b), confidence_pct=confidence_pct)
    return ReplicateComparison(a, b, adjust_b, pct, welch=welch, reason="")
