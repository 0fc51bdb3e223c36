from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from .models import (
    ApiToken,
    AuditEvent,
    Config,
    IngestJob,
    Membership,
    Point,
    PublishedStrokeMultipliers,
    Run,
    System,
    Team,
    Upload,
)
from .teams.selectors import sees_everything, uploads_q, visible


class VisibleOnly(admin.ModelAdmin):
    """Staff who are not superusers see in the admin only what they may read on the portal."""

    # How far the model is from System ("" for System itself); None for uploads.
    system_path: str | None = ""

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        rows = super().get_queryset(request)
        if sees_everything(request.user):
            return rows
        if self.system_path is None:
            return rows.filter(uploads_q(viewer=request.user))
        return visible(rows, viewer=request.user, prefix=self.system_path)


class SuperusersOnly(admin.ModelAdmin):
    """Teams, memberships, audit and jobs are managed by superusers here (team admins use the team page)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return sees_everything(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return sees_everything(request.user)

    has_change_permission = has_delete_permission = has_add_permission = has_view_permission


@admin.register(System)
class SystemAdmin(VisibleOnly):
    list_display = ["name", "vendor", "model", "team", "published", "controllers", "cache_mb_per_controller"]
    list_filter = ["published"]
    search_fields = ["name", "vendor", "model"]
    raw_id_fields = ["profile_upload"]


@admin.register(Config)
class ConfigAdmin(VisibleOnly):
    system_path = "system__"
    list_display = ["system", "raid_level", "drive_count", "drive_type", "read_cache", "write_cache", "stroke_pct"]
    list_filter = ["raid_level", "drive_type"]
    list_select_related = ["system"]
    readonly_fields = ["identity"]


class PointInline(admin.TabularInline):
    model = Point
    extra = 0
    fields = ["seq", "outstanding_io", "threads", "iops", "mbps", "avg_response_ms", "max_response_ms"]


@admin.register(Run)
class RunAdmin(VisibleOnly):
    system_path = "config__system__"
    list_display = ["name", "workload_name", "tool", "origin", "measurement", "config"]
    list_filter = ["tool", "origin", "measurement"]
    list_select_related = ["config__system"]
    search_fields = ["name", "workload_name"]
    raw_id_fields = ["config", "upload"]
    inlines = [PointInline]


@admin.register(Point)
class PointAdmin(VisibleOnly):
    system_path = "run__config__system__"
    list_display = ["run", "seq", "outstanding_io", "iops", "mbps", "avg_response_ms"]
    list_select_related = ["run"]
    raw_id_fields = ["run"]


@admin.register(Upload)
class UploadAdmin(VisibleOnly):
    system_path = None
    list_display = ["id", "original_name", "format", "status", "uploader", "created_at"]
    list_filter = ["status", "format"]
    list_select_related = ["uploader"]
    search_fields = ["original_name", "sha256"]
    raw_id_fields = ["system", "team", "duplicate_of", "uploader", "read_with", "job"]


@admin.register(IngestJob)
class IngestJobAdmin(SuperusersOnly):
    list_display = ["id", "kind", "status", "anchor", "attempts", "worker", "heartbeat_at", "created_at"]
    list_filter = ["status", "kind"]
    list_select_related = ["anchor"]
    raw_id_fields = ["anchor", "requested_by"]
    readonly_fields = ["lease", "heartbeat_at", "sent_at", "started_at", "finished_at", "error_ref"]


@admin.register(PublishedStrokeMultipliers)
class PublishedStrokeMultipliersAdmin(VisibleOnly):
    system_path = "system__"
    list_display = ["system", "raid_level", "workload_name", "baseline_stroke_pct", "citation_table"]
    list_select_related = ["system"]


@admin.register(ApiToken)
class ApiTokenAdmin(SuperusersOnly):
    """Tokens are created by their owner (the token page, ``manage.py apitoken``), where the secret is
    shown once; here they are listed and revoked (deleted)."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at"]
    list_select_related = ["user"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = ["user", "name", "prefix", "created_at", "last_used_at"]
    exclude = ["digest"]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Team)
class TeamAdmin(SuperusersOnly):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Membership)
class MembershipAdmin(SuperusersOnly):
    list_display = ["team", "user", "role", "created_at"]
    list_filter = ["role"]
    list_select_related = ["team", "user"]
    raw_id_fields = ["team", "user"]


@admin.register(AuditEvent)
class AuditEventAdmin(SuperusersOnly):
    list_display = ["at", "team", "actor_name", "action", "subject"]
    list_filter = ["action"]
    list_select_related = ["team"]
    readonly_fields = ["team", "actor", "actor_name", "action", "subject", "at"]
