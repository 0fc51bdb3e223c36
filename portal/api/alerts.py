"""``/api/v1/alerts/``: the changes found in histories, read by whoever reads their system, triaged by
``PATCH`` of the status (and note) by the team's uploaders."""

from decimal import Decimal
from typing import Any, cast

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from portal import formatting
from portal.history.selectors import alert_units, alerts_visible
from portal.history.services import alert_triage
from portal.models import Alert, AlertState, AlertStatus
from portal.systems.selectors import systems_named

from .views import KnownParameters


class AlertFilter(filters.FilterSet):
    status = filters.ChoiceFilter(
        choices=AlertStatus.choices, method="of_status", label="Of this status; a withdrawn alert is not untriaged."
    )
    system = filters.CharFilter(method="of_system", label="A system, by id or name.")
    version = filters.CharFilter(lookup_expr="iexact", label="The firmware version the change starts at.")
    min_change_pct = filters.NumberFilter(method="at_least", label="Changes of at least this size, % either way.")

    class Meta:
        model = Alert
        fields: list[str] = []

    def of_status(self, queryset: QuerySet[Alert], name: str, value: str) -> QuerySet[Alert]:
        # A withdrawn alert counts as triaged: later versions took it back, nobody needs to look at it.
        if value == AlertStatus.UNTRIAGED:
            queryset = queryset.exclude(state=AlertState.WITHDRAWN)
        return queryset.filter(status=value)

    def of_system(self, queryset: QuerySet[Alert], name: str, value: str) -> QuerySet[Alert]:
        value = value.strip()
        if value.isdigit():
            return queryset.filter(system_id=int(value))
        return queryset.filter(system__in=systems_named(name=value))

    def at_least(self, queryset: QuerySet[Alert], name: str, value: Decimal) -> QuerySet[Alert]:
        return queryset.filter(Q(change_pct__gte=value) | Q(change_pct__lte=-value))


class AlertSerializer(serializers.ModelSerializer):
    system = serializers.CharField(source="system.name", read_only=True)
    configuration = serializers.SerializerMethodField()
    figure = serializers.CharField(source="get_figure_display", read_only=True)
    unit = serializers.SerializerMethodField()
    change = serializers.SerializerMethodField(help_text='The change as the pages write it: "-6.0 %".')
    status_by = serializers.CharField(source="status_by.get_username", read_only=True, default=None)

    class Meta:
        model = Alert
        fields = [
            "id", "system", "configuration", "workload_name", "figure", "unit", "version", "previous_version",
            "before_mean", "after_mean", "change_pct", "change", "p_value", "tentative", "kind", "end_version",
            "slope_pct", "state", "status", "note",
            "status_by", "status_at", "created_at",
        ]  # fmt: skip
        read_only_fields = [name for name in fields if name not in ("status", "note")]

    def get_configuration(self, alert: Alert) -> str:
        return formatting.configuration(alert.config)

    def get_unit(self, alert: Alert) -> str:
        """The unit of what the series' rate counts ("IOPS", "object ops/s" ...), or "ms" for a response time:
        a list's units come in the context, read in one query."""
        units = self.context.get("units") or alert_units(alerts=[alert])
        return units[alert.id]

    def get_change(self, alert: Alert) -> str:
        return formatting.improvement(alert.change_pct)


class TriageSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=AlertStatus.choices)
    note = serializers.CharField(required=False, allow_blank=True, default="")


@extend_schema_view(
    list=extend_schema(summary="Alerts: changes found across firmware versions"),
    retrieve=extend_schema(summary="An alert"),
    partial_update=extend_schema(summary="Triage an alert", request=TriageSerializer),
)
class AlertViewSet(KnownParameters, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.UpdateModelMixin):
    serializer_class = AlertSerializer
    filterset_class = AlertFilter
    permission_classes = [IsAuthenticatedOrReadOnly]
    http_method_names = ["get", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Alert]:
        return alerts_visible(viewer=self.request.user).order_by("-created_at", "-id")

    def get_serializer(self, *args: Any, **kwargs: Any) -> Any:
        if args and kwargs.get("many"):
            alerts = list(args[0])
            kwargs["context"] = {**self.get_serializer_context(), "units": alert_units(alerts=alerts)}
            args = (alerts, *args[1:])
        return super().get_serializer(*args, **kwargs)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        alert = self.get_object()
        triage = TriageSerializer(data=request.data)
        triage.is_valid(raise_exception=True)
        # Writing needs a signed-in user (IsAuthenticatedOrReadOnly).
        alert = alert_triage(alert=alert, actor=cast(User, request.user), **triage.validated_data)
        return Response(AlertSerializer(alert).data)
