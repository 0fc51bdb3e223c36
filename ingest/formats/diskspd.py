"""DiskSpd results: the ``-Rxml`` output and the text output (the default).

One run per measured timespan (a text file may hold several DiskSpd outputs one after another,
each after its ``Command Line:``), one point per run. DiskSpd counts bytes exactly, so MB/s
(10^6 bytes/s) are computed from the byte counts and the measured time rather than from its
rounded binary ``MB/s`` / ``MiB/s`` column. The ``Totals:`` table DiskSpd adds after several
timespans only sums them again and is not stored.
"""

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import ParseError
from ..numbers import Printed, read_number, whole
from ..result import Point, ResultSet, Run, TransferSize, Workload
from ..source import Source, decode_head, sniff_encoding
from ..units import MB, size_multiplier

FORMAT = "diskspd"
TOOL = "DiskSpd"
READS = (
    "DiskSpd `-Rxml` and text output (Total/Read/Write IO, `%-ile` and CPU tables; several runs per "
    "file; legacy code pages); binary MB/s converted"
)

# Windows code page assumed for text lines that are not UTF-8 (a console redirected to a file).
LEGACY_CODE_PAGE = "cp1251"
PERCENTILE_ROWS = {"min": "0", "max": "100", "25th": "25", "50th": "50", "75th": "75", "90th": "90"}
PERCENTILE_ROWS |= {"95th": "95", "99th": "99"}
PERCENTILE_ROWS |= {f"{n}-nines": "99." + "9" * (n - 2) for n in range(3, 10)}
# -L: DiskSpd measures latency and ends each result with a %-ile table.
LATENCY_FLAG = re.compile(r"(?:^|\s)-L(?=\s|$)")
CPU_HEADER = re.compile(r"^(Group \| |Core \| )?CPU \|")
FILE_SIZE_SUFFIX = re.compile(r"\s+\(\d+(?:[KMGT]i?)?B\)$")
# Text output as a Windows locale prints it: grouping spaces, a decimal comma, "N/A", "12%".
PRINTED_TEXT = Printed(
    missing=frozenset({"n/a"}),
    units=("%",),
    decimal_comma=True,
    grouping_spaces=True,
    refusal="expected a number in {field!r}, found {stripped!r}",
)
PRINTED_XML = Printed(refusal="<{field}> holds {stripped!r}, not a number")


def sniff(head: bytes, name: str) -> bool:
    text = decode_head(head)
    if "<Results>" in text and ("<System>" in text or "<Profile>" in text):
        return True
    return "Command Line:" in text and ("Input parameters:" in text or "diskspd" in text.lower())


def refuse(head: bytes, name: str) -> str | None:
    text = decode_head(head).lstrip()
    if text.startswith("<Profile>") and "<TimeSpans>" in text and "<Results>" not in text:
        return "this is a DiskSpd profile (the -X input), not results; upload the output of diskspd -Rxml instead"
    return None


def parse(source: Source) -> ResultSet:
    text = source.head_text()
    if text.lstrip().startswith(("<?xml", "<Results")):
        return _parse_xml(source)
    return _parse_text(source)


# The shared model: what either output gives for one timespan ---------------------------------


@dataclass
class _Target:
    """One target as the profile describes it."""

    path: str
    block_bytes: int | None = None
    write_pct: float | None = None
    random_pct: float | None = None
    outstanding_per_thread: int | None = None
    alignment_bytes: int | None = None  # of random offsets (-r<align>)
    interlocked: bool = False  # -si: the target's threads share one sequential stream
    settings: list[str] = field(default_factory=list)


@dataclass
class _Direction:
    ios: int
    bytes: int
    iops: float | None
    avg_ms: float | None = None


@dataclass
class _Measurement:
    """One measured timespan: totals, the (thread, target) pairs and the profile behind them."""

    seconds: float
    threads: int | None
    directions: dict[str, _Direction]  # "total" / "read" / "write"
    pairs: list[tuple[str, int]]  # (target path, I/O count) per thread and target
    targets: list[_Target]
    pool_outstanding_per_thread: int | None = None
    cpu_pct: float | None = None
    metrics: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)


