"""The submissions of an MLPerf Storage results repository, read from a local clone.

The repositories (``mlcommons/storage_results_v1.0``, Apache-2.0) hold a folder per division and
organisation: ``Closed|Open/<organisation>/systems/<system>.json`` describes each system submitted, and
``results/<system>/<workload>/.../mlperf_storage_report.json`` holds each workload's report (Huawei's sits
in ``results/<system>/`` itself). A results folder that names no system description is read as the
organisation's only system when it has one (simplyblock's ``results/resnet-h100/``), else as a system
of that folder's name without a description; a description in ``results/<system>/systems/`` (Volumez's, in
the Open division) is that system's. The reports and descriptions are read by the
``mlperf_storage`` parser, as an upload of them would be; so are the DLIO summaries below a report's folder,
for the accelerator utilisation each benchmark run reached, which the report does not state.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest import ParseError, ResultSetDict, RunDict, Source, SystemDict, parse_sources

from .clone import Catalogue, Citation

CATALOGUE = "mlperf-storage"
DIVISIONS = ("Closed", "Open")
REPORT = "mlperf_storage_report.json"


@dataclass
class Submission:
    """One system an organisation submitted: its description (the result contract's system) and each
    workload's run, each with where it was read."""

    division: str
    organisation: str
    system_id: str
    description: SystemDict | None = None
    description_citation: Citation | None = None
    runs: list[tuple[RunDict, Citation]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    tool = "MLPerf Storage"

    @property
    def name(self) -> str:
        """The system's name in the portal: the organisation and the submission's system id."""
        return f"{self.organisation} {self.system_id}"

    def system_fields(self) -> dict[str, Any]:
        """The published system's fields: the description's, its vendor the organisation's when it names none."""
        described: Mapping[str, Any] = self.description or {}
        citation = self.description_citation
        profile = {
            **described,
            "catalogue": {
                "catalogue": CATALOGUE,
                "division": self.division,
                "organisation": self.organisation,
                "system_id": self.system_id,
                "citation": None if citation is None else citation.as_dict(),
            },
        }
        return {
            "vendor": (described.get("vendor") or self.organisation)[:100],
            "model": (described.get("model") or "")[:100],
            "firmware": (described.get("firmware") or "")[:100],
            "controllers": described.get("controllers"),
            "notes": f"MLPerf Storage submission of {self.organisation}, {self.division} division",
            "profile": profile,
        }


def clone_submissions(*, root: Path, repository: str, commit: str | None) -> Catalogue:
    """Every submission of the clone at ``root``, in division, organisation and system order."""
    submissions: list[Submission] = []
    failures: list[str] = []
    for division in DIVISIONS:
        for organisation in sorted(p for p in (root / division).glob("*") if p.is_dir()):
            found = _organisation(root, organisation, division, repository, commit, failures)
            # A system with neither a description nor a report read is not stored (its files are in failures).
            submissions.extend(found[key] for key in sorted(found) if found[key].description or found[key].runs)
    return Catalogue(submissions, failures)


def _organisation(
    root: Path, folder: Path, division: str, repository: str, commit: str | None, failures: list[str]
) -> dict[str, Submission]:
    def cite(path: Path) -> Citation:
        return Citation(repository=repository, path=path.relative_to(root).as_posix(), commit=commit)

    submissions: dict[str, Submission] = {}
    nested = [(path.parent.parent.name, path) for path in _descriptions(folder, "results/*/systems/*.json")]
    for system_id, path in [(path.stem, path) for path in _descriptions(folder, "systems/*.json")] + nested:
        if system_id in submissions:
            continue
        result = _read(path, root, failures)
        if result is not None and result.get("system"):
            submission = submissions.setdefault(system_id, Submission(division, folder.name, system_id))
            submission.description, submission.description_citation = result["system"], cite(path)
    described = list(submissions)
    for path in sorted((folder / "results").rglob(REPORT)):
        first = path.relative_to(folder / "results").parts[0]
        system_id = first if first in submissions or len(described) != 1 else described[0]
        submission = submissions.setdefault(system_id, Submission(division, folder.name, system_id))
        result = _read(path, root, failures)
        if result is not None:
            for run in result["runs"]:
                _utilisation_add(run, _summaries(path.parent, root, failures))
            submission.runs.extend((run, cite(path)) for run in result["runs"])
            submission.warnings.extend(result["warnings"])
    return submissions


SUMMARY = "summary.json"
AU_COLUMNS = ("run", "au_pct", "verdict")


def _summaries(folder: Path, root: Path, failures: list[str]) -> list[tuple[str, RunDict]]:
    """The DLIO summaries of the benchmark runs a report in ``folder`` sums up (those below it, not below
    another report's folder), each with its folder relative to ``folder`` and its run."""
    found = []
    for path in sorted(folder.rglob(SUMMARY)):
        between = path.parent.relative_to(folder).parents
        if any((folder / part / REPORT).exists() for part in between if part != Path(".")):
            continue
        result = _read(path, root, failures)
        if result is not None and result["runs"]:
            found.append((path.parent.relative_to(folder).as_posix(), result["runs"][0]))
    return found


def _utilisation_add(run: RunDict, summaries: list[tuple[str, RunDict]]) -> None:
    """The accelerator utilisation each benchmark run reached (its DLIO summary's mean AU and verdict) into
    the report's point, with the lowest of them (``au_pct_lowest``): the report states none itself."""
    rows = [[name, summary["points"][0]["metrics"].get("au_pct"), summary["verdict"]] for name, summary in summaries]
    if rows:
        metrics = run["points"][0]["metrics"]
        metrics["au_runs"] = {"columns": list(AU_COLUMNS), "rows": rows}
        metrics["au_pct_lowest"] = min((row[1] for row in rows if row[1] is not None), default=None)


def _descriptions(folder: Path, pattern: str) -> list[Path]:
    """The system descriptions under ``folder`` matching ``pattern``, without hidden files (macOS's ``._``
    copies)."""
    return sorted(path for path in folder.glob(pattern) if not path.name.startswith("."))


def _read(path: Path, root: Path, failures: list[str]) -> ResultSetDict | None:
    """The one result set of a file, read as an upload is; ``None`` (and the reason in ``failures``) when
    it cannot be read."""
    name = path.relative_to(root).as_posix()
    try:
        results = parse_sources([Source(path, name=name)])
    except ParseError as error:
        failures.append(str(error))
        return None
    if len(results) != 1 or results[0]["format"] != "mlperf_storage":
        failures.append(f"{name}: not an MLPerf Storage report or system description")
        return None
    return results[0]
