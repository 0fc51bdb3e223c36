"""Systems, their tested configurations and the published disk-stroke multiplier tables."""

import hashlib
import json
from typing import Any

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Coalesce, Lower

from portal.analysis.vocabulary import raid_level_canonical

from .teams import Team


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
    # The team whose members may read it while it is private; none for results loaded by the
    # operator (the published studies). Published systems are read by everyone.
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.PROTECT, related_name="systems")
    published = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    # The distinct tools and workload names of the system's runs, kept when runs are stored: the
    # systems list offers them as filters from the systems a reader may see, not from every run.
    run_tools = ArrayField(models.TextField(), default=list, blank=True)
    run_workloads = ArrayField(models.TextField(), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # A name is a team's own (two labs may both test "IBM DS5000"); among published systems
            # it is unique, so that a name in a link means one system for every reader.
            models.UniqueConstraint(Coalesce("team", Value(0)), Lower("name"), name="system_name_unique_in_team"),
            models.UniqueConstraint(Lower("name"), condition=Q(published=True), name="system_name_unique_published"),
        ]
        indexes = [models.Index(fields=["team"], condition=Q(published=False), name="system_private_team")]

    def __str__(self) -> str:
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

    def __str__(self) -> str:
        from portal.analysis.vocabulary import config_words

        return f"{self.system}: " + config_words(self.raid_level, self.drive_count)

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.raid_level = raid_level_canonical(self.raid_level)
        self.identity = self.identity_of(self.system_id, self.properties())
        super().save(*args, **kwargs)

    @classmethod
    def identity_of(cls, system_id: int, properties: dict[str, Any]) -> str:
        """The identity hash of a configuration: system plus every property, canonical JSON."""
        canonical = {name: properties.get(name) for name in cls.IDENTITY_FIELDS}
        for name in ("raid_level", "drive_model", "drive_type", "host_server", "host_os", "host_hba"):
            canonical[name] = canonical[name] or ""
        canonical["extra"] = canonical["extra"] or {}
        payload = json.dumps({"system": system_id, **canonical}, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(payload.encode()).hexdigest()

    def properties(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.IDENTITY_FIELDS}


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

    def __str__(self) -> str:
        return f"{self.system} {self.raid_level} {self.workload_name} stroke multipliers"