def _run(
    measurement: _Measurement,
    *,
    timespan: int,
    several: bool,
    started_at: str | None,
    description: str,
    warnings: list[str],
    where: str,
) -> Run:
    paths = list(dict.fromkeys(path for path, _ in measurement.pairs)) or [t.path for t in measurement.targets]
    workload = _workload(measurement)
    point = _point(measurement, warnings, where)
    name = _title(workload, point.load) or ", ".join(paths) or "DiskSpd"
    if several:
        name += f" (timespan {timespan})"
    params = measurement.params if not paths else {**measurement.params, "target_paths": paths}
    return Run(
        name=name,
        description=description,
        started_at=started_at,
        workload=workload,
        params=params,
        points=[point],
    )


def _titles_told_apart(runs: list[Run]) -> None:
    """Runs of one file that do the same name their targets: "4K random 50 % read, ... on D:\\testfile.foo"."""
    titles = Counter(run.name for run in runs)
    for run in runs:
        paths = run.params.get("target_paths") or []
        if titles[run.name] > 1 and paths and run.name != ", ".join(paths):
            run.name += " on " + ", ".join(paths)


def _title(workload: Workload, load: dict) -> str:
    """What a run does, as engineers title a DiskSpd run: "4K random 50 % read, 2 threads x 32 outstanding"
    ('' when the profile states neither the block size nor the access). The target path is a detail of it."""
    sizes = [size.bytes for size in workload.transfer_sizes]
    size = _size_title(sizes[0]) if len(sizes) == 1 else ""
    access = _share_title(workload.random_pct, {100: "random", 0: "sequential"}, "random")
    direction = _share_title(workload.read_pct, {100: "read", 0: "write"}, "read")
    what = " ".join(part for part in (size, access, direction) if part)
    if not what:
        return ""
    threads, outstanding = load.get("threads"), load.get("outstanding_io")
    if threads and outstanding and outstanding % threads == 0:
        what += f", {threads} thread{'s' if threads != 1 else ''} x {outstanding // threads} outstanding"
    elif outstanding:
        what += f", {outstanding} outstanding"
    return what


def _share_title(pct: float | None, words: dict[int, str], of: str) -> str:
    """ "random", "sequential", "30 % random"; "read", "write", "50 % read" ('' when not stated)."""
    if pct is None:
        return ""
    return words.get(round(pct), f"{pct:.3g} % {of}") if pct == round(pct) else f"{pct:.3g} % {of}"


def _size_title(size_bytes: int) -> str:
    """4K, 64K, 1M as DiskSpd's ``-b`` writes block sizes; other sizes in bytes."""
    for suffix, factor in (("M", 1024 * 1024), ("K", 1024)):
        if size_bytes >= factor and size_bytes % factor == 0:
            return f"{size_bytes // factor}{suffix}"
    return f"{size_bytes} B"


def _point(m: _Measurement, warnings: list[str], where: str) -> Point:
    total, read, write = (m.directions.get(key) for key in ("total", "read", "write"))
    point = Point(cpu_pct=m.cpu_pct, metrics=m.metrics)
    point.load = {"outstanding_io": _outstanding(m, warnings, where), "threads": m.threads}
    point.iops, point.mbps, point.avg_response_ms = _figures(total, m.seconds)
    point.read_iops, point.read_mbps, point.avg_read_response_ms = _figures(read, m.seconds)
    point.write_iops, point.write_mbps, point.avg_write_response_ms = _figures(write, m.seconds)
    point.max_response_ms = (m.metrics.get("percentiles_ms") or {}).get("total", {}).get("100")
    return point


def _figures(direction: _Direction | None, seconds: float) -> tuple[float | None, float | None, float | None]:
    """(IOPS, decimal MB/s, mean latency ms); None for a direction that did no I/O."""
    if direction is None or not direction.ios:
        return None, None, None
    return direction.iops, direction.bytes / seconds / MB, direction.avg_ms


def _outstanding(m: _Measurement, warnings: list[str], where: str) -> int | None:
    """Outstanding I/Os: per-thread depth x threads, summed over the targets each thread drives."""
    if m.pool_outstanding_per_thread and m.threads:
        return m.pool_outstanding_per_thread * m.threads
    by_path = {t.path.lower(): t for t in m.targets}
    total = 0
    for path, _ in m.pairs:
        target = by_path.get(path.lower()) or (m.targets[0] if len(m.targets) == 1 else None)
        if target is None or target.outstanding_per_thread is None:
            warnings.append(f"{where}: no queue depth for target {path!r}; outstanding I/Os left unknown")
            return None
        total += target.outstanding_per_thread
    return total or None


