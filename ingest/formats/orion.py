"""Oracle ORION results: ``<test>_summary.txt`` and the ``_iops.csv``, ``_mbps.csv``, ``_lat.csv`` matrices.

ORION names every output file of a test ``<test>_<yyyymmdd>_<hhmm>_<kind>``; the files of one test
given together form one result set with one run. Each matrix has a header row ``Large/Small, s1,
s2, ...`` (the small-IO outstanding levels) and one row per large-IO outstanding level; a row
may stop early or hold only its label when that level was not measured.

Mapping:

- each matrix cell that has data in any of the three matrices is one point, with
  ``load.small_outstanding`` and ``load.large_outstanding``; ``iops`` comes from the IOPS matrix
  (small IOs only), ``mbps`` from the MBPS matrix (large IOs only, as ORION prints it) and
  ``avg_response_ms`` from the latency matrix (small IOs);
- the summary gives the tool version, the command line and the parameter block (``params``) and
  the three headline figures ``max_large_mbps``, ``max_small_iops`` and ``min_small_latency_ms``,
  each with the load it was reached at (``*_at``).

Latency units changed between versions: ORION 10.x and 11.1 write milliseconds in both the summary
and ``_lat.csv``; from 11.2 on both are microseconds (the summary then says ``usecs``). The
version in the summary decides; without a summary the latency matrix is read as milliseconds and
a warning says so.

A summary alone is refused: its headline figures were reached at different loads, so they do not
describe one measured point, and a run needs points. A matrix alone is read with a warning that
the rest of the test is missing; a matrix without a measured row, or one that stops in the middle
of a line (ORION ends every line), is refused as cut short.
"""

import re
from collections import Counter
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any, TypedDict

from ..errors import ParseError
from ..numbers import Printed, read_number, read_whole
from ..result import Point, ResultSet, Run, TransferSize, Workload
from ..source import Source, decode_head, describe_group
from ..units import convert_time, size_multiplier

FORMAT = "orion"
TOOL = "Oracle ORION"
READS = (
    "ORION 10.2 to 19c `<test>_summary.txt` (version, parameters, maxima; msecs or usecs) with the "
    "`_iops.csv`, `_mbps.csv`, `_lat.csv` matrices of the same test: one run, one point per measured "
    "small x large cell"
)

MAX_LEVEL_DIGITS = 9  # outstanding IOs beyond a billion are no ORION level
MATRIX_KINDS = ("iops", "mbps", "lat")
_KIND_SUFFIX = re.compile(r"^(?P<prefix>.*?)[_-]?(?P<kind>summary\.txt|iops\.csv|mbps\.csv|lat\.csv)$", re.IGNORECASE)
_MATRIX_HEADER = "large/small"
_IO_TYPE = re.compile(r"\b(small|large)\s+(random|sequential)\b")
# A matrix cell holds one plain figure; anything else (NaN, a negative) is no measured value.
_PRINTED = Printed(required=True, refusal="expected a number, found {text!r}", one_refusal=True)
_MAXIMUM = re.compile(
    r"^(?P<what>maximum large mbps|maximum small iops|minimum small latency)\s*=\s*(?P<value>[\d.]+)\s*"
    r"(?P<unit>[a-z]+)?\s*@\s*small\s*=\s*(?P<small>\d+)\s*and\s*large\s*=\s*(?P<large>\d+)",
    re.IGNORECASE,
)
_LATENCY_DETAIL = re.compile(
    r"^small (?P<direction>read|write) latency:\s*avg=(?P<avg>[\d.]+)\s*us,\s*min=(?P<min>[\d.]+)\s*us,\s*"
    r"max=(?P<max>[\d.]+)\s*us,\s*std dev=(?P<std>[\d.]+)\s*us\s*@\s*small=(?P<small>\d+) and large=(?P<large>\d+)",
    re.IGNORECASE,
)
_HISTOGRAM_START = re.compile(r"histogram\s*@\s*small\s*=\s*(\d+)\s*and\s*large\s*=\s*(\d+)", re.IGNORECASE)
_HISTOGRAM_BUCKET = re.compile(
    r"^(?P<low>\d+)\s*-\s*(?P<high>\d+)?\s*us:\s*(?P<reads>\d+)(?:\s*\([^)]*\))?\s+(?P<writes>\d+)", re.IGNORECASE
)
_LUN = re.compile(r"^name:\s*(?P<name>.*?)\s+size:\s*(?P<size>\d+)\s*$", re.IGNORECASE)
_FILES_FOUND = re.compile(r"^\d+\s+files?\s+found\.?$", re.IGNORECASE)
_MAXIMA_KEYS = {
    "maximum large mbps": "max_large_mbps",
    "maximum small iops": "max_small_iops",
    "minimum small latency": "min_small_latency_ms",
}

