"""A file to parse: its name, its bytes (streamed, never read twice into memory) and its hash."""

import codecs
import hashlib
import io
import re
from pathlib import Path

HEAD_BYTES = 4096
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_\-]+)""", re.IGNORECASE)


def sniff_encoding(head):
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


class Source:
    """One input file, from a path or from bytes (a zip member, an upload held in memory)."""

    def __init__(self, path=None, *, name=None, data=None):
        if path is None and data is None:
            raise ValueError("a Source needs a path or data")
        self.path = Path(path) if path is not None else None
        self.name = name or self.path.name
        self._data = data
        self._sha256 = None
        self._head = None

    def open_binary(self):
        if self._data is not None:
            return io.BytesIO(self._data)
        return self.path.open("rb")

    def head(self, size=HEAD_BYTES):
        """The first bytes of the file, for format detection."""
        if self._head is None or len(self._head) < size:
            with self.open_binary() as stream:
                self._head = stream.read(max(size, HEAD_BYTES))
        return self._head[:size]

    def head_text(self, size=HEAD_BYTES):
        """The first bytes decoded as text (by BOM / meta charset), bad bytes replaced."""
        encoding, bom_length = sniff_encoding(self.head(size))
        return self.head(size)[bom_length:].decode(encoding, errors="replace")

    def open_text(self, encoding=None, errors="strict"):
        """A text stream with universal newlines (CRLF and LF read alike).

        The encoding comes from the byte-order mark or an HTML meta charset unless given.
        """
        bom_length = 0
        if encoding is None:
            encoding, bom_length = sniff_encoding(self.head())
        stream = self.open_binary()
        stream.read(bom_length)
        return io.TextIOWrapper(stream, encoding=encoding, errors=errors, newline=None)

    @property
    def sha256(self):
        if self._sha256 is None:
            digest = hashlib.sha256()
            with self.open_binary() as stream:
                for block in iter(lambda: stream.read(1 << 20), b""):
                    digest.update(block)
            self._sha256 = digest.hexdigest()
        return self._sha256

    def describe(self):
        """The ``source`` member of a result set."""
        return {"name": self.name, "sha256": self.sha256}


def describe_group(sources):
    """The ``source`` member for a result set read from several files (e.g. one ORION test)."""
    ordered = sorted(sources, key=lambda s: s.name)
    digest = hashlib.sha256("".join(s.sha256 for s in ordered).encode("ascii")).hexdigest()
    return {
        "name": " + ".join(s.name for s in ordered),
        "sha256": digest,
        "files": [s.describe() for s in ordered],
    }