def _workload(m: _Measurement) -> Workload:
    """The workload of the targets, each weighted by the I/Os it did."""
    ios_by_path: dict[str, int] = {}
    for path, ios in m.pairs:
        ios_by_path[path.lower()] = ios_by_path.get(path.lower(), 0) + ios
    weights = [(t, ios_by_path.get(t.path.lower(), 0)) for t in m.targets]
    if not any(w for _, w in weights):
        weights = [(t, 1) for t in m.targets]
    total = sum(w for _, w in weights)
    if not total:
        return Workload()
    sizes: dict[int, float] = {}
    for target, weight in weights:
        if target.block_bytes:
            sizes[target.block_bytes] = sizes.get(target.block_bytes, 0.0) + 100.0 * weight / total
    return Workload(
        read_pct=_weighted(weights, total, lambda t: None if t.write_pct is None else 100 - t.write_pct),
        random_pct=_weighted(weights, total, lambda t: t.random_pct),
        transfer_sizes=[TransferSize(bytes=b, pct=round(p, 6)) for b, p in sorted(sizes.items())],
        alignment_bytes=_common_alignment(m.targets),
        streams=_interlocked_streams(m.targets),
    )


def _common_alignment(targets: list[_Target]) -> int | None:
    """The random-offset alignment the targets share; targets that differ state no one alignment."""
    alignments = {t.alignment_bytes for t in targets if t.random_pct}
    return alignments.pop() if len(alignments) == 1 else None


def _interlocked_streams(targets: list[_Target]) -> int | None:
    """``-si`` makes all threads of a target share one sequential stream: one stream per target.
    Without it each thread runs its own sequence, which is load (threads), not a stated stream count."""
    if targets and all(t.interlocked and not t.random_pct for t in targets):
        return len(targets)
    return None


def _weighted(
    weights: list[tuple[_Target, int]], total: int, value_of: Callable[[_Target], float | None]
) -> float | None:
    values = [(value, w) for t, w in weights if (value := value_of(t)) is not None]
    if len(values) < len(weights):
        return None
    return round(sum(v * w for v, w in values) / total, 6)


def _result_set(source: Source, version: str | None, runs: list[Run], warnings: list[str]) -> ResultSet:
    if not runs:
        raise ParseError(
            "no measured timespan found: expected DiskSpd results ('Command Line:' then 'Results for timespan')",
            file=source.name,
        )
    _titles_told_apart(runs)
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": version},
        source=source.describe(),
        runs=runs,
        warnings=warnings,
    )


# XML (-Rxml) ----------------------------------------------------------------------------------


@dataclass
class _XmlFile:
    """A DiskSpd XML file as its figures are read: its name and the line each element starts on."""

    name: str
    lines: dict[ET.Element, int]

    def line_of(self, element: ET.Element, path: str | None = None) -> int | None:
        found = element if path is None else element.find(path)
        return self.lines.get(found if found is not None else element)


class _LineNumbers(ET.TreeBuilder):
    """Builds the tree, noting the line each element starts on (``line`` is set as lines are fed)."""

    def __init__(self) -> None:
        super().__init__()
        self.line = 0
        self.lines: dict[ET.Element, int] = {}

    def start(self, tag: str, attrs: dict[str, str]) -> ET.Element:
        element = super().start(tag, attrs)
        self.lines[element] = self.line
        return element


def _parse_xml(source: Source) -> ResultSet:
    root, lines = _xml_root(source)
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
    return _result_set(source, root.findtext("System/Tool/Version"), runs, warnings)


def _xml_root(source: Source) -> tuple[ET.Element, dict[ET.Element, int]]:
    """Parse line by line, refusing DTDs: a result file never needs one, and entities can attack."""
    target = _LineNumbers()
    parser = ET.XMLParser(target=target)
    with source.open_text() as stream:
        for number, line in enumerate(stream, 1):
            target.line = number
            if "<!DOCTYPE" in line or "<!ENTITY" in line:
                raise ParseError(
                    "the XML declares a DOCTYPE or ENTITY; DiskSpd never writes one, so the file is refused",
                    file=source.name,
                    line=number,
                )
            try:
                parser.feed(line)
            except ET.ParseError as error:
                raise _xml_error(error, source) from None
        try:
            return parser.close(), target.lines
        except ET.ParseError as error:
            raise _xml_error(error, source) from None


def _xml_error(error: ET.ParseError, source: Source) -> ParseError:
    line, column = error.position
    return ParseError(
        f"not well-formed XML ({error.msg}); the file may be truncated", file=source.name, line=line, column=column
    )


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


