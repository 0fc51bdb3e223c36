"""The reports of one output folder (summary, totals, flatfile) read together: each RD once, each
figure from the report that prints it with the most detail, disagreements named in a warning."""

import re
from pathlib import PurePosixPath

from ...errors import ParseError
from ...source import Source
from .reader import _Copy, _Definition, _Reader
from .runs import _average, _first_known

# vdbench's own report names, with whatever a user put around them ('run1_totals.html').
_REPORT_NAME = re.compile(
    r"^(?P<before>.*?)(?:^|[_.-])(?:summary|totals|flatfile)(?P<after>(?:[_.-].*)?)\.html?$", re.IGNORECASE
)
# Reports in decreasing detail: the flatfile prints four decimals and per-interval columns (resp_max,
# requested xfersize, rdpct, seekpct, threads), summary three significant digits with the intervals,
# totals only the avg_ lines.
_DETAIL_ORDER = ("flatfile", "summary", "totals")
_DESCRIPTION_ORDER = ("summary", "totals", "flatfile")
# Figures taken from summary or totals before the flatfile: their 'cpu% total' is user + sys, while
# some versions' flatfile cpu_used holds the user time only (see _compared).
_SUMMARY_FIRST = {"cpu_pct"}
# Internal figure names as the result contract names them, for params and warnings.
_FIGURE_NAMES = {
    "rate": "iops",
    "read_rate": "read_iops",
    "write_rate": "write_iops",
    "mib_per_s": "mbps",
    "read_mib_per_s": "read_mbps",
    "write_mib_per_s": "write_mbps",
    "resp_ms": "avg_response_ms",
    "read_resp_ms": "avg_read_response_ms",
    "write_resp_ms": "avg_write_response_ms",
    "max_resp_ms": "max_response_ms",
}


def group_key(source: Source) -> str | None:
    """Reports of one vdbench output folder share a key: their folder and the name around vdbench's
    own ``summary`` / ``totals`` / ``flatfile`` (``run1_totals.html`` goes with ``run1_summary.html``,
    not with another run's reports saved in the same folder); other names are read alone."""
    name = PurePosixPath(source.name.replace("\\", "/"))
    report = _REPORT_NAME.match(name.name)
    if report is None:
        return None
    return f"{_folder(source, name)}/{report['before'].lower()}*{report['after'].lower()}"


def _folder(source: Source, name: PurePosixPath) -> str:
    """The folder a file's name gives (a zip member, files given together in one request), else the
    folder it is in."""
    if str(name.parent) != "." or source.path is None:
        return str(name.parent)
    return str(source.path.parent.resolve())


def _short_reports(readers: list["_Reader"]) -> list[str]:
    """Every report of one run lists each of its RDs: one holding fewer than another report was cut
    short, and the RDs it lacks are taken from the other reports only."""
    most = max(readers, key=lambda reader: len(reader.complete))
    warnings = []
    for reader in readers:
        names = [definition.name for definition in reader.complete]
        if len(names) < len(most.complete):
            missing = [definition.name for definition in most.complete[len(names) :]]
            warnings.append(
                f"{reader.source.name}: holds {len(names)} of the {len(most.complete)} complete RDs "
                f"{_base_name(most.source)} holds: it looks cut short, and the figures of RD "
                f"{', '.join(missing)} come from the other reports only"
            )
    return warnings


def _read_member(source: Source) -> "_Reader":
    try:
        return _Reader(source).read().finish()
    except ParseError as error:
        raise error.located(source.name) from None


def _base_name(source: Source) -> str:
    return PurePosixPath(source.name.replace("\\", "/")).name


def _matched_definitions(readers: list[_Reader]) -> list[list[_Copy]]:
    """The complete RDs of every report, matched by name and by order among RDs of that name (a
    'For loops' RD runs once per value), as (reader, definition) lists in the readers' order."""
    matched: dict[tuple[str, int], list[_Copy]] = {}
    for reader in readers:
        seen: dict[str, int] = {}
        for definition in reader.complete:
            seen[definition.name] = seen.get(definition.name, 0) + 1
            matched.setdefault((definition.name, seen[definition.name]), []).append((reader, definition))
    return list(matched.values())


