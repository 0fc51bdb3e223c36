"""Uploaded files and the ingest jobs that read them."""

from django.conf import settings
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Coalesce

from .systems import System
from .teams import Team


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

    def __str__(self) -> str:
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
    # The team the file was uploaded for: its members read it while its system is private.
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT, related_name="uploads")
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
            # The same file is stored once per team (a copy another team uploaded is not revealed);
            # later copies are marked duplicate or failed.
            models.UniqueConstraint(
                Coalesce("team", Value(0)),
                "sha256",
                condition=Q(status__in=["queued", "parsing", "done"]),
                name="upload_sha256_unique_live_in_team",
            ),
            models.CheckConstraint(condition=Q(progress_pct__lte=100), name="upload_progress_pct_range"),
        ]
        indexes = [
            # The uploads list, newest first.
            models.Index(fields=["-created_at"], name="upload_created_desc"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.original_name}"
