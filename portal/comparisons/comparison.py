"""What a comparison of two systems is: how they are compared, each configuration pair's row, each
workload's rows and the comparison they make up (built by :mod:`.rows`, worded by :mod:`.sentences`)."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.core.paginator import Page

from portal import formatting
from portal.analysis.compare import ReplicateComparison
from portal.analysis.curves import Status
from portal.analysis.figure_kinds import IO500_SCORE, FigureKind, kind_of_metric, sized_by_drives
from portal.analysis.pairing import ConfigKey, config_key_label
from portal.models import System

from .figures import ComparedFigure, ConfigGroup, ReplicateGroup
from .filters import SideChoices

# What figures stated with no response time (IO500's) are compared without: said after how they were stated.
NO_RESPONSE_TIME = " (no response time)"


@dataclass(frozen=True)
class ComparisonOptions:
    """How two systems are compared: at ``threshold_ms`` of ``latency`` (avg, max or a percentile), B's
    figures multiplied by ``adjust_b``, each family of workloads at its best over transfer sizes
    (``best_of_sizes``) or workload by workload."""

    threshold_ms: float = 20.0
    adjust_b: float = 1.0
    latency: str = "avg"
    best_of_sizes: bool = False
    # The firmware version each side's runs were measured under, when one was chosen: sentences name it.
    a_firmware: str = ""
    b_firmware: str = ""
    # Each system's drive type by (system id, RAID level, drive count), where its configurations of that
    # RAID level and drive count state one type: sentences name a difference of drive type.
    drive_types: Mapping[tuple[int, str, int | None], str] = field(default_factory=dict, compare=False, hash=False)
    # Each system's other details by the same key (:func:`.details.stated_details`): sentences name a difference.
    details: Mapping[tuple[int, str, int | None], dict[str, str]] = field(
        default_factory=dict, compare=False, hash=False
    )

    def drive_type(self, system_id: int, group: ConfigGroup) -> str:
        return self.drive_types.get((system_id, group.raid_level, group.drive_count), "")

    def details_of(self, system_id: int, group: ConfigGroup, *, firmware_chosen: bool) -> dict[str, str]:
        """A side's stated details; without its firmware where one was chosen (the side's name says it)."""
        found = dict(self.details.get((system_id, group.raid_level, group.drive_count), {}))
        if firmware_chosen:
            found.pop("firmware", None)
        return found

    def side_names(self, a: System, b: System) -> tuple[str, str]:
        """A and B as sentences name them: "IBM DS5020 firmware 07.30.12.00" when a firmware was chosen."""
        return formatting.compared_side(a, self.a_firmware), formatting.compared_side(b, self.b_firmware)


@dataclass
class ComparisonRow:
    raid_level: str
    drive_count_a: int | None
    drive_count_b: int | None
    cache_a: str
    cache_b: str
    a_value: float
    b_value: float
    # None when B's figure is 0 (there is nothing to improve on; the row's notes say so).
    pct: float | None
    confidence: ReplicateComparison | None = None
    notes: list[str] = field(default_factory=list)
    # Each side's figures (:class:`ComparedFigure`), read when first asked for: charts and exports
    # draw and list them, the tables need only the values.
    a_figures: ReplicateGroup | None = field(default=None, repr=False)
    b_figures: ReplicateGroup | None = field(default=None, repr=False)
    # How the improvement is stated, as the row's sentence states it: '' a finding, "≤" / "≥" a bound, None
    # not stated (:func:`~portal.comparisons.sentences.improvement_mark`).
    pct_mark: str | None = ""
    # B's RAID level when it differs from A's (configurations chosen by hand), else None.
    raid_level_b: str | None = None
    # Each side's drive type ("SSD", "HDD"; '' where not stated).
    drive_type_a: str = ""
    drive_type_b: str = ""
    # Each side's other stated details by name ("drive speed": "15,000" rpm, "firmware": "5.0").
    details_a: dict[str, str] = field(default_factory=dict)
    details_b: dict[str, str] = field(default_factory=dict)

    @property
    def a_lower_bound(self) -> bool:
        """Whether A's figure is a lower bound: a figure of it did not reach the threshold (its best point)."""
        return self.a_figures is not None and Status.NOT_REACHED in self.a_figures.not_reached

    @property
    def b_lower_bound(self) -> bool:
        return self.b_figures is not None and Status.NOT_REACHED in self.b_figures.not_reached

    @property
    def stated_pct(self) -> float | None:
        """The improvement as tables print it: None where the sentences state no difference."""
        return None if self.pct_mark is None else self.pct

    @property
    def a_label(self) -> str:
        return config_key_label(ConfigGroup(self.raid_level, self.drive_count_a, self.cache_a))

    @property
    def b_label(self) -> str:
        raid_level = self.raid_level if self.raid_level_b is None else self.raid_level_b
        return config_key_label(ConfigGroup(raid_level, self.drive_count_b, self.cache_b))

    @property
    def a(self) -> list[ComparedFigure]:
        return self.a_figures.figures() if self.a_figures else []

    @property
    def b(self) -> list[ComparedFigure]:
        return self.b_figures.figures() if self.b_figures else []

    @property
    def label(self) -> str:
        if self.raid_level_b is not None:
            return f"{self.a_label} vs {self.b_label}"
        cache = self.cache_a or self.cache_b
        if self.drive_count_a == self.drive_count_b:
            return formatting.config_words(self.raid_level, self.drive_count_a, cache)
        b_drives = formatting.count(self.drive_count_b, "drive") if self.drive_count_b else "unstated drives"
        drives = f"{self.drive_count_a or 'unstated'} vs {b_drives}"
        return ", ".join(part for part in (formatting.raid_level_words(self.raid_level), drives, cache) if part)


