"""The submissions of IO500's public submission data, read from a local clone.

The repository (``IO500/submission-data``) holds a folder per submission,
``<institution>/<system>/<file system>/<year>/submission-<N>/``, whose ``results/<timestamp>/`` folder holds
what the benchmark wrote: ``result_summary.txt``, ``result.txt`` and ``config.ini`` (sc20 and later); the 2018
script wrote ``results/result_summary.txt`` directly. The files of a results folder are read together by the
``io500`` parser, as an upload of them would be: a run per phase and one for the score, each citing the file
its figure was read from (``result.txt`` when there is one, else ``result_summary.txt``).
"""

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest import ParseError, RunDict, Source, parse_sources

from .clone import Catalogue, Citation

CATALOGUE = "io500"
# The files of a results folder the parser reads, those a figure is read from first.
RESULT_FILES = ("result.txt", "result_summary.txt")
CONFIG = "config.ini"
_SUBMISSION = re.compile(r"^submission-(?P<number>\d+)$")


@dataclass(frozen=True)
class Reading:
    """The repository and commit the files are cited at."""

    repository: str
    commit: str | None

    def cite(self, path: Path, root: Path) -> Citation:
        return Citation(repository=self.repository, path=path.relative_to(root).as_posix(), commit=self.commit)


@dataclass
class Submission:
    """One IO500 submission: where it sits in the repository (institution, system, file system, year and
    number), the results folder it was read from and each run with where it was read."""

    institution: str
    system: str
    file_system: str
    year: str
    number: str
    results: Citation | None = None
    runs: list[tuple[RunDict, Citation]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    tool = "IO500"

    @property
    def name(self) -> str:
        """The system's name in the portal: institution, system and file system, and the submission's number
        (an institution submits a system many times)."""
        return f"{self.institution} {self.system} {self.file_system} (IO500 submission {self.number})"[:200]

    def system_fields(self) -> dict[str, Any]:
        """The published system's fields: the file system as its model; the institution ran the benchmark,
        it is no vendor."""
        return {
            "vendor": "",
            "model": self.file_system[:100],
            "firmware": "",
            "controllers": None,
            "notes": (
                f"IO500 submission {self.number} of {self.institution}: {self.system}, file system "
                f"{self.file_system}, {self.year}"
            ),
            "profile": {
                "catalogue": {
                    "catalogue": CATALOGUE,
                    "institution": self.institution,
                    "system": self.system,
                    "file_system": self.file_system,
                    "year": self.year,
                    "submission": self.number,
                    "citation": None if self.results is None else self.results.as_dict(),
                }
            },
        }


def clone_submissions(*, root: Path, repository: str, commit: str | None) -> Catalogue:
    """Every submission of the clone at ``root`` with a results file, in path order."""
    submissions: list[Submission] = []
    failures: list[str] = []
    for folder in sorted(root.glob("*/*/*/*/submission-*")):
        match = _SUBMISSION.match(folder.name)
        if not folder.is_dir() or match is None or any(part.startswith(".") for part in folder.parts[-5:]):
            continue
        institution, system, file_system, year = folder.relative_to(root).parts[:4]
        submission = Submission(institution, system, file_system, year, match["number"])
        results = _results_folder(folder, root, submission.warnings)
        if results is None:
            failures.append(
                f"{folder.relative_to(root).as_posix()}: no results/ folder with {' or '.join(RESULT_FILES)}"
            )
            continue
        _runs_read(submission, results, root, Reading(repository, commit), failures)
        if submission.runs:
            submissions.append(submission)
    return Catalogue(submissions, failures)


def _results_folder(folder: Path, root: Path, warnings: list[str]) -> Path | None:
    """The submission's results folder: ``results/`` itself (2018), else its one ``results/<timestamp>/``
    folder with a results file; of several, the latest (and a warning naming the others)."""
    results = folder / "results"
    if any((results / name).is_file() for name in RESULT_FILES):
        return results
    found = sorted(
        path
        for path in results.glob("*")
        if path.is_dir() and not path.name.startswith(".") and any((path / name).is_file() for name in RESULT_FILES)
    )
    if len(found) > 1:
        others = ", ".join(path.relative_to(root).as_posix() for path in found[:-1])
        warnings.append(
            f"{found[-1].relative_to(root).as_posix()}: the latest of several results folders read ({others} not)"
        )
    return found[-1] if found else None


def _runs_read(submission: Submission, results: Path, root: Path, reading: Reading, failures: list[str]) -> None:
    """The runs of the files in ``results``, read together, each citing the results file."""
    names = [name for name in (*RESULT_FILES, CONFIG) if (results / name).is_file()]
    sources = [Source(results / name, name=(results / name).relative_to(root).as_posix()) for name in names]
    cited = reading.cite(results / next(name for name in RESULT_FILES if name in names), root)
    try:
        read = parse_sources(sources)
    except ParseError as error:
        failures.append(str(error))
        return
    if len(read) != 1 or read[0]["format"] != "io500":
        failures.append(f"{results.relative_to(root).as_posix()}: not an IO500 results folder")
        return
    submission.results = cited
    submission.runs.extend((run, cited) for run in read[0]["runs"])
    submission.warnings.extend(read[0]["warnings"])
