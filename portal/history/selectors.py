"""Reads of a configuration's history: its runs grouped by firmware version (or measured date), and alerts."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet, TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce, TruncDate

from portal import formatting
from portal.analysis.figure_kinds import FigureKind, figure_kind, kind_of_metric
from portal.analysis.versions import version_key
from portal.analysis.workload_groups import GroupedRun, group_labels
from portal.analysis.workloads import describe
from portal.models import Alert, AlertKind, AlertState, AlertStatus, Config, Point, Run, Team, Workload
from portal.results.selectors import COMPARABLE
from portal.teams.selectors import Viewer, visible

FIGURE = Alert.Figure.THROUGHPUT
FIGURES = tuple(Alert.Figure)
# The percentile each response-time figure reads (None: the average).
PERCENTILE_OF = {
    Alert.Figure.RESPONSE: None,
    Alert.Figure.P50: "50",
    Alert.Figure.P90: "90",
    Alert.Figure.P95: "95",
    Alert.Figure.P99: "99",
    Alert.Figure.P999: "99.9",
}


@dataclass
class Version:
    """The runs of one firmware version (or, for runs without one, of one measured day)."""

    version: str
    measured: datetime.datetime
    by_firmware: bool
    run_ids: list[int] = field(default_factory=list)
    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values)


@dataclass
class Series:
    """One figure of one configuration and workload, version by version in order: throughput at 20 ms
    (``metric`` "iops" or "mbps"), or the average response time (``metric`` "ms") at ``load``."""

    config: Config
    series: str
    workload_id: int | None
    workload_name: str
    metric: str
    versions: list[Version]
    figure: str = FIGURE
    # The load the response time is read at: (outstanding I/Os or threads, "outstanding" or "threads").
    load: tuple[float, str] | None = None
    # The workload in words, told apart from the configuration's other series stored under its name.
    label: str = ""
    # What a throughput series' rate counts (:mod:`portal.analysis.figure_kinds`); None for response times.
    kind: FigureKind | None = None

    @property
    def unit(self) -> str:
        """The unit its figures are in: "IOPS", "MB/s", "object ops/s" ... or "ms" for a response time."""
        return self.kind.unit if self.kind is not None else "ms"

    @property
    def figure_words(self) -> str:
        if self.load is None:
            return "throughput at 20 ms"
        percentile = PERCENTILE_OF.get(Alert.Figure(self.figure))
        which = f"{percentile}th percentile" if percentile else "average"
        return f"{which} response time {formatting.load(*self.load)}"


def series_key(*, workload_id: int | None, workload_name: str) -> str:
    """A series' key: the workload when the runs said what they do, else the name they were stored under."""
    return f"workload:{workload_id}" if workload_id is not None else f"name:{workload_name}"


def series_labels(*, runs: QuerySet[Run]) -> dict[tuple[int, str], str]:
    """The workload of each (configuration id, series) of ``runs`` in words: the name its runs were stored
    under, with what it does where another series of the configuration was stored under the same name
    (:mod:`portal.analysis.workload_groups`). Two queries."""
    rows = list(runs.values_list("config_id", "workload_id", "workload_name").order_by().distinct())
    workloads = Workload.objects.in_bulk({workload_id for _, workload_id, _ in rows if workload_id is not None})
    by_config: dict[int, list[GroupedRun]] = {}
    for config_id, workload_id, name in rows:
        workload = workloads.get(workload_id) if workload_id is not None else None
        title, described = (workload.name, describe(workload.signature())) if workload else ("", "")
        by_config.setdefault(config_id, []).append(GroupedRun(workload_id, name, title, described))
    labels: dict[tuple[int, str], str] = {}
    for config_id, grouped in by_config.items():
        for (kind, value), label in group_labels(grouped).items():
            series = f"workload:{value}" if kind == "workload" else f"name:{value}"
            labels[(config_id, series)] = label
    return labels


def _series_q(series: str) -> Q:
    kind, _, value = series.partition(":")
    if kind == "workload":
        return Q(workload_id=int(value))
    return Q(workload__isnull=True, workload_name=value)


