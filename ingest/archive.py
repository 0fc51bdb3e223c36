"""Reading .zip archives of result folders safely: bounded size, count and ratio, no path tricks."""

import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from .errors import ParseError
from .source import Source

ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class ZipLimits:
    max_members: int = 2000
    max_total_bytes: int = 2 * 1024**3
    max_ratio: float = 200.0


DEFAULT_ZIP_LIMITS = ZipLimits()


def is_zip(source):
    return source.head(4) == ZIP_MAGIC


def _check_member_name(archive_name, name):
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise ParseError(f"archive member {name!r} has an absolute path; refusing the archive", file=archive_name)
    if ".." in path.parts:
        raise ParseError(f"archive member {name!r} points outside the archive ('..'); refusing it", file=archive_name)


def zip_members(source, limits=DEFAULT_ZIP_LIMITS):
    """The files inside a zip as :class:`Source` objects, after checking the archive is safe.

    Directory entries and hidden files (``__MACOSX``, dot files) are passed over.
    """
    with source.open_binary() as stream:
        try:
            archive = zipfile.ZipFile(stream)
        except zipfile.BadZipFile as error:
            raise ParseError(f"not a readable zip archive ({error})", file=source.name) from None
        infos = [info for info in archive.infolist() if not info.is_dir()]
        if len(infos) > limits.max_members:
            raise ParseError(
                f"archive holds {len(infos)} files; at most {limits.max_members} are accepted", file=source.name
            )
        total = 0
        for info in infos:
            _check_member_name(source.name, info.filename)
            total += info.file_size
            ratio = info.file_size / max(info.compress_size, 1)
            if ratio > limits.max_ratio:
                raise ParseError(
                    f"archive member {info.filename!r} expands {ratio:.0f} times (limit {limits.max_ratio:.0f}); "
                    "refusing a possible zip bomb",
                    file=source.name,
                )
        if total > limits.max_total_bytes:
            raise ParseError(
                f"archive expands to {total:,} bytes; at most {limits.max_total_bytes:,} are accepted",
                file=source.name,
            )
        members = []
        for info in infos:
            parts = PurePosixPath(info.filename).parts
            if any(part.startswith((".", "__MACOSX")) for part in parts):
                continue
            data = _read_bounded(archive, info, source.name)
            members.append(Source(name=f"{source.name}/{info.filename}", data=data))
        return members


def _read_bounded(archive, info, archive_name):
    """Read one member, stopping if it expands beyond what its header declared."""
    with archive.open(info) as member:
        data = member.read(info.file_size + 1)
    if len(data) > info.file_size:
        raise ParseError(f"archive member {info.filename!r} is larger than its header says", file=archive_name)
    return data
