"""The normalised schema: systems, their tested configurations, runs, points, and uploads.

Units are fixed: MB/s means 10^6 bytes per second, times are milliseconds, sizes are bytes.
"""

import functools
import hashlib
import json

import yaml
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from ingest.result import POINT_FIGURES

from .analysis.vocabulary import raid_level_canonical


@functools.cache
def _document_titles():
    fixture = yaml.load((settings.BASE_DIR / "fixtures" / "demo.yaml").read_text(), Loader=yaml.CSafeLoader)
    return fixture.get("documents") or {}


def document_title(document):
    """A cited document's title, from the published studies' fixture; the file name when unknown."""
    return _document_titles().get(document, document) if document else ""


class System(models.Model):
    """One storage array (or disk subsystem) under test."""

    name = models.CharField(max_length=200, help_text='As shown everywhere, e.g. "IBM DS4500".')
    vendor = models.CharField(max_length=100, blank=True)
    model = models.CharField(max_length=100, blank=True)
    controllers = models.PositiveSmallIntegerField(null=True, blank=True)
    firmware = models.CharField(max_length=100, blank=True)
    cache_mb_per_controller = models.FloatField(null=True, blank=True)
    host_interfaces = models.CharField(max_length=200, blank=True)
    notes = models.TextField(blank=True)
    # The latest array profile as parsed: arrays, logical drives (volumes), drives, details.
    profile = models.JSONField(default=dict, blank=True)
    profile_upload = models.ForeignKey(
        "Upload", null=True, blank=True, on_delete=models.SET_NULL, related_name="profiled_systems"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(Lower("name"), name="system_name_unique_ci")]

    def __str__(self):
        return self.name


class DriveType(models.TextChoices):
    HDD = "HDD", "HDD"
    SSD = "SSD", "SSD"
    NVME = "NVMe", "NVMe"


