"""The result contract: what every parser's result set is checked against before it is stored.

A parser converts what it reads through the shared number reader, so most impossible figures are
refused there with the file and line; the contract is the last check, for figures a parser did not
convert itself and for shapes (points in load order, bounds from the result types' fields).
"""

import math
import operator
import re
from collections.abc import Sequence
from dataclasses import fields
from itertools import chain
from typing import Any, NamedTuple

from .result import PHASES, VERDICTS, Drive, Point, System, TransferSize, Workload, point_load_key


class ContractError(ValueError):
    """Parser output that does not follow the result contract: a parser bug, or a damaged file
    whose impossible figures (negative, infinite) the parser did not catch itself."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems[:10]))
        self.problems = problems


def _number_or_none(
    value: object, where: str, errors: list[str], *, minimum: float | None = None, maximum: float | None = None
) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        errors.append(f"{where}: expected a number or null, got {value!r}")
        return
    if math.isinf(value):
        errors.append(f"{where}: infinite value {value}")
    elif minimum is not None and value < minimum:
        errors.append(f"{where}: {value} is below {minimum}")
    elif maximum is not None and value > maximum:
        errors.append(f"{where}: {value} is above {maximum}")


def _bounds(cls: type) -> tuple[tuple[str, float | None, float | None, bool], ...]:
    """The bounded figures of a result type: (name, minimum, maximum, positive whole number)."""
    found = []
    for item in fields(cls):
        if "bounds" in item.metadata:
            bounds = item.metadata["bounds"]
            found.append((item.name, bounds["minimum"], bounds["maximum"], bounds["positive"]))
    return tuple(found)


def _check_figures(values: dict, bounds: tuple, where: str, errors: list[str]) -> None:
    if bounds is _POINT_BOUNDS and _POINT_FIGURES_PLAIN and _plain_point_figures(values):
        return
    for name, minimum, maximum, positive in bounds:
        value = values.get(name)
        if value is None:
            continue
        kind = type(value)
        if positive:
            if kind is not int or value <= 0:
                errors.append(f"{where}.{name}: expected a positive whole number or null, got {value!r}")
        # The clean case inline (a plain int or a finite float within the bounds); the rest is named.
        elif not (
            (kind is float and value - value == 0.0 or kind is int)
            and (minimum is None or value >= minimum)
            and (maximum is None or value <= maximum)
        ):
            _number_or_none(value, f"{where}.{name}", errors, minimum=minimum, maximum=maximum)


_WORKLOAD_BOUNDS = _bounds(Workload)
_POINT_BOUNDS = _bounds(Point)
# ``_plain_point_figures`` holds while every point figure has a minimum of 0 and is no count.
_POINT_FIGURES_PLAIN = all(minimum == 0 and not positive for _name, minimum, _maximum, positive in _POINT_BOUNDS)
_POINT_FIGURE_NAMES = tuple(name for name, *_rest in _POINT_BOUNDS)
_POINT_MAXIMA = tuple((name, maximum) for name, _minimum, maximum, _positive in _POINT_BOUNDS if maximum is not None)
_NONE = type(None)
_FIGURE_KINDS = frozenset((int, float, _NONE))
_point_figures_of = operator.itemgetter(*_POINT_FIGURE_NAMES)


def _plain_point_figures(point: dict) -> bool:
    """Whether a point's figures are all within their bounds, checked in one pass over them; False
    sends them to the check that names each problem."""
    try:
        values = _point_figures_of(point)
    except KeyError:  # a point made elsewhere may leave figures out
        values = tuple(map(point.get, _POINT_FIGURE_NAMES))
    return _plain_figures(values, [point])


def _plain_figures(values: Sequence[Any], points: list[dict]) -> bool:
    """Whether ``values``, the figures of ``points``, are numbers or null within their bounds."""
    kinds = set(map(type, values))
    if not kinds <= _FIGURE_KINDS:
        return False
    if _NONE in kinds:
        values = [value for value in values if value is not None]
    if not values:
        return True
    try:
        # NaN fails ``>=`` when min() returns it and makes the sum NaN otherwise.
        if not min(values) >= 0 or not sum(values) < math.inf:
            return False
    except OverflowError:  # an int too large for a float
        return False
    for name, maximum in _POINT_MAXIMA:
        if any(value is not None and value > maximum for value in (point.get(name) for point in points)):
            return False
    return True


def _plain_points(runs: object) -> bool:
    """Whether every point of every run has all its figures plain (as ``_plain_point_figures``) and
    a load object of finite values, checked over all points at once: the clean case of a large
    file. False (or any shape out of the ordinary) leaves each point to the checks naming problems."""
    try:
        points = [point for run in runs for point in run["points"]]  # type: ignore[attr-defined]
        if not set(map(type, points)) <= {dict}:
            return False
        loads = list(map(operator.itemgetter("load"), points))
        if not set(map(type, loads)) <= {dict}:
            return False
        figures = list(chain.from_iterable(map(_point_figures_of, points)))
    except (KeyError, TypeError, AttributeError):
        return False
    return _plain_figures(figures, points) and _all_finite(list(chain.from_iterable(map(dict.values, loads))))


_TRANSFER_SIZE_BOUNDS = _bounds(TransferSize)


class _Plain(NamedTuple):
    """What was found plain over all runs at once (the clean case of a large file), so the checks
    that name each problem skip it."""

    points: bool = False
    workloads: bool = False
    params: bool = False


def _plain_runs(runs: object) -> _Plain:
    try:
        workloads = [run["workload"] for run in runs]  # type: ignore[attr-defined]
        params = [run["params"] for run in runs]  # type: ignore[attr-defined]
    except (KeyError, TypeError, AttributeError):
        return _Plain(points=_plain_points(runs))
    return _Plain(
        points=_plain_points(runs),
        workloads=_plain_workloads(workloads),
        params=set(map(type, params)) <= {dict} and _all_finite(list(chain.from_iterable(map(dict.values, params)))),
    )


def _plain_workloads(workloads: list) -> bool:
    """Whether every workload is an object with its figures, name and transfer sizes in bounds."""
    if not set(map(type, workloads)) <= {dict} or not _plain_bounded(workloads, _WORKLOAD_BOUNDS):
        return False
    names = list(map(operator.methodcaller("get", "name"), workloads))
    if not all(name is None or type(name) is str and name.strip() for name in names):
        return False
    sizes = list(chain.from_iterable(workload.get("transfer_sizes") or () for workload in workloads))
    if not set(map(type, sizes)) <= {dict} or list(map(operator.methodcaller("get", "bytes"), sizes)).count(None):
        return False
    return _plain_bounded(sizes, _TRANSFER_SIZE_BOUNDS)


def _plain_bounded(objects: list[dict], bounds: tuple) -> bool:
    """Whether each bounded field of ``objects`` is null or a number within its bounds (a positive
    field: a positive whole number), field by field over all objects at once."""
    for name, minimum, maximum, positive in bounds:
        values = list(map(operator.methodcaller("get", name), objects))
        kinds = set(map(type, values))
        if _NONE in kinds:
            kinds.discard(_NONE)
            values = [value for value in values if value is not None]
        if not values:
            continue
        if positive:
            if kinds != {int} or min(values) <= 0:
                return False
            continue
        try:
            # A NaN or an infinity makes the sum NaN or infinite; then min() and max() can be trusted.
            if not kinds <= _FIGURE_KINDS or not abs(sum(values)) < math.inf:
                return False
        except OverflowError:
            return False
        if minimum is not None and min(values) < minimum or maximum is not None and max(values) > maximum:
            return False
    return True


_DRIVE_BOUNDS = _bounds(Drive)
_SYSTEM_BOUNDS = _bounds(System)


def _validate_workload(workload: object, where: str, errors: list[str]) -> None:
    if not isinstance(workload, dict):
        errors.append(f"{where}: expected an object")
        return
    _check_figures(workload, _WORKLOAD_BOUNDS, where, errors)
    name = workload.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        errors.append(f"{where}.name: expected a non-empty name or null, got {name!r}")
    for i, size in enumerate(workload.get("transfer_sizes") or []):
        if not isinstance(size.get("bytes"), int) or size["bytes"] <= 0:
            errors.append(f"{where}.transfer_sizes[{i}].bytes: expected a positive whole number")
        pct = size.get("pct")
        if not ((type(pct) is float and pct - pct == 0.0 or type(pct) is int) and 0 <= pct <= 100):
            _number_or_none(pct, f"{where}.transfer_sizes[{i}].pct", errors, minimum=0, maximum=100)


def _validate_point(point: dict, where: str, errors: list[str], metrics_checked: bool, points_plain: bool) -> None:
    """``points_plain``: its figures and load were found plain with every other point's
    (``_plain_points``), so only the metrics are left to check."""
    if not points_plain:
        if not isinstance(point.get("load"), dict):
            errors.append(f"{where}.load: expected an object")
        _check_figures(point, _POINT_BOUNDS, where, errors)
        _finite_everywhere(point.get("load"), f"{where}.load", errors)
    if not isinstance(point.get("metrics", {}), dict):
        errors.append(f"{where}.metrics: expected an object")
    if not metrics_checked:
        _finite_everywhere(point.get("metrics"), f"{where}.metrics", errors)


def _finite_everywhere(value: object, where: str, errors: list[str]) -> None:
    """Stored as JSON in PostgreSQL, which has no NaN or infinity: every number must be finite."""
    if _all_finite(value):
        return
    _locate_infinite(value, where, errors)


_PLAIN_KINDS = frozenset((str, int, bool, _NONE))
_CONTAINER_KINDS = frozenset((dict, list, tuple))
_WALKED_KINDS = _PLAIN_KINDS | _CONTAINER_KINDS | {float}


def _all_finite(value: object) -> bool:
    """Whether every float in ``value`` (nested dicts, lists, tuples) is finite, without naming
    places: the clean case, millions of values in a large file, checked a depth at a time (the
    members of every container at one depth in one pass over their types). Anything unusual (a float
    subclass) answers False, and the exact walk decides."""
    level: list[Any] = [value]
    while level:
        kinds = set(map(type, level))
        if not kinds <= _WALKED_KINDS:
            return False
        if float in kinds and not _floats_finite([member for member in level if type(member) is float]):
            return False
        if kinds.isdisjoint(_CONTAINER_KINDS):
            return True
        if kinds != {dict}:
            dicts = [member for member in level if type(member) is dict]
            sequences = [member for member in level if type(member) is list or type(member) is tuple]
            level = [*chain.from_iterable(map(dict.values, dicts)), *chain.from_iterable(sequences)]
        else:
            level = list(chain.from_iterable(map(dict.values, level)))
    return True


def _floats_finite(floats: list[float]) -> bool:
    """Whether every float is finite: a NaN or an infinity makes the exact sum NaN or infinite, or
    raises (infinities of both signs); an overflow of finite values is checked one by one."""
    try:
        total = math.fsum(floats)
    except ValueError:
        return False
    except OverflowError:
        return all(math.isfinite(number) for number in floats)
    return total - total == 0.0


def _locate_infinite(value: object, where: str, errors: list[str]) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        errors.append(f"{where}: {value} is not a finite number")
    elif isinstance(value, dict):
        for key, item in value.items():
            _locate_infinite(item, f"{where}.{key}", errors)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _locate_infinite(item, f"{where}[{i}]", errors)


def _validate_run(run: dict, where: str, errors: list[str], metrics_checked: bool, plain: _Plain) -> None:
    if not isinstance(run.get("name"), str) or not run["name"].strip():
        errors.append(f"{where}.name: expected a non-empty name")
    if run.get("verdict") not in VERDICTS:
        errors.append(f"{where}.verdict: expected 'pass', 'fail' or null, got {run.get('verdict')!r}")
    if run.get("phase", "measurement") not in PHASES:
        errors.append(f"{where}.phase: expected one of {', '.join(PHASES)}, got {run.get('phase')!r}")
    if not plain.workloads:
        _validate_workload(run.get("workload"), f"{where}.workload", errors)
    params = run.get("params")
    if not plain.params and not _all_finite(params):
        _locate_infinite(params, f"{where}.params", errors)
    points = run.get("points")
    if not isinstance(points, list):
        errors.append(f"{where}.points: expected a list")
        return
    if not points:
        errors.append(f"{where}.points: a run has at least one point")
    for i, point in enumerate(points):
        # Nothing is left to check of a point whose figures and load were found plain, whose
        # metrics its parser checked, when they are an object.
        if not (plain.points and metrics_checked and isinstance(point.get("metrics", {}), dict)):
            _validate_point(point, f"{where}.points[{i}]", errors, metrics_checked, plain.points)
    if len(points) > 1:
        keys = [point_load_key(p) for p in points if isinstance(p.get("load"), dict)]
        if keys != sorted(keys):
            errors.append(f"{where}.points: not in increasing load order")


def _validate_drives(drives: object, errors: list[str]) -> None:

    if drives is None:
        return
    if not isinstance(drives, list):
        errors.append("system.drives: expected a list")
        return
    for i, drive in enumerate(drives):
        _check_figures(drive, _DRIVE_BOUNDS, f"system.drives[{i}]", errors)


def validate(result: dict, *, metrics_checked: bool = False) -> list[str]:
    """Check a result set (dict form) against the contract; return a list of problems.

    ``metrics_checked``: the points' metrics hold only numbers their parser checked as it read them
    (finite, as :mod:`ingest.numbers` reads them), so they are not walked again; a large file holds
    millions of them. Everything else is checked whatever the parser says."""
    errors = []
    for key in ("format", "tool", "source", "runs", "warnings"):
        if key not in result:
            errors.append(f"{key}: missing")
    if errors:
        return errors
    if not result["tool"].get("name"):
        errors.append("tool.name: missing")
    if not result["source"].get("name") or len(result["source"].get("sha256") or "") != 64:
        errors.append("source: expected name and a sha256 of 64 hex digits")
    system = result.get("system")
    if system is not None:
        _check_figures(system, _SYSTEM_BOUNDS, "system", errors)
        _finite_everywhere(system.get("details"), "system.details", errors)
        _validate_drives(system.get("drives"), errors)
    plain = _plain_runs(result["runs"])
    for i, run in enumerate(result["runs"]):
        _validate_run(run, f"runs[{i}]", errors, metrics_checked, plain)
    if system is None and not result["runs"]:
        errors.append("runs: a result set with no system holds no runs")
    if not all(isinstance(w, str) for w in result["warnings"]):
        errors.append("warnings: expected a list of sentences")
    return errors


def check(result: dict, *, metrics_checked: bool = False) -> dict:
    """Raise :class:`ContractError` listing every problem when ``result`` breaks the contract
    (``metrics_checked`` as :func:`validate` takes it)."""
    errors = validate(result, metrics_checked=metrics_checked)
    if errors:
        raise ContractError(errors)
    return result


_PROBLEM_PLACE = re.compile(r"^runs\[(\d+)\](?:\.points\[(\d+)\])?\.?([^:]*): (.*)$")


def problem_sentence(result: dict, problem: str) -> str:
    """One contract problem as a user reads it: the run by name and the point by number
    (``runs[0].points[2].iops: ...`` becomes ``run 'seq read', point 3: iops ...``)."""
    match = _PROBLEM_PLACE.match(problem)
    if not match:
        return f"{problem}; the file may be damaged"
    run_index, point_index, field_name, detail = match.groups()
    run = result["runs"][int(run_index)]
    place = f"run {run.get('name')!r}"
    if field_name == "points" and not run.get("points"):
        return f"{place} holds no measured point; the file may be cut short or miss the tables holding its figures"
    if point_index is not None:
        place += f", point {int(point_index) + 1}"
    return f"{place}: {field_name}: {detail}; a measured figure cannot be that, so the file may be damaged"
