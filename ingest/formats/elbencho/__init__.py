"""elbencho results: the ``--csvfile`` CSV, the ``--resfile`` text and the ``--livecsv`` series.

Mapping: each benchmark phase (WRITE, READ, MKDIRS, ...) of one workload is a run; its points
are the invocations that differ only in load, so a thread or IO-depth sweep appended to one
file becomes a curve. ``load.threads`` is the total worker count (threads per host x hosts),
``load.outstanding_io`` that times the IO depth. The figures are elbencho's "last done"
column (all workers finished); the "first done" column is kept in ``metrics.first``. MiB/s
is converted to 10^6 bytes per second; latencies are microseconds in the CSV. A phase that moves no
data (MKDIRS, STAT, RMFILES, RMDIRS) has its entries/s as its rate (``iops``) with ``params.figure``
"metadata operations per second", as mdtest's. Phases without any figure (SYNC, DROPCACHES) are skipped
with a warning.

A result table saved by mtelbencho.sh (elbencho's storage sweep script, 2021) is read as a resfile: its
settings (``block_size``), a ``Working on <folder> with <n> threads...`` line per test, whose folder
(``1024x1GiB``) names the test's runs and gives their file size, and elbencho's NOTE lines (warned of).

A ``--livecsv`` file holds only progress samples, no final result: it is read as one run per
phase whose point is the average up to the last sample, with the samples in ``metrics.live``
and a warning saying so.

The modules: :mod:`.csvfile`, :mod:`.resfile` and :mod:`.livecsv` read the three files; the first two
give :mod:`.phases`, which :mod:`.runs` makes into runs and points.
"""

import re

from ...errors import ParseError
from ...result import ResultSet
from ...source import Source
from .csvfile import _csv_phases
from .livecsv import _live_runs
from .phases import _missing_phases
from .resfile import _resfile_phases
from .runs import _runs

__all__ = ["FORMAT", "READS", "TOOL", "parse", "sniff"]

FORMAT = "elbencho"
TOOL = "elbencho"
READS = (
    "elbencho `--csvfile` CSV, `--resfile` text (also elbencho 1.6 tables saved by `mtelbencho.sh` "
    "sweeps: one run per file count × size and phase) and `--livecsv` progress CSV: one run per "
    "phase, threads x hosts as load, 'last done' figures, MiB/s converted, entries/s of metadata phases as "
    "metadata ops/s"
)

_RESULT_CSV = re.compile(rb"^(?:\xef\xbb\xbf)?ISO date,label,path type,[^\n]*,operation,")
_LIVE_CSV = re.compile(rb"^(?:\xef\xbb\xbf)?Label,Phase,RuntimeMS,Rank,")
_RESFILE = re.compile(rb"^OPERATION\s+RESULT TYPE\s+FIRST DONE\s+LAST DONE", re.MULTILINE)


def sniff(head: bytes, name: str) -> bool:
    return bool(_RESULT_CSV.match(head) or _LIVE_CSV.match(head) or _RESFILE.search(head))


def parse(source: Source) -> ResultSet:
    head = source.head()
    warnings: list[str] = []
    if _LIVE_CSV.match(head):
        runs = _live_runs(source, warnings)
        version = None
    else:
        phases = _csv_phases(source) if _RESULT_CSV.match(head) else _resfile_phases(source, warnings)
        runs = _runs(phases, warnings)
        warnings.extend(_missing_phases(source.name, phases))
        version = next((p.setup["version"] for p in phases if p.setup.get("version")), None)
    if not runs:
        raise ParseError("no benchmark phase with results (IOPS, throughput or entries per second) in this file")
    return ResultSet(
        format=FORMAT, tool={"name": TOOL, "version": version}, source=source.describe(), runs=runs, warnings=warnings
    )