def _compared_runs() -> QuerySet[Run]:
    return Run.objects.filter(COMPARABLE, origin=Run.Origin.MEASURED).exclude(throughput_metric="")


def series_touched(*, run_ids: list[int]) -> list[tuple[int, str]]:
    """The (configuration id, series) pairs these runs belong to that hold two versions or more (a series
    of one version has no change to find), in order: two queries whatever the number of runs."""
    pairs = (
        _compared_runs()
        .filter(id__in=run_ids)
        .values_list("config_id", "workload_id", "workload_name")
        .order_by()
        .distinct()
    )
    touched = {(config_id, series_key(workload_id=w, workload_name=name)) for config_id, w, name in pairs}
    versions: dict[tuple[int, str], set] = {}
    for config_id, w, name, firmware, day in (
        _compared_runs()
        .filter(config_id__in={config_id for config_id, _ in touched})
        .annotate(day=TruncDate(Coalesce("started_at", "upload__created_at", "created_at")))
        .values_list("config_id", "workload_id", "workload_name", "firmware", "day")
        .order_by()
        .distinct()
    ):
        versions.setdefault((config_id, series_key(workload_id=w, workload_name=name)), set()).add(firmware or day)
    return sorted(pair for pair in touched if len(versions.get(pair, ())) > 1)


def series_of_config(*, config_id: int) -> list[str]:
    pairs = _compared_runs().filter(config_id=config_id).values_list("workload_id", "workload_name").distinct()
    return sorted({series_key(workload_id=w, workload_name=name) for w, name in pairs})


def series_load(*, config: Config, series: str, figure: str = FIGURE) -> Series | None:
    """The series' versions in version order (runs without firmware first, by measured day); None when
    no compared run has a figure."""
    if figure in PERCENTILE_OF:
        return _response_series(config, series, Alert.Figure(figure))
    rows = list(
        _compared_runs()
        .filter(_series_q(series), config=config)
        .annotate(measured=Coalesce("started_at", "upload__created_at", "created_at"))
        .order_by("id")
        .values_list("id", "workload_id", "workload_name", "firmware", "measured", "throughput_metric",
                     "iops_at_20ms", "mbps_at_20ms", "tool", "params")
    )  # fmt: skip
    if not rows:
        return None
    metric = rows[0][5]
    versions: dict[str, Version] = {}
    for run_id, _w, _name, firmware, measured, run_metric, iops, mbps, _tool, _params in rows:
        value = iops if metric == "iops" else mbps
        if run_metric != metric or value is None:
            continue
        label = firmware or measured.date().isoformat()
        version = versions.setdefault(label, Version(label, measured, bool(firmware)))
        version.measured = min(version.measured, measured)
        version.run_ids.append(run_id)
        version.values.append(value)
    label = series_labels(runs=_compared_runs().filter(config=config))[(config.id, series)]
    kind = figure_kind(tool=rows[0][8], params=rows[0][9], workload_name=rows[0][2], metric=metric)
    return Series(config, series, rows[0][1], rows[0][2], metric, _in_order(versions), label=label, kind=kind)


def _in_order(versions: dict[str, Version]) -> list[Version]:
    return sorted(versions.values(), key=lambda v: (v.by_firmware, version_key(v.version), v.measured))


