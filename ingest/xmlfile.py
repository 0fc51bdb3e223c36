"""Reading a result file written as XML, for every XML format alike: the tree, the line each element
starts on (for errors naming a line), and refusal of DTDs and entities (a result file never declares
one, and entities can attack the reader)."""

import xml.etree.ElementTree as ET

from .errors import ParseError
from .source import Source


class _LineNumbers(ET.TreeBuilder):
    """Builds the tree, noting the line each element starts on (``line`` is set as lines are fed)."""

    def __init__(self) -> None:
        super().__init__()
        self.line = 0
        self.lines: dict[ET.Element, int] = {}

    def start(self, tag: str, attrs: dict[str, str]) -> ET.Element:
        element = super().start(tag, attrs)
        self.lines[element] = self.line
        return element


def xml_root(source: Source, *, tool: str) -> tuple[ET.Element, dict[ET.Element, int]]:
    """The root element of ``source`` and the line each element starts on, read line by line.

    :class:`ParseError` for XML that is not well formed (naming line and column) and for a DOCTYPE or
    ENTITY declaration, which ``tool`` never writes."""
    target = _LineNumbers()
    parser = ET.XMLParser(target=target)
    with source.open_text() as stream:
        for number, line in enumerate(stream, 1):
            target.line = number
            if "<!DOCTYPE" in line or "<!ENTITY" in line:
                raise ParseError(
                    f"the XML declares a DOCTYPE or ENTITY; {tool} never writes one, so the file is refused",
                    file=source.name,
                    line=number,
                )
            try:
                parser.feed(line)
            except ET.ParseError as error:
                raise _xml_error(error, source) from None
        try:
            return parser.close(), target.lines
        except ET.ParseError as error:
            raise _xml_error(error, source) from None


def _xml_error(error: ET.ParseError, source: Source) -> ParseError:
    line, column = error.position
    return ParseError(
        f"not well-formed XML ({error.msg}); the file may be truncated", file=source.name, line=line, column=column
    )