# Text output ----------------------------------------------------------------------------------


def _parse_text(source: Source) -> ResultSet:
    reader = _TextReader(source)
    for number, line in _text_lines(source, reader.warnings):
        reader.feed(number, line)
    reader.finish()
    return _result_set(source, None, reader.runs, reader.warnings)


def _text_lines(source: Source, warnings: list[str]) -> Iterator[tuple[int, str]]:
    """Numbered lines without line ends; lines that are not UTF-8 are read in the legacy code page."""
    encoding, _ = sniff_encoding(source.head())
    if encoding != "utf-8":
        with source.open_text() as stream:
            for number, line in enumerate(stream, 1):
                yield number, line.rstrip("\n")
        return
    legacy = []
    with source.open_binary() as stream:
        for number, raw in enumerate(stream, 1):
            if b"\x00" in raw:
                raise ParseError(
                    "NUL byte in the text: the file is damaged (or UTF-16 without a byte-order mark); "
                    "save DiskSpd's output again",
                    file=source.name,
                    line=number,
                )
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line = raw.decode(LEGACY_CODE_PAGE, errors="replace")
                legacy.append(number)
            yield number, line.rstrip("\r\n")
    if legacy:
        warnings.append(
            f"{source.name}: {len(legacy)} lines (first: line {legacy[0]}) are not UTF-8 and were read as "
            f"{LEGACY_CODE_PAGE}; names may show wrong letters if the console used another code page"
        )


@dataclass
class _TextRun:
    """One DiskSpd text output, from its ``Command Line:`` on."""

    line: int
    command_line: str
    spans: list[dict[str, Any]] = field(default_factory=list)  # per timespan: {"targets": [...], "pool_depth": n}
    results: list[dict[str, Any]] = field(default_factory=list)  # per measured timespan: dict of what was read
    system: dict[str, str] = field(default_factory=dict)