def _response_series(config: Config, series: str, figure: Alert.Figure) -> Series | None:
    """The average response time (or a percentile of it) of each run at the heaviest load every run of the
    series measured (its outstanding I/Os, else its threads); None when the runs share no such load."""
    percentile = PERCENTILE_OF[figure]
    runs = list(
        _compared_runs()
        .filter(_series_q(series), config=config)
        .annotate(measured=Coalesce("started_at", "upload__created_at", "created_at"))
        .order_by("id")
        .values_list("id", "workload_id", "workload_name", "firmware", "measured")
    )
    at_load: dict[int, dict[tuple[float, str], float]] = {run[0]: {} for run in runs}
    points = Point.objects.filter(run_id__in=list(at_load)).values_list(
        "run_id", "outstanding_io", "threads", "avg_response_ms", "latency_percentiles_ms"
    )
    for run_id, outstanding, threads, average_ms, percentiles in points:
        response_ms = (percentiles or {}).get(percentile) if percentile else average_ms
        measured_at = (outstanding, "outstanding") if outstanding is not None else (threads, "threads")
        if measured_at[0] is not None and response_ms is not None:
            at_load[run_id][(float(measured_at[0]), measured_at[1])] = response_ms
    shared = set.intersection(*(set(loads) for loads in at_load.values())) if at_load else set()
    if not shared:
        return None
    load = max(shared)
    versions: dict[str, Version] = {}
    for run_id, _w, _name, firmware, measured in runs:
        label = firmware or measured.date().isoformat()
        version = versions.setdefault(label, Version(label, measured, bool(firmware)))
        version.measured = min(version.measured, measured)
        version.run_ids.append(run_id)
        version.values.append(at_load[run_id][load])
    label = series_labels(runs=_compared_runs().filter(config=config))[(config.id, series)]
    return Series(
        config, series, runs[0][1], runs[0][2], "ms", _in_order(versions), figure=figure, load=load, label=label
    )


def alert_units(*, alerts: Sequence[Alert]) -> dict[int, str]:
    """The unit of each alert's before and after figures: "ms" for a response time, else the unit of what
    its series' rate counts ("IOPS", "MB/s", "object ops/s", "metadata ops/s" ...), from the series' first
    runs. One query, of what measured each series (not of every run)."""
    measured_by = (
        _compared_runs()
        .filter(config_id__in={alert.config_id for alert in alerts})
        .annotate(figure=Coalesce(KT("params__figure"), Value(""), output_field=TextField()))
        .order_by()
        .values_list("config_id", "workload_id", "workload_name", "throughput_metric", "tool", "figure")
        .distinct()
    )
    kinds: dict[tuple[int, str, str], FigureKind] = {}
    for config_id, workload_id, name, metric, tool, figure in sorted(measured_by, key=str):
        key = (config_id, series_key(workload_id=workload_id, workload_name=name), metric)
        kinds.setdefault(key, figure_kind(tool=tool, params={"figure": figure}, workload_name=name, metric=metric))
    units = {}
    for alert in alerts:
        kind = kinds.get((alert.config_id, alert.series, alert.metric))
        units[alert.id] = "ms" if alert.metric == "ms" else (kind or kind_of_metric(alert.metric)).unit
    return units


def series_baseline(*, config_id: int, series: str, figure: str = FIGURE) -> str | None:
    """The version the latest change marked "expected" starts at: detection reads from there on."""
    return (
        Alert.objects.filter(config_id=config_id, series=series, figure=figure, status=AlertStatus.EXPECTED)
        .order_by("-status_at", "-id")
        .values_list("version", flat=True)
        .first()
    )


def alerts_visible(*, viewer: Viewer) -> QuerySet[Alert]:
    """Alerts of the systems ``viewer`` may read."""
    return visible(Alert.objects.all(), viewer=viewer, prefix="system__").select_related(
        "system", "config", "status_by", "summary"
    )


def team_alerts(
    *, team: Team, status: str = "", system_id: int | None = None, min_pct: float | None = None
) -> QuerySet[Alert]:
    """A team's alerts, newest first, by status, system and size (the absolute % change at least ``min_pct``)."""
    alerts = Alert.objects.filter(system__team=team).select_related("system", "config", "status_by")
    if status:
        alerts = alerts.filter(status=status)
    if system_id is not None:
        alerts = alerts.filter(system_id=system_id)
    if min_pct is not None:
        alerts = alerts.filter(Q(change_pct__gte=min_pct) | Q(change_pct__lte=-min_pct))
    return alerts


def alert_counts(*, system_id: int) -> dict[str, int]:
    """A system's alerts by status, withdrawn ones left out (system page)."""
    counts = dict.fromkeys(AlertStatus.values, 0)
    # A withdrawn alert needs nobody's triage.
    alerts = Alert.objects.filter(system_id=system_id).exclude(state=AlertState.WITHDRAWN)
    for status in alerts.values_list("status", flat=True):
        counts[status] += 1
    return counts


