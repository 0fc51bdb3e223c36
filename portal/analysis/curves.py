"""Response-time curves and the throughput a run delivers at a response-time threshold.

A curve is a run's points in load order (outstanding I/Os or threads; points of equal load in increasing
response time, then throughput, see ``curve``). Throughput is whatever
figure the caller chose (IOPS or MB/s); response times are average response times in ms.

Two rules read a throughput at a threshold:

- ``interpolate`` (IBM's papers, 20 ms): read off the curve's upper envelope, the points no other
  point beats with more throughput at a response time as low: the best point at or under the
  threshold, interpolated linearly towards the first envelope point over it (the next point over the
  threshold with more throughput). On a curve whose throughput and response time rise together that
  is the papers' interpolation between the last point under the threshold and the first over it; on a
  grid (fio iodepth x numjobs) or a curve whose response times fall as the load rises, the figure is
  never below a measured point that meets the threshold.
- ``at_or_below`` (HP's papers, 30 ms): the best measured point whose response time does not
  exceed the threshold.

The awkward cases are reported, never hidden: every point under the threshold, every point
already over it, response times that fall while the load rises, and a single published figure.

A published figure is a number a paper stated at its threshold and is used as is. A single measured
point is a measurement at its own response time and follows the rules above like any curve: at or
under the threshold it is a lower bound ("at least 219 IOPS at 20 ms; measured at 4.1 ms"), over it
there is no value ("its only point is at 292 ms, over 20 ms").
"""

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from portal.analysis.digits import significant


class Rule(StrEnum):
    INTERPOLATE = "interpolate"
    AT_OR_BELOW = "at_or_below"


class Status(StrEnum):
    INTERPOLATED = "interpolated"  # between a point at or under and the first point over
    MEASURED = "measured"  # a measured point answers the question directly
    NOT_REACHED = "not_reached"  # no point reached the threshold: the best point is reported
    FIRST_POINT_OVER = "first_point_over"  # already over the threshold at the lowest load
    SINGLE_POINT = "single_point"  # a figure a paper published at its threshold, used as is
    NO_DATA = "no_data"  # no point with a response time

    @property
    def words(self) -> str:
        """How the figure was read, as a page or a table says it."""
        return STATUS_WORDS[self]


STATUS_WORDS = {
    Status.INTERPOLATED: "interpolated",
    Status.MEASURED: "measured point",
    Status.NOT_REACHED: "threshold not reached: the best point, a lower bound",
    Status.FIRST_POINT_OVER: "over the threshold already at the lowest load",
    Status.SINGLE_POINT: "published figure",
    Status.NO_DATA: "no response times",
}


@dataclass(frozen=True)
class CurvePoint:
    """One load level: ``load`` (outstanding I/Os or threads, ``None`` when unknown),
    ``throughput`` (IOPS or MB/s), ``response_ms`` (average response time, ``None`` when unknown)."""

    load: float | None
    throughput: float
    response_ms: float | None

    def __post_init__(self) -> None:
        if not _is_non_negative(self.throughput):
            raise ValueError(f"throughput must be a non-negative number, got {self.throughput!r}")
        if self.response_ms is not None and not _is_non_negative(self.response_ms):
            raise ValueError(f"response time must be a non-negative number of ms, got {self.response_ms!r}")


@dataclass(frozen=True)
class Curve:
    """A run's points in load order, with the series a chart plots."""

    points: tuple[CurvePoint, ...]

    @property
    def loads(self) -> tuple[float | None, ...]:
        return tuple(p.load for p in self.points)

    @property
    def throughputs(self) -> tuple[float, ...]:
        return tuple(p.throughput for p in self.points)

    @property
    def response_ms(self) -> tuple[float | None, ...]:
        return tuple(p.response_ms for p in self.points)


@dataclass(frozen=True)
class ThroughputAtThreshold:
    """The answer to "how much throughput at ``threshold_ms``?".

    ``value`` is ``None`` only when there is no answer (``FIRST_POINT_OVER``, ``NO_DATA``).
    ``reached`` says whether some point's response time reached the threshold; when it is
    ``False`` the value is the best measured point, a lower bound. ``below`` and ``above`` are the
    points the value comes from (``above``: the point over the threshold it is interpolated towards).
    ``load`` is the load at the threshold, interpolated like the value when loads are known.
    """

    value: float | None
    reached: bool
    status: Status
    rule: Rule
    threshold_ms: float
    below: CurvePoint | None
    above: CurvePoint | None
    load: float | None
    warnings: tuple[str, ...]
    # The points with a response time the rule weighed (one: a single measured point or published figure).
    point_count: int = 0
    # The warning that says why the figure is a lower bound or missing ('' for an answer at the threshold).
    reason: str = ""


