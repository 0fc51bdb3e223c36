"""The formats ArrayBench reads, format detection, and parsing of files and folders.

A format is a module under ``ingest/formats/`` with:

- ``FORMAT`` (its id), ``TOOL`` (the tool's name), ``READS`` (one line for the README table);
- ``sniff(head: bytes, name: str) -> bool``: does this content look like the format?
- ``parse(source) -> ResultSet`` (or a list of them, for files holding several systems' results);
- optionally ``refuse(head: bytes, name: str) -> str | None``: a message for files of the tool
  that are not results (configuration files), which are then refused with that message;
- optionally ``group_key(source) -> str | None`` and ``parse_group(sources) -> ResultSet`` for
  results split over several files (an ORION test, a fio queue-depth sweep).
"""

import importlib
from collections import defaultdict
from pathlib import Path

from . import result as contract
from .archive import DEFAULT_ZIP_LIMITS, is_zip, zip_members
from .errors import ParseError
from .source import Source

# Detection tries formats in this order; the first whose sniff matches wins.
FORMAT_MODULES = (
    "iometer",
    "orion",
    "jetstress",
    "ffsb",
    "array_profile",
    "fio",
    "diskspd",
    "vdbench",
    "elbencho",
)
FORMATS = {name: importlib.import_module(f"ingest.formats.{name}") for name in FORMAT_MODULES}


def known_formats_sentence():
    return ", ".join(f"{module.TOOL} ({module.FORMAT})" for module in FORMATS.values())


def detect(source):
    """The format module for ``source``; :class:`ParseError` for refused or unknown content."""
    head = source.head()
    for module in FORMATS.values():
        refuse = getattr(module, "refuse", None)
        message = refuse(head, source.name) if refuse else None
        if message:
            raise ParseError(message, file=source.name)
    for module in FORMATS.values():
        if module.sniff(head, source.name):
            return module
    raise ParseError(
        f"not a recognised result file; ArrayBench reads: {known_formats_sentence()}",
        file=source.name,
    )


def _finish(result_set):
    data = result_set.to_dict() if hasattr(result_set, "to_dict") else result_set
    for run in data["runs"]:
        run["points"].sort(key=contract.point_load_key)
    return contract.check(data)


def group_sources(sources):
    """Detect each source's format and gather files read together; return ``[(module, [sources])]``.

    Files of one format that share a ``group_key`` (the files of one ORION test, one fio
    sweep) form one group; every other file is a group of its own.
    """
    groups = defaultdict(list)
    work = []
    for source in sources:
        module = detect(source)
        key = getattr(module, "group_key", None)
        group = key(source) if key else None
        if group is None:
            work.append((module, [source]))
        else:
            if (module.FORMAT, group) not in groups:
                work.append((module, groups[(module.FORMAT, group)]))
            groups[(module.FORMAT, group)].append(source)
    return work


def parse_group(module, members):
    """Parse files of one format read together; return result sets in dict form, contract-checked."""
    try:
        parse_together = getattr(module, "parse_group", None)
        parsed = parse_together(members) if parse_together else module.parse(members[0])
    except ParseError as error:
        raise error.located(members[0].name) from None
    return [_finish(item) for item in (parsed if isinstance(parsed, list) else [parsed])]


def parse_together(sources):
    """Parse files the caller has already grouped (the files of one upload, one ORION test, one
    sweep) as one group, whatever their paths; files of different formats are parsed apart."""
    modules = {detect(source).FORMAT for source in sources}
    if len(sources) > 1 and len(modules) == 1:
        return parse_group(FORMATS[modules.pop()], list(sources))
    return parse_sources(sources)


def parse_sources(sources):
    """Parse sources that were given together; return result sets in dict form, contract-checked.

    Raises :class:`ParseError` (with the file name filled in) on the first file that cannot be read.
    """
    results = []
    for module, members in group_sources(sources):
        results.extend(parse_group(module, members))
    return results


def parse_archive(source, *, zip_limits=DEFAULT_ZIP_LIMITS):
    """Parse the result files inside a zip archive; members that are not results are passed
    over with a warning (a result folder holds logs and pages of other kinds too)."""
    readable, skipped = [], []
    for member in zip_members(source, zip_limits):
        try:
            detect(member)
            readable.append(member)
        except ParseError as error:
            skipped.append(f"{member.name}: passed over ({error.message})")
    if not readable:
        raise ParseError(
            f"the archive holds no result file ArrayBench reads ({known_formats_sentence()})", file=source.name
        )
    results = parse_sources(readable)
    if skipped:
        results[0]["warnings"].extend(skipped)
    return results


def parse_paths(paths, *, zip_limits=DEFAULT_ZIP_LIMITS):
    """Parse files, folders (walked) and zip archives given together."""
    results, plain = [], []
    for path in map(Path, paths):
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            if file.name.startswith("."):
                continue
            source = Source(file)
            if is_zip(source):
                results.extend(parse_archive(source, zip_limits=zip_limits))
            else:
                plain.append(source)
    return results + (parse_sources(plain) if plain else [])