_MAXIMA_NAMES = {
    "max_large_mbps": "Maximum Large MBPS",
    "max_small_iops": "Maximum Small IOPS",
    "min_small_latency_ms": "Minimum Small Latency",
}
# The maxima a level above 0 in each column list calls for.
_MAXIMA_BY_COLUMNS = (
    ("max_large_mbps", "large_columns"),
    ("max_small_iops", "small_columns"),
    ("min_small_latency_ms", "small_columns"),
)

# A matrix file's cells: (large, small) outstanding IOs -> the figure.
_Matrix = dict[tuple[int, int], float]


class _Summary(TypedDict):
    version: str | None
    latency_in_us: bool
    params: dict[str, Any]


def _is_summary(text: str) -> bool:
    return text.lstrip().upper().startswith("ORION VERSION")


def _is_matrix(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return first.strip().lower().startswith(_MATRIX_HEADER + ",")


def sniff(head: bytes, name: str) -> bool:
    text = decode_head(head)
    return _is_summary(text) or _is_matrix(text)


def _split_name(name: str) -> tuple[str, str | None]:
    """``(prefix, kind)`` from an ORION output file name; kind is None when the name does not say."""
    path = PurePosixPath(name.replace("\\", "/"))
    match = _KIND_SUFFIX.match(path.name)
    if not match:
        return str(path.with_suffix("")), None
    kind = match["kind"].split(".")[0].lower()
    return str(path.parent / match["prefix"]), kind


def group_key(source: Source) -> str | None:
    """Files of one test share the name prefix before ``_summary.txt`` / ``_iops.csv`` / ..."""
    return _split_name(source.name)[0]


def parse(source: Source) -> ResultSet:
    return parse_group([source])


def parse_group(sources: list[Source]) -> ResultSet:
    """One result set from the files of one ORION test (any subset of summary and matrices)."""
    summary_source, matrix_sources = _classify(sources)
    warnings: list[str] = []
    summary = _parse_summary(summary_source, warnings) if summary_source else None
    latency_in_us = summary["latency_in_us"] if summary else False
    rows: dict[str, list[tuple[int, int]]] = {kind: [] for kind in matrix_sources}
    matrices = {
        kind: _parse_matrix(source, divisor=1000 if kind == "lat" and latency_in_us else 1, rows=rows[kind])
        for kind, source in matrix_sources.items()
    }
    _warn_missing(summary_source, matrix_sources, warnings)
    warnings.extend(_cut_matrices(summary, matrix_sources, rows))
    prefix = _split_name(sources[0].name)[0]
    run = _build_run(prefix, summary, matrices)
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": summary["version"] if summary else None},
        source=describe_group(sources) if len(sources) > 1 else sources[0].describe(),
        runs=[run],
        warnings=warnings,
    )


def _classify(sources: list[Source]) -> tuple[Source | None, dict[str, Source]]:
    summary = None
    matrices: dict[str, Source] = {}
    for source in sources:
        if _is_summary(source.head_text()):
            if summary is not None:
                raise ParseError(
                    f"two ORION summaries for one test: {summary.name} and {source.name}", file=source.name
                )
            summary = source
            continue
        kind = _split_name(source.name)[1]
        if kind not in MATRIX_KINDS:
            raise ParseError(
                "cannot tell whether this ORION matrix holds IOPS, MB/s or latency: keep the name ORION "
                "gave it, ending in _iops.csv, _mbps.csv or _lat.csv",
                file=source.name,
            )
        if kind in matrices:
            raise ParseError(
                f"two ORION {kind} matrices for one test: {matrices[kind].name} and {source.name}", file=source.name
            )
        matrices[kind] = source
    return summary, matrices