def curve(points: Iterable[CurvePoint]) -> Curve:
    """The points in increasing load order, points of equal load in increasing response time (one without
    last), then increasing throughput: no figure depends on the order points of equal load were given in.
    The given order is kept when any load is unknown."""
    points = tuple(points)
    if all(p.load is not None for p in points):
        points = tuple(sorted(points, key=_curve_order))
    return Curve(points)


def _curve_order(point: CurvePoint) -> tuple[float, bool, float, float]:
    response = point.response_ms
    return (cast(float, point.load), response is None, response or 0.0, point.throughput)


def throughput_at(
    points: Iterable[CurvePoint],
    *,
    threshold_ms: float = 20.0,
    rule: Rule | str = Rule.INTERPOLATE,
    published: bool = False,
) -> ThroughputAtThreshold:
    """Throughput at an average response time of ``threshold_ms`` under ``rule`` (see the module doc).

    ``published``: the points are figures a paper stated at its threshold, so a single one is used as
    is; a single measured point is read by the rules like any curve."""
    if not _is_non_negative(threshold_ms) or threshold_ms == 0:
        raise ValueError(f"the threshold must be a positive number of milliseconds, got {threshold_ms!r}")
    rule = _rule(rule)
    ordered = curve(points).points
    answer = _Answer(rule, threshold_ms)
    answer.point_count = len(ordered)
    if published and len(ordered) == 1:
        return _single_point(answer, ordered[0])
    usable = tuple(p for p in ordered if p.response_ms is not None)
    if len(usable) < len(ordered):
        answer.warn(f"{len(ordered) - len(usable)} point(s) without a response time were left out")
    answer.point_count = len(usable)
    if not usable:
        return answer.result(Status.NO_DATA, value=None, reached=False)
    _warn_if_not_monotonic(answer, usable)
    if rule is Rule.INTERPOLATE:
        return _interpolate(answer, usable)
    return _at_or_below(answer, usable)


class _Answer:
    """Collects warnings while one threshold question is answered."""

    def __init__(self, rule: Rule, threshold_ms: float):
        self.rule = rule
        self.threshold_ms = threshold_ms
        self.warnings: list[str] = []
        self.reason = ""
        self.point_count = 0

    def warn(self, message: str, *, reason: bool = False) -> None:
        """Note ``message``; ``reason``: it is why the figure has the status it has (a page stating the
        status in its own words need not repeat it)."""
        self.warnings.append(message)
        if reason:
            self.reason = message

    def result(
        self,
        status: Status,
        *,
        value: float | None,
        reached: bool,
        below: CurvePoint | None = None,
        above: CurvePoint | None = None,
        load: float | None = None,
    ) -> ThroughputAtThreshold:
        return ThroughputAtThreshold(
            value=value,
            reached=reached,
            status=status,
            rule=self.rule,
            threshold_ms=self.threshold_ms,
            below=below,
            above=above,
            load=load,
            warnings=tuple(self.warnings),
            point_count=self.point_count,
            reason=self.reason,
        )


def _single_point(answer: _Answer, point: CurvePoint) -> ThroughputAtThreshold:
    # A published figure was already read at the paper's threshold; say so when ours differs.
    if point.response_ms is not None and point.response_ms != answer.threshold_ms:
        answer.warn(
            f"a single point at {_ms(point.response_ms)} ms is used as is for the "
            f"{_threshold(answer.threshold_ms)} ms threshold"
        )
    return answer.result(Status.SINGLE_POINT, value=point.throughput, reached=True, below=point, load=point.load)


def _interpolate(answer: _Answer, points: Sequence[CurvePoint]) -> ThroughputAtThreshold:
    threshold_ms = answer.threshold_ms
    under = [p for p in points if _response_ms(p) <= threshold_ms]
    if not under:
        answer.warn(_first_point_over_message(points[0], threshold_ms, only=len(points) == 1), reason=True)
        return answer.result(Status.FIRST_POINT_OVER, value=None, reached=True, above=points[0])
    if all(_response_ms(p) < threshold_ms for p in points):
        return _not_reached(answer, points)
    # The envelope's last point at or under the threshold (of equal throughputs, the quickest) and its next
    # point over it: the quickest of the points over the threshold with more throughput.
    below = max(under, key=lambda p: (p.throughput, -_response_ms(p)))
    better = [p for p in points if _response_ms(p) > threshold_ms and p.throughput > below.throughput]
    above = min(better, key=lambda p: (_response_ms(p), -p.throughput), default=None)
    if above is None or _response_ms(below) == threshold_ms:
        return answer.result(
            Status.MEASURED, value=below.throughput, reached=True, below=below, above=above, load=below.load
        )
    share = (threshold_ms - _response_ms(below)) / (_response_ms(above) - _response_ms(below))
    return answer.result(
        Status.INTERPOLATED,
        value=below.throughput + share * (above.throughput - below.throughput),
        reached=True,
        below=below,
        above=above,
        load=None if below.load is None or above.load is None else below.load + share * (above.load - below.load),
    )


