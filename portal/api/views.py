"""The API's views: thin, over the querysets of ``querysets.py`` and the pipeline and selectors the
pages use. Parameters and answers are documented in the OpenAPI document (``/api/v1/schema/``)."""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils.text import slugify
from django_filters import FilterSet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, renderers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from portal.comparisons.forms import CompareForm
from portal.comparisons.query import LATENCY_TEXT, PAGE, PAGE_TEXT, PARAMETERS, THRESHOLD_TEXT
from portal.errors import error_body
from portal.results.selectors import LATENCIES, run_curve, run_metric, run_threshold
from portal.uploads import services as upload_services
from portal.uploads.limits import SizeLimitUploadHandler, too_large_message

from . import filters, numbers, querysets, serializers
from .errors import PayloadTooLarge
from .labels import upload_labels
from .pagination import PointCursorPagination
from .parameters import filter_parameters, form_parameters, parameters_known, threshold_query
from .renderers import EXPORT_RENDERERS, TablesRenderer, TablesResponse
from .throttles import UploadRateThrottle

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission

if TYPE_CHECKING:
    from rest_framework.permissions import _SupportsHasPermission

ERRORS = OpenApiResponse(description='{"error": {"status", "message", "fields"}}')


class KnownParameters(viewsets.GenericViewSet):
    """Refuses query-string parameters the action does not take (400, each named in ``fields``): a list
    takes its filters and its pages, an action the parameters named in ``action_parameters``."""

    action_parameters: dict[str, tuple[str, ...]] = {}
    filterset_class: type[FilterSet]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        parameters_known(request.query_params, allowed=self.parameters())

    def parameters(self) -> set[str]:
        action = getattr(self, "action", None)
        if action != "list":
            return set(self.action_parameters.get(action or "", ()))
        paginator = self.paginator
        pages = {getattr(paginator, name, None) for name in ("page_query_param", "cursor_query_param")}
        pages.add(getattr(paginator, "page_size_query_param", None))
        return filter_parameters(self.filterset_class) | {name for name in pages if name}


@extend_schema_view(
    list=extend_schema(summary="Systems"), retrieve=extend_schema(summary="A system, with its array profile")
)
class SystemViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    filterset_class = filters.SystemFilter

    def get_queryset(self) -> QuerySet:
        return querysets.with_counts(querysets.systems_for(user=self.request.user)).order_by("name")

    def get_serializer_class(self) -> type[BaseSerializer]:
        return serializers.SystemDetailSerializer if self.action == "retrieve" else serializers.SystemSerializer


@extend_schema_view(list=extend_schema(summary="Configurations"), retrieve=extend_schema(summary="A configuration"))
class ConfigViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.ConfigSerializer
    filterset_class = filters.ConfigFilter

    def get_queryset(self) -> QuerySet:
        return querysets.configs_for(user=self.request.user).order_by("system__name", "raid_level", "drive_count", "id")


THRESHOLD_MS = OpenApiParameter("threshold_ms", float, description=THRESHOLD_TEXT)
LATENCY = OpenApiParameter("latency", str, enum=list(LATENCIES), description=LATENCY_TEXT)
METRIC = OpenApiParameter(
    "metric", str, enum=["iops", "mbps"], description="IOPS when every point has them, else MB/s."
)