def _warn_missing(summary_source: Source | None, matrix_sources: dict[str, Source], warnings: list[str]) -> None:
    missing = [f"_{kind}.csv" for kind in MATRIX_KINDS if kind not in matrix_sources]
    if summary_source is None:
        warnings.append(
            "no ORION _summary.txt was given with the matrices: the tool version, parameters and maxima are "
            "unknown, and latencies are read as milliseconds (ORION 10.x/11.1; 11.2 and later write microseconds)"
        )
    if missing and matrix_sources:
        warnings.append(f"the test's {', '.join(missing)} matrices were not given; their figures are unknown")
    elif missing:
        raise ParseError(
            "only the ORION summary was given: it holds the maxima but no measured point; give the "
            "_iops.csv, _mbps.csv and _lat.csv files of the same test with it",
            file=summary_source.name if summary_source else None,
        )


def _cut_matrices(
    summary: "_Summary | None", sources: dict[str, Source], rows: dict[str, list[tuple[int, int]]]
) -> list[str]:
    """ORION writes a row for each large level of the test in its IOPS and latency matrices, and for each
    above 0 in its MB/s one: a matrix whose rows stop before levels the summary or another matrix lists
    is cut short."""
    levels = set(summary["params"].get("large_columns") or []) if summary else set()
    for listed in rows.values():
        levels.update(large for large, _line in listed)
    warnings = []
    for kind, listed in rows.items():
        if not listed:
            continue
        last_large, last_line = max(listed)[0], listed[-1][1]
        after = sorted(level for level in levels if level > last_large and (level > 0 or kind != "mbps"))
        if after:
            warnings.append(
                f"{sources[kind].name}:{last_line}: the matrix ends after its row for large={listed[-1][0]}, before "
                f"the rows for large={', '.join(map(str, after))} the test lists: it looks cut short, and their "
                "figures are missing"
            )
    return warnings


def _number(text: str, source: Source, line_number: int, column: int) -> float:
    value = read_number(text, file=source.name, line=line_number, column=column, printed=_PRINTED)
    if value is None:  # an empty cell is refused (``required``), so there is always a figure
        raise ParseError("expected a number, found ''", file=source.name, line=line_number, column=column)
    return value


def _parse_matrix(source: Source, *, divisor: int, rows: list[tuple[int, int]]) -> _Matrix:
    """``{(large, small): value / divisor}`` for the cells with data (divisor 1000: microseconds to ms);
    ``rows`` gets the large level and the line of each row, in the file's order."""
    cells: _Matrix = {}
    small_levels = None
    line_number, line = 0, "\n"
    with source.open_text() as stream:
        for line_number, line in enumerate(stream, start=1):
            fields = [field.strip() for field in line.split(",")]
            if not any(fields):
                continue
            if small_levels is None:
                small_levels = _matrix_header(fields, source, line_number)
                continue
            large = _level(fields[0], source, line_number, column=1)
            rows.append((large, line_number))
            values = fields[1:]
            if len(values) > len(small_levels):
                raise ParseError(
                    f"row for large={large} has {len(values)} values but the header names "
                    f"{len(small_levels)} small-IO levels",
                    file=source.name,
                    line=line_number,
                )
            for index, text in enumerate(values):
                if text:
                    cells[(large, small_levels[index])] = _number(text, source, line_number, index + 2) / divisor
    if small_levels is None:
        raise ParseError("empty ORION matrix: no 'Large/Small' header line", file=source.name, line=1)
    if not line.endswith("\n"):
        raise ParseError(
            "the matrix stops in the middle of a line: the file is cut short; give the complete file ORION wrote",
            file=source.name,
            line=line_number,
        )
    if not cells:
        raise ParseError(
            "the matrix has its 'Large/Small' header but no measured value; the file may be cut short",
            file=source.name,
            line=line_number,
        )
    return cells


def _matrix_header(fields: list[str], source: Source, line_number: int) -> list[int]:
    if fields[0].lower() != _MATRIX_HEADER:
        raise ParseError(
            f"expected the ORION matrix header 'Large/Small, ...', found {fields[0]!r}",
            file=source.name,
            line=line_number,
        )
    return [_level(text, source, line_number, column) for column, text in enumerate(fields[1:], start=2)]