class _TextReader:
    """A line-driven reader: the section a line belongs to decides how it is read."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.warnings: list[str] = []
        self.runs: list[Run] = []
        self.run: _TextRun | None = None
        self.section: str | None = None
        self.table: dict[str, Any] | None = None
        self.skipped: list[tuple[int, str]] = []  # (line number, text) not part of any DiskSpd section
        self.label: tuple[int, str] | None = None  # the line naming the next %-ile chart (a target path or "total:")

    # dispatch

    def feed(self, number: int, line: str) -> None:
        stripped = line.strip()
        if stripped.startswith("Command Line:"):
            self._start_run(number, stripped)
        elif self.run is None:
            self._skip(number, stripped)
        elif self.table is not None:
            self._table_line(self.table, number, stripped)
        elif stripped:
            self._section_line(number, stripped)

    def _section_line(self, number: int, stripped: str) -> None:
        if stripped == "Input parameters:":
            self.section = "parameters"
        elif stripped == "System information:":
            self.section = "system"
        elif stripped.startswith("Results for timespan"):
            self._start_results(number, stripped)
        elif stripped == "Totals:":
            self.section = "totals"
        elif self.section == "parameters":
            self._parameter(number, stripped)
        elif self.section == "system":
            key, _, value = stripped.partition(":")
            self._current().system[key.strip()] = value.strip()
        elif self.section == "totals":
            return
        elif not self._result_line(number, stripped):
            self._label_or_skip(number, stripped)

    def _start_run(self, number: int, stripped: str) -> None:
        self._flush_run()
        self._warn_skipped()
        self.run = _TextRun(line=number, command_line=stripped.partition(":")[2].strip())
        self.section, self.table = None, None

    def _skip(self, number: int, stripped: str) -> None:
        if stripped:
            self.skipped.append((number, stripped))

    def _label_or_skip(self, number: int, stripped: str) -> None:
        if self.label is not None:
            self._skip(*self.label)
        self.label = (number, stripped)

    def _warn_skipped(self) -> None:
        if self.label is not None:
            self._skip(*self.label)
            self.label = None
        if not self.skipped:
            return
        first, last = self.skipped[0][0], self.skipped[-1][0]
        where = f"{first}" if first == last else f"{first}-{last}"
        shown = " | ".join(text for _, text in self.skipped[:3]) + (" | ..." if len(self.skipped) > 3 else "")
        count = f"{len(self.skipped)} line" + ("s" if len(self.skipped) > 1 else "")
        self.warnings.append(f"{self.source.name}:{where}: {count} outside DiskSpd output skipped: {shown}")
        self.skipped = []

    def _current(self) -> _TextRun:
        """The output being read: section lines reach the readers only after its 'Command Line:'."""
        if self.run is None:
            raise ParseError("DiskSpd output before its 'Command Line:'", file=self.source.name)
        return self.run

    def finish(self) -> None:
        self._flush_run()
        self._warn_skipped()

    # Input parameters

    def _parameter(self, number: int, stripped: str) -> None:
        key, _, value = stripped.partition(":")
        spans = self._current().spans
        if key == "timespan":
            spans.append({"targets": [], "pool_depth": None, "settings": {}})
            return
        if not spans:
            spans.append({"targets": [], "pool_depth": None, "settings": {}})
        span = spans[-1]
        if key == "path":
            span["targets"].append(_Target(path=value.strip().strip("'")))
        elif span["targets"]:
            self._target_parameter(span["targets"][-1], number, stripped)
        elif key.startswith("number of outstanding I/O operations"):
            span["pool_depth"] = self._count(value, number, key)
        elif value:
            span["settings"][key] = value.strip()

    def _target_parameter(self, target: _Target, number: int, stripped: str) -> None:
        key, _, value = stripped.partition(":")
        if key == "block size":
            target.block_bytes = _size_bytes(value, number, self.source)
        elif key.startswith("number of outstanding I/O operations"):
            target.outstanding_per_thread = self._count(value, number, key)
        elif stripped.startswith("performing"):
            target.write_pct = _write_pct(stripped)
        elif stripped.startswith("using") and "I/O (" in stripped:
            target.random_pct = _random_pct(stripped)
            target.interlocked = stripped.startswith("using interlocked sequential")
            target.alignment_bytes = self._alignment_bytes(stripped, number) if target.random_pct else None
        else:
            target.settings.append(stripped)

    def _alignment_bytes(self, stripped: str, number: int) -> int | None:
        """'using random I/O (alignment: 4096)', '... (alignment/stride: 8KiB)'."""
        match = re.search(r"\(alignment(?:/stride)?:\s*([^)]*)\)", stripped)
        return _size_bytes(match.group(1), number, self.source, field="alignment") if match else None

    # Results

    def _start_results(self, number: int, stripped: str) -> None:
        self.section = "results"
        self._current().results.append(
            {"line": number, "timespan": len(self._current().results) + 1, "tables": {}, "charts": []}
        )

    def _result_line(self, number: int, stripped: str) -> bool:
        """Read one line of a results section; False when it is not DiskSpd's."""
        if not self._current().results:
            return False
        if not stripped.strip("*-"):
            return True  # a rule under a heading
        result = self._current().results[-1]
        key, _, value = stripped.partition(":")
        if key in ("actual test time", "thread count", "request count", "proc count") and value.strip():
            result[key] = self._number(value.strip().rstrip("s"), number, key)
        elif stripped.startswith("The test was interrupted"):
            self.warnings.append(f"{self.source.name}:{number}: {stripped}")
            result["interrupted"] = True
        elif stripped in ("Total IO", "Read IO", "Write IO"):
            self.table = {
                "kind": stripped.split()[0].lower(), "header": None, "rows": [], "total": None, "line": number,
            }  # fmt: skip
        elif CPU_HEADER.match(stripped):
            self.table = {"kind": "cpu", "header": _cells(stripped), "rows": [], "total": None}
        elif stripped.startswith("%-ile |"):
            # DiskSpd names a chart on the line just above it; anything further up is not a name.
            label = self.label[1] if self.label and self.label[0] == number - 1 else None
            if self.label and label is None:
                self._skip(*self.label)
            self.label = None
            self.table = {
                "kind": "percentiles", "header": _cells(stripped), "rows": [], "label": label, "line": number,
            }  # fmt: skip
        else:
            return False
        return True

    def _table_line(self, table: dict[str, Any], number: int, stripped: str) -> None:
        if not stripped:
            self._end_table(table)
        elif not stripped.strip("-"):
            return
        elif table["header"] is None:
            table["header"] = _cells(stripped)
        elif stripped.startswith("total:"):
            table["total"] = (number, _cells(stripped.removeprefix("total:")))
        elif stripped.startswith("avg."):
            table["total"] = (number, _cells(stripped.removeprefix("avg.").lstrip("|")))
        else:
            table["rows"].append((number, stripped))  # split only where the rows are used

    def _end_table(self, table: dict[str, Any]) -> None:
        self.table = None
        result = self._current().results[-1]
        if table["kind"] == "percentiles":
            if self._percentiles_complete(table):
                result["charts"].append((table["label"], self._percentiles(table)))
            else:
                result["cut_percentiles"] = True
        else:
            result["tables"][table["kind"]] = table

    def _percentiles_complete(self, table: dict[str, Any]) -> bool:
        """DiskSpd ends every %-ile table with its ``max`` row: a table without it was cut short, and is
        not read (a warning says so)."""
        if any(_cells(row)[:1] == ["max"] for _, row in table["rows"]):
            return True
        last = table["rows"][-1][0] if table["rows"] else table["line"]
        self.warnings.append(
            f"{self.source.name}:{last}: the %-ile table ends before its 'max' row (DiskSpd always writes it): "
            "the output looks cut short here; its percentiles and maximum latency are not stored"
        )
        return False

    def _percentiles(self, table: dict[str, Any]) -> dict[str, dict[str, float]]:
        columns = {"Read (ms)": "read", "Write (ms)": "write", "Total (ms)": "total"}
        chart: dict[str, dict[str, float]] = {}
        for number, row in table["rows"]:
            cells = _cells(row)
            percentile = PERCENTILE_ROWS.get(cells[0])
            for name, text in zip(table["header"][1:], cells[1:], strict=False):
                value = self._number(text, number, name)
                if percentile is not None and name in columns and value is not None:
                    chart.setdefault(columns[name], {})[percentile] = value
        return chart

    # Building runs

    def _flush_run(self) -> None:
        if self.table is not None:
            self._end_table(self.table)
        run, self.run = self.run, None
        if run is None:
            return
        self._check_run_complete(run)
        measured = [r for r in run.results if not r.get("interrupted")]
        for result in measured:
            span = run.spans[result["timespan"] - 1] if result["timespan"] <= len(run.spans) else None
            measurement = self._measurement(result, span, run)
            self.runs.append(
                _run(
                    measurement,
                    timespan=result["timespan"],
                    several=len(run.results) > 1,
                    started_at=_timestamp(run.system.get("start time")),
                    description=run.command_line,
                    warnings=self.warnings,
                    where=f"{self.source.name}:{result['line']}",
                )
            )

    def _check_run_complete(self, run: _TextRun) -> None:
        """A run whose output stops before the results of each of its timespans is cut short: what it
        holds is not stored, and the warning says so."""
        expected = max(len(run.spans), 1)
        if len(run.results) < expected:
            self.warnings.append(
                f"{self.source.name}:{run.line}: this DiskSpd run holds the results of {len(run.results)} of its "
                f"{expected} timespan{'s' if expected > 1 else ''}: the output looks cut short, and the missing "
                "results are not stored"
            )

    def _measurement(self, result: dict[str, Any], span: dict[str, Any] | None, run: _TextRun) -> _Measurement:
        seconds = result.get("actual test time")
        if not seconds or "total" not in result["tables"]:
            raise ParseError(
                "the results have no 'actual test time' or no 'Total IO' table; the output looks cut short",
                file=self.source.name,
                line=result["line"],
            )
        missing = [f"'{kind.title()} IO'" for kind in ("read", "write") if kind not in result["tables"]]
        if missing:
            raise ParseError(
                f"the results have no {' or '.join(missing)} table (DiskSpd writes Total, Read and Write IO "
                "tables); the output looks cut short",
                file=self.source.name,
                line=result["line"],
            )
        if LATENCY_FLAG.search(run.command_line) and not result["charts"] and not result.get("cut_percentiles"):
            self.warnings.append(
                f"{self.source.name}:{result['line']}: DiskSpd ran with -L but these results have no %-ile table: "
                "the output looks cut short; their percentiles and maximum latency are not stored"
            )
        directions = {kind: self._io_table(table) for kind, table in result["tables"].items() if kind != "cpu"}
        pairs = self._thread_rows(result["tables"]["total"])
        return _Measurement(
            seconds=seconds,
            threads=self._count(result["thread count"], result["line"], "thread count")
            if result.get("thread count")
            else None,
            directions=directions,
            pairs=pairs,
            targets=span["targets"] if span else [],
            pool_outstanding_per_thread=span["pool_depth"] if span else None,
            cpu_pct=self._cpu_pct(result["tables"].get("cpu")),
            metrics=self._text_metrics(result),
            params={"command_line": run.command_line, **(span["settings"] if span else {}), **run.system}
            | {"targets": [vars(t) for t in (span["targets"] if span else [])]},
        )

    def _io_table(self, table: dict[str, Any]) -> _Direction:
        """The ``total:`` row of one Total/Read/Write IO table."""
        header = table["header"]
        if table["total"] is None:
            raise ParseError(
                f"the {table['kind'].title()} IO table has no 'total:' row (the file may be cut short)",
                file=self.source.name,
                line=table["line"],
            )
        number, cells = table["total"]
        values = dict(zip(header[1:], cells, strict=False))
        direction = _Direction(
            ios=int(self._number(values.get("I/Os"), number, "I/Os") or 0),
            bytes=int(self._number(values.get("bytes"), number, "bytes") or 0),
            iops=self._number(values.get("I/O per s"), number, "I/O per s"),
            avg_ms=self._number(values["AvgLat"], number, "AvgLat") if "AvgLat" in values else None,
        )
        return direction

    def _thread_rows(self, table: dict[str, Any]) -> list[tuple[str, int]]:
        """(target path, I/Os) for each thread row of the Total IO table."""
        rows = []
        for number, row in table["rows"]:
            named = dict(zip(table["header"], _cells(row), strict=False))
            path = FILE_SIZE_SUFFIX.sub("", named.get("file", ""))
            rows.append((path, int(self._number(named.get("I/Os"), number, "I/Os") or 0)))
        return rows

    def _cpu_pct(self, table: dict[str, Any] | None) -> float | None:
        if table is None or table["total"] is None:
            return None
        number, cells = table["total"]
        # The avg. row has no Group/Core/CPU cells: align it with the header from the right.
        values = dict(zip(table["header"][-len(cells) :], cells, strict=False))
        return self._number(values.get("Usage"), number, "Usage")

    def _text_metrics(self, result: dict[str, Any]) -> dict[str, Any]:
        metrics: dict[str, Any] = {"test_time_s": result["actual test time"]}
        charts = result["charts"]
        overall = [chart for label, chart in charts if label in (None, "total:")]
        if overall or charts:
            metrics["percentiles_ms"] = (overall or [charts[-1][1]])[-1]
        per_target = {label: chart for label, chart in charts if label not in (None, "total:")}
        if per_target:
            metrics["target_percentiles_ms"] = per_target
        return metrics

    def _number(self, text: str | None, number: int, column: str) -> float | None:
        return _number(text, number, column, self.source)

    def _count(self, text: str | None, number: int, column: str) -> int:
        """A count the line must hold (outstanding I/Os per thread, ...)."""
        value = self._number(text, number, column)
        if value is None:
            raise ParseError(f"{column!r} has no value", file=self.source.name, line=number, field=column)
        return whole(value, file=self.source.name, line=number, field=column, shown=text)


