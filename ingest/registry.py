"""The formats ArrayBench reads, format detection, and parsing of files and folders.

A format is a module or a package under ``ingest/formats/`` providing what :class:`~ingest.formats.base.FormatModule`
states (``FORMAT``, ``TOOL``, ``READS``, ``sniff``, ``parse``), and the hooks of
:class:`~ingest.formats.base.RefusingFormat` (``refuse``) and :class:`~ingest.formats.base.GroupedFormat`
(``group_key``, ``parse_group``) where it needs them. docs/contributing.md, "Adding a format", lists the steps.
"""

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import cast

from . import contract
from .archive import DEFAULT_ZIP_LIMITS, ZipLimits, is_zip, zip_members
from .cycles import cycle_collection_paused
from .errors import ParseError
from .formats import (
    array_profile,
    bonnie,
    cosbench,
    diskspd,
    elbencho,
    ffsb,
    fio,
    fsmark,
    io500,
    iometer,
    ior,
    jetstress,
    mdtest,
    mlperf_storage,
    orion,
    specsfs,
    vdbench,
)
from .formats.base import FormatModule, GroupedFormat, RefusingFormat
from .result import ResultSet
from .result_dicts import ResultSetDict
from .source import Source, sniff_encoding

logger = logging.getLogger(__name__)

# Detection tries formats in this order; the first whose sniff matches wins.
FORMAT_MODULES: tuple[FormatModule, ...] = (
    iometer,
    orion,
    jetstress,
    ffsb,
    array_profile,
    fio,
    diskspd,
    vdbench,
    elbencho,
    ior,
    mdtest,
    io500,
    specsfs,
    bonnie,
    fsmark,
    cosbench,
    mlperf_storage,
)
FORMATS: dict[str, FormatModule] = {module.FORMAT: module for module in FORMAT_MODULES}
# The formats with a refuse hook, asked about every file before any format sniffs it.
_REFUSING: tuple[RefusingFormat, ...] = tuple(module for module in FORMAT_MODULES if isinstance(module, RefusingFormat))


def known_formats_sentence() -> str:
    return ", ".join(f"{module.TOOL} ({module.FORMAT})" for module in FORMATS.values())


def detect(source: Source) -> FormatModule:
    """The format module for ``source``; :class:`ParseError` for refused or unknown content."""
    head = source.head()
    for refusing in _REFUSING:
        message = refusing.refuse(head, source.name)
        if message:
            logger.info("%s: refused by the %s format: %s", source.name, refusing.FORMAT, message)
            raise ParseError(message, file=source.name)
    for module in FORMATS.values():
        if module.sniff(head, source.name):
            return module
    logger.info("%s: no format recognises it (%d bytes read)", source.name, len(head))
    if not head.strip():
        blank = " (blank lines only)" if head else ""
        raise ParseError(f"the file is empty{blank}; ArrayBench reads: {known_formats_sentence()}", file=source.name)
    line, text = _first_line(source)
    raise ParseError(
        f"not a recognised result file (it begins {text!r}); ArrayBench reads: {known_formats_sentence()}",
        file=source.name,
        line=line,
    )


# How much of an unrecognised file's first line an error quotes.
_QUOTED_CHARACTERS = 60


def _first_line(source: Source) -> tuple[int, str]:
    """The number of the first line of ``source`` that holds anything and its text, printable (other
    characters as "?") and cut to :data:`_QUOTED_CHARACTERS`: what the user sent (a spreadsheet, a log)."""
    number, text = next(
        ((number, line.strip()) for number, line in enumerate(source.head_text().splitlines(), 1) if line.strip()),
        (1, ""),
    )
    printable = "".join(character if character.isprintable() else "?" for character in text)
    return number, printable[:_QUOTED_CHARACTERS] + ("..." if len(printable) > _QUOTED_CHARACTERS else "")


def _finish(result_set: ResultSet | dict, file: str, *, metrics_checked: bool = False) -> ResultSetDict:
    """The result set in dict form, points in load order, checked against the contract; figures
    the contract refuses (negative, infinite, a run without points) are the file's damage, so they
    are reported as a :class:`ParseError` naming the run and point.

    Points are put in load order here, whatever order a parser found them in: this is the one
    place that enforces it (the contract's check of the order is for results made elsewhere).
    ``metrics_checked``: the format states that its points' metrics hold only numbers it checked."""
    data = result_set.take_dict() if isinstance(result_set, ResultSet) else result_set
    for run in data["runs"]:
        if len(run["points"]) > 1:
            run["points"].sort(key=contract.point_load_key)
    try:
        return cast(ResultSetDict, contract.check(data, metrics_checked=metrics_checked))
    except contract.ContractError as error:
        logger.info("%s: refused by the result contract: %s", file, error)
        raise ParseError(contract.problem_sentence(data, error.problems[0]), file=file) from None


@dataclass
class Group:
    """Files read together: one archive, the files of one ORION test or fio sweep, or one file.

    ``module`` is the format (``None`` for an archive); ``error`` is set, and nothing else is read,
    when a file of the group is refused or not recognised.
    """

    sources: list[Source]
    module: FormatModule | None = None
    error: ParseError | None = None

    @property
    def format(self) -> str:
        if self.error is not None:
            return ""
        return self.module.FORMAT if self.module is not None else "zip"