def _level(text: str, source: Source, line_number: int, column: int) -> int:
    if not text.isdigit() or len(text) > MAX_LEVEL_DIGITS:
        shown = text if len(text) <= 20 else f"{text[:20]}...({len(text)} characters)"
        raise ParseError(
            f"expected a whole number of outstanding IOs, found {shown!r}",
            file=source.name,
            line=line_number,
            column=column,
        )
    return int(text)


def _version_tuple(version: str | None) -> tuple[int, int] | None:
    match = re.search(r"(\d+)\.(\d+)", version or "")
    return (int(match[1]), int(match[2])) if match else None


def _parse_summary(source: Source, warnings: list[str]) -> _Summary:
    """The summary as a dict: ``version``, ``latency_in_us``, ``params``."""
    state: dict[str, Any] = {"params": {}, "version": None, "expect": None, "histogram": None}
    line_number = last_read = 0
    with source.open_text() as stream:
        for line_number, raw in enumerate(stream, start=1):
            line = raw.strip()
            if line:
                _summary_line(line, line_number, state, warnings, source)
                last_read = line_number
    warnings.extend(_summary_cut_warnings(source.name, line_number, last_read, state))
    version = _version_tuple(state["version"])
    latency_in_us = state.get("latency_unit_us", version is not None and version >= (11, 2))
    params = state["params"]
    if "min_small_latency_ms" in params and latency_in_us:
        params["min_small_latency_ms"] = convert_time(params["min_small_latency_ms"], "us")
    return {"version": state["version"], "latency_in_us": latency_in_us, "params": params}


def _summary_cut_warnings(name: str, last_line: int, last_read: int, state: dict[str, Any]) -> list[str]:
    """ORION ends a summary with the maxima its columns call for (Maximum Large MBPS when a large level is
    above 0, Maximum Small IOPS and Minimum Small Latency when a small one is), each with the read and write
    latency lines where it writes them, and then (11.2 and later, with those lines) the latency histogram,
    whose last bucket it does not state: a summary without them, or ending in the histogram, may be cut short there."""
    params = state["params"]
    wanted = [key for key, column in _MAXIMA_BY_COLUMNS if any(level > 0 for level in params.get(column) or [])]
    missing = [key for key in wanted or _MAXIMA_KEYS.values() if key not in params]
    if missing and not any(key in params for key in _MAXIMA_KEYS.values()):
        return [
            f"{name}:{last_line}: no Maximum/Minimum result lines: the test did not finish or the summary is cut "
            "short, and the test's maxima are unknown"
        ]
    if missing:
        shown = ", ".join(_MAXIMA_NAMES[key] for key in missing)
        return [
            f"{name}:{last_line}: the summary ends without its {shown} line{'s' if len(missing) > 1 else ''}: it "
            "looks cut short, and what they state is unknown"
        ]
    details = Counter(
        (detail["small_outstanding"], detail["large_outstanding"]) for detail in params.get("latency_details", [])
    )
    if details and (len(set(details.values())) > 1 or len(details) < _small_maxima(params)):
        return [
            f"{name}:{last_line}: the summary ends before the read and write latency lines of each small maximum: "
            "it looks cut short, and the missing latencies are unknown"
        ]
    if details and (state["histogram"] is None or not state["histogram"]["buckets"]):
        return [
            f"{name}:{last_line}: the summary ends before the latency histogram ORION writes after the read and "
            "write latency lines: it looks cut short, and the histogram is missing"
        ]
    if state["histogram"] is not None and state.get("histogram_line") == last_read:
        return [
            f"{name}:{last_read}: the summary ends in its latency histogram, whose last bucket ORION does not state: "
            "buckets after this line are missing if the file was cut"
        ]
    return []


def _small_maxima(params: dict[str, Any]) -> int:
    """How many small-IO maxima (each with its latency lines) the summary holds, at distinct points."""
    return len(
        {
            (params[f"{key}_at"]["small_outstanding"], params[f"{key}_at"]["large_outstanding"])
            for key in ("max_small_iops", "min_small_latency_ms")
            if f"{key}_at" in params
        }
    )


