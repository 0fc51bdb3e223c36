"""DiskSpd's ``-Rxml`` output: one measurement per ``<TimeSpan>``, elements located by line."""

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ...errors import ParseError
from ...numbers import Printed, read_number, whole
from ...result import Run
from ...source import Source
from ...xmlfile import xml_root
from .model import _Direction, _Measurement, _run, _Target

PRINTED_XML = Printed(refusal="<{field}> holds {stripped!r}, not a number")


# XML (-Rxml) ----------------------------------------------------------------------------------


@dataclass
class _XmlFile:
    """A DiskSpd XML file as its figures are read: its name and the line each element starts on."""

    name: str
    lines: dict[ET.Element, int]

    def line_of(self, element: ET.Element, path: str | None = None) -> int | None:
        found = element if path is None else element.find(path)
        return self.lines.get(found if found is not None else element)


def _parse_xml(source: Source) -> tuple[str | None, list[Run], list[str]]:
    root, lines = xml_root(source, tool="DiskSpd")
    xml = _XmlFile(source.name, lines)
    if root.tag != "Results":
        raise ParseError(f"the XML root is <{root.tag}>, expected DiskSpd's <Results>", file=source.name)
    warnings: list[str] = []
    runs: list[Run] = []
    profile_spans = root.findall("Profile/TimeSpans/TimeSpan")
    result_spans = root.findall("TimeSpan")  # direct children: the <Profile> echo holds another
    started_at = _timestamp(root.findtext("System/RunTime"))
    for index, span in enumerate(result_spans, 1):
        if span.find("Error") is not None:
            warnings.append(f"{source.name}: timespan {index}: {(span.findtext('Error') or '').strip()}")
            continue
        profile = profile_spans[index - 1] if index <= len(profile_spans) else None
        measurement = _xml_measurement(span, profile, xml)
        measurement.params["computer"] = root.findtext("System/ComputerName")
        runs.append(
            _run(
                measurement,
                timespan=index,
                several=len(result_spans) > 1,
                started_at=started_at,
                description="",
                warnings=warnings,
                where=f"{source.name}: timespan {index}",
            )
        )
    return root.findtext("System/Tool/Version"), runs, warnings


def _xml_measurement(span: ET.Element, profile: ET.Element | None, source: _XmlFile) -> _Measurement:
    seconds = _xml_number(span, "TestTimeSeconds", source)
    if not seconds:
        raise ParseError("a results <TimeSpan> has no test time", file=source.name, field="TestTimeSeconds")
    sums = {"total": [0, 0], "read": [0, 0], "write": [0, 0]}
    pairs = []
    for target in span.iterfind("Thread/Target"):
        counts = {key: _xml_count(target, key, source) for key in _XML_COUNTS}
        for direction, (ios_key, bytes_key) in _XML_DIRECTIONS.items():
            sums[direction][0] += counts[ios_key]
            sums[direction][1] += counts[bytes_key]
        pairs.append((target.findtext("Path", "").strip(), counts["IOCount"]))
    latency = span.find("Latency")
    averages = _xml_latency_averages(latency, source)
    directions = {
        key: _Direction(ios=ios, bytes=size, iops=ios / seconds, avg_ms=averages.get(key))
        for key, (ios, size) in sums.items()
    }
    targets, pool_depth = _xml_profile(profile, source)
    metrics: dict[str, Any] = {"test_time_s": seconds}
    if latency is not None:
        metrics["percentiles_ms"] = _xml_percentiles(latency, source)
    return _Measurement(
        seconds=seconds,
        threads=int(_xml_number(span, "ThreadCount", source) or 0) or None,
        directions=directions,
        pairs=pairs,
        targets=targets,
        pool_outstanding_per_thread=pool_depth,
        cpu_pct=_xml_number(span, "CpuUtilization/Average/UsagePercent", source),
        metrics=metrics,
        params={"targets": [vars(t) for t in targets]},
    )


