"""Markdown to HTML for the documentation pages, rendered on the server (no script, no CDN).

The same files read well on GitHub: headings get GitHub's anchors, and links between the files
(``operations.md#commands``, ``docs/api.md``, ``../README.md``) become the portal's addresses
(``/docs/operations/#commands``, ``/docs/api/``, ``/docs/``). Raw HTML in the text is shown as text.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from django.conf import settings
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

INDEX = "index"  # the page of README.md, at /docs/
PAGE_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# What GitHub drops from a heading's text to make its anchor: anything but letters, digits, _, - and spaces.
ANCHOR_DROPPED = re.compile(r"[^\w\- ]", re.UNICODE)


@dataclass(frozen=True)
class DocPage:
    name: str  # "index" for README.md, else the file's stem: "user-guide"
    path: Path
    title: str
    html: str


def docs_root() -> Path:
    return Path(settings.BASE_DIR)


def page_files() -> dict[str, Path]:
    """Every documentation page by name: the README first, then ``docs/*.md`` in name order."""
    root = docs_root()
    pages = {INDEX: root / "README.md"}
    pages |= {path.stem: path for path in sorted((root / "docs").glob("*.md")) if PAGE_NAME.fullmatch(path.stem)}
    return pages


def page_url(name: str) -> str:
    return "/docs/" if name == INDEX else f"/docs/{name}/"


def github_anchor(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return ANCHOR_DROPPED.sub("", text.strip().lower()).replace(" ", "-")


def heading_text(inline: Token) -> str:
    return "".join(child.content for child in inline.children or () if child.type in ("text", "code_inline"))


def page_for_link(href: str, *, source: Path) -> str | None:
    """The portal address of a relative link between documentation files, or None for anything else."""
    target, _, anchor = href.partition("#")
    if not target:
        return None
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
        return None
    root = docs_root()
    relative = PurePosixPath(source.parent.relative_to(root).as_posix()) / target
    parts: list[str] = []
    for part in relative.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    resolved = "/".join(parts)
    pages = {path.relative_to(root).as_posix(): name for name, path in page_files().items()}
    if resolved not in pages:
        return None
    return page_url(pages[resolved]) + (f"#{anchor}" if anchor else "")


def _anchors_and_links(state: StateCore) -> None:
    """Give each heading GitHub's anchor and point links between documentation files at their pages."""
    seen: dict[str, int] = {}
    source: Path = state.env["source"]
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            anchor = github_anchor(heading_text(tokens[index + 1]))
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            token.attrSet("id", anchor if count == 0 else f"{anchor}-{count}")
        for child in token.children or ():
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                portal = page_for_link(href, source=source)
                if portal is not None:
                    child.attrSet("href", portal)


def _markdown() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    parser.core.ruler.push("docs_anchors_and_links", _anchors_and_links)
    return parser


PARSER = _markdown()


@lru_cache(maxsize=32)
def _rendered(path: Path, modified_ns: int) -> tuple[str, str]:
    text = path.read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), path.stem)
    return title, PARSER.render(text, {"source": path})


def doc_page(name: str) -> DocPage | None:
    """The page ``name`` rendered, or None when there is no such page."""
    path = page_files().get(name)
    if path is None or not path.is_file():
        return None
    title, html = _rendered(path, path.stat().st_mtime_ns)
    return DocPage(name=name, path=path, title=title, html=html)


def doc_titles() -> list[tuple[str, str]]:
    """Each page's address and title, for the pages' table of contents."""
    pages = (doc_page(name) for name in page_files())
    return [(page_url(page.name), page.title) for page in pages if page is not None]