def _cells(text: str) -> list[str]:
    return [cell.strip() for cell in text.split("|")]


def _number(text: str | None, number: int, column: str, source: Source) -> float | None:
    """A number as DiskSpd printed it, also with a locale's grouping spaces and decimal comma."""
    return (
        None if text is None else read_number(text, file=source.name, line=number, field=column, printed=PRINTED_TEXT)
    )


def _size_bytes(text: str, number: int, source: Source, field: str = "block size") -> int:
    match = re.fullmatch(r"\s*(\d+)\s*([KMGT]iB|B)?\s*", text)
    if not match:
        raise ParseError(f"{field} {text.strip()!r} is not a size", file=source.name, line=number, field=field)
    multiplier = size_multiplier(match.group(2) or "")
    if multiplier is None:  # the pattern holds only units size_multiplier knows
        raise ParseError(f"{field} {text.strip()!r} is not a size", file=source.name, line=number, field=field)
    return int(match.group(1)) * multiplier


def _write_pct(stripped: str) -> float | None:
    if "read test" in stripped:
        return 0.0
    if "write test" in stripped:
        return 100.0
    match = re.search(r"ratio:\s*(\d+)\s*/\s*(\d+)", stripped)
    return float(match.group(2)) if match else None


def _random_pct(stripped: str) -> float:
    if stripped.startswith("using random"):
        return 100.0
    match = re.search(r"\((\d+)% random\)", stripped)
    return float(match.group(1)) if match else 0.0