class Config(models.Model):
    """A tested configuration of a system, stored once: its identity is a hash of its properties."""

    IDENTITY_FIELDS = (
        "raid_level",
        "drive_count",
        "drives_per_array",
        "drive_model",
        "drive_type",
        "drive_rpm",
        "drive_capacity_gb",
        "segment_kb",
        "read_cache",
        "write_cache",
        "write_cache_mirroring",
        "prefetch",
        "stroke_pct",
        "host_server",
        "host_os",
        "host_hba",
        "extra",
    )

    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="configs")
    identity = models.CharField(max_length=64, editable=False)
    raid_level = models.CharField(max_length=20, blank=True)
    drive_count = models.PositiveIntegerField(null=True, blank=True)
    drives_per_array = models.PositiveIntegerField(null=True, blank=True)
    drive_model = models.CharField(max_length=100, blank=True)
    drive_type = models.CharField(max_length=8, choices=DriveType.choices, blank=True)
    drive_rpm = models.PositiveIntegerField(null=True, blank=True)
    drive_capacity_gb = models.FloatField(null=True, blank=True)
    segment_kb = models.FloatField(null=True, blank=True)
    read_cache = models.BooleanField(null=True, blank=True)
    write_cache = models.BooleanField(null=True, blank=True)
    write_cache_mirroring = models.BooleanField(null=True, blank=True)
    prefetch = models.BooleanField(null=True, blank=True)
    stroke_pct = models.FloatField(null=True, blank=True, help_text="Share of capacity the workload touches, %.")
    host_server = models.CharField(max_length=100, blank=True)
    host_os = models.CharField(max_length=100, blank=True)
    host_hba = models.CharField(max_length=100, blank=True)
    extra = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["system", "raid_level", "drive_count"]
        constraints = [
            models.UniqueConstraint(fields=["identity"], name="config_identity_unique"),
            models.CheckConstraint(
                condition=Q(stroke_pct__isnull=True) | Q(stroke_pct__gt=0, stroke_pct__lte=100),
                name="config_stroke_pct_range",
            ),
        ]
        indexes = [
            # Configs of a system, filtered by RAID level and drive count (system page, compare).
            models.Index(fields=["system", "raid_level", "drive_count"], name="config_system_raid_drives"),
        ]

    def __str__(self):
        parts = [self.raid_level or "RAID level not stated", f"{self.drive_count} drives" if self.drive_count else ""]
        return f"{self.system}: " + ", ".join(p for p in parts if p)

    def save(self, *args, **kwargs):
        self.raid_level = raid_level_canonical(self.raid_level)
        self.identity = self.identity_of(self.system_id, self.properties())
        super().save(*args, **kwargs)

    @classmethod
    def identity_of(cls, system_id, properties):
        """The identity hash of a configuration: system plus every property, canonical JSON."""
        canonical = {name: properties.get(name) for name in cls.IDENTITY_FIELDS}
        for name in ("raid_level", "drive_model", "drive_type", "host_server", "host_os", "host_hba"):
            canonical[name] = canonical[name] or ""
        canonical["extra"] = canonical["extra"] or {}
        payload = json.dumps({"system": system_id, **canonical}, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(payload.encode()).hexdigest()

    def properties(self):
        return {name: getattr(self, name) for name in self.IDENTITY_FIELDS}


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
    name = models.CharField(max_length=200, help_text="Shown everywhere: the first name it was stored under.")
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

    def __str__(self):
        return self.name

    def signature(self):
        from portal.analysis.workloads import Signature

        sizes = tuple((int(size), int(pct)) for size, pct in self.transfer_sizes)
        return Signature(self.read_pct, self.random_pct, sizes, self.alignment_bytes, self.streams)


class IngestJob(models.Model):
    """One reading of uploaded files read together (one file, an archive, the files of one ORION test).

    The job owns the pipeline: a worker claims it with a conditional update that hands out a new
    ``lease``, proves it is alive by moving ``heartbeat_at``, and stores the results in the same
    transaction that checks the lease and marks the job done, so a job's runs are stored once
    whatever the interleaving of workers, redeliveries and recovery.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    class Kind(models.TextChoices):
        INGEST = "ingest"
        REINGEST = "reingest"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.INGEST)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    # The upload whose runs these are (the first of the files read together).
    anchor = models.ForeignKey("Upload", on_delete=models.CASCADE, related_name="anchored_jobs")
    # How the files are read, as planned when they arrived: a format id, "zip", or "" (plan again).
    format = models.CharField(max_length=32, blank=True)
    # The system chosen for the files, or one to create when the results are stored (named on the
    # upload form, not yet existing); neither when the files name their system.
    system = models.ForeignKey(System, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    new_system = models.JSONField(default=dict, blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    attempts = models.PositiveSmallIntegerField(default=0)
    lease = models.UUIDField(null=True, blank=True, editable=False)
    worker = models.CharField(max_length=200, blank=True, help_text="The process holding the lease.")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # When the job was last handed to the broker, and how often recovery sent it again (each wait
    # is twice the one before, so a long backlog is not flooded with copies).
    sent_at = models.DateTimeField(null=True, blank=True)
    resends = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    # For internal errors: the reference the user quotes, found in the worker's log.
    error_ref = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="running") | Q(lease__isnull=False, heartbeat_at__isnull=False),
                name="ingestjob_running_has_lease",
            ),
        ]
        indexes = [
            # Recovery: running jobs whose heartbeat went stale, queued jobs whose message was lost.
            models.Index(
                fields=["status", "heartbeat_at"],
                name="ingestjob_unfinished",
                condition=Q(status__in=["queued", "running"]),
            ),
        ]

    def __str__(self):
        return f"job #{self.pk} ({self.kind}, {self.status})"


class Upload(models.Model):
    """A file as uploaded: the original is kept, content-addressed under the data directory."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        PARSING = "parsing"
        DONE = "done"
        FAILED = "failed"
        DUPLICATE = "duplicate"

    original_name = models.CharField(max_length=500)
    size_bytes = models.BigIntegerField()
    sha256 = models.CharField(max_length=64)
    stored_path = models.CharField(max_length=300, help_text="Relative to the uploads directory.")
    format = models.CharField(max_length=32, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    progress_pct = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    warnings = models.JSONField(default=list, blank=True)
    parser_version = models.CharField(max_length=40, blank=True)
    uploader = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    system = models.ForeignKey(System, null=True, blank=True, on_delete=models.SET_NULL, related_name="uploads")
    # Configuration attributes chosen when uploading (RAID level, drive count, caches, ...).
    labels = models.JSONField(default=dict, blank=True)
    duplicate_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL)
    # Files read together (the files of one ORION test, one fio sweep) point at the first of
    # them, which holds the runs; re-reading any of them re-reads the group.
    read_with = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="read_together"
    )
    # The job reading this file now, or the last one that did.
    job = models.ForeignKey(IngestJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="uploads")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # The same file is stored once; later copies are marked duplicate or failed.
            models.UniqueConstraint(
                fields=["sha256"],
                condition=Q(status__in=["queued", "parsing", "done"]),
                name="upload_sha256_unique_live",
            ),
            models.CheckConstraint(condition=Q(progress_pct__lte=100), name="upload_progress_pct_range"),
        ]
        indexes = [
            # The uploads list, newest first.
            models.Index(fields=["-created_at"], name="upload_created_desc"),
        ]

    def __str__(self):
        return f"#{self.pk} {self.original_name}"


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
    params = models.JSONField(default=dict, blank=True)
    verdict = models.CharField(max_length=4, choices=Verdict.choices, blank=True)
    measurement = models.CharField(max_length=12, choices=Measurement.choices, default=Measurement.END_TO_END)
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.MEASURED)
    # A published figure's source and the response time it is stated at.
    citation_document = models.CharField(max_length=200, blank=True)
    citation_table = models.CharField(max_length=200, blank=True)
    citation_note = models.TextField(blank=True)
    published_at_ms = models.FloatField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    duration_s = models.FloatField(null=True, blank=True)
    tags = ArrayField(models.CharField(max_length=50), default=list, blank=True)
    notes = models.TextField(blank=True)
    # Derived figures (peak IOPS, lowest response time, ...) recomputed by a background task.
    summary = models.JSONField(default=dict, blank=True)
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
            # Runs of a configuration for one workload (compare, tables, stroke multipliers).
            models.Index(fields=["config", "workload_name"], name="run_config_workload"),
            # Runs by workload across systems (filters on the systems page).
            models.Index(fields=["workload_name", "tool"], name="run_workload_tool"),
            # Runs of one workload, whatever their names (compare, tables, sweeps).
            models.Index(fields=["workload", "config"], name="run_workload_config"),
            # The tools the systems list can be filtered by (a loose index scan, one probe per tool).
            models.Index(fields=["tool"], name="run_tool"),
        ]

    def __str__(self):
        return f"{self.name} ({self.workload_name})"

    @property
    def citation_title(self):
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

    def __str__(self):
        return f"{self.run_id}#{self.seq}"


