"""Microsoft Exchange Jetstress result reports (HTML), Jetstress 2007 to 2019.

A report is sections of two-column label/value tables (Test Summary, Database Sizing and
Throughput, Jetstress System Parameters) and multi-column grids (Jetstress 2007: "Disk Subsystem
Performance" with one LogicalDisk row per volume, latencies in **seconds**; 2010 and later:
"Transactional I/O Performance" with one ``InstanceNNNN.N`` row per database instance, latencies in
**milliseconds**), then host counters and the test log. Section titles may be headings or a
one-cell row of the table; labels are matched by their words, whatever their case, spacing and
"Transactional".

The report is user-supplied HTML: it is read with the standard library's tokenizer only, never
rendered, and nothing in it is run. Cell text is kept as written: markup that is not text
formatting (``<script>``, ``<img>``...) stays in the value as literal text; scripts outside the
tables are passed over with a warning.

Mapping: one run named after the test description (or "Jetstress"), ``verdict`` from Overall Test
Result, one point with ``load.threads`` = thread count, ``iops`` = achieved transactional IOPS,
``read_iops`` / ``write_iops`` = database reads / writes per second summed over instances (or
database volumes), ``avg_read_response_ms`` / ``avg_write_response_ms`` = database latencies
weighted by those rates, ``avg_response_ms`` = both weighted together, ``cpu_pct`` = host
``% Processor Time``; ``metrics`` holds ``target_iops``, ``log_write_latency_ms`` (weighted by log
writes per second), the per-instance rows (``instances``), the host counters (``host``) and any
other grid under its section name. The workload's read % is the measured database read share
(named in ``params["measured_workload"]``); random % and transfer sizes stay unknown: Exchange's
database I/O mix is not stated in the report, and its usual sizes are no figure of this test.

The modules: :mod:`.report` reads the HTML into sections, fields and grids; :mod:`.grids` reads their
figures; this module makes the run and its point.
"""

import re
from datetime import datetime
from typing import Any

from ...errors import ParseError
from ...figures import measured_read_pct
from ...result import Point, ResultSet, Run, Workload
from ...source import Source, decode_head
from .grids import _field_number, _Instance, _instance_rows, _plain_grid, _sum, _value_or_text, _weighted, _whole_number
from .report import (
    _FIELDS_ELSEWHERE,
    _MAIN_GRIDS,
    _collect,
    _cut_short_warning,
    _Field,
    _field,
    _label_key,
    _read_items,
    _Report,
    _snake,
)

__all__ = ["FORMAT", "READS", "TOOL", "parse", "refuse", "sniff"]

MAX_THREAD_DIGITS = 9  # a billion threads is no Jetstress run
FORMAT = "jetstress"
TOOL = "Microsoft Exchange Jetstress"
READS = (
    "Jetstress 2007 to 2019 HTML result reports (UTF-8 or UTF-16): verdict, achieved and target IOPS, "
    "thread count, per-volume or per-instance database and log latencies; configuration XML refused"
)
_TIME_FORMATS = ("%m/%d/%Y %I:%M:%S %p", "%m/%d/%Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%d.%m.%Y %H:%M:%S")


def _head_text(head: bytes) -> str:
    return decode_head(head).lower()


def refuse(head: bytes, name: str) -> str | None:
    text = _head_text(head)
    if "<configuration" in text and ("jetstressversiongenerated" in text or "<exchangeprofile" in text):
        return (
            "this is a Jetstress configuration file (JetstressConfig.xml): the settings of a test, not its "
            "results; upload the HTML report Jetstress writes after the test (Performance_*.html)"
        )
    return None


def sniff(head: bytes, name: str) -> bool:
    text = _head_text(head)
    return "jetstress" in text and ("<html" in text or "<table" in text)


def _time(found: _Field | None) -> str | None:
    """A Test Start / End Time as a date in ISO form; a time none of Jetstress's forms reads is refused."""
    if found is None:
        return None
    label, text, line, _section = found
    for pattern in _TIME_FORMATS:
        try:
            return datetime.strptime(text.strip(), pattern).isoformat()
        except ValueError:
            continue
    raise ParseError(
        f"{label} {text.strip()[:40]!r} is not a date as Jetstress writes it (such as '10/16/2009 11:49:39 AM')",
        line=line,
        field=label,
    )


def _verdict(report: _Report) -> str | None:
    found = _field(report, "overall test result")
    if found is None:
        report.warnings.append("no Overall Test Result in the report; the run has no verdict")
        return None
    value = found[1].strip().lower()
    if value.startswith(("pass", "fail")):
        return "pass" if value.startswith("pass") else "fail"
    report.warnings.append(f"line {found[2]}: Overall Test Result {found[1]!r} is neither Pass nor Fail")
    return None


