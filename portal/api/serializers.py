"""How the API shows systems, configurations, runs, points, uploads, comparisons and tables.

Units as everywhere in ArrayBench: MB/s are 10^6 bytes per second, times milliseconds, sizes bytes.
"""

import re
from typing import Any

from django import forms
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from portal import formatting
from portal.analysis.figure_kinds import KINDS
from portal.models import Config, Point, Run, System, Upload, Workload
from portal.results.kinds import run_figure_kind
from portal.results.selectors import cache_setting
from portal.systems.services import CONFIG_LABELS, RUN_LABELS
from portal.uploads.forms import UploadLabelsForm
from portal.uploads.selectors import STATUS_TEXT, upload_error_text

# A parser's message: "FILE:LINE: message" (the line is left out when unknown).
PARSE_ERROR = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+): (?P<message>.*)$", re.DOTALL)


class SystemRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = System
        fields = ["id", "name"]


class SystemSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:system-detail")
    page_url = serializers.SerializerMethodField()
    config_count = serializers.IntegerField(read_only=True)
    run_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = System
        fields = [
            "id", "url", "page_url", "name", "vendor", "model", "controllers", "firmware",
            "cache_mb_per_controller", "host_interfaces", "notes", "config_count", "run_count",
            "created_at", "updated_at",
        ]  # fmt: skip

    def get_page_url(self, system: System) -> str:
        return reverse("pages:system", args=[system.id])


class SystemDetailSerializer(SystemSerializer):
    class Meta(SystemSerializer.Meta):
        fields = [*SystemSerializer.Meta.fields, "profile"]


class ConfigSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:config-detail")
    system = SystemRefSerializer(read_only=True)
    cache_setting = serializers.SerializerMethodField(help_text='In the papers\' words, e.g. "All Caches Disabled".')

    class Meta:
        model = Config
        fields = ["id", "url", "system", *Config.IDENTITY_FIELDS, "cache_setting", "identity", "created_at"]

    def get_cache_setting(self, config: Config) -> str:
        return cache_setting(config=config)


class ConfigLabelsSerializer(ConfigSerializer):
    """A run's configuration: its labels, without the system (given beside it)."""

    class Meta(ConfigSerializer.Meta):
        fields = ["id", "url", *Config.IDENTITY_FIELDS, "cache_setting"]


class WorkloadSerializer(serializers.ModelSerializer):
    class Meta:
        model = Workload
        fields = ["id", "name", "names", "read_pct", "random_pct", "transfer_sizes", "alignment_bytes", "streams"]


class CitationSerializer(serializers.Serializer):
    document = serializers.CharField(source="citation_document")
    table = serializers.CharField(source="citation_table")
    note = serializers.CharField(source="citation_note")
    published_at_ms = serializers.FloatField(allow_null=True)


class FigureKindSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        source="key",
        choices=list(KINDS),
        help_text="What the run's figure counts: block I/Os, bytes, metadata operations, files created, object "
        "operations, or an AI training throughput at the benchmark's accelerator utilisation rule.",
    )
    words = serializers.CharField(help_text='The kind in words: "metadata operations per second".')
    unit = serializers.CharField(help_text='The figure\'s unit as tables head it: "IOPS", "metadata ops/s", "MB/s".')
    at_threshold = serializers.BooleanField(
        help_text="Whether the figure is read at a response-time threshold (false: at the benchmark's own rule)."
    )


class RunSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:run-detail")
    page_url = serializers.SerializerMethodField()
    system = SystemRefSerializer(source="config.system", read_only=True)
    config = ConfigLabelsSerializer(read_only=True)
    workload = WorkloadSerializer(read_only=True, allow_null=True)
    citation = serializers.SerializerMethodField()
    point_count = serializers.IntegerField(read_only=True)
    file_warnings = serializers.SerializerMethodField(
        help_text="What reading the file said (what was lost or changed), as on the upload; [] for a published run."
    )
    figure = serializers.SerializerMethodField(
        help_text="The kind of the run's throughput figure (null where the run has none)."
    )

    class Meta:
        model = Run
        fields = [
            "id", "url", "page_url", "name", "description", "system", "config", "tool", "tool_version",
            "workload_name", "workload", "read_pct", "random_pct", "transfer_sizes", "params", "verdict",
            "measurement", "firmware", "origin", "citation", "started_at", "duration_s", "tags", "notes", "upload",
            "summary", "point_count", "file_warnings", "figure", "created_at",
        ]  # fmt: skip

    def get_page_url(self, run: Run) -> str:
        return reverse("pages:run", args=[run.id])

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_file_warnings(self, run: Run) -> list[str]:
        return list(run.upload.warnings) if run.upload else []

    @extend_schema_field(FigureKindSerializer(allow_null=True))
    def get_figure(self, run: Run) -> dict[str, Any] | None:
        if not run.throughput_metric:
            return None
        return FigureKindSerializer(run_figure_kind(run, run.throughput_metric)).data

    @extend_schema_field(CitationSerializer(allow_null=True))
    def get_citation(self, run: Run) -> dict[str, Any] | None:
        return CitationSerializer(run).data if run.origin == Run.Origin.PUBLISHED else None


class PointSerializer(serializers.ModelSerializer):
    class Meta:
        model = Point
        fields = ["id", "run", "seq", "outstanding_io", "threads", "load", *Point.FIGURES, "metrics"]


class CurvePointSerializer(serializers.Serializer):
    load = serializers.FloatField(allow_null=True, help_text="Outstanding I/Os, else threads, else position.")
    throughput = serializers.FloatField(help_text="IOPS, or MB/s (10^6 bytes/s), as `metric` says.")
    response_ms = serializers.FloatField(allow_null=True)


