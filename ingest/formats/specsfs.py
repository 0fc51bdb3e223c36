"""SPEC SFS2014 summary XML (``sfssum_*.xml``), as ``SfsManager`` writes it after a run.

A ``<summary>`` holds one ``<run>`` per load point of one benchmark (``SWBUILD``, ``VDA``, ``EDA``,
``DATABASE``, ``VDI``): its ``<business_metric>`` (the load, in the benchmark's business units), the
``<metric name=... units=...>`` figures, the ``<benchmark name=...>`` and ``<valid_run/>`` when the
run met the benchmark's rules (``<invalid_run>`` otherwise, with the reason as its text).

One run per benchmark, one point per business metric, in load order. A point: ``iops`` = the
``achieved rate`` (ops/s; the ``op rate`` asked for goes to ``metrics``), ``avg_response_ms`` = the
``average latency``, ``mbps`` / ``read_mbps`` / ``write_mbps`` = the ``overall`` / ``read`` /
``write throughput`` (SPEC SFS prints KB/s; read as 1,024 bytes, the unit SPEC SFS counts in);
``load.threads`` = ``clients`` x ``processes per client``, ``load.business_metric`` the business
metric. The run's verdict is ``pass`` when every load point is a valid run and ``fail`` otherwise,
with a warning naming each invalid one. The data set sizes and the run time go to ``metrics``.
"""

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..errors import ParseError
from ..numbers import Printed, read_number
from ..result import Point, ResultSet, Run, Workload
from ..source import Source, decode_head
from ..units import KIB, MB
from ..xmlfile import xml_root

FORMAT = "specsfs"
TOOL = "SPEC SFS"
READS = (
    "SPEC SFS2014 summary XML: one run per benchmark (SWBUILD, VDA, EDA, DATABASE, VDI), a point per "
    "business metric: achieved op rate as IOPS, average latency, overall/read/write throughput (KB as "
    "1,024 bytes), processes as threads; invalid load points warned"
)

_PRINTED = Printed(refusal="<metric name={field!r}> holds {stripped!r}, not a number", required=True)
# The figures of a point, by the metric's name and the unit SPEC SFS prints it in.
_FIGURES = {
    "achieved rate": ("iops", "ops/s"),
    "average latency": ("avg_response_ms", "milliseconds"),
    "overall throughput": ("mbps", "KB/s"),
    "read throughput": ("read_mbps", "KB/s"),
    "write throughput": ("write_mbps", "KB/s"),
}
# Further figures kept in the point's metrics, under these names.
_METRICS = {
    "op rate": "requested_ops_per_s",
    "run time": "duration_s",
    "file size": "file_size_kb",
    "client data set size": "client_data_set_mib",
    "starting data set size": "starting_data_set_mib",
    "initial file space": "initial_file_space_mib",
    "maximum file space": "maximum_file_space_mib",
}


def sniff(head: bytes, name: str) -> bool:
    text = decode_head(head)
    return "<summary" in text and "<business_metric>" in text


@dataclass
class _LoadPoint:
    benchmark: str
    business_metric: float
    point: Point
    valid: bool
    line: int
    run_id: str | None


def parse(source: Source) -> ResultSet:
    root, lines = xml_root(source, tool=TOOL)
    if root.tag != "summary":
        raise ParseError(f"the XML root is <{root.tag}>, expected SPEC SFS's <summary>", file=source.name, line=1)
    points = [_load_point(run, lines, source) for run in root.iterfind("run")]
    if not points:
        raise ParseError("the <summary> holds no <run>: the benchmark wrote no load point", file=source.name)
    warnings = [
        f"{source.name}:{point.line}: {point.benchmark} at business metric {point.business_metric:g} is not a "
        "valid run (no <valid_run/>); its figures are stored, the run's verdict is fail"
        for point in points
        if not point.valid
    ]
    benchmarks = list(dict.fromkeys(point.benchmark for point in points))
    runs = [_run(benchmark, [p for p in points if p.benchmark == benchmark]) for benchmark in benchmarks]
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": None},
        source=source.describe(),
        runs=runs,
        warnings=warnings,
    )


def _run(benchmark: str, points: list[_LoadPoint]) -> Run:
    return Run(
        name=f"{benchmark}",
        description=f"SPEC SFS2014 {benchmark}, {len(points)} load point(s)",
        workload=Workload(name=benchmark),
        verdict="pass" if all(point.valid for point in points) else "fail",
        params={
            "benchmark": benchmark,
            "source_lines": [point.line for point in points],
            "run_ids": [point.run_id for point in points],
        },
        points=[point.point for point in sorted(points, key=lambda point: point.business_metric)],
    )


def _load_point(run: ET.Element, lines: dict[ET.Element, int], source: Source) -> _LoadPoint:
    line = lines.get(run, 1)
    benchmark_element = run.find("benchmark")
    benchmark = (benchmark_element.get("name") or "").strip() if benchmark_element is not None else ""
    if not benchmark:
        raise ParseError("a <run> names no <benchmark name=...>", file=source.name, line=line, field="benchmark")
    business_element = run.find("business_metric")
    if business_element is None:
        raise ParseError("a <run> has no <business_metric>", file=source.name, line=line, field="business_metric")
    business_metric = _number(business_element.text, "business_metric", lines.get(business_element, line), source)
    metrics = {element.get("name", ""): element for element in run.iterfind("metric")}
    point = Point(metrics={})
    for name, (figure, unit) in _FIGURES.items():
        element = metrics.get(name)
        if element is None:
            continue
        value = _metric(element, name, unit, lines, source)
        setattr(point, figure, value * KIB / MB if unit == "KB/s" else value)
    for name, key in _METRICS.items():
        if name in metrics:
            point.metrics[key] = _number(metrics[name].text, name, lines.get(metrics[name], line), source)
    clients = _count(metrics.get("clients"), "clients", lines, source)
    processes = _count(metrics.get("processes per client"), "processes per client", lines, source)
    point.load = {"business_metric": business_metric}
    if clients is not None and processes is not None:
        point.load["threads"] = clients * processes
    valid = run.find("valid_run") is not None and run.find("invalid_run") is None
    return _LoadPoint(benchmark, business_metric, point, valid, line, run.get("id"))


def _metric(element: ET.Element, name: str, unit: str, lines: dict[ET.Element, int], source: Source) -> float:
    stated = element.get("units")
    if stated != unit:
        raise ParseError(
            f"<metric name={name!r}> is in {stated!r}; SPEC SFS2014 prints it in {unit!r}",
            file=source.name,
            line=lines.get(element),
            field=name,
        )
    return _number(element.text, name, lines.get(element), source)


def _count(element: ET.Element | None, name: str, lines: dict[ET.Element, int], source: Source) -> int | None:
    if element is None:
        return None
    value = _number(element.text, name, lines.get(element), source)
    if value != int(value) or value < 1:
        raise ParseError(f"{name} {value:g} is not a count", file=source.name, line=lines.get(element), field=name)
    return int(value)


def _number(text: str | None, field: str, line: int | None, source: Source) -> float:
    value = read_number(text or "", file=source.name, line=line, field=field, printed=_PRINTED)
    if value is None:  # a required figure: read_number refuses an empty one
        raise ParseError(f"<{field}> holds no figure", file=source.name, line=line, field=field)
    return value
