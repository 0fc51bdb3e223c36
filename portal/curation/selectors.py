"""Reading what maintainers said of results: a viewer's teams' names for workloads, an exclusion or a
statement in words (with who made it, named only to the members of the run's team)."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Q
from django.template.defaultfilters import date as date_text

from portal.models import Run, RunStatement
from portal.models.teams import ROLE_RANK, Role
from portal.results.workloads import viewer_aliases
from portal.teams.selectors import Viewer, role_of


@dataclass
class AliasBook:
    """The team's names of workloads a page shows, by workload id and by the stored name of runs without one."""

    by_workload: dict[int, str] = field(default_factory=dict)
    by_name: dict[str, str] = field(default_factory=dict)

    def of(self, *, workload_id: int | None, workload_name: str) -> str:
        """The team's name of a run's workload ('' when the team gave none)."""
        if workload_id:
            return self.by_workload.get(workload_id, "")
        return self.by_name.get(workload_name, "")


def alias_book(
    *, viewer: Viewer | None, workload_ids: Iterable[int] = (), workload_names: Iterable[str] = ()
) -> AliasBook:
    """The names the teams of ``viewer`` gave to these workloads (one query; the team named first wins
    where two of a viewer's teams named the same one)."""
    ids, names = list(set(workload_ids)), list(set(workload_names))
    book = AliasBook()
    if not ids and not names:
        return book
    wanted = Q(workload_id__in=ids) | Q(workload__isnull=True, workload_name__in=names)
    for alias in viewer_aliases(viewer=viewer).filter(wanted).order_by("-team__name"):
        if alias.workload_id:
            book.by_workload[alias.workload_id] = alias.name
        else:
            book.by_name[alias.workload_name] = alias.name
    return book


def system_workload_aliases(
    *, pairs: Iterable[tuple[str, int | None]], workload_names: list[str], viewer: Viewer | None
) -> dict[str, str]:
    """The team's names of a system page's workload sections (by stored name), from the (stored name,
    workload id) pairs of the runs shown: one query. A stored name whose runs are of several workloads
    keeps its name."""
    if not workload_names or viewer is None or not viewer.is_authenticated:
        return {}
    pairs = set(pairs)
    book = alias_book(viewer=viewer, workload_ids=[w for _n, w in pairs if w], workload_names=workload_names)
    found: dict[str, set[str]] = {}
    for name, workload_id in pairs:
        found.setdefault(name, set()).add(book.of(workload_id=workload_id, workload_name=name))
    return {name: aliases.pop() for name, aliases in found.items() if len(aliases) == 1 and "" not in aliases}


def _who(user: User | None, *, shown: bool) -> str:
    if not shown:
        return "a maintainer"
    return user.username if user is not None else "a former member"


def exclusion_text(*, run: Run, names_shown: bool) -> str:
    """ "excluded from comparisons: <reason>, by <user> on <date>", or what the step its file calls a
    preparation was ('' for a run that is compared)."""
    excluded = run.phase == Run.Phase.MEASUREMENT and run.excluded_reason
    by = run.excluded_by.username if excluded and run.excluded_by is not None else None
    return exclusion_words(
        phase=run.phase, reason=run.excluded_reason, by=by, at=run.excluded_at, names_shown=names_shown
    )


def exclusion_words(*, phase: str, reason: str, by: str | None, at: datetime | None, names_shown: bool) -> str:
    """:func:`exclusion_text` of a run read as values: its ``phase``, the ``reason`` it was excluded for, ``by``
    whom (None: a user since removed) and ``at`` what time."""
    if phase != Run.Phase.MEASUREMENT:
        return (
            f"a {dict(Run.Phase.choices).get(phase, phase)} of the test, stored as the file states it: never compared"
        )
    if not reason:
        return ""
    when = f" on {date_text(at, 'j M Y')}" if at else ""
    who = (by if by is not None else "a former member") if names_shown else "a maintainer"
    return f"excluded from comparisons: {reason}, by {who}{when}"


@dataclass(frozen=True)
class Stated:
    """One value a maintainer stated of a run, in words."""

    label: str
    value: str
    by: str


def statement_lines(*, statement: RunStatement | None, names_shown: bool) -> list[Stated]:
    """ "read %: 50 (stated by <user>)" for each value stated of a run."""
    if statement is None:
        return []
    by = _who(statement.stated_by, shown=names_shown)
    lines = []
    if statement.read_pct is not None:
        lines.append(Stated("read %", f"{statement.read_pct}", by))
    if statement.random_pct is not None:
        lines.append(Stated("random %", f"{statement.random_pct}", by))
    if statement.transfer_size_bytes is not None:
        lines.append(Stated("transfer size", f"{statement.transfer_size_bytes:,} bytes", by))
    return lines


@dataclass(frozen=True)
class RunOverrides:
    """What the run page shows of a maintainer's changes, and whether the reader may make them."""

    maintains: bool
    has_team: bool
    exclusion: str
    stated: list[Stated]
    alias: str


def run_overrides(*, run: Run, viewer: Viewer) -> RunOverrides:
    """The run page's view of its exclusion, stated values and the team's name of its workload
    (three small queries: the reader's role, the statement, the name)."""
    team = run.config.system.team
    role = role_of(viewer, team)
    names_shown = role is not None
    statement = RunStatement.objects.filter(run=run).select_related("stated_by").first()
    book = alias_book(
        viewer=viewer, workload_ids=[run.workload_id] if run.workload_id else [], workload_names=[run.workload_name]
    )
    return RunOverrides(
        maintains=role is not None and ROLE_RANK[Role(role)] >= ROLE_RANK[Role.MAINTAINER],
        has_team=team is not None,
        exclusion=exclusion_text(run=run, names_shown=names_shown),
        stated=statement_lines(statement=statement, names_shown=names_shown),
        alias=book.of(workload_id=run.workload_id, workload_name=run.workload_name),
    )


def compared_workload_aliases(*, workloads: list, viewer: Viewer | None) -> None:
    """Give each compared workload (``WorkloadComparison``) the name a team of ``viewer`` calls it
    (``team_name``, '' when none): one query for the page's workloads."""
    keys: dict[int, tuple] = {}
    for compared in workloads:
        replicates = next((row.a_figures for row in compared.rows if row.a_figures is not None), None)
        keys[id(compared)] = replicates.workload_key if replicates is not None else ("", "")
    ids = [int(key[1]) for key in keys.values() if key[0] == "workload"]
    names = [str(key[1]) for key in keys.values() if key[0] == "name"]
    book = alias_book(viewer=viewer, workload_ids=ids, workload_names=names)
    for compared in workloads:
        kind, value = keys[id(compared)]
        if kind == "workload":
            compared.team_name = book.by_workload.get(int(value), "")
        else:
            compared.team_name = book.by_name.get(str(value), "") if kind == "name" else ""