def _summary_line(line: str, line_number: int, state: dict[str, Any], warnings: list[str], source: Source) -> None:
    params = state["params"]
    lowered = line.lower()
    if state["expect"] == "command_line":
        params["command_line"] = line
        state["expect"] = None
    elif lowered.startswith("orion version"):
        state["version"] = line[len("orion version") :].strip()
    elif lowered in ("commandline:", "command line:"):
        state["expect"] = "command_line"
    elif lowered in ("this maps to this test:", "these options enable these settings:") or _FILES_FOUND.match(line):
        return
    elif match := _MAXIMUM.match(line):
        _maximum(match, state, source, line_number)
    elif match := _LATENCY_DETAIL.match(line):
        params.setdefault("latency_details", []).append(_latency_detail(match, source, line_number))
    elif match := _HISTOGRAM_START.search(line):
        state["histogram"] = {
            "small_outstanding": _count(match[1], source, line_number),
            "large_outstanding": _count(match[2], source, line_number),
            "buckets": [],
        }
        params.setdefault("latency_histograms", []).append(state["histogram"])
    elif match := _HISTOGRAM_BUCKET.match(line):
        _histogram_bucket(match, state, warnings, source, line_number)
        state["histogram_line"] = line_number
    elif lowered.startswith("latency:") and state["histogram"] is not None:
        return
    elif match := _LUN.match(line):
        lun = {"name": match["name"], "size_bytes": _count(match["size"], source, line_number)}
        params.setdefault("luns", []).append(lun)
    elif ":" in line:
        label, _, value = line.partition(":")
        _setting(label.strip(), value.strip(), params, warnings, source, line_number)
    else:
        warnings.append(f"{source.name}:{line_number}: line not read: {line!r}")


def _count(text: str, source: Source, line_number: int) -> int:
    """A whole number of the summary; one too large for any count means the file is damaged."""
    value = read_whole(text, file=source.name, line=line_number)
    if value is None:
        raise ParseError("expected a whole number, found ''", file=source.name, line=line_number)
    return value


def _maximum(match: re.Match[str], state: dict[str, Any], source: Source, line_number: int) -> None:
    key = _MAXIMA_KEYS[" ".join(match["what"].lower().split())]
    state["params"][key] = float(match["value"])
    state["params"][f"{key}_at"] = {
        "small_outstanding": _count(match["small"], source, line_number),
        "large_outstanding": _count(match["large"], source, line_number),
    }
    if key == "min_small_latency_ms" and match["unit"]:
        state["latency_unit_us"] = match["unit"].lower() in ("usecs", "us", "usec")


def _latency_detail(match: re.Match[str], source: Source, line_number: int) -> dict[str, Any]:
    return {
        "direction": match["direction"].lower(),
        "avg_ms": convert_time(float(match["avg"]), "us"),
        "min_ms": convert_time(float(match["min"]), "us"),
        "max_ms": convert_time(float(match["max"]), "us"),
        "std_dev_ms": convert_time(float(match["std"]), "us"),
        "small_outstanding": _count(match["small"], source, line_number),
        "large_outstanding": _count(match["large"], source, line_number),
    }


def _histogram_bucket(
    match: re.Match[str], state: dict[str, Any], warnings: list[str], source: Source, line_number: int
) -> None:
    if state["histogram"] is None:
        warnings.append(f"{source.name}:{line_number}: histogram bucket outside a histogram, not read")
        return
    state["histogram"]["buckets"].append(
        {
            "from_ms": convert_time(_count(match["low"], source, line_number), "us"),
            "to_ms": convert_time(_count(match["high"], source, line_number), "us") if match["high"] else None,
            "reads": _count(match["reads"], source, line_number),
            "writes": _count(match["writes"], source, line_number),
        }
    )


def _size_bytes(text: str) -> int | None:
    """``'8 KB'`` -> 8192; None for 'Not Entered', 'not specified' and other words."""
    # Digits bounded: a size longer than 15 digits is no size ORION prints (the caller warns).
    match = re.fullmatch(r"(\d{1,15}(?:\.\d{1,15})?)\s*([a-z]*)", text.strip().lower())
    if not match:
        return None
    multiplier = size_multiplier(match[2])
    return None if multiplier is None else round(float(match[1]) * multiplier)


def _levels(text: str, source: Source, line_number: int) -> list[int]:
    return [_count(part, source, line_number) for part in (p.strip() for p in text.split(",")) if part.isdigit()]


