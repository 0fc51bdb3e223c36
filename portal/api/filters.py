"""Query-string filters of the API's lists (django-filter): system, vendor, RAID level, drive count,
tool, workload, tag and dates, as the systems page filters them."""

from typing import Any

from django.db.models import Q, QuerySet
from django_filters import rest_framework as filters

from portal.analysis.vocabulary import raid_level_canonical
from portal.models import Config, Point, Run, System, Upload
from portal.results.selectors import named
from portal.systems.selectors import systems_named


def _system_q(prefix: str, value: str) -> Q:
    """A system given by id or by name (:func:`~portal.systems.selectors.systems_named`)."""
    value = value.strip()
    if value.isdigit():
        return Q(**{f"{prefix}id": int(value)})
    return Q(**{f"{prefix}id__in": systems_named(name=value).values("id")})


class SystemFilter(filters.FilterSet):
    q = filters.CharFilter(method="search", label="Text in the name, vendor, model or notes.")
    name = filters.CharFilter(lookup_expr="iexact")
    vendor = filters.CharFilter(lookup_expr="iexact")
    model = filters.CharFilter(lookup_expr="iexact")
    raid_level = filters.CharFilter(
        method="with_configs", label='Systems with a configuration at this RAID level ("RAID 5" or "RAID-5").'
    )
    drive_count = filters.NumberFilter(method="with_configs", label="Systems with a configuration of this many drives.")
    tool = filters.CharFilter(method="with_runs", label="Systems with runs of this tool.")
    workload = filters.CharFilter(method="with_runs", label="Systems with runs of this workload (any of its names).")
    tag = filters.CharFilter(method="with_runs", label="Systems with runs carrying this tag.")

    class Meta:
        model = System
        fields: list[str] = []

    def search(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(
            Q(name__icontains=value)
            | Q(vendor__icontains=value)
            | Q(model__icontains=value)
            | Q(notes__icontains=value)
        )

    def with_configs(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        value = raid_level_canonical(value) if name == "raid_level" else value
        return queryset.filter(id__in=Config.objects.filter(**{name: value}).values("system_id"))

    def with_runs(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        runs = Run.objects.filter(run_q(name, value))
        return queryset.filter(id__in=runs.values("config__system_id"))


def run_q(name: str, value: Any) -> Q:
    """A condition on runs for the run filters that are not plain fields."""
    if name == "tool":
        return Q(tool__iexact=value)
    if name == "workload":
        return named(name=value)
    if name == "tag":
        return Q(tags__contains=[value])
    raise ValueError(name)


class ConfigFilter(filters.FilterSet):
    system = filters.CharFilter(method="by_system", label="System id or name.")
    vendor = filters.CharFilter(field_name="system__vendor", lookup_expr="iexact")
    raid_level = filters.CharFilter(method="by_raid_level", label='RAID level, "RAID 5" or "RAID-5".')
    drive_count = filters.NumberFilter()
    drive_type = filters.ChoiceFilter(choices=Config._meta.get_field("drive_type").choices)
    tool = filters.CharFilter(method="with_runs", label="Configurations with runs of this tool.")
    workload = filters.CharFilter(method="with_runs", label="Configurations with runs of this workload.")
    tag = filters.CharFilter(method="with_runs", label="Configurations with runs carrying this tag.")

    class Meta:
        model = Config
        fields: list[str] = []

    def by_system(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(_system_q("system__", value))

    def by_raid_level(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(raid_level=raid_level_canonical(value))

    def with_runs(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(id__in=Run.objects.filter(run_q(name, value)).values("config_id"))


class RunFilter(filters.FilterSet):
    system = filters.CharFilter(method="by_system", label="System id or name.")
    vendor = filters.CharFilter(field_name="config__system__vendor", lookup_expr="iexact")
    config = filters.NumberFilter(field_name="config_id")
    raid_level = filters.CharFilter(method="by_raid_level", label='RAID level, "RAID 5" or "RAID-5".')
    drive_count = filters.NumberFilter(field_name="config__drive_count")
    tool = filters.CharFilter(lookup_expr="iexact")
    workload = filters.CharFilter(method="by_workload", label="Workload: any name it was stored under.")
    tag = filters.CharFilter(method="by_tag")
    verdict = filters.ChoiceFilter(choices=Run.Verdict.choices)
    measurement = filters.ChoiceFilter(choices=Run.Measurement.choices)
    origin = filters.ChoiceFilter(choices=Run.Origin.choices)
    upload = filters.NumberFilter(field_name="upload_id")
    # stored_after / stored_before (when the run was stored), started_after / started_before (when measured)
    stored = filters.DateFromToRangeFilter(field_name="created_at")
    started = filters.DateFromToRangeFilter(field_name="started_at")

    class Meta:
        model = Run
        fields: list[str] = []

    def by_system(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(_system_q("config__system__", value))

    def by_raid_level(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(config__raid_level=raid_level_canonical(value))

    def by_workload(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(named(name=value))

    def by_tag(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(tags__contains=[value])


class PointFilter(filters.FilterSet):
    run = filters.NumberFilter(field_name="run_id")
    system = filters.CharFilter(method="by_system", label="System id or name.")

    class Meta:
        model = Point
        fields: list[str] = []

    def by_system(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(_system_q("run__config__system__", value))


class NumberInFilter(filters.BaseInFilter, filters.NumberFilter):
    pass


class UploadFilter(filters.FilterSet):
    ids = NumberInFilter(field_name="id", label="Upload ids separated by commas (follow several at once).")
    status = filters.ChoiceFilter(choices=Upload.Status.choices)
    # Not `format`: DRF reads ?format= as the answer's format (json, csv ...), so a filter of that name never filters.
    file_format = filters.CharFilter(field_name="format", label="Format id of the uploaded files (iometer, fio ...).")
    system = filters.CharFilter(method="by_system", label="System id or name.")

    class Meta:
        model = Upload
        fields: list[str] = []

    def by_system(self, queryset: QuerySet, name: str, value: Any) -> QuerySet:
        return queryset.filter(_system_q("system__", value))
