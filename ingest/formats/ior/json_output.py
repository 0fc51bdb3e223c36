"""IOR's JSON output (``-O summaryFormat=JSON``, IOR 3.3 and later): the same header, options, results and
summary as its text, as one JSON document (``Version``, ``tests[]`` with ``Options`` and ``Results``, a
list of the accesses of each repetition, and ``summary[]``), read into the runs the text gives."""

import json
import re
from typing import Any

from ...errors import ParseError
from ...numbers import Printed, read_number
from ...result import Run
from ...source import Source
from .text import _Reading, _Row, _Test, _test_runs, _timestamp

# IOR 3.3+ begins its JSON with "Version"; IOR 3.2 begins it with "Began", after its text banner on stdout.
JSON_HEAD = re.compile(
    rb'\A\s*(?:IOR-\S+: MPI Coordinated Test of Parallel I/O[ \t]*\r?\n)?\s*\{\s*"(?:Version|Began)"\s*:'
)
_BANNER = re.compile(r"\A(\s*)IOR-(\S+): MPI Coordinated Test of Parallel I/O[ \t]*")
_PRINTED = Printed(required=True)
# A result's keys, by the name the text's columns are read under (see text._ROW_FIGURES).
_RESULT_FIGURES = {
    "bwMiB": "mib_per_s",
    "iops": "iops",
    "latency": "latency_s",
    "blockKiB": "block_kib",
    "xferKiB": "xfer_kib",
    "openTime": "open_s",
    "wrRdTime": "wrrd_s",
    "closeTime": "close_s",
    "totalTime": "total_s",
}
# A summary entry's keys, by the name the text's summary is read under (see text._SUMMARY_FIGURES).
_SUMMARY_FIGURES = {
    "bwMaxMIB": "max_mib_per_s",
    "bwMinMIB": "min_mib_per_s",
    "bwMeanMIB": "mean_mib_per_s",
    "bwStdMIB": "std_dev_mib_per_s",
    "OPsMax": "max_ops_per_s",
    "OPsMin": "min_ops_per_s",
    "OPsMean": "mean_ops_per_s",
    "OPsSD": "std_dev_ops_per_s",
    "MeanTime": "mean_s",
}


def json_version(data: dict[str, Any]) -> str | None:
    version = data.get("Version")
    return version if isinstance(version, str) and version else None


def read_json_document(source: Source) -> tuple[dict[str, Any], str | None]:
    """The JSON object of the file and the version its text banner states (IOR 3.2 prints the banner on
    stdout before the JSON); refused naming the line where it stops being JSON."""
    with source.open_text() as stream:
        text = stream.read()
    banner = _BANNER.match(text)
    if banner:  # the banner's line is left blank, so the lines of the JSON keep their numbers
        text = banner.group(1) + text[banner.end() :]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"not valid JSON ({error.msg}); IOR's JSON output (-O summaryFormat=JSON) is one JSON object: the file "
            "may be cut short, or mixed with IOR's text output",
            file=source.name,
            line=error.lineno,
            column=error.colno,
        ) from None
    if not isinstance(data, dict):
        raise ParseError("expected IOR's JSON output, a JSON object", file=source.name, line=1)
    return data, banner.group(2) if banner else None


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ParseError(f"{where} holds {value!r}, not a figure", field=where)
    figure = read_number(str(value), file=None, line=None, field=where, printed=_PRINTED)
    assert figure is not None  # required: an empty text is refused
    return figure


def _objects(parent: dict[str, Any], key: str, where: str) -> list[Any]:
    value = parent.get(key, [])
    if not isinstance(value, list):
        raise ParseError(f"{where}'s {key!r} is not a list", field=key)
    return value


def json_runs(data: dict[str, Any]) -> list[Run]:
    """A run per access and repetition of each test, as from IOR's text; the summary kept with each."""
    reading = _Reading(name="", command=str(data.get("Command line", "")))
    for index, entry in enumerate(_objects(data, "tests", "the document")):
        if not isinstance(entry, dict):
            raise ParseError(f"test {index + 1} is not a JSON object", field="tests")
        reading.tests.append(_test(entry, index))
    for index, entry in enumerate(_objects(data, "summary", "the document")):
        if not isinstance(entry, dict) or entry.get("operation") not in ("write", "read"):
            raise ParseError(f"summary entry {index + 1} names no 'write' or 'read' operation", field="summary")
        where = f"summary entry {index + 1}"
        row = {name: _number(entry[key], f"{where} {key}") for key, name in _SUMMARY_FIGURES.items() if key in entry}
        reading.summary.setdefault(entry["operation"], []).append(row)
    return [run for test in reading.tests for run in _test_runs(reading, test)]


def _test(entry: dict[str, Any], index: int) -> _Test:
    where = f"test {index + 1}"
    options = entry.get("Options", {})
    if not isinstance(options, dict):
        raise ParseError(f"{where}'s 'Options' is not a JSON object", field="Options")
    started = entry.get("StartTime")
    test = _Test(
        line=1,
        started_at=_timestamp(started) if isinstance(started, str) else None,
        options={str(key): str(value) for key, value in options.items()},
    )
    for repetition, accesses in enumerate(_objects(entry, "Results", where)):
        for result in accesses if isinstance(accesses, list) else [accesses]:
            if not isinstance(result, dict):
                raise ParseError(f"{where}, repetition {repetition}: a result is not a JSON object", field="Results")
            if result.get("access") not in ("write", "read"):
                continue  # 'remove' (the time to delete the test files) moves no data
            figures = {
                name: _number(result[key], f"{where} {result['access']} {key}")
                for key, name in _RESULT_FIGURES.items()
                if key in result
            }
            test.rows.append(_Row(access=result["access"], iteration=repetition, line=1, figures=figures))
    return test
