"""Selectors of systems: found by name, listed with their figures and filters, their configurations."""

import difflib
from typing import Any, NamedTuple

from django.db.models import Case, Count, F, Func, IntegerField, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce, Lower

from portal.analysis.vocabulary import raid_level_canonical
from portal.errors import NotFoundError
from portal.models import Config, PublishedStrokeMultipliers, Run, System, Upload
from portal.teams.selectors import Viewer, uploader_name, uploads_q, visible


class SystemNotFound(NotFoundError):
    """An unknown system name (or one the viewer may not read); the message lists close matches."""


def systems_named(*, name: str, among: QuerySet[System] | None = None) -> QuerySet[System]:
    """The systems among ``among`` (every system when None) named ``name``: runs of spaces read as one, and
    case-insensitive as the unique constraint compares names (lower-cased: ``iexact`` upper-cases, which
    differs for a few letters). Commands, the API, the forms and the pages find a system by this one rule."""
    spoken = " ".join(name.split()).lower()
    systems = System.objects.all() if among is None else among
    return systems.alias(lower_name=Lower("name")).filter(lower_name=spoken)


def system_readable(*, system_id: int, viewer: Viewer) -> System:
    """The system ``system_id`` when ``viewer`` may read it, else :class:`NotFoundError`: a private system is
    not revealed (a page answers 404, not 403)."""
    system = visible(System.objects.filter(pk=system_id), viewer=viewer).select_related("team").first()
    if system is None:
        raise NotFoundError(f"There is no system #{system_id}.")
    return system


def system_by_name(*, name: str, viewer: Viewer, command: bool = False) -> System:
    """The system named ``name`` (case-insensitive) among those ``viewer`` may read, else the one of them
    with that id (a page's address names systems by id: ``/compare/?a=7``), or :class:`SystemNotFound`
    naming close matches among those, never a list of every system. A name both published and used by
    one of the viewer's teams means the team's own system. ``command``: asked by the operator's command,
    whose answer may say which team a private system of that name belongs to and that ``--as`` reads it."""
    readable = visible(System.objects.all(), viewer=viewer)
    own = Case(When(published=False, then=Value(0)), default=Value(1))
    found = systems_named(name=name, among=readable).order_by(own, "id").first()
    if found:
        return found
    spoken = name.strip()
    if spoken.isdigit() and len(spoken) < 19:
        by_id = readable.filter(pk=int(spoken)).first()
        if by_id:
            return by_id
    names = list(readable.order_by("name").values_list("name", flat=True))
    close = difflib.get_close_matches(name, names, n=5, cutoff=0.4)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    if command:
        private = systems_named(name=name).exclude(pk__in=readable.values("pk")).select_related("team").first()
        if private is not None and private.team is not None:
            hint = (
                f": system {private.name!r} is private to team {private.team.name!r}: "
                "give --as USER, a member of that team, to read it"
            )
    raise SystemNotFound(f"no system named {name!r}{hint}")


class SystemChoice(NamedTuple):
    """A system a picker offers: its name, and whether it is private to the reader's team."""

    name: str
    private: bool


def system_choices(*, q: str = "", limit: int = 20, viewer: Viewer) -> list[SystemChoice]:
    """Systems ``viewer`` may read matching ``q`` (name, vendor or model), for a picker: at most
    ``limit``, by name, each marked private when it is not published (only its team reads it)."""
    systems = visible(System.objects.all(), viewer=viewer)
    if q.strip():
        words = q.split()
        for word in words:
            systems = systems.filter(Q(name__icontains=word) | Q(vendor__icontains=word) | Q(model__icontains=word))
    rows = systems.order_by("name", "id").values_list("name", "published")[:limit]
    return [SystemChoice(name=name, private=not published) for name, published in rows]


