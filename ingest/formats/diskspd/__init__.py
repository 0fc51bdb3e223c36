"""DiskSpd results: the ``-Rxml`` output and the text output (the default).

One run per measured timespan (a text file may hold several DiskSpd outputs one after another,
each after its ``Command Line:``), one point per run. DiskSpd counts bytes exactly, so MB/s
(10^6 bytes/s) are computed from the byte counts and the measured time rather than from its
rounded binary ``MB/s`` / ``MiB/s`` column. The ``Totals:`` table DiskSpd adds after several
timespans only sums them again and is not stored. The CPU table's average Usage is the point's CPU %,
whatever columns place each CPU (DiskSpd 2.2's Socket, Node, Group, Core). An output saved without its
'Input parameters:' takes its profile from the command line; a Total IO table listing fewer threads than
DiskSpd's 'thread count' (abridged) takes its load from the count.

The modules: :mod:`.xml_output` and :mod:`.text_output` read the two outputs into the measurements of
:mod:`.model`, which makes each one's run and point.
"""

from ...errors import ParseError
from ...result import ResultSet, Run
from ...source import Source, decode_head
from .model import _titles_told_apart
from .text_output import _parse_text
from .xml_output import _parse_xml

__all__ = ["FORMAT", "READS", "TOOL", "parse", "refuse", "sniff"]

FORMAT = "diskspd"
TOOL = "DiskSpd"
READS = (
    "DiskSpd `-Rxml` and text output, 2.0 to 2.2 (Total/Read/Write IO, `%-ile` and CPU tables, "
    "including 2.2's Socket/Node/Group/Core columns; group, node and socket counts kept; several "
    "runs per file; legacy code pages); without `Input parameters:` the profile is read from the "
    "command line (`-b -r/-s -w -o`, DiskSpd's defaults named); binary MB/s converted"
)


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
        version, runs, warnings = _parse_xml(source)
    else:
        version, runs, warnings = _parse_text(source)
    return _result_set(source, version, runs, warnings)


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