def plan(sources: list[Source], *, archives: bool = True) -> list[Group]:
    """How files given together are read: the one place that decides it, detecting each format once.

    Archives stand alone; files of one format that share a ``group_key`` (the files of one ORION
    test, one fio sweep) form one group, in the order given; every other file is a group of its own,
    with its :class:`ParseError` when it is refused or not recognised. With ``archives=False`` (the
    members of an archive) a zip is one more file to detect, not an archive to open.
    """
    groups: list[Group] = []
    keyed: dict[tuple[str, str], Group] = {}
    for source in sources:
        if archives and is_zip(source):
            groups.append(Group([source]))
            continue
        try:
            module = detect(source)
        except ParseError as error:
            groups.append(Group([source], error=error))
            continue
        group_key = module.group_key(source) if isinstance(module, GroupedFormat) else None
        if group_key is None:
            groups.append(Group([source], module))
        elif (module.FORMAT, group_key) in keyed:
            keyed[(module.FORMAT, group_key)].sources.append(source)
        else:
            keyed[(module.FORMAT, group_key)] = Group([source], module)
            groups.append(keyed[(module.FORMAT, group_key)])
    return groups


def read(group: Group, *, zip_limits: ZipLimits = DEFAULT_ZIP_LIMITS) -> list[ResultSetDict]:
    """The result sets of one planned group, in dict form and contract-checked; :class:`ParseError`
    when it cannot be read."""
    if group.error is not None:
        raise group.error
    if group.module is None:
        return parse_archive(group.sources[0], zip_limits=zip_limits)
    return parse_group(group.module, group.sources)


def parse_group(module: FormatModule, members: list[Source]) -> list[ResultSetDict]:
    """Parse files of one format read together; return result sets in dict form, contract-checked."""
    metrics_checked = getattr(module, "METRICS_CHECKED", False) is True
    with cycle_collection_paused():
        try:
            parsed = module.parse_group(members) if isinstance(module, GroupedFormat) else module.parse(members[0])
        except ParseError as error:
            raise error.located(members[0].name) from None
        items = parsed if isinstance(parsed, list) else [parsed]
        results = [_finish(item, members[0].name, metrics_checked=metrics_checked) for item in items]
    cuts = [cut for member in members if (cut := cut_warning(member)) is not None]
    for result in results:
        result["warnings"].extend(cuts)
    return results


# A structured file (JSON, XML, HTML) may end without a line end; cut, it does not parse at all.
_STRUCTURED_ENDINGS = (b"}", b"]", b">")


def cut_warning(source: Source) -> str | None:
    """A warning when a line-by-line file ends inside a line (no line end after its last character),
    as a copy cut short does: the figures of that line may be cut (1.266 read as 1.2) and what the file
    held after it is lost. None for a file that ends as the tools write them."""
    encoding, _ = sniff_encoding(source.head())
    # The last character is its encoding's last unit: two bytes in UTF-16, four in UTF-32.
    width = len("\n".encode(encoding)) if encoding.startswith(("utf-16", "utf-32")) else 1
    newline = "\n".encode(encoding) if width > 1 else b"\n"
    with source._open_raw() as stream:
        size = stream.seek(0, 2)
        if size == 0:
            return None
        stream.seek(max(size - width, 0))
        last = stream.read(width).decode(encoding, errors="replace").encode("utf-8", errors="replace")[-1:]
        if last in (b"\n", b"\r") or last in _STRUCTURED_ENDINGS:
            return None
        stream.seek(0)
        line = 1 + sum(block.count(newline) for block in iter(lambda: stream.read(1 << 20), b""))
    return (
        f"{source.name}:{line}: the file ends inside this line, with no line end: it looks cut there. "
        "Figures on this line may be cut short and anything the file held after it is missing; "
        "upload the whole file to replace these results"
    )


def parse_sources(sources: list[Source], *, zip_limits: ZipLimits = DEFAULT_ZIP_LIMITS) -> list[ResultSetDict]:
    """Parse sources given together (grouped by :func:`plan`); return result sets in dict form.

    Raises :class:`ParseError` (with the file name filled in) on the first file that cannot be read.
    """
    return [result for group in plan(sources) for result in read(group, zip_limits=zip_limits)]


def parse_archive(source: Source, *, zip_limits: ZipLimits = DEFAULT_ZIP_LIMITS) -> list[ResultSetDict]:
    """Parse the result files inside a zip archive; members that are not results are passed
    over with a warning (a result folder holds logs and pages of other kinds too)."""
    groups = plan(zip_members(source, zip_limits), archives=False)
    skipped = [f"{g.sources[0].name}: passed over ({g.error.message})" for g in groups if g.error is not None]
    readable = [group for group in groups if group.error is None]
    if not readable:
        raise ParseError(
            f"the archive holds no result file ArrayBench reads ({known_formats_sentence()})", file=source.name
        )
    results = [result for group in readable for result in read(group, zip_limits=zip_limits)]
    if skipped:
        logger.info("%s: %d members passed over: %s", source.name, len(skipped), "; ".join(skipped[:5]))
        results[0]["warnings"].extend(skipped)
    return results


def sources_under(paths: Iterable[str | PathLike[str]]) -> list[Source]:
    """The files given: files as they are, folders walked (hidden files passed over), in name order."""
    sources: list[Source] = []
    for path in map(Path, paths):
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        sources.extend(Source(file) for file in files if not file.name.startswith("."))
    return sources


def parse_paths(
    paths: Iterable[str | PathLike[str]], *, zip_limits: ZipLimits = DEFAULT_ZIP_LIMITS
) -> list[ResultSetDict]:
    """Parse files, folders (walked) and zip archives given together."""
    return parse_sources(sources_under(paths), zip_limits=zip_limits)