_XML_COUNTS = ("IOCount", "BytesCount", "ReadCount", "ReadBytes", "WriteCount", "WriteBytes")
_XML_DIRECTIONS = {
    "total": ("IOCount", "BytesCount"),
    "read": ("ReadCount", "ReadBytes"),
    "write": ("WriteCount", "WriteBytes"),
}


def _xml_latency_averages(latency: ET.Element | None, source: _XmlFile) -> dict[str, float | None]:
    if latency is None:
        return {}
    names = {
        "total": "AverageTotalMilliseconds",
        "read": "AverageReadMilliseconds",
        "write": "AverageWriteMilliseconds",
    }
    return {key: _xml_number(latency, tag, source) for key, tag in names.items() if latency.findtext(tag)}


def _xml_percentiles(latency: ET.Element, source: _XmlFile) -> dict[str, dict[str, float | None]]:
    table: dict[str, dict[str, float | None]] = {"read": {}, "write": {}, "total": {}}
    for bucket in latency.iterfind("Bucket"):
        percentile = bucket.findtext("Percentile", "").strip()
        for key, tag in (("read", "ReadMilliseconds"), ("write", "WriteMilliseconds"), ("total", "TotalMilliseconds")):
            if bucket.findtext(tag):
                table[key][percentile] = _xml_number(bucket, tag, source)
    return {key: values for key, values in table.items() if values}


def _xml_profile(profile: ET.Element | None, source: _XmlFile) -> tuple[list[_Target], int | None]:
    """The targets of the profile's timespan, and the thread-pool depth when -O was used."""
    if profile is None:
        return [], None
    targets = []
    for element in profile.iterfind("Targets/Target"):
        random = element.find("Random") is not None
        ratio = element.findtext("RandomRatio")
        alignment = (int(_xml_number(element, "Random", source) or 0) or None) if random else None
        targets.append(
            _Target(
                path=element.findtext("Path", "").strip(),
                block_bytes=int(_xml_number(element, "BlockSize", source) or 0) or None,
                write_pct=_xml_number(element, "WriteRatio", source),
                random_pct=(_xml_number(element, "RandomRatio", source) if ratio else 100.0) if random else 0.0,
                outstanding_per_thread=int(_xml_number(element, "RequestCount", source) or 0) or None,
                alignment_bytes=alignment,
                interlocked=element.findtext("InterlockedSequential", "").strip().lower() == "true",
                settings=[f"{child.tag}={(child.text or '').strip()}" for child in element if _is_setting(child)],
            )
        )
    threads = int(_xml_number(profile, "ThreadCount", source) or 0)
    depth = int(_xml_number(profile, "RequestCount", source) or 0)
    return targets, depth if threads and depth else None


def _is_setting(element: ET.Element) -> bool:
    return element.tag in ("DisableOSCache", "WriteThrough", "DisableAllCache", "TemporaryFile") and bool(element.text)


def _xml_number(element: ET.Element, path: str, source: _XmlFile) -> float | None:
    line = source.line_of(element, path)
    return read_number(element.findtext(path) or "", file=source.name, line=line, field=path, printed=PRINTED_XML)


def _xml_count(element: ET.Element, path: str, source: _XmlFile) -> int:
    """A count every <Target> holds (IOCount, BytesCount, ...)."""
    value = _xml_number(element, path, source)
    if value is None:
        raise ParseError(f"a <{element.tag}> has no <{path}>; the file may be damaged", file=source.name, field=path)
    return whole(value, file=source.name, line=source.line_of(element, path), field=path, shown=element.findtext(path))


def _timestamp(text: str | None) -> str | None:
    """DiskSpd writes ``2018/10/18 21:39:04 UTC``."""
    if not text:
        return None
    try:
        stamp = datetime.strptime(text.strip().removesuffix(" UTC"), "%Y/%m/%d %H:%M:%S")
    except ValueError:
        return None
    return stamp.isoformat() + ("+00:00" if text.strip().endswith("UTC") else "")