class CurveSerializer(serializers.Serializer):
    run = serializers.IntegerField()
    metric = serializers.ChoiceField(choices=["iops", "mbps"])
    points = CurvePointSerializer(many=True)


class ThresholdSerializer(serializers.Serializer):
    run = serializers.IntegerField()
    metric = serializers.ChoiceField(choices=["iops", "mbps"])
    threshold_ms = serializers.FloatField()
    rule = serializers.CharField(help_text="interpolate (IBM's papers) or at_or_below (HP's papers).")
    value = serializers.FloatField(allow_null=True, help_text="None when there is no answer (see status).")
    reached = serializers.BooleanField(
        help_text="False: every point is under the threshold; the value is a lower bound."
    )
    status = serializers.CharField()
    status_text = serializers.CharField()
    load = serializers.FloatField(allow_null=True)
    warnings = serializers.ListField(child=serializers.CharField())


class UploadErrorSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The whole message, as the upload page shows it.")
    file = serializers.CharField(allow_null=True)
    line = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()


class RunLinkSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:run-detail")

    class Meta:
        model = Run
        fields = ["id", "name", "url"]


class UploadSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:upload-detail")
    page_url = serializers.SerializerMethodField()
    name = serializers.CharField(source="original_name")
    status_text = serializers.SerializerMethodField()
    finished = serializers.SerializerMethodField()
    duplicate_of_status = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()
    tool = serializers.SerializerMethodField(
        help_text='The tool the file was read as, by name ("COSBench" for format "cosbench"; "fio, Iometer" for'
        " files of several formats read together), as the upload pages and status.json name it; null until"
        " the file is read."
    )
    system = SystemRefSerializer(read_only=True, allow_null=True)
    runs = RunLinkSerializer(
        many=True,
        read_only=True,
        help_text="The runs stored from this file (files read with another have theirs on it).",
    )

    class Meta:
        model = Upload
        fields = [
            "id", "url", "page_url", "name", "status", "status_text", "finished", "progress_pct", "format",
            "tool", "size_bytes", "sha256", "error", "warnings", "system", "runs", "labels", "duplicate_of",
            "duplicate_of_status", "read_with",
            "parser_version", "created_at", "started_at", "finished_at",
        ]  # fmt: skip

    def get_duplicate_of_status(self, upload: Upload) -> str | None:
        """The earlier upload's status, so that a client whose first answer was lost can follow it."""
        return upload.duplicate_of.status if upload.duplicate_of else None

    def get_page_url(self, upload: Upload) -> str:
        return reverse("uploads:detail", args=[upload.id])

    def get_status_text(self, upload: Upload) -> str:
        return STATUS_TEXT[upload.status]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_tool(self, upload: Upload) -> str | None:
        return formatting.format_name(upload.format) if upload.format else None

    def get_finished(self, upload: Upload) -> bool:
        return upload.status in (Upload.Status.DONE, Upload.Status.FAILED, Upload.Status.DUPLICATE)

    @extend_schema_field(UploadErrorSerializer(allow_null=True))
    def get_error(self, upload: Upload) -> dict[str, Any] | None:
        # An internal error's details (exception, reference) only for the uploader and staff, as on the pages.
        request = self.context.get("request")
        text = upload_error_text(user=getattr(request, "user", None) or AnonymousUser(), upload=upload)
        if not text:
            return None
        found = PARSE_ERROR.match(text.removeprefix("re-ingest failed: "))
        if found is None:
            return {"text": text, "file": None, "line": None, "message": text}
        return {"text": text, "file": found["file"], "line": int(found["line"]), "message": found["message"]}


class UploadRefusedSerializer(serializers.Serializer):
    name = serializers.CharField()
    error = serializers.CharField()


class UploadsReceivedSerializer(serializers.Serializer):
    uploads = UploadSerializer(many=True)
    refused = UploadRefusedSerializer(many=True, help_text="Files refused before they were kept (too large).")


# --- The upload request: the upload page's form, for the documentation -----------------------------


def extra_labels() -> list[str]:
    """Labels ``manage.py ingest --config`` takes that the upload page's form does not show."""
    return [name for name in CONFIG_LABELS + RUN_LABELS if name not in UploadLabelsForm.base_fields]


def _documented(form_field: forms.Field) -> serializers.Field:
    """A serializer field describing one of the upload form's fields."""
    options: dict[str, Any] = {"required": False, "help_text": form_field.help_text or form_field.label or ""}
    if hasattr(form_field, "queryset"):
        return serializers.CharField(**{**options, "help_text": "Id or name of an existing system."})
    if hasattr(form_field, "choices"):
        return serializers.ChoiceField(choices=[value for value, _ in form_field.choices if value], **options)
    kind: dict[str, type[serializers.Field]] = {
        "IntegerField": serializers.IntegerField,
        "FloatField": serializers.FloatField,
    }
    return kind.get(type(form_field).__name__, serializers.CharField)(**options)


class UploadRequestSerializer(serializers.Serializer):
    """Documents ``POST /api/v1/uploads/``; the labels are checked by the upload page's own form."""

    files = serializers.ListField(child=serializers.FileField(), help_text="One or more result files or .zip archives.")

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        fields.update({name: _documented(field) for name, field in UploadLabelsForm.base_fields.items()})
        fields.update(
            {
                name: serializers.CharField(required=False, help_text=f"As manage.py ingest --config {name}=VALUE.")
                for name in extra_labels()
            }
        )
        return fields