def systems_overview(
    *,
    viewer: Viewer,
    q: str = "",
    vendor: str = "",
    model: str = "",
    raid_level: str = "",
    drive_count: int | None = None,
    drive_type: str = "",
    tool: str = "",
    workload: str = "",
    sort: str = "name",
) -> QuerySet[System]:
    """Systems ``viewer`` may read with their numbers of configs and runs and latest upload, filtered,
    in the order ``sort`` names (one of :data:`SYSTEM_SORTS`).

    The figures are per-system subqueries on indexed foreign keys, so a page of the list (a slice)
    costs what its own systems hold, not what every system holds.

    Configuration and run filters select the systems that have at least one matching config or run.
    """
    systems = visible(System.objects.all(), viewer=viewer)
    if q:
        systems = systems.filter(
            Q(name__icontains=q) | Q(vendor__icontains=q) | Q(model__icontains=q) | Q(notes__icontains=q)
        )
    if vendor:
        systems = systems.filter(vendor__iexact=vendor)
    if model:
        systems = systems.filter(model__iexact=model)
    config_filters = {
        "raid_level": raid_level_canonical(raid_level),
        "drive_count": drive_count,
        "drive_type": drive_type,
        "runs__tool": tool,
        "runs__workload_name": workload,
    }
    config_filters = {name: value for name, value in config_filters.items() if value not in (None, "")}
    if config_filters:
        systems = systems.filter(id__in=Config.objects.filter(**config_filters).values("system_id"))
    return systems.annotate(
        config_count=_count_of(Config.objects.filter(system=OuterRef("pk")), "system"),
        run_count=_count_of(Run.objects.filter(config__system=OuterRef("pk")), "config__system"),
        latest_upload_at=Subquery(
            Upload.objects.filter(system=OuterRef("pk")).order_by("-created_at").values("created_at")[:1]
        ),
    ).order_by(*SYSTEM_SORTS.get(sort, SYSTEM_SORTS["name"])[1])


# The orders the systems list offers: (heading, ORDER BY). Sorting by runs or latest upload counts
# the runs of every system the filters keep (one indexed count each), not only the page's.
SYSTEM_SORTS = {
    "name": ("System", ("name", "id")),
    "vendor": ("Vendor", ("vendor", "model", "name", "id")),
    "runs": ("Runs", (F("run_count").desc(), "name", "id")),
    "latest": ("Latest upload", (F("latest_upload_at").desc(nulls_last=True), "name", "id")),
}


def _count_of(rows: QuerySet, group: str) -> Coalesce:
    """The number of ``rows`` (correlated to the outer system) as a scalar subquery, 0 when none."""
    counted = rows.order_by().values(group).annotate(count=Count("*")).values("count")
    return Coalesce(Subquery(counted), 0)


def filter_choices(*, viewer: Viewer) -> dict[str, list]:
    """The values the systems list can be filtered by, from the systems ``viewer`` may read (a
    private system's workload names are not offered to others): one query per filter, over systems
    and configurations (runs' tools and workloads are kept on their system)."""
    systems = visible(System.objects.all(), viewer=viewer)
    configs = visible(Config.objects.all(), viewer=viewer, prefix="system__")

    def distinct(queryset: QuerySet, name: str) -> list[Any]:
        return [v for v in queryset.exclude(**{name: None}).values_list(name, flat=True).distinct().order_by(name) if v]

    def unnested(name: str) -> list[str]:
        # Each value once from the database: a thousand systems keep ten thousand workload names.
        values = systems.annotate(value=Func(F(name), function="unnest")).order_by().values_list("value", flat=True)
        return sorted(values.distinct(), key=str.casefold)

    return {
        "vendor": distinct(systems, "vendor"),
        "model": distinct(systems, "model"),
        "raid_level": distinct(configs, "raid_level"),
        "drive_count": distinct(configs, "drive_count"),
        "drive_type": distinct(configs, "drive_type"),
        "tool": unnested("run_tools"),
        "workload": unnested("run_workloads"),
    }


def recent_uploads(*, viewer: Viewer, limit: int = 10) -> list[Upload]:
    """The newest uploads ``viewer`` may read."""
    uploads = Upload.objects.filter(uploads_q(viewer=viewer)).select_related("system")
    return list(uploads.annotate(uploader_shown=uploader_name(viewer=viewer))[:limit])


def system_configs(*, system: System) -> list[Config]:
    """A system's configurations with their run counts, one query: each count read from the index of the
    configuration's runs alone, not joined and grouped run by run (a file can hold thousands)."""
    runs = Run.objects.filter(config=OuterRef("pk")).order_by().values("config").annotate(n=Count("id")).values("n")
    run_count = Coalesce(Subquery(runs, output_field=IntegerField()), 0)
    return list(system.configs.annotate(run_count=run_count).order_by("raid_level", "drive_count", "id"))


def published_stroke_multipliers(*, system: System, raid_level: str = "") -> list[PublishedStrokeMultipliers]:
    """The stroke multiplier tables published for a system (of one RAID level, when given)."""
    published = PublishedStrokeMultipliers.objects.filter(system=system)
    if raid_level:
        published = published.filter(raid_level=raid_level)
    return list(published)