class PublishedStrokeMultipliers(models.Model):
    """A paper's disk-stroke multiplier table, when it gives multipliers without the IOPS behind them."""

    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="stroke_tables")
    raid_level = models.CharField(max_length=20)
    workload_name = models.CharField(max_length=200)
    baseline_stroke_pct = models.FloatField(default=8)
    # {"8": 1.0, "15": 0.88, ...}: multiplier by stroke %.
    multipliers = models.JSONField()
    citation_document = models.CharField(max_length=200)
    citation_table = models.CharField(max_length=200)
    citation_note = models.TextField(blank=True)

    class Meta:
        ordering = ["system", "raid_level", "workload_name"]
        constraints = [
            models.UniqueConstraint(fields=["system", "raid_level", "workload_name"], name="stroke_multipliers_unique"),
        ]

    def __str__(self):
        return f"{self.system} {self.raid_level} {self.workload_name} stroke multipliers"


class ApiToken(models.Model):
    """A named token a script sends as ``Authorization: Bearer <token>``; only its SHA-256 is kept.

    The token is shown once when created. Its digest is unique, so a request finds its token with
    one index lookup; a revoked token is deleted.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text='What the token is for, e.g. "lab 3 push script".')
    # The first characters of the token, to recognise it in a list without revealing it.
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at"]
        constraints = [
            # Also the index for "the token this request presents".
            models.UniqueConstraint(fields=["digest"], name="apitoken_digest_unique"),
        ]

    def __str__(self):
        return f"{self.name} ({self.prefix}...)"
