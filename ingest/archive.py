"""Reading .zip archives of result folders safely: bounded size, count and ratio, no path tricks,
no links or archives inside, and members streamed from the archive, never held whole in memory."""

import io
import logging
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO, TYPE_CHECKING, BinaryIO

from .errors import ParseError
from .source import HEAD_BYTES, Source

if TYPE_CHECKING:
    from typing_extensions import Buffer

logger = logging.getLogger(__name__)

ZIP_MAGIC = b"PK\x03\x04"

# The compression methods zipfile decompresses a bounded step at a time. It decompresses bzip2
# and LZMA a whole read at once, so a member lying about its size could fill the memory.
STREAMED_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}

# Archives and compressed files, recognised by their first bytes whatever their name.
ARCHIVE_MAGIC = (
    ("zip", re.compile(rb"PK(\x03\x04|\x05\x06|\x07\x08)")),
    ("gzip", re.compile(rb"\x1f\x8b")),
    ("7z", re.compile(rb"7z\xbc\xaf\x27\x1c")),
    ("rar", re.compile(rb"Rar!\x1a\x07")),
    ("bzip2", re.compile(rb"BZh[1-9]1AY&SY")),
    ("xz", re.compile(rb"\xfd7zXZ\x00")),
    ("zstd", re.compile(rb"\x28\xb5\x2f\xfd")),
    ("tar", re.compile(rb".{257}ustar", re.DOTALL)),
)

# Office documents are zip files too, but documents kept beside the results, not archives of
# them: they are passed over as files that are not results.
DOCUMENT_SUFFIXES = frozenset({".docx", ".xlsx", ".xlsm", ".pptx", ".odt", ".ods", ".odp"})


@dataclass(frozen=True)
class ZipLimits:
    max_members: int = 2000
    max_total_bytes: int = 2 * 1024**3
    max_ratio: float = 200.0


DEFAULT_ZIP_LIMITS = ZipLimits()


def is_zip(source: Source) -> bool:
    return source.head(4) == ZIP_MAGIC


def archive_kind(head: bytes) -> str | None:
    """The kind of archive or compressed file the first bytes of a file show, if any."""
    for kind, magic in ARCHIVE_MAGIC:
        if magic.match(head):
            return kind
    return None


class ZipMember(Source):
    """A file inside a zip archive, decompressed from the archive each time it is read.

    Only its first bytes are kept (for format detection); parsing and hashing stream it.
    """

    def __init__(self, archive: Source, info: zipfile.ZipInfo, *, head: bytes) -> None:
        # No bytes of its own: every read opens the archive again (see ``_open_raw``).
        super().__init__(name=f"{archive.name}/{info.filename}", data=b"")
        self.archive = archive
        self.info = info
        self._head = head

    def head(self, size: int = HEAD_BYTES) -> bytes:
        head = self._head
        if head is not None and len(head) >= min(size, self.info.file_size):
            return head[:size]
        return super().head(size)

    def _open_raw(self) -> BinaryIO:
        return self._open_from(self.archive._open_raw())

    def open_binary(self) -> BinaryIO:
        # Parsing is counted on the archive's meter, whose total is the archive's size.
        if self.meter is None:
            return self._open_from(self.archive.open_binary())
        return super().open_binary()

    def _open_from(self, stream: BinaryIO) -> BinaryIO:
        try:
            member = _open_member(_open_zip(stream, self.archive.name), self.info, self.archive.name)
        except BaseException:
            stream.close()
            raise
        return io.BufferedReader(_MemberReader(member, stream, self.info, self.archive.name))


class _MemberReader(io.RawIOBase):
    """A member's bytes as the archive gives them, with the archive's failures as a ParseError
    naming the member, and never more bytes than its header declared.

    Seeking is zipfile's: forward by decompressing, backward by decompressing from the start.
    """

    def __init__(self, member: IO[bytes], archive_stream: BinaryIO, info: zipfile.ZipInfo, archive_name: str) -> None:
        self._member = member
        self._archive_stream = archive_stream
        self._info = info
        self._archive_name = archive_name
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._member.seekable()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self._position = self._member.seek(offset, whence)
        return self._position

    def tell(self) -> int:
        return self._position

    def readinto(self, buffer: "Buffer") -> int:
        view = memoryview(buffer)
        data = _read_member(self._member, len(view), self._info.filename, self._archive_name)
        self._position += len(data)
        if self._position > self._info.file_size:
            logger.warning(
                "%s: archive member %r is larger than its header says", self._archive_name, self._info.filename
            )
            raise ParseError(
                f"archive member {self._info.filename!r} is larger than its header says", file=self._archive_name
            )
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self._member.close()
            self._archive_stream.close()
        super().close()


def _read_member(member: IO[bytes], size: int, name: str, archive_name: str) -> bytes:
    try:
        return member.read(size)
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        logger.warning("%s: archive member %r is damaged: %s", archive_name, name, error)
        # zipfile stops at the size the header declares and then checks the CRC: a member
        # holding more than declared fails here too.
        raise ParseError(
            f"archive member {name!r} does not match its header ({error}): it is damaged, "
            "or larger than its header says",
            file=archive_name,
        ) from None