@dataclass
class HistoryRow:
    """One version of a series as the history page lists it."""

    version: Version
    segment_mean: float
    # The open step starting at this version, and the other alerts starting there (drifts, withdrawn ones).
    alert: Alert | None
    others: list[Alert] = field(default_factory=list)


def series_history(*, config: Config, series: str, figure: str = FIGURE) -> tuple[Series | None, list[HistoryRow]]:
    """The series and its versions with the mean of the segment each belongs to (segments between the
    open steps) and the alerts starting there, each with its revisions."""
    loaded = series_load(config=config, series=series, figure=figure)
    if loaded is None or not loaded.versions:  # runs with no figure at 20 ms (mdtest, fs_mark: no response time)
        return loaded, []
    every = Alert.objects.filter(config=config, series=series, figure=figure).prefetch_related("revisions")
    alerts: dict[str, Alert] = {}
    others: dict[str, list[Alert]] = {}
    for alert in every.order_by("id"):
        if alert.kind == AlertKind.STEP and alert.state != AlertState.WITHDRAWN:
            alerts[alert.version] = alert
        else:
            others.setdefault(alert.version, []).append(alert)
    starts = sorted({0, *(i for i, v in enumerate(loaded.versions) if v.version in alerts)})
    bounds = [*starts, len(loaded.versions)]
    rows: list[HistoryRow] = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        values = [value for version in loaded.versions[start:end] for value in version.values]
        mean = sum(values) / len(values)
        rows.extend(
            HistoryRow(v, mean, alerts.get(v.version), others.get(v.version, [])) for v in loaded.versions[start:end]
        )
    return loaded, rows


@dataclass
class SeriesEntry:
    config: Config
    series: str
    # The series' workload in words (:func:`series_labels`).
    workload_name: str
    versions: int
    alerts: int
    # Whether its runs have a throughput at 20 ms to follow (mdtest's and fs_mark's measured no response time).
    followed: bool = True


def system_series(*, system_id: int) -> list[SeriesEntry]:
    """Every series of a system: configuration and workload, its number of versions and of alerts."""
    rows = (
        _compared_runs()
        .filter(config__system_id=system_id)
        .annotate(day=TruncDate(Coalesce("started_at", "upload__created_at", "created_at")))
        .values_list("config_id", "workload_id", "workload_name", "firmware", "day")
        .order_by()
        .distinct()
    )
    found: dict[tuple[int, str], tuple[str, set]] = {}
    for config_id, workload_id, name, firmware, day in rows:
        key = (config_id, series_key(workload_id=workload_id, workload_name=name))
        found.setdefault(key, (name, set()))[1].add(firmware or day)
    with_figures = {
        (config_id, series_key(workload_id=workload_id, workload_name=name))
        for config_id, workload_id, name in _compared_runs()
        .filter(Q(iops_at_20ms__isnull=False) | Q(mbps_at_20ms__isnull=False), config__system_id=system_id)
        .values_list("config_id", "workload_id", "workload_name")
        .distinct()
    }
    configs = Config.objects.in_bulk({config_id for config_id, _ in found})
    labels = series_labels(runs=_compared_runs().filter(config__system_id=system_id))
    counts: dict[tuple[int, str], int] = {}
    for config_id, series in Alert.objects.filter(system_id=system_id).values_list("config_id", "series"):
        counts[(config_id, series)] = counts.get((config_id, series), 0) + 1
    return [
        SeriesEntry(
            configs[config_id],
            series,
            labels[(config_id, series)],
            len(versions),
            counts.get((config_id, series), 0),
            followed=(config_id, series) in with_figures,
        )
        for (config_id, series), (_name, versions) in sorted(found.items())
    ]


def failed_deliveries(*, team: Team) -> QuerySet:
    """The team's alert summaries its webhook did not take, newest first (the alerts page shows them)."""
    from portal.models import AlertSummary

    return AlertSummary.objects.filter(system__team=team, delivery=AlertSummary.Delivery.FAILED).select_related(
        "system"
    )[:20]
