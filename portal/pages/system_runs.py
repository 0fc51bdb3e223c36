"""A system page's runs in words: its workloads' titles, the pages of workloads and runs, a row per run (the
runs and their figures are read by :mod:`portal.results.system_runs`)."""

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from django.core.paginator import Page, Paginator
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from portal import formatting
from portal.analysis.curves import Status
from portal.analysis.sizing import per_drive
from portal.analysis.workload_groups import NOT_STATED
from portal.curation.selectors import exclusion_words
from portal.models import Run
from portal.results.system_runs import NamedWorkload, RunFigure

# The overview shows this many workloads a page and the first runs of each
# (:data:`~portal.results.system_runs.RUNS_PER_WORKLOAD`).
WORKLOADS_PER_PAGE = 10
# One workload's runs, page by page.
RUNS_PER_PAGE = 50
# Where a run's figures come from, in words.
_ORIGINS = dict(Run.Origin.choices)
# How a figure with no response time was read, after how it was stated (IO500's: "as measured", "as published").
AS_IS_WORDS = ", with no response time (the same at any threshold)"
# A run id no address holds but in its place: the runs' addresses around it.
_ANY_RUN = 9_876_543_210


def workload_titles(*, names: list[str], found: list[NamedWorkload]) -> dict[str, str]:
    """What each of ``names`` does, in words: its workload's title ("4 KiB random read", or the name a
    paper gave it); the name itself where the file did not say what its runs do. A name stored for runs of
    several workloads lists them all."""
    titles: dict[str, list[str]] = {name: [] for name in names}
    for named in found:
        if named.title:
            titles[named.name].append(named.title)
    return {name: " / ".join(sorted(titles_of)) or name for name, titles_of in titles.items()}


def workloads_page(counts: list[tuple[str, int]], *, number: int | str | None) -> Page:
    """The page ``number`` of the workloads (a bad or out-of-range number gives the first or last)."""
    return Paginator(counts, WORKLOADS_PER_PAGE).get_page(number)


def runs_page(count: int, *, number: int | str | None) -> Page:
    """Page ``number`` of one workload's ``count`` runs: which rows to show, without a query."""
    return Paginator(range(count), RUNS_PER_PAGE).get_page(number)


# A row of the system page's runs table (``templates/pages/system.html``), its values escaped: filled here
# once per row, as the template's lookups of each value were most of what a page of hundreds of rows cost.
_ROW_HTML = (
    '<tr><td><a href="{}">#{}</a></td><td>{}</td><td>{}</td><td>{}</td>\n'
    '        <td class="num">{}</td><td class="num">{}</td><td>{}{}</td></tr>'
)
_EXCLUDED_HTML = '<br><span class="muted">{}</span>'


@dataclass(frozen=True)
class RunRow:
    """A row of the system page's runs table, formatted once: a page shows hundreds of them."""

    run_id: int
    url: str
    configuration: str
    tool: str
    source: str
    at_threshold: str
    per_drive: str
    how_read: str
    # "excluded from comparisons: <reason>, by <user> on <date>"; blank for a compared run.
    excluded: str = ""

    @property
    def html(self) -> SafeString:
        """The row as the page shows it, every value escaped (as ``format_html`` does, without its
        checks of values already safe: every value here is plain text)."""
        excluded = _EXCLUDED_HTML.format(escape(self.excluded)) if self.excluded else ""
        cells = (self.configuration, self.tool, self.source, self.at_threshold, self.per_drive, self.how_read)
        escaped = [escape(str(value)) for value in cells]
        return mark_safe(_ROW_HTML.format(escape(self.url), self.run_id, *escaped, excluded))


def runs_heading(figures: Iterable[RunFigure], *, threshold_ms: float) -> str:
    """The runs section's heading: "Runs by workload, at 20 ms"; where every figure shown states no response time,
    the same at any threshold (IO500's, :attr:`RunFigure.stated_as`), "Runs by workload, as measured (no response
    time)", and where some do, the threshold and which are not read at it."""
    stated = {figure.stated_as for figure in figures}
    at = f"at {formatting.threshold(threshold_ms)}"
    as_stated = stated - {""}
    how = as_stated.pop() if len(as_stated) == 1 else "as measured or published"
    if stated and "" not in stated:
        return f"Runs by workload, {how} (no response time)"
    if len(stated) > 1:
        return f"Runs by workload, {at} (IO500 figures {how}, with no response time)"
    return f"Runs by workload, {at}"


def run_rows(figures: Iterable[RunFigure], *, names_shown: bool = False) -> list[RunRow]:
    """The rows of ``figures`` (:func:`run_row`), their runs' addresses from one ``reverse``."""
    before, after = reverse("pages:run", args=[_ANY_RUN]).split(str(_ANY_RUN))
    return [run_row(figure, names_shown=names_shown, url=f"{before}{figure.run.id}{after}") for figure in figures]


def section_workloads(*, name: str, found: list[NamedWorkload]) -> dict[int | None, str] | None:
    """The titles of the workloads runs stored under ``name`` are of, by id, when they are several (fio-plot
    names its randread and randwrite jobs both "random-read": a section each); None when they are one, which
    the section's title says."""
    titles = {named.workload_id: named.title or NOT_STATED for named in found if named.name == name}
    return titles if len(titles) > 1 else None


def run_row(figure: RunFigure, *, url: str, names_shown: bool = False) -> RunRow:
    """The row of a figure at ``url`` (its run's address): its configuration in words, the figure and the
    figure per drive (1 decimal); who excluded a run is named to ``names_shown`` readers (the members of its
    team) only."""
    run = figure.run
    config = run.config
    described = [config.raid_level]
    if config.drive_count:
        described.append(formatting.drives(config.drive_count, config.drive_type))
    described.append(formatting.cache_setting(config))
    if config.stroke_pct:
        described.append(f"{formatting.percent(config.stroke_pct)} stroke")
    drives = config.drive_count
    unit = figure.unit or None
    value = "no value" if figure.value is None else formatting.throughput(figure.value, figure.metric, unit=unit)
    if figure.status == Status.NOT_REACHED:
        # A lower bound: the run did at least this much at the threshold.
        value = f"≥ {value}"
    by_drive = per_drive(figure.value, drives).per_drive if figure.value is not None and drives else None
    by_drive_text = formatting.throughput(by_drive, figure.metric, unit=unit)
    if figure.status == Status.NOT_REACHED and by_drive is not None:
        by_drive_text = f"≥ {by_drive_text}"  # a lower bound's share of each drive
    return RunRow(
        run_id=run.id,
        url=url,
        configuration=", ".join(part for part in described if part) or "not stated",
        tool=run.tool or "not stated",
        source=_ORIGINS.get(run.origin, run.origin),
        at_threshold=value,
        per_drive=by_drive_text,
        how_read=f"{figure.stated_as}{AS_IS_WORDS}" if figure.stated_as else formatting.status_words(figure.status),
        excluded=exclusion_words(
            phase=run.phase, reason=run.excluded_reason, by=run.excluded_by, at=run.excluded_at, names_shown=names_shown
        ),
    )
