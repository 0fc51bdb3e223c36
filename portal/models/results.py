"""What was measured: workloads, runs and their points.

Units are fixed: MB/s means 10^6 bytes per second, times are milliseconds, sizes are bytes.
"""

import functools
from typing import TYPE_CHECKING, Any

import yaml
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import Case, F, Q, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from ingest.result import POINT_FIGURES

from .systems import Config
from .uploads import Upload

if TYPE_CHECKING:
    from portal.analysis.workloads import Signature


@functools.cache
def _document_titles():
    fixture = yaml.load((settings.BASE_DIR / "fixtures" / "demo.yaml").read_text(), Loader=yaml.CSafeLoader)
    return fixture.get("documents") or {}


def document_title(document: str) -> str:
    """A cited document's title, from the published studies' fixture; the file name when unknown."""
    return _document_titles().get(document, document) if document else ""


class Workload(models.Model):
    """What a run does, whatever it was called: read %, random %, the transfer-size mix (and the
    alignment and sequential streams where a tool states them). See ``portal/analysis/workloads.py``
    for when two are the same. Runs whose file did not say enough have none and match by name."""

    identity = models.CharField(max_length=64, editable=False)
    read_pct = models.PositiveSmallIntegerField()
    random_pct = models.PositiveSmallIntegerField()
    # [[bytes, pct], ...] in increasing size
    transfer_sizes = models.JSONField(default=list)
    alignment_bytes = models.PositiveIntegerField(null=True, blank=True)
    streams = models.PositiveIntegerField(null=True, blank=True)
    name = models.CharField(
        max_length=200,
        help_text="Shown everywhere: what it does in words, or the name a paper or a person gave it.",
    )
    # Every name runs of this workload were stored under ("OLTP 8K", "randrw-8k", "rd1").
    names = ArrayField(models.CharField(max_length=200), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["read_pct", "random_pct", "id"]
        constraints = [
            models.UniqueConstraint(fields=["identity"], name="workload_identity_unique"),
            models.CheckConstraint(condition=Q(read_pct__lte=100, random_pct__lte=100), name="workload_pct_range"),
        ]
        indexes = [
            # Runs asked for by one of a workload's names (compare, tables: ?workload=OLTP 8K).
            GinIndex(fields=["names"], name="workload_names"),
        ]

    def __str__(self) -> str:
        return self.name

    def signature(self) -> "Signature":
        from portal.analysis.workloads import Signature

        sizes = tuple((int(size), int(pct)) for size, pct in self.transfer_sizes)
        return Signature(self.read_pct, self.random_pct, sizes, self.alignment_bytes, self.streams)


def _summary_ms(key: str) -> Case:
    """A response time of a run's summary as a number (NULL unless it is a number as ``jsonb`` prints one:
    plain digits, no exponent, within the range of a double)."""
    return Case(
        When(
            **{f"summary__{key}__regex": r"^-?[0-9]{1,18}(\.[0-9]{1,255})?$"},
            then=Cast(KT(f"summary__{key}"), models.FloatField()),
        )
    )


def _in_metric(iops: str, mbps: str, *, default: Value | None) -> Case:
    """A run's stored figure column ``iops`` or ``mbps``, as its ``throughput_metric`` says."""
    return Case(
        When(throughput_metric="iops", then=F(iops)), When(throughput_metric="mbps", then=F(mbps)), default=default
    )


class Run(models.Model):
    """One measured experiment on a configuration (or a published figure, with its citation)."""

    class Measurement(models.TextChoices):
        END_TO_END = "end_to_end", "end-to-end"
        CACHE_ONLY = "cache_only", "cache-only"

    class Origin(models.TextChoices):
        MEASURED = "measured", "measured (uploaded file)"
        PUBLISHED = "published", "published (typed in from a paper)"

    class Verdict(models.TextChoices):
        PASS = "pass"
        FAIL = "fail"

    class Phase(models.TextChoices):
        MEASUREMENT = "measurement", "measurement"
        # A step that prepares the test (vdbench's format, a fill or preconditioning pass): stored and
        # shown as such, never compared.
        PREPARATION = "preparation", "preparation step"
        WARM_UP = "warm-up", "warm-up"

    config = models.ForeignKey(Config, on_delete=models.CASCADE, related_name="runs")
    upload = models.ForeignKey(Upload, null=True, blank=True, on_delete=models.CASCADE, related_name="runs")
    name = models.CharField(max_length=300)
    description = models.TextField(blank=True)
    tool = models.CharField(max_length=60)
    tool_version = models.CharField(max_length=60, blank=True)
    workload_name = models.CharField(max_length=200, help_text='e.g. "OLTP 8K".')
    # What the run does; none when the file did not say enough (then it is matched by name).
    workload = models.ForeignKey(Workload, null=True, blank=True, on_delete=models.PROTECT, related_name="runs")
    read_pct = models.FloatField(null=True, blank=True)
    random_pct = models.FloatField(null=True, blank=True)
    # [{"bytes": 8192, "pct": 100.0}, ...]
    transfer_sizes = models.JSONField(default=list, blank=True)
    # The transfer size of a run of one transfer size, in bytes, kept by the database with ``transfer_sizes``
    # (NULL for several sizes, none, or a size that is not a whole number): the size axis of a system page's
    # transfer-size families, read without parsing each run's JSON.
    single_transfer_bytes = models.GeneratedField(
        expression=Case(
            When(
                Q(transfer_sizes__1__isnull=True, transfer_sizes__0__bytes__regex=r"^[0-9]{1,18}$"),
                then=Cast(KT("transfer_sizes__0__bytes"), models.BigIntegerField()),
            )
        ),
        output_field=models.BigIntegerField(null=True),
        db_persist=True,
    )
    params = models.JSONField(default=dict, blank=True)
    verdict = models.CharField(max_length=4, choices=Verdict.choices, blank=True)
    phase = models.CharField(max_length=12, choices=Phase.choices, default=Phase.MEASUREMENT, db_default="measurement")
    # A maintainer's exclusion from comparisons, with the reason they gave (a failed run, a preconditioning
    # pass); blank when the run is compared. The run's own figures are never changed by it.
    excluded_reason = models.CharField(max_length=300, blank=True, default="", db_default="")
    excluded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    excluded_at = models.DateTimeField(null=True, blank=True)
    measurement = models.CharField(max_length=12, choices=Measurement.choices, default=Measurement.END_TO_END)
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.MEASURED)
    # A published figure's source and the response time it is stated at.
    citation_document = models.CharField(max_length=200, blank=True)
    citation_table = models.CharField(max_length=200, blank=True)
    citation_note = models.TextField(blank=True)
    published_at_ms = models.FloatField(null=True, blank=True)
    # The controller firmware the run was measured under (a label, or the array profile's); blank when unknown.
    firmware = models.CharField(max_length=100, blank=True, default="", db_default="")
    started_at = models.DateTimeField(null=True, blank=True)
    duration_s = models.FloatField(null=True, blank=True)
    tags = ArrayField(models.CharField(max_length=50), default=list, blank=True)
    notes = models.TextField(blank=True)
    # Derived figures (peak IOPS, lowest response time, ...) recomputed by a background task.
    summary = models.JSONField(default=dict, blank=True)
    # The lowest and highest average response time of the run's points, kept by the database with ``summary``
    # (NULL when it holds none): the response times a comparison's curves are measured between, read from an
    # index instead of each run's JSON.
    min_avg_response_ms = models.GeneratedField(
        expression=_summary_ms("min_response_ms"), output_field=models.FloatField(null=True), db_persist=True
    )
    max_avg_response_ms = models.GeneratedField(
        expression=_summary_ms("max_response_ms"), output_field=models.FloatField(null=True), db_persist=True
    )
    # The run's throughput at the papers' default, 20 ms of average response time, read from its points
    # when they are stored (portal/results/figures.py ``run_stored_figures``): what a comparison at the
    # default reads instead of the points. ``throughput_metric`` is blank until they are stored; saving a
    # run or a point through the ORM (the admin) blanks it, and the figures are read from the points.
    throughput_metric = models.CharField(
        max_length=4, blank=True, default="", db_default="", help_text='"iops" or "mbps": what the run is judged by.'
    )
    iops_at_20ms = models.FloatField(null=True, blank=True)
    iops_at_20ms_status = models.CharField(max_length=16, blank=True, default="", db_default="")
    mbps_at_20ms = models.FloatField(null=True, blank=True)
    mbps_at_20ms_status = models.CharField(max_length=16, blank=True, default="", db_default="")
    # Whether the threshold was reached, in ``throughput_metric``.
    reached_20ms = models.BooleanField(null=True, blank=True)
    # The stored figure and its status in ``throughput_metric``, kept by the database with them (NULL and blank
    # until they are stored): what a comparison sums up per workload and configuration, read from an index.
    throughput_at_20ms = models.GeneratedField(
        expression=_in_metric("iops_at_20ms", "mbps_at_20ms", default=None),
        output_field=models.FloatField(null=True),
        db_persist=True,
    )
    throughput_at_20ms_status = models.GeneratedField(
        expression=_in_metric("iops_at_20ms_status", "mbps_at_20ms_status", default=Value("")),
        output_field=models.CharField(max_length=16),
        db_persist=True,
    )
    # A one-point published run's MB/s as its paper printed it, when that was binary (2^20 bytes/s).
    published_mbps_binary = models.FloatField(null=True, blank=True)
    # At each response time a threshold applies to (``RunCurve.RESPONSE_COLUMNS``), the lowest and highest
    # response time of the points a figure is read from (those with the run's throughput and that response
    # time) and their best throughput, stored with the figures (NULL: no such point): a comparison at a
    # threshold outside that range reads the figure from them, not from the curve.
    lowest_avg_response_ms = models.FloatField(null=True, blank=True)
    highest_avg_response_ms = models.FloatField(null=True, blank=True)
    peak_with_avg_response_ms = models.FloatField(null=True, blank=True)
    lowest_max_response_ms = models.FloatField(null=True, blank=True)
    highest_max_response_ms = models.FloatField(null=True, blank=True)
    peak_with_max_response_ms = models.FloatField(null=True, blank=True)
    lowest_p50_ms = models.FloatField(null=True, blank=True)
    highest_p50_ms = models.FloatField(null=True, blank=True)
    peak_with_p50_ms = models.FloatField(null=True, blank=True)
    lowest_p90_ms = models.FloatField(null=True, blank=True)
    highest_p90_ms = models.FloatField(null=True, blank=True)
    peak_with_p90_ms = models.FloatField(null=True, blank=True)
    lowest_p95_ms = models.FloatField(null=True, blank=True)
    highest_p95_ms = models.FloatField(null=True, blank=True)
    peak_with_p95_ms = models.FloatField(null=True, blank=True)
    lowest_p99_ms = models.FloatField(null=True, blank=True)
    highest_p99_ms = models.FloatField(null=True, blank=True)
    peak_with_p99_ms = models.FloatField(null=True, blank=True)
    lowest_p99_9_ms = models.FloatField(null=True, blank=True)
    highest_p99_9_ms = models.FloatField(null=True, blank=True)
    peak_with_p99_9_ms = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["config", "workload_name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(origin="published") | ~Q(citation_document=""),
                name="run_published_has_citation",
            ),
            models.CheckConstraint(
                condition=Q(read_pct__isnull=True) | Q(read_pct__gte=0, read_pct__lte=100),
                name="run_read_pct_range",
            ),
        ]
        indexes = [
            # Runs of a configuration for one workload (compare, tables, stroke multipliers); a system
            # page's first runs of a workload in id order, its run counts by workload and the workloads its
            # shown names are of (index only).
            models.Index(
                fields=["config", "workload_name", "id"], include=["workload_id"], name="run_config_workload_id"
            ),
            # A system page's first runs of a workload ordered by tool.
            models.Index(fields=["config", "workload_name", "tool", "id"], name="run_config_workload_tool"),
            # A configuration's runs of one transfer size, the only ones a transfer-size family can hold: what its
            # sweep cells are summed up from (``SweepCell``), read from the index alone, not from wide run rows.
            models.Index(
                fields=["config", "single_transfer_bytes"],
                include=["tool", "random_pct", "read_pct", "id"],
                condition=Q(single_transfer_bytes__gt=0),
                name="run_config_single_size",
            ),
            # Runs by workload across systems (filters on the systems page).
            models.Index(fields=["workload_name", "tool"], name="run_workload_tool"),
            # Runs of one workload, whatever their names (compare, tables, sweeps).
            models.Index(fields=["workload", "config"], name="run_workload_config"),
            # The firmware versions a configuration's runs state (a loose index scan, one probe per version: what a
            # comparison's sentences name as a difference).
            models.Index(fields=["config", "firmware"], name="run_config_firmware"),
            # The tools the systems list can be filtered by (a loose index scan, one probe per tool).
            models.Index(fields=["tool"], name="run_tool"),
            # A comparison's runs at the stored default, read from the index alone, not from their wide rows: a
            # system's comparable runs by configuration with their workload key and stored figures (the
            # compare page's configurations, workloads, replicates summed up per workload and configuration,
            # and the response times each workload's curves are measured between).
            models.Index(
                fields=["config"],
                include=[
                    *("workload_id", "workload_name", "read_pct", "random_pct", "id", "origin", "published_at_ms"),
                    *("throughput_metric", "throughput_at_20ms", "throughput_at_20ms_status", "reached_20ms"),
                    *("published_mbps_binary", "min_avg_response_ms", "max_avg_response_ms"),
                ],
                condition=Q(phase="measurement", excluded_reason=""),
                name="run_config_compared",
            ),
            # A comparison's runs whose figures are not stored, read from their points (few or none).
            models.Index(fields=["config"], condition=Q(throughput_metric=""), name="run_figures_not_stored"),
            # A comparison's published runs away from the stored default, read one by one with those above (few
            # or none): with it, both are found from the two indexes, not by reading every run of the systems.
            models.Index(fields=["config"], condition=Q(origin="published"), name="run_published"),
        ]

    # The threshold and response time the stored figures are read at.
    STORED_FIGURES_AT_MS = 20.0
    STORED_FIGURES_LATENCY = "avg"

    def __str__(self) -> str:
        return f"{self.name} ({self.workload_name})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # What the figures are read by (rule, stated response time) may have changed: read them from the points.
        self.throughput_metric = ""
        super().save(*args, **kwargs)

    @property
    def citation_title(self) -> str:
        """The cited document by its title (the file name when no title is known)."""
        return document_title(self.citation_document)