@dataclass
class WorkloadComparison:
    workload: str
    metric: str
    rows: list[ComparisonRow]
    only_a: list[ConfigKey]
    only_b: list[ConfigKey]
    summaries: list[str]
    ambiguous: list[str] = field(default_factory=list)
    # How the two sides' runs were found to be the same workload, in words.
    matched_by: str = ""
    # Cache settings that would pair configurations one side states no cache setting for.
    cache_choices: list[str] = field(default_factory=list)
    # Why no configuration is compared (sentences), when ``rows`` is empty; ``printed_empty``: the same in a
    # report's words, which point at no control of the compare page.
    empty: list[str] = field(default_factory=list)
    printed_empty: list[str] = field(default_factory=list)
    # When a side's curve does not cross the threshold: the response times (ms) both sides' curves are
    # measured between, None when they share none, and thresholds within them to compare at instead;
    # ``sides_measured``: each side's own range in words, saying which does not reach the threshold.
    no_crossing: bool = False
    measured_ms: tuple[float, float] | None = None
    sides_measured: list[str] = field(default_factory=list)
    thresholds: list[float] = field(default_factory=list)
    # How figures stated with no response time (IO500's) are compared, in words ("as published (no response
    # time)", "as measured / as published (no response time)": a lab's upload against a catalogue's submission),
    # in place of the threshold: '' where they are read at the threshold.
    as_published: str = ""
    # What both sides' figures count (:mod:`portal.analysis.figure_kinds`), None where not known: IOPS or MB/s.
    kind: FigureKind | None = None
    # AI training throughputs compared as MLPerf Storage states them, in sentences (accelerators supported at
    # the utilisation rule, throughput and its share per accelerator); no response-time threshold applies.
    training: list[str] = field(default_factory=list)
    # Rates of other operations than I/Os that state no response time (mdtest, fs_mark), compared as measured.
    rates: list[str] = field(default_factory=list)

    @property
    def figure_kind(self) -> FigureKind:
        return self.kind or kind_of_metric(self.metric)

    @property
    def unit(self) -> str:
        """The unit the table heads its figures with: "IOPS", "metadata ops/s", "MB/s"."""
        return self.figure_kind.unit

    @property
    def sizable(self) -> bool:
        """Whether drive-count sizing answers which system needs fewer drives for this workload: only for
        I/O operations or throughput read at the response-time threshold. IO500 phases and scores (as
        published or measured, no response time), MLPerf Storage training throughputs and metadata, file and
        object rates have no drive count or response-time curve to size from."""
        return sized_by_drives(self.figure_kind) and not self.as_published

    @property
    def number_style(self) -> str:
        """How the tables print its figures: "iops" (whole), "mbps" (three significant digits), or "score"
        (IO500's score with the six decimals its file prints)."""
        return "score" if self.kind == IO500_SCORE else self.metric


@dataclass
class Comparison:
    a: System
    b: System
    threshold_ms: float
    adjust_b: float
    workloads: list[WorkloadComparison]
    only_a_workloads: list[str]
    only_b_workloads: list[str]
    latency: str = "avg"
    # The compared workloads' page among all both systems have (None: every one, as pairs compare).
    page: Page | None = None
    # What each side's filters left out, in sentences, and the values each side offers to filter by.
    left_out: list[str] = field(default_factory=list)
    a_choices: SideChoices | None = None
    b_choices: SideChoices | None = None
    # The firmware version each side's runs were measured under, when one was chosen.
    a_firmware: str = ""
    b_firmware: str = ""

    @property
    def as_published(self) -> bool:
        """Whether every compared workload's figures were published with no response time: no threshold applies."""
        compared = [workload for workload in self.workloads if workload.rows]
        return bool(compared) and all(workload.as_published for workload in compared)

    @property
    def stated_as(self) -> str:
        """How the figures were stated, where none has a response time: "as published", "as measured", "as
        measured / as published" (A's, then B's), or "as measured or published" when workloads differ; ''
        where figures are read at the threshold."""
        if not self.as_published:
            return ""
        stated = {workload.as_published.removesuffix(NO_RESPONSE_TIME) for workload in self.workloads if workload.rows}
        return stated.pop() if len(stated) == 1 else "as measured or published"

    @property
    def a_side(self) -> str:
        """A as the page names it, with its firmware when one was chosen."""
        return formatting.compared_side(self.a, self.a_firmware)

    @property
    def b_side(self) -> str:
        """B as the page names it, with its firmware when one was chosen."""
        return formatting.compared_side(self.b, self.b_firmware)
