"""A local clone of a public results repository: its name and the commit its files are read at, for citations,
and what a catalogue's reader finds in it (:class:`Submission`, :class:`Catalogue`)."""

import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ingest import RunDict

# A GitHub remote, https or ssh: its owner/name is how the repository is cited.
_GITHUB = re.compile(r"^(?:https?://|ssh://)?(?:[^@/]+@)?github\.com[:/](?P<repository>[^/]+/[^/]+?)(?:\.git)?/?$")
# The user (and password or token) a remote URL may carry, never cited.
_USERINFO = re.compile(r"^(?P<scheme>[a-z+]+://)[^@/]+@")


@dataclass(frozen=True)
class Citation:
    """Where a published figure was read: the repository, the file's path in it and the commit."""

    repository: str
    path: str
    commit: str | None

    def note(self) -> str:
        """The citation's note, as stored with the run: the commit, or that the folder has none."""
        if self.commit:
            return f"commit {self.commit}"
        return "read from a folder that is no git clone: no commit"

    def as_dict(self) -> dict[str, str | None]:
        """The citation as a system's profile keeps it."""
        return {"repository": self.repository, "path": self.path, "commit": self.commit}


class Submission(Protocol):
    """One submission of a catalogue, as a catalogue's reader gives it to be stored: the published system's
    name and fields, the tool its runs are of, and each run (the result contract's) with where it was read."""

    @property
    def name(self) -> str: ...

    @property
    def tool(self) -> str: ...

    @property
    def runs(self) -> Sequence[tuple[RunDict, Citation]]: ...

    @property
    def warnings(self) -> Sequence[str]: ...

    def system_fields(self) -> dict[str, Any]:
        """The published system's fields (vendor, model, firmware, controllers, notes, profile)."""
        ...


@dataclass
class Catalogue:
    """What a clone holds: its submissions, and the files that could not be read (``path: reason``)."""

    submissions: Sequence[Submission]
    failures: list[str]


def _git(path: Path, *arguments: str) -> str | None:
    """A git command's output in ``path``; ``None`` when it fails (no git, not a clone)."""
    try:
        done = subprocess.run(["git", "-C", str(path), *arguments], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def clone_commit(*, path: Path) -> str | None:
    """The commit the clone's files are at (``git rev-parse HEAD``); ``None`` for a folder that is no clone."""
    commit = _git(path, "rev-parse", "HEAD")
    return commit if commit and re.fullmatch(r"[0-9a-f]{40}([0-9a-f]{24})?", commit) else None


def clone_repository(*, path: Path, given: str | None) -> str:
    """How the repository is cited: as given; else its ``origin`` remote (``owner/name`` on GitHub, any
    other URL without its user or token); else the folder's name."""
    if given and given.strip():
        return given.strip()
    remote = _git(path, "remote", "get-url", "origin")
    if remote:
        github = _GITHUB.match(remote)
        return github["repository"] if github else _USERINFO.sub(r"\g<scheme>", remote)
    return path.resolve().name
