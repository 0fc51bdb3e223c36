"""The figures of the report: a field's number, and the performance grids (Jetstress 2007's LogicalDisk
rows, latencies in seconds; 2010 and later's instance rows, in milliseconds) read into rows per instance."""

import re

from ...errors import ParseError
from ...figures import known_sum
from ...latency import iops_weighted_ms
from ...numbers import Printed, read_number
from ...units import convert_time
from .report import _field, _Report

_PRINTED = Printed(
    missing=frozenset({"", "n/a", "(n/a)", "-", "na"}),
    units=("%", "mb", "bytes"),
    refusal="expected a number, found {text!r}",
    one_refusal=True,
)
_Instance = dict[str, float | str | None]


def _number(text: str, *, line: int | None, field: str | None) -> float | None:
    """A figure as printed ('1,101.114', '40%', '32.0 MB'); None for '(n/a)' and blanks."""
    return read_number(text, file=None, line=line, field=field, printed=_PRINTED)


def _field_number(report: _Report, *keys: str) -> float | None:
    found = _field(report, *keys)
    return None if found is None else _number(found[1], line=found[2], field=found[0])


def _column_role(label: str, line: int) -> tuple[str | None, str | None, str | None, str | None]:
    """``(target, direction, measure, unit)`` of a grid column (``unit`` the time unit of a latency);
    None where the label does not say."""
    text = label.lower()
    direction = "read" if "read" in text else "write" if "write" in text else None
    target = "log" if re.search(r"\blog\b", text) else "db" if "database" in text else None
    unit = None
    if "latency" in text or re.search(r"sec/(read|write)", text):
        measure = "latency"
        if re.search(r"msec|\(ms\)", text):
            unit = "ms"
        elif re.search(r"sec/(read|write)|\(sec\)|\(s\)", text):
            unit = "s"
        else:
            raise ParseError(
                "cannot tell whether this latency column is in seconds ('sec/Read') or milliseconds ('(msec)')",
                line=line,
                field=label,
            )
    elif "/sec" in text or "per sec" in text:
        measure = "rate"
    elif "bytes" in text:
        measure = "bytes"
    else:
        measure = None
    return target, direction, measure, unit


def _row_target(name: str) -> str | None:
    lowered = name.lower()
    if re.search(r"\blog\b", lowered):
        return "log"
    if "database" in lowered or re.search(r"\bdb\b", lowered):
        return "db"
    return None


def _metric_key(target: str, direction: str, measure: str) -> str:
    if measure == "latency":
        return f"{target}_{direction}_latency_ms"
    if measure == "rate":
        return f"{target}_{direction}s_per_s"
    return f"{target}_{direction}_bytes"


def _instance_rows(
    header_line: int, header: list[str], rows: list[tuple[int, list[str]]], warnings: list[str]
) -> list[_Instance]:
    """Per-instance (or per-volume) dicts with figures under unit-named keys."""
    roles = [_column_role(label, header_line) for label in header[1:]]
    instances: list[_Instance] = []
    for line, cells in rows:
        if len(cells) > len(header):
            warnings.append(f"line {line}: {len(cells) - len(header)} cell(s) beyond the table's columns not read")
        name = cells[0]
        row_target = _row_target(name)
        instance: _Instance = {"name": name}
        for label, role, text in zip(header[1:], roles, cells[1:], strict=False):
            target, direction, measure, unit = role
            target = target or row_target
            if not (target and direction and measure):
                instance[label] = _value_or_text(text)
                continue
            value = _number(text, line=line, field=label)
            instance[_metric_key(target, direction, measure)] = (
                convert_time(value, unit) if unit and value is not None else value
            )
        if not (row_target or any(role[0] for role in roles)):
            warnings.append(f"line {line}: {name!r} is neither a database nor a log volume; not counted in the totals")
        instances.append(instance)
    return instances


def _sum(instances: list[_Instance], key: str) -> float | None:
    return known_sum(_figure(row, key) for row in instances)


def _weighted(instances: list[_Instance], pairs: list[tuple[str, str]]) -> float | None:
    """Mean of latencies weighted by rates over ``pairs`` of (latency key, rate key); None without weight."""
    return iops_weighted_ms(
        (_figure(row, latency_key), _figure(row, rate_key)) for row in instances for latency_key, rate_key in pairs
    )


def _figure(row: _Instance, key: str) -> float | None:
    value = row.get(key)
    return value if isinstance(value, float) else None


def _plain_grid(header: list[str], rows: list[tuple[int, list[str]]]) -> list[_Instance]:
    return [{label: _value_or_text(text) for label, text in zip(header, cells, strict=False)} for _line, cells in rows]


def _value_or_text(text: str) -> float | str | None:
    try:
        return _number(text, line=None, field=None)
    except ParseError:
        return text


def _whole_number(text: str, line: int | None, label: str) -> int | None:
    """A count or a size in bytes as Jetstress prints it: a whole number ('inf', 'NaN' or '1.5' are damage)."""
    value = _number(text, line=line, field=label)
    if value is None:
        return None
    if not float(value).is_integer():
        raise ParseError(f"{label} {text.strip()!r} is not a whole number", line=line, field=label)
    return round(value)