def _open_zip(stream: BinaryIO, archive_name: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(stream)
    except zipfile.BadZipFile as error:
        raise ParseError(f"not a readable zip archive ({error})", file=archive_name) from None


def _open_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, archive_name: str) -> IO[bytes]:
    try:
        return archive.open(info)
    except zipfile.BadZipFile as error:
        raise ParseError(f"archive member {info.filename!r} cannot be read ({error})", file=archive_name) from None


def _check_member_name(archive_name: str, name: str) -> None:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise ParseError(f"archive member {name!r} has an absolute path; refusing the archive", file=archive_name)
    if ".." in path.parts:
        raise ParseError(f"archive member {name!r} points outside the archive ('..'); refusing it", file=archive_name)


def _check_member(info: zipfile.ZipInfo, archive_name: str, limits: ZipLimits) -> None:
    """Refuse members that are dangerous whether or not they are read: path tricks, links, bombs."""
    _check_member_name(archive_name, info.filename)
    if stat.S_ISLNK(info.external_attr >> 16):
        raise ParseError(
            f"archive member {info.filename!r} is a symbolic link; refusing the archive", file=archive_name
        )
    ratio = info.file_size / max(info.compress_size, 1)
    if ratio > limits.max_ratio:
        raise ParseError(
            f"archive member {info.filename!r} expands {ratio:.0f} times (limit {limits.max_ratio:.0f}); "
            "refusing a possible zip bomb",
            file=archive_name,
        )


def _check_listing(infos: list[zipfile.ZipInfo], archive_name: str, limits: ZipLimits) -> None:
    if len(infos) > limits.max_members:
        raise ParseError(
            f"archive holds {len(infos)} files; at most {limits.max_members} are accepted", file=archive_name
        )
    for info in infos:
        _check_member(info, archive_name, limits)
    total = sum(info.file_size for info in infos)
    if total > limits.max_total_bytes:
        raise ParseError(
            f"archive expands to {total:,} bytes; at most {limits.max_total_bytes:,} are accepted", file=archive_name
        )


def _check_readable(info: zipfile.ZipInfo, archive_name: str) -> None:
    if info.flag_bits & 0x1:
        raise ParseError(
            f"archive member {info.filename!r} is encrypted; upload an archive without a password", file=archive_name
        )
    if info.compress_type not in STREAMED_METHODS:
        names = zipfile.compressor_names  # type: ignore[attr-defined]  # zipfile's own table; typeshed leaves it out
        method = names.get(info.compress_type, f"method {info.compress_type}")
        raise ParseError(
            f"archive member {info.filename!r} is compressed with {method}; ArrayBench reads stored and deflated "
            "members (the usual zip compression): make the archive again with it",
            file=archive_name,
        )


def _read_head(archive: zipfile.ZipFile, info: zipfile.ZipInfo, archive_name: str) -> bytes:
    """The member's first bytes; an archive inside the archive is refused, naming the member."""
    with _open_member(archive, info, archive_name) as member:
        head = _read_member(member, HEAD_BYTES, info.filename, archive_name)
    kind = archive_kind(head)
    if kind and PurePosixPath(info.filename).suffix.lower() not in DOCUMENT_SUFFIXES:
        # Refused rather than passed over: the results it holds would be missing without a word.
        raise ParseError(
            f"archive member {info.filename!r} is itself an archive ({kind}); unpack it and upload its files",
            file=archive_name,
        )
    return head


def _hidden(name: str) -> bool:
    return any(part.startswith((".", "__MACOSX")) for part in PurePosixPath(name).parts)


def zip_members(source: Source, limits: ZipLimits = DEFAULT_ZIP_LIMITS) -> list[Source]:
    """The files inside a zip as :class:`Source` objects, after checking the archive is safe.

    Directory entries and hidden files (``__MACOSX``, dot files) are passed over. The whole
    archive is refused, naming the member, when one is a symbolic link, an archive itself,
    encrypted, compressed other than stored or deflated, or breaks the limits. Members are
    read from the archive when parsed; only their first bytes are read here.
    """
    try:
        return _safe_members(source, limits)
    except ParseError as error:
        # Refusals worth an operator's eye: a bomb, a link or a path out of the archive may be an attack.
        logger.warning("%s: archive refused: %s", source.name, error.message)
        raise


def _safe_members(source: Source, limits: ZipLimits) -> list[Source]:
    with source.open_binary() as stream:
        archive = _open_zip(stream, source.name)
        infos = [info for info in archive.infolist() if not info.is_dir()]
        _check_listing(infos, source.name, limits)
        members: list[Source] = []
        for info in infos:
            if _hidden(info.filename):
                continue
            _check_readable(info, source.name)
            members.append(ZipMember(source, info, head=_read_head(archive, info, source.name)))
        logger.debug("%s: %d members to read of %d files", source.name, len(members), len(infos))
        return members
