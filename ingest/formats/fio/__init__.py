"""fio JSON results: ``--output-format=json`` and ``json+``, fio 2.x (µs) and 3.x (ns).

One run per job (``jobname`` + ``groupid``); jobs run without ``group_reporting`` appear as one
entry per clone and are summed into one point. Files of one queue-depth sweep named as fio-plot
names them (``<rw>-<iodepth>-<numjobs>.json`` in one folder) are parsed together: one run per
workload (rw, mix, block sizes) with one point per file, in load order. The output of fio's
client/server mode (``client_stats``, one entry per job and host) stores each job's "All clients"
sum, naming the hosts summed; the per-client files of one CBT run (``output.0`` ... ``output.N`` in
one folder) are summed into one run. fio's latency, bandwidth, IOPS and histogram logs are refused
(:mod:`.logs`), with the output to upload instead.

The modules, in the order a file is read: :mod:`.document` (the text before the JSON, the JSON, where
each job starts), :mod:`.jobs` (entries grouped into jobs, failed jobs set apart), :mod:`.figures` (a
job's point, on a fast path when every figure is plain), :mod:`.workload` (what the options state, or
what the figures measure), :mod:`.runs` (jobs into runs, the files of a fio-plot sweep into one curve);
:mod:`.where` says where a figure was read for messages.
"""

from __future__ import annotations

from ...errors import ParseError
from ...result import ResultSet
from ...source import Source, describe_group
from .document import _read_document
from .jobs import _Failure, _Job, _job_groups
from .logs import refuse
from .runs import SWEEP_FILE_NAME, _client_runs, _common_version, _runs, group_key, is_client_file

__all__ = [
    "FORMAT",
    "METRICS_CHECKED",
    "READS",
    "SWEEP_FILE_NAME",
    "TOOL",
    "ParseError",
    "group_key",
    "parse",
    "parse_group",
    "refuse",
    "sniff",
]

FORMAT = "fio"
TOOL = "fio"
READS = (
    "fio `--output-format=json` / `json+` (2.x µs and 3.x ns fields), under any name (`.txt`, no "
    "extension: detected by content), git-describe versions (`fio-3.26-19-ge7e53`), valueless "
    'options (`"time_based": ""`), any ioengine (rbd, windowsaio, mmap); client/server output '
    '(`--client`: text before the JSON skipped, each job\'s "All clients" sum stored, hosts named in '
    "a warning and `params.hosts`); `--steadystate` criterion and whether it was attained in "
    "`params.steadystate_result`; an option given twice keeps its last value, with a warning naming "
    "both; a folder of fio-plot `<rw>-<iodepth>-<numjobs>.json` files becomes one curve per "
    "workload; CBT's per-client `output.0` … `output.N` of one folder are summed into one run; "
    "latency, bandwidth, IOPS and histogram logs refused"
)
# Every number in a point's metrics is read through ``_Where.number`` or summed by ``_Where.total``.
METRICS_CHECKED = True


def sniff(head: bytes, name: str) -> bool:
    return b'"fio version"' in head


def parse(source: Source) -> ResultSet:
    return parse_group([source])


def parse_group(sources: list[Source]) -> ResultSet:
    """Parse fio JSON files given together; jobs with the same workload become one run."""
    sources = sorted(sources, key=lambda s: s.name)
    warnings: list[str] = []
    jobs: list[_Job] = []
    failures: list[_Failure] = []
    for source in sources:
        document = _read_document(source, warnings)
        file_jobs, file_failures = _job_groups(document, source, warnings)
        jobs.extend(file_jobs)
        failures.extend(file_failures)
    if not jobs:
        first = failures[0] if failures else None
        reason = "; ".join(f.sentence for f in failures) or "the file holds no jobs"
        raise ParseError(
            f"no usable fio results: {reason}. Fix the job and run fio again",
            file=first.file if first else sources[0].name,
            line=first.line if first else None,
        )
    warnings.extend(f"{f.file}:{f.line}: {f.sentence}; it is not stored" for f in failures)
    if len(sources) > 1 and all(map(is_client_file, sources)):
        runs = _client_runs(jobs, len(sources), warnings)
    else:
        runs = _runs(jobs, several_files=len(sources) > 1)
        if is_client_file(sources[0]):
            warnings.append(
                f"{sources[0].name} is named as CBT names one client's fio output: if the run had other "
                "clients, upload their output.N files together with it to have them summed into one run"
            )
    return ResultSet(
        format=FORMAT,
        tool={"name": TOOL, "version": _common_version(jobs)},
        source=sources[0].describe() if len(sources) == 1 else describe_group(sources),
        runs=runs,
        warnings=warnings,
    )