def _threads(report: _Report) -> tuple[int | None, str | None]:
    found = _field(report, "thread count")
    if found is None:
        return None, None
    match = re.match(r"\s*(\d+)\s*(?:\((.*)\))?", found[1])
    if not match or len(match[1]) > MAX_THREAD_DIGITS:
        shown = found[1] if len(found[1]) <= 40 else f"{found[1][:40]}...({len(found[1])} characters)"
        raise ParseError(f"expected a number of threads, found {shown!r}", line=found[2], field=found[0])
    return int(match[1]), match[2]


def _params(report: _Report) -> dict[str, Any]:
    """Every label/value field by section, with percentages and MB sizes as numbers."""
    params: dict[str, Any] = {}
    for section, fields in report.sections.items():
        for label, value in fields.items():
            key = _snake(label)
            if section == "database configuration":
                params.setdefault("database_configuration", {})[label] = value
            elif "database size" in _label_key(label) or _label_key(label) == "database files":
                found = report.fields.get(_label_key(label))
                line = found[2] if found is not None else None
                params[f"{key}_{'count' if 'files' in key else 'bytes'}"] = _whole_number(value, line, label)
            elif value.strip().endswith("%"):
                params[f"{key}_pct"] = _value_or_text(value)
            elif re.fullmatch(r"[\d.,]+\s*mb", value.strip().lower()):
                params[f"{key}_mb"] = _value_or_text(value)
            elif key not in _FIELDS_ELSEWHERE:
                params[key] = value
    if report.test_log:
        params["test_log"] = report.test_log
    return params


def _grid_metrics(report: _Report) -> tuple[list[_Instance], dict[str, Any]]:
    """``(instances, metrics)`` from the grids: the main I/O grid's rows and every other grid by section."""
    metrics: dict[str, Any] = {}
    instances = None
    for section, header_line, header, rows in report.grids:
        if section in _MAIN_GRIDS and instances is None:
            instances = _instance_rows(header_line, header, rows, report.warnings)
        elif section == "host system performance":
            metrics["host"] = _plain_grid(header, rows)
        else:
            metrics[_snake(section or "grid").replace("_i_o_", "_io_")] = _plain_grid(header, rows)
    if instances is None:
        report.warnings.append(
            "no 'Transactional I/O Performance' or 'Disk Subsystem Performance' table: database read and write "
            "figures are unknown"
        )
    return instances or [], metrics


def _cpu_pct(host_rows: list[_Instance]) -> float | None:
    for row in host_rows:
        values = list(row.values())
        if values and str(values[0]).strip().lower() == "% processor time":
            average = row.get("Average", values[1] if len(values) > 1 else None)
            return average if isinstance(average, float) else None
    return None


def _point(report: _Report, achieved_iops: float, threads: int | None) -> Point:
    instances, metrics = _grid_metrics(report)
    read_iops = _sum(instances, "db_reads_per_s")
    write_iops = _sum(instances, "db_writes_per_s")
    metrics.update(
        target_iops=_field_number(report, "target i o per second"),
        log_write_latency_ms=_weighted(instances, [("log_write_latency_ms", "log_writes_per_s")]),
        instances=instances,
    )
    return Point(
        load={"threads": threads},
        iops=achieved_iops,
        read_iops=read_iops,
        write_iops=write_iops,
        avg_response_ms=_weighted(
            instances, [("db_read_latency_ms", "db_reads_per_s"), ("db_write_latency_ms", "db_writes_per_s")]
        ),
        avg_read_response_ms=_weighted(instances, [("db_read_latency_ms", "db_reads_per_s")]),
        avg_write_response_ms=_weighted(instances, [("db_write_latency_ms", "db_writes_per_s")]),
        cpu_pct=_cpu_pct(metrics.get("host", [])),
        metrics=metrics,
    )


def parse(source: Source) -> ResultSet:
    reader = _read_items(source)
    report = _collect(reader.items)
    report.warnings.extend(_cut_short_warning(source.name, reader))
    if reader.scripts_outside_tables:
        report.warnings.append(
            f"the report holds {reader.scripts_outside_tables} script element(s) outside its tables; "
            "they were passed over and never run"
        )
    achieved_iops = _field_number(report, "achieved i o per second")
    if achieved_iops is None:
        raise ParseError(
            "no 'Achieved Transactional I/O per Second' in this report: only Jetstress performance and stress "
            "test reports hold results (database checksum reports do not)",
            file=source.name,
        )
    threads, thread_scope = _threads(report)
    point = _point(report, achieved_iops, threads)
    description = _field(report, "test description")
    start = _time(_field(report, "test start time"))
    _time(_field(report, "test end time"))
    params = _params(report)
    if thread_scope:
        params["thread_count_scope"] = thread_scope
    read_pct = measured_read_pct(point.read_iops, point.write_iops)
    if read_pct is not None:
        params["measured_workload"] = ["read_pct"]
    run = Run(
        name=(description[1] if description else "") or "Jetstress",
        started_at=start,
        workload=Workload(read_pct=read_pct),
        verdict=_verdict(report),
        params=params,
        points=[point],
    )
    version = _field(report, "jetstress version")
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": version[1] if version else None},
        source=source.describe(),
        runs=[run],
        warnings=report.warnings,
    )