@extend_schema_view(list=extend_schema(summary="Runs"), retrieve=extend_schema(summary="A run"))
class RunViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.RunSerializer
    filterset_class = filters.RunFilter
    action_parameters = {"curve": ("metric", "latency"), "threshold": ("threshold_ms", "latency", "metric")}

    def get_queryset(self) -> QuerySet:
        if self.action in ("curve", "threshold"):
            return querysets.runs_with_points_for(user=self.request.user)
        runs = querysets.runs_for(user=self.request.user).select_related("upload")
        return querysets.with_point_counts(runs).order_by("id")

    @extend_schema(
        summary="A run's response-time curve", parameters=[METRIC, LATENCY], responses=serializers.CurveSerializer
    )
    @action(detail=True, filter_backends=[], pagination_class=None)
    def curve(self, request: Request, pk: str | None = None) -> Response:
        query = threshold_query(request.query_params)
        run = self.get_object()
        metric, latency = query.cleaned_data["metric"] or run_metric(run=run), query.value("latency")
        points = [vars(point) for point in run_curve(run=run, metric=metric, latency=latency)]
        return Response({"run": run.id, "metric": metric, "latency": latency, "points": points})

    @extend_schema(
        summary="A run's throughput at a response-time threshold",
        parameters=[THRESHOLD_MS, LATENCY, METRIC],
        responses=serializers.ThresholdSerializer,
    )
    @action(detail=True, filter_backends=[], pagination_class=None)
    def threshold(self, request: Request, pk: str | None = None) -> Response:
        query = threshold_query(request.query_params)
        run = self.get_object()
        threshold_ms, latency = query.value("threshold_ms"), query.value("latency")
        metric, answer = run_threshold(
            run=run, threshold_ms=threshold_ms, metric=query.cleaned_data["metric"] or None, latency=latency
        )
        return Response(
            {
                "run": run.id, "metric": metric, "threshold_ms": threshold_ms, "latency": latency,
                "rule": str(answer.rule), "value": answer.value, "reached": answer.reached,
                "status": str(answer.status), "status_text": answer.status.words, "load": answer.load,
                "warnings": list(answer.warnings),
            }
        )  # fmt: skip


@extend_schema_view(list=extend_schema(summary="Points (cursor pages)"), retrieve=extend_schema(summary="A point"))
class PointViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.PointSerializer
    filterset_class = filters.PointFilter
    pagination_class = PointCursorPagination

    def get_queryset(self) -> QuerySet:
        return querysets.points_for(user=self.request.user)