def _at_or_below(answer: _Answer, points: Sequence[CurvePoint]) -> ThroughputAtThreshold:
    threshold_ms = answer.threshold_ms
    candidates = [i for i, p in enumerate(points) if _response_ms(p) <= threshold_ms]
    if not candidates:
        answer.warn(_first_point_over_message(points[0], threshold_ms, only=len(points) == 1), reason=True)
        return answer.result(Status.FIRST_POINT_OVER, value=None, reached=True, above=points[0])
    if all(_response_ms(p) < threshold_ms for p in points):
        return _not_reached(answer, points)
    best = max(candidates, key=lambda i: points[i].throughput)
    above = next((p for p in points[best + 1 :] if _response_ms(p) > threshold_ms), None)
    below = points[best]
    return answer.result(
        Status.MEASURED, value=below.throughput, reached=True, below=below, above=above, load=below.load
    )


def _not_reached(answer: _Answer, points: Sequence[CurvePoint]) -> ThroughputAtThreshold:
    best = max(points, key=lambda p: p.throughput)
    highest_ms = max(_response_ms(p) for p in points)
    if len(points) == 1:
        answer.warn(
            reason=True,
            message=f"its only point was measured at {_ms(highest_ms)} ms, under the threshold of "
            f"{_threshold(answer.threshold_ms)} ms: its throughput is a lower bound",
        )
    else:
        answer.warn(
            reason=True,
            message=f"the threshold of {_threshold(answer.threshold_ms)} ms was not reached (highest response time "
            f"{_ms(highest_ms)} ms): the best measured point is reported, a lower bound",
        )
    return answer.result(Status.NOT_REACHED, value=best.throughput, reached=False, below=best, load=best.load)


def _warn_if_not_monotonic(answer: _Answer, points: Sequence[CurvePoint]) -> None:
    for before, after in zip(points, points[1:], strict=False):
        if _response_ms(after) < _response_ms(before):
            used = (
                "the best throughput at or under the threshold and the next point over it with more throughput are"
                if answer.rule is Rule.INTERPOLATE
                else "the best point is"
            )
            answer.warn(
                f"response times fall as the load rises ({_ms(_response_ms(after))} ms after "
                f"{_ms(_response_ms(before))} ms); {used} used"
            )
            return


def _response_ms(point: CurvePoint) -> float:
    """The response time of a point the threshold rules weigh (``throughput_at`` passes only those)."""
    assert point.response_ms is not None
    return point.response_ms


def _first_point_over_message(point: CurvePoint, threshold_ms: float, *, only: bool = False) -> str:
    if only:
        return (
            f"its only point is at {_ms(_response_ms(point))} ms, over {_threshold(threshold_ms)} ms: "
            f"there is no throughput at {_threshold(threshold_ms)} ms"
        )
    return (
        f"the first point, at the lowest load, is already over the threshold ({_ms(_response_ms(point))} ms > "
        f"{_threshold(threshold_ms)} ms): there is no throughput at the threshold"
    )


def _rule(rule: Rule | str) -> Rule:
    try:
        return Rule(rule)
    except ValueError:
        choices = ", ".join(r.value for r in Rule)
        raise ValueError(f"unknown threshold rule {rule!r}; choose one of: {choices}") from None


def _is_non_negative(number) -> bool:
    if type(number) is float:  # the common case: NaN fails both comparisons
        return 0.0 <= number < math.inf
    return isinstance(number, int | float) and not isinstance(number, bool) and math.isfinite(number) and number >= 0


def marker_response_ms(answer: ThroughputAtThreshold) -> float:
    """Where a chart marks the figure on the response-time axis: on the threshold when it is interpolated
    there, else at the response time the figure was measured (a lower bound, the best point at or under the
    threshold) or stated at (published)."""
    if answer.status in (Status.NOT_REACHED, Status.SINGLE_POINT, Status.MEASURED) and answer.below is not None:
        return answer.below.response_ms if answer.below.response_ms is not None else answer.threshold_ms
    return answer.threshold_ms


def _threshold(number: float) -> str:
    """A threshold as the reader asked for it (2.025 stays 2.025)."""
    return f"{number:g}"


# A run's figures in IOPS and in MB/s are read from the same response times, and its warnings name them:
# each is written once (thousands of runs are stored at once).
@functools.lru_cache(maxsize=4096, typed=True)
def _ms(number: float) -> str:
    return significant(number)
