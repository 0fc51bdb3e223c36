from django.contrib import admin

from .models import ApiToken, Config, IngestJob, Point, PublishedStrokeMultipliers, Run, System, Upload


@admin.register(System)
class SystemAdmin(admin.ModelAdmin):
    list_display = ["name", "vendor", "model", "controllers", "cache_mb_per_controller", "firmware"]
    search_fields = ["name", "vendor", "model"]


@admin.register(Config)
class ConfigAdmin(admin.ModelAdmin):
    list_display = ["system", "raid_level", "drive_count", "drive_type", "read_cache", "write_cache", "stroke_pct"]
    list_filter = ["raid_level", "drive_type"]
    list_select_related = ["system"]
    readonly_fields = ["identity"]


class PointInline(admin.TabularInline):
    model = Point
    extra = 0
    fields = ["seq", "outstanding_io", "threads", "iops", "mbps", "avg_response_ms", "max_response_ms"]


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ["name", "workload_name", "tool", "origin", "measurement", "config"]
    list_filter = ["tool", "origin", "measurement"]
    list_select_related = ["config__system"]
    search_fields = ["name", "workload_name"]
    raw_id_fields = ["config", "upload"]
    inlines = [PointInline]


@admin.register(Point)
class PointAdmin(admin.ModelAdmin):
    list_display = ["run", "seq", "outstanding_io", "iops", "mbps", "avg_response_ms"]
    list_select_related = ["run"]
    raw_id_fields = ["run"]


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = ["id", "original_name", "format", "status", "uploader", "created_at"]
    list_filter = ["status", "format"]
    list_select_related = ["uploader"]
    search_fields = ["original_name", "sha256"]
    raw_id_fields = ["system", "duplicate_of", "uploader", "read_with", "job"]


@admin.register(IngestJob)
class IngestJobAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "status", "anchor", "attempts", "worker", "heartbeat_at", "created_at"]
    list_filter = ["status", "kind"]
    list_select_related = ["anchor"]
    raw_id_fields = ["anchor", "requested_by"]
    readonly_fields = ["lease", "heartbeat_at", "sent_at", "started_at", "finished_at", "error_ref"]


@admin.register(PublishedStrokeMultipliers)
class PublishedStrokeMultipliersAdmin(admin.ModelAdmin):
    list_display = ["system", "raid_level", "workload_name", "baseline_stroke_pct", "citation_table"]
    list_select_related = ["system"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are created by their owner (the token page, ``manage.py apitoken``), where the secret is
    shown once; here they are listed and revoked (deleted)."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at"]
    list_select_related = ["user"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = ["user", "name", "prefix", "created_at", "last_used_at"]
    exclude = ["digest"]

    def has_add_permission(self, request):
        return False