class Point(models.Model):
    """One load level of a run."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="points")
    seq = models.PositiveIntegerField(help_text="Position in increasing load order, from 0.")
    outstanding_io = models.FloatField(null=True, blank=True)
    threads = models.PositiveIntegerField(null=True, blank=True)
    # Every load axis the tool has (ORION small/large outstanding, ...).
    load = models.JSONField(default=dict, blank=True)
    iops = models.FloatField(null=True, blank=True)
    read_iops = models.FloatField(null=True, blank=True)
    write_iops = models.FloatField(null=True, blank=True)
    mbps = models.FloatField(null=True, blank=True)
    read_mbps = models.FloatField(null=True, blank=True)
    write_mbps = models.FloatField(null=True, blank=True)
    avg_response_ms = models.FloatField(null=True, blank=True)
    avg_read_response_ms = models.FloatField(null=True, blank=True)
    avg_write_response_ms = models.FloatField(null=True, blank=True)
    max_response_ms = models.FloatField(null=True, blank=True)
    cpu_pct = models.FloatField(null=True, blank=True)
    # Response-time percentiles of all I/O, ms: {"50": 0.1, "99": 0.18, ...} (ingest/latency.py).
    latency_percentiles_ms = models.JSONField(default=dict, blank=True)
    metrics = models.JSONField(default=dict, blank=True)

    # The figures of a point, named as in the result contract.
    FIGURES = POINT_FIGURES

    class Meta:
        ordering = ["run", "seq"]
        constraints = [
            # Also the index for "points of a run in load order".
            models.UniqueConstraint(fields=["run", "seq"], name="point_run_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.run_id}#{self.seq}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        _stored_figures_forget(self.run_id)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        deleted = super().delete(*args, **kwargs)
        _stored_figures_forget(self.run_id)
        return deleted


def _stored_figures_forget(run_id):
    """A run whose points changed one by one has its figures read from its points again."""
    Run.objects.filter(pk=run_id).exclude(throughput_metric="").update(throughput_metric="")