def _setting(
    label: str, value: str, params: dict[str, Any], warnings: list[str], source: Source, line_number: int
) -> None:
    key = " ".join(label.lower().split())
    if key == "test":
        params["test_name"] = value
    elif key in ("small io size", "large io size", "stripe depth", "cache size"):
        size = _size_bytes(value)
        if size is None and not re.search(r"not (entered|specified)", value, re.IGNORECASE):
            warnings.append(f"{source.name}:{line_number}: {label} {value!r} is not a size; kept as text")
            params[key.replace(" ", "_")] = value
        params[f"{key.replace(' ', '_')}_bytes"] = size
    elif key in ("write", "writes"):
        params["write_pct"] = _percent(value, source, line_number)
    elif key == "duration for each data point":
        match = re.match(r"(\d+)", value)
        params["duration_s"] = _count(match[1], source, line_number) if match else None
    elif key in ("small columns", "large columns"):
        params[key.replace(" ", "_")] = _levels(value, source, line_number)
    elif key == "total data points":
        params["total_data_points"] = _count(value, source, line_number) if value.isdigit() else None
    else:
        params[key.replace(" ", "_")] = value


def _percent(text: str, source: Source, line_number: int) -> float:
    match = re.fullmatch(r"([\d.]+)\s*%?", text)
    if not match:
        raise ParseError(f"expected a write percentage like '30%', found {text!r}", file=source.name, line=line_number)
    return float(match[1])


def _build_run(prefix: str, summary: _Summary | None, matrices: dict[str, _Matrix]) -> Run:
    params = dict(summary["params"]) if summary else {}
    params["version"] = summary["version"] if summary else None
    load_keys = sorted(set().union(*(cells.keys() for cells in matrices.values())))
    points = [
        Point(
            load={"small_outstanding": small, "large_outstanding": large},
            iops=matrices.get("iops", {}).get((large, small)),
            mbps=matrices.get("mbps", {}).get((large, small)),
            avg_response_ms=matrices.get("lat", {}).get((large, small)),
        )
        for large, small in load_keys
    ]
    base = PurePosixPath(prefix).name
    stamp = re.search(r"_(\d{8}_\d{4})$", base)
    return Run(
        name=params.get("test_name") or (base[: stamp.start()] if stamp else base) or "ORION",
        description=params.get("command_line", ""),
        started_at=_started_at(stamp[1]) if stamp else None,
        workload=_workload(params, points),
        params=params,
        points=points,
    )


def _started_at(stamp: str) -> str | None:
    try:
        return datetime.strptime(stamp, "%Y%m%d_%H%M").isoformat()
    except ValueError:
        return None


def _workload(params: dict[str, Any], points: list[Point]) -> Workload:
    """Read % from the write % (ORION applies it to small and large IOs alike). Random % and the
    transfer size from the IO kinds the matrix measured: ORION does not state how a cell that ran
    small and large IOs together splits them, so a mixed matrix keeps its sizes in ``params`` only,
    and its random % only when both kinds share their access pattern."""
    write_pct = params.get("write_pct")
    kinds = _measured_kinds(points) or {"small", "large"}
    access = dict(_IO_TYPE.findall((params.get("io_types") or "").lower()))
    patterns = {access.get(kind) for kind in kinds}
    random_pct = None
    if len(patterns) == 1 and None not in patterns:
        random_pct = 100.0 if patterns.pop() == "random" else 0.0
    sizes = []
    if len(kinds) == 1 and params.get(f"{next(iter(kinds))}_io_size_bytes"):
        sizes = [TransferSize(bytes=params[f"{next(iter(kinds))}_io_size_bytes"], pct=100.0)]
    return Workload(
        read_pct=None if write_pct is None else 100.0 - write_pct,
        random_pct=random_pct,
        transfer_sizes=sizes,
    )


def _measured_kinds(points: list[Point]) -> set[str]:
    """Which IO kinds ran: small where a point had small IOs outstanding, large likewise."""
    kinds: set[str] = set()
    for point in points:
        if point.load["small_outstanding"]:
            kinds.add("small")
        if point.load["large_outstanding"]:
            kinds.add("large")
    return kinds
