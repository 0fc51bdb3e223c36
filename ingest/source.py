"""A file to parse: its name, its bytes (streamed, never read twice into memory) and its hash."""

import codecs
import hashlib
import io
import re
from collections.abc import Callable
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from .errors import ParseError

if TYPE_CHECKING:
    from typing_extensions import Buffer

HEAD_BYTES = 4096
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_\-]+)""", re.IGNORECASE)


def sniff_encoding(head: bytes) -> tuple[str, int]:
    """The text encoding of a file from its first bytes: byte-order mark, then HTML meta charset.

    Returns ``(encoding, bom_length)``; UTF-8 when nothing says otherwise.
    """
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding, 0 if encoding == "utf-8-sig" else len(bom)
    if len(head) >= 4 and head[1:2] == b"\x00" and head[3:4] == b"\x00":
        return "utf-16-le", 0
    match = _META_CHARSET.search(head)
    if match:
        name = match.group(1).decode("ascii").lower()
        try:
            codecs.lookup(name)
        except LookupError:
            return "utf-8", 0
        return name, 0
    return "utf-8", 0


def decode_head(head: bytes) -> str:
    """A file's first bytes as text, in the encoding :func:`sniff_encoding` finds (its byte-order mark
    dropped), bytes that are not in it replaced: for format detection, which must never fail."""
    encoding, bom_length = sniff_encoding(head)
    return head[bom_length:].decode(encoding, errors="replace")


class ProgressMeter:
    """Counts the bytes parsers read from a set of files and reports whole percentages.

    ``report(pct)`` is called each time at least ``step_pct`` more has been read, never with 100:
    a parser is finished only when it returns.
    """

    def __init__(self, total_bytes: int, report: Callable[[int], object], *, step_pct: int = 5) -> None:
        self.total_bytes = max(total_bytes, 1)
        self.report = report
        self.step_pct = step_pct
        self.read_bytes = 0
        self.reported_pct = 0

    def advance(self, count: int) -> None:
        self.read_bytes += count
        pct = min(99, 100 * self.read_bytes // self.total_bytes)
        if pct >= self.reported_pct + self.step_pct:
            self.reported_pct = pct
            self.report(pct)


class _CountedReader(io.RawIOBase):
    """A binary stream that tells a :class:`ProgressMeter` how much has been read through it."""

    def __init__(self, raw: BinaryIO, meter: ProgressMeter) -> None:
        self._raw = raw
        self._meter = meter

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._raw.seekable()  # zip archives are read from their end first

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def readinto(self, buffer: "Buffer") -> int:
        count = self._raw.readinto(buffer)  # type: ignore[attr-defined]  # every raw stream given has it
        if count:
            self._meter.advance(count)
        return count

    def readall(self) -> bytes:
        data = self._raw.read()
        self._meter.advance(len(data))
        return data

    def close(self) -> None:
        self._raw.close()
        super().close()


class _HashingReader(io.RawIOBase):
    """A binary stream that hashes the bytes read through it and, when they were read in order from
    the first to the last, gives the digest to its :class:`Source`: one pass over the file for the
    parser and its sha256. Any seek gives up the hashing."""

    def __init__(self, raw: "BinaryIO | _CountedReader", source: "Source") -> None:
        self._raw = raw
        self._source = source
        self._digest: hashlib._Hash | None = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._raw.seekable()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self._digest = None
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def readinto(self, buffer: "Buffer") -> int | None:
        count: int | None = self._raw.readinto(buffer)  # type: ignore[union-attr]  # every raw stream given has it
        if self._digest is not None:
            if count:
                self._digest.update(memoryview(buffer)[:count])
            elif count == 0 and len(memoryview(buffer)):
                self._finish(self._digest)
        return count

    def readall(self) -> bytes:
        """The rest of the file in one read (a document read whole), not 8 KiB at a time."""
        data = self._raw.read()
        if self._digest is not None:
            self._digest.update(data)
            self._finish(self._digest)
        return data

    def _finish(self, digest: "hashlib._Hash") -> None:
        if self._source._sha256 is None:
            self._source._sha256 = digest.hexdigest()
        self._digest = None

    def close(self) -> None:
        self._raw.close()
        super().close()


class Source:
    """One input file, from a path or from bytes (a zip member, an upload held in memory).

    Set ``meter`` to a :class:`ProgressMeter` to have the parser's reading reported.
    """

    meter: ProgressMeter | None = None

    def __init__(
        self, path: str | PathLike[str] | None = None, *, name: str | None = None, data: bytes | None = None
    ) -> None:
        if path is None and data is None:
            raise ValueError("a Source needs a path or data")
        self.path = Path(path) if path is not None else None
        self.name: str = name or (self.path.name if self.path is not None else "")
        self._data = data
        self._sha256: str | None = None
        self._head: bytes | None = None

    def _open_raw(self) -> BinaryIO:
        if self._data is not None:
            return io.BytesIO(self._data)
        assert self.path is not None  # one of the two is given, checked in __init__
        return self.path.open("rb")

    def open_binary(self) -> BinaryIO:
        """The file's bytes as a stream (what parsers read is counted when a meter is set). A stream
        read from start to end sets :attr:`sha256` on the way, so the file is not read again for it."""
        stream = self._open_raw()
        if self.meter is None and self._sha256 is not None:
            return stream
        raw: Any = stream if self.meter is None else _CountedReader(stream, self.meter)
        if self._sha256 is None:
            raw = _HashingReader(raw, self)
        return cast(BinaryIO, io.BufferedReader(raw, buffer_size=1 << 16))

    def head(self, size: int = HEAD_BYTES) -> bytes:
        """The first bytes of the file, for format detection."""
        head = self._head
        if head is None or len(head) < size:
            with self._open_raw() as stream:
                head = self._head = stream.read(max(size, HEAD_BYTES))
        return head[:size]

    def head_text(self, size: int = HEAD_BYTES) -> str:
        """The first bytes decoded as text (by BOM / meta charset), bad bytes replaced."""
        return decode_head(self.head(size))

    def open_text(
        self, encoding: str | None = None, errors: str = "strict", newline: str | None = None
    ) -> "TextStream":
        """A text stream with universal newlines (CRLF and LF read alike); with ``newline=""`` line ends
        are kept as written, and a lone CR (a terminal's progress line) ends no line, as in an editor.

        The encoding comes from the byte-order mark or an HTML meta charset unless given.
        """
        bom_length = 0
        if encoding is None:
            encoding, bom_length = sniff_encoding(self.head())
        stream = self.open_binary()
        stream.read(bom_length)
        return TextStream(stream, encoding=encoding, errors=errors, newline=newline, source=self, skip=bom_length)

    @property
    def sha256(self) -> str:
        if self._sha256 is None:
            digest = hashlib.sha256()
            with self._open_raw() as stream:
                for block in iter(lambda: stream.read(1 << 20), b""):
                    digest.update(block)
            self._sha256 = digest.hexdigest()
        return self._sha256

    def describe(self) -> dict:
        """The ``source`` member of a result set."""
        return {"name": self.name, "sha256": self.sha256}


class TextStream(io.TextIOWrapper):
    """The text of a :class:`Source`. Bytes that are not in the file's encoding and NUL characters
    (no tool writes them in text; they come from damaged copies and break the database's text
    columns) raise :class:`ParseError` naming the line, instead of escaping as decoding errors."""

    def __init__(self, buffer: BinaryIO, *, source: Source, skip: int, **options: Any) -> None:
        super().__init__(buffer, **options)
        self._source = source
        self._skip = skip
        self._options = options
        self._returned = 0  # characters returned so far

    def _checked(self, call: Callable[[int], str], size: int) -> str:
        try:
            text = call(size)
        except UnicodeDecodeError as error:
            raise decoding_error(self._source, self.encoding, self._skip, error) from None
        nul = text.find("\x00")
        if nul >= 0:
            raise ParseError(
                "NUL byte in the text: the file is damaged (or UTF-16 without a byte-order mark); "
                "export or copy the result file again",
                file=self._source.name,
                line=self._line_of(self._returned + nul),
            )
        self._returned += len(text)
        return text

    def _line_of(self, offset: int) -> int:
        """The line of the text's ``offset``-th character, counted by reading the text again: only a
        message needs it, so the clean reading counts nothing."""
        with self._source._open_raw() as raw:
            raw.read(self._skip)
            with io.TextIOWrapper(raw, **self._options) as text:
                return 1 + text.read(offset).count("\n")

    def read(self, size: int | None = -1, /) -> str:
        return self._checked(super().read, -1 if size is None else size)

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as TextIOWrapper's
        return self._checked(super().readline, size)

    def readlines(self, hint: int = -1, /) -> list[str]:  # type: ignore[override]  # as TextIOWrapper's
        return list(iter(self.readline, ""))

    def __next__(self) -> str:  # type: ignore[override]  # as TextIOWrapper's
        line = self.readline()
        if not line:
            raise StopIteration
        return line


def decoding_error(source: "Source", encoding: str, skip: int, error: UnicodeDecodeError) -> ParseError:
    """A :class:`ParseError` for ``error`` (raised somewhere in ``source``): the offending byte's
    offset in the file, its line, and the encoding the user should save the file in."""
    offset, line = _locate_decoding_error(source, encoding, skip)
    if offset is None:  # the file decodes after all (a reader mixed encodings); say what Python said
        return ParseError(f"the file is not valid {encoding}: {error.reason}", file=source.name)
    with source._open_raw() as stream:
        stream.seek(offset)
        byte = stream.read(1)
    label = _encoding_label(encoding)
    if not byte or error.reason in ("unexpected end of data", "truncated data"):
        message = f"the file ends in the middle of a {label} character (offset {offset}); it may be cut short"
    elif label == "UTF-8":
        message = (
            f"byte 0x{byte[0]:02X} at offset {offset} is not UTF-8; save the file as UTF-8 "
            "(it may be Latin-1 / Windows-1252)"
        )
    else:
        message = f"byte 0x{byte[0]:02X} at offset {offset} is not valid {label}; the file may be damaged"
    return ParseError(message, file=source.name, line=line)


def _encoding_label(encoding: str) -> str:
    name = codecs.lookup(encoding).name
    return {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16"}.get(name, name)


def _locate_decoding_error(source: Source, encoding: str, skip: int) -> tuple[int, int] | tuple[None, None]:
    """``(byte offset, line)`` of the first byte ``encoding`` cannot decode; ``(None, None)`` if none."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    offset, newlines = skip, 0
    with source._open_raw() as stream:
        stream.read(skip)
        while True:
            block = stream.read(1 << 16)
            pending = len(decoder.getstate()[0])
            try:
                newlines += decoder.decode(block, final=not block).count("\n")
            except UnicodeDecodeError as error:
                start = offset - pending
                good = error.object[: error.start].decode(encoding, errors="replace")
                return start + error.start, newlines + good.count("\n") + 1
            if not block:
                return None, None
            offset += len(block)


def describe_group(sources: list["Source"]) -> dict:
    """The ``source`` member for a result set read from several files (e.g. one ORION test)."""
    ordered = sorted(sources, key=lambda s: s.name)
    digest = hashlib.sha256("".join(s.sha256 for s in ordered).encode("ascii")).hexdigest()
    return {
        "name": " + ".join(s.name for s in ordered),
        "sha256": digest,
        "files": [s.describe() for s in ordered],
    }