def _merged(matched: list[_Copy], warnings: list[str]) -> _Definition:
    """One RD from its copies in several reports (most detailed report first)."""
    first = matched[0][1]
    # The RD's start, parameters and 'For loops' are printed by summary and totals; the flatfile
    # gives only the time of the first interval.
    described = min(matched, key=_description_rank)
    with_intervals = next((item for item in matched if item[1].intervals), None)
    merged = _Definition(
        first.name,
        first.line,
        start_time=described[1].start_time,
        description=described[1].description,
        loops=described[1].loops,
        started_at=_first_known(*(d.started_at for _, d in sorted(matched, key=_description_rank))),
        intervals=with_intervals[1].intervals if with_intervals else [],
        average={},
        average_label=first.average_label,
        statistics=next((d.statistics for _, d in matched if d.statistics), {}),
    )
    merged.origins = {"started_at": _base_name(described[0].source)} if merged.started_at else {}
    if with_intervals:
        merged.origins["intervals"] = _base_name(with_intervals[0].source)
    disagreements = _merge_average(merged, matched)
    if disagreements:
        warnings.append(
            f"RD={first.name}: the reports disagree beyond rounding on {'; '.join(disagreements)} "
            "(the figure named first is kept)"
        )
    return merged


def _merge_average(merged: _Definition, matched: list[_Copy]) -> list[str]:
    """Fill the merged average figure by figure, noting each one's file; return the disagreements."""
    assert merged.average is not None, "_merged starts the average empty"
    disagreements = []
    for key in dict.fromkeys(key for _, definition in matched for key in _average(definition)):
        kept, others = _preferred(key, matched)
        if kept is None:
            continue
        merged.average[key] = _average(kept[1])[key]
        merged.origins[_FIGURE_NAMES.get(key, key)] = _base_name(kept[0].source)
        disagreements += [_disagreement(key, kept, other) for other in others if _disagree(key, kept[1], other[1])]
    return disagreements


def _description_rank(item: _Copy) -> int:
    return _DESCRIPTION_ORDER.index(item[0].kind)


def _preferred(key: str, matched: list[_Copy]) -> tuple[_Copy, list[_Copy]] | tuple[None, list[_Copy]]:
    """The copy whose figure is kept, and the other copies that state the figure."""
    stating = [item for item in matched if _average(item[1]).get(key) is not None]
    if key in _SUMMARY_FIRST:
        stating.sort(key=_description_rank)
    return (stating[0], stating[1:]) if stating else (None, [])


def _disagree(key: str, kept: _Definition, other: _Definition) -> bool:
    """True when two printed figures differ by more than their printed digits allow."""
    (kept_value, kept_room), (other_value, other_room) = _compared(key, kept), _compared(key, other)
    # The limit itself is allowed: 0.85 printed with one decimal is 0.9 (or 0.8 when truncated).
    return abs(kept_value - other_value) > max(kept_room, other_room) * (1 + 1e-9) + 1e-12


def _compared(key: str, definition: _Definition) -> tuple[float, float]:
    """The figure weighed against the other reports, and the room its printing leaves.

    vdbench 5.04.06 writes the user time alone as the flatfile's cpu_used (cpu_used = cpu_user 1.7454,
    cpu_kernel 3.4581, where summary's cpu% total is 5.2), so user + kernel stands for it where the
    flatfile prints both.
    """
    values, rounding = definition.average, definition.rounding
    assert values is not None, "only definitions that state the figure are compared"
    user, kernel = values.get("cpu_user"), values.get("cpu_kernel")
    if key == "cpu_pct" and user is not None and kernel is not None:
        return user + kernel, rounding["cpu_user"] + rounding["cpu_kernel"]
    value = values[key]
    assert value is not None, "only definitions that state the figure are compared"
    return value, rounding.get(key, 0.0)


def _disagreement(key: str, kept: _Copy, other: _Copy) -> str:
    (kept_reader, kept_definition), (other_reader, other_definition) = kept, other
    return (
        f"{_FIGURE_NAMES.get(key, key)}: {_average(kept_definition)[key]:g} in {_base_name(kept_reader.source)} "
        f"line {kept_definition.average_line}, {_compared(key, other_definition)[0]:g} in "
        f"{_base_name(other_reader.source)} line {other_definition.average_line}"
    )