@extend_schema_view(
    list=extend_schema(summary="Uploads, newest first (?ids=3,4,5 follows several)"),
    retrieve=extend_schema(summary="An upload: status, progress, error (file and line), warnings, runs stored"),
    create=extend_schema(
        summary="Upload result files",
        request={"multipart/form-data": serializers.UploadRequestSerializer},
        responses={202: serializers.UploadsReceivedSerializer, 400: ERRORS, 401: ERRORS, 413: ERRORS, 429: ERRORS},
    ),
)
class UploadViewSet(KnownParameters, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Uploads go through the upload page's pipeline: kept, then read by a worker exactly once."""

    serializer_class = serializers.UploadSerializer
    filterset_class = filters.UploadFilter

    def get_queryset(self) -> QuerySet:
        return querysets.uploads_for(user=self.request.user).order_by("-id")

    def get_permissions(self) -> Sequence["_SupportsHasPermission"]:
        return [IsAuthenticated()] if self.action == "create" else super().get_permissions()

    def get_throttles(self) -> list[BaseThrottle]:
        extra = [UploadRateThrottle()] if self.action == "create" else []
        return [*super().get_throttles(), *extra]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # The size limit must be in place before anything reads the body (authentication's CSRF check does).
        if self.action == "create":
            self.size_limit = SizeLimitUploadHandler(request._request)
            request._request.upload_handlers.insert(0, self.size_limit)
        super().initial(request, *args, **kwargs)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not isinstance(request.data, Mapping):  # a JSON list
            raise ValidationError({"files": ["Send the files as multipart/form-data, the labels as its other fields."]})
        uploader = cast(User, request.user)  # create needs a signed-in user (get_permissions)
        files = request.FILES.getlist("files")
        refused = [{"name": name, "error": too_large_message(name)} for name in self.size_limit.refused]
        system, team, new_system, labels = upload_labels(data=request.data, user=uploader)
        if not files and refused:
            raise PayloadTooLarge("; ".join(item["error"] for item in refused))
        if not files:
            raise ValidationError({"files": ["Choose at least one file."]})
        uploads = upload_services.uploads_receive(
            files=files, uploader=uploader, team=team, system=system, new_system=new_system, labels=labels
        )
        rows = self.get_serializer(
            querysets.uploads_for(user=uploader).filter(id__in=[u.id for u in uploads]), many=True
        )
        order = {upload.id: index for index, upload in enumerate(uploads)}
        received = sorted(rows.data, key=lambda row: order[row["id"]])
        if getattr(request, "redis_unavailable", False):
            return _queue_unavailable(received, refused)
        return Response({"uploads": received, "refused": refused}, status=status.HTTP_202_ACCEPTED)


QUEUE_RETRY_AFTER_SECONDS = 30


def _queue_unavailable(received: list, refused: list) -> Response:
    """503 in the error shape: the files are kept and read once the job queue answers again (workers'
    recovery sends them), so the client follows the uploads named here instead of sending them again."""
    names = ", ".join(f"#{row['id']}" for row in received)
    message = (
        f"The job queue (Redis) does not answer: the files are kept as upload(s) {names} and are read "
        "when it is back; follow them at their url, do not send them again."
    )
    body = {**error_body(status=503, message=message), "uploads": received, "refused": refused}
    return Response(body, status=503, headers={"Retry-After": str(QUEUE_RETRY_AFTER_SECONDS)})


# The compare endpoint's parameters as the schema lists them: the comparison's (in its words) and its page.
COMPARE_SCHEMA = [
    *form_parameters(CompareForm, PARAMETERS),
    OpenApiParameter(PAGE, int, description=PAGE_TEXT),
]


class CompareView(APIView):
    @extend_schema(
        summary="Systems A against the baseline B at a response-time threshold: the compare page's numbers",
        parameters=COMPARE_SCHEMA,
        responses={200: numbers.CompareSerializer, 400: ERRORS, 404: ERRORS},
    )
    def get(self, request: Request) -> Response:
        query = numbers.compare_query(user=request.user, params=request.query_params)
        return Response(numbers.compare_data(query, numbers.comparisons(query)))


TABLE_PARAMETERS = [
    OpenApiParameter(
        "preset",
        str,
        OpenApiParameter.PATH,
        enum=[*numbers.SYSTEM_PRESETS, *numbers.COMPARISON_PRESETS],
        description="whitepaper, pivot, stroke, jetstress, orion, sizing: one system's tables (system=); "
        "all, comparison, summary, side_by_side: A against the baseline B with the compare page's parameters "
        "(several a: one table of them all against B, for all and comparison).",
    ),
    OpenApiParameter("format", str, enum=["json", *(renderer.format for renderer in EXPORT_RENDERERS)]),
    OpenApiParameter("system", str, description="System presets: the system (name or id)."),
    OpenApiParameter("workloads", str, description="whitepaper, pivot: comma-separated, in column order."),
    OpenApiParameter("source_table", str, description='whitepaper, pivot: a paper\'s table, e.g. "Table 5".'),
    OpenApiParameter("rows", str, description="pivot: two configuration attributes, comma-separated."),
    OpenApiParameter("target", float, description="sizing: the throughput wanted (drives needed for it)."),
    OpenApiParameter("drives", int, description="sizing: also the throughput with this many drives."),
    *form_parameters(CompareForm, PARAMETERS, optional=True),
]


class TablesView(APIView):
    renderer_classes = [renderers.JSONRenderer, *EXPORT_RENDERERS]

    @extend_schema(
        summary="A white-paper table as JSON, or in an export format (Accept header or ?format=)",
        parameters=TABLE_PARAMETERS,
        responses={
            (200, "application/json"): numbers.TablesSerializer,
            **{(200, renderer.media_type): OpenApiTypes.BINARY for renderer in EXPORT_RENDERERS},
            400: ERRORS,
            404: ERRORS,
        },
    )
    def get(self, request: Request, preset: str) -> Response:
        if preset not in (*numbers.SYSTEM_PRESETS, *numbers.COMPARISON_PRESETS):
            choices = ", ".join((*numbers.SYSTEM_PRESETS, *numbers.COMPARISON_PRESETS))
            raise ValidationError({"preset": [f"must be one of {choices}; got {preset!r}"]})
        tables, stem = numbers.tables_of(user=request.user, preset=preset, params=request.query_params)
        response = TablesResponse({"tables": [numbers.table_data(table) for table in tables]}, tables=tables)
        renderer = request.accepted_renderer
        if isinstance(renderer, TablesRenderer):
            response["Content-Disposition"] = f'attachment; filename="{slugify(stem)}.{renderer.extension}"'
        return response

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        # Errors are always JSON, in the one error shape, whatever format was asked for.
        if response.status_code >= 400:
            request.accepted_renderer, request.accepted_media_type = renderers.JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)
