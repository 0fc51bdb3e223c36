"""What the API may show a user, one function per resource: every API read starts here, cut to
the systems the user may read (published ones and their teams' private ones)."""

from django.db.models import Count, Prefetch, QuerySet

from portal.models import Config, Point, Run, System, Upload
from portal.teams.selectors import Viewer, uploads_q, visible


def systems_for(*, user: Viewer) -> QuerySet[System]:
    return visible(System.objects.all(), viewer=user)


def configs_for(*, user: Viewer) -> QuerySet[Config]:
    return visible(Config.objects.select_related("system"), viewer=user, prefix="system__")


def runs_for(*, user: Viewer) -> QuerySet[Run]:
    return visible(Run.objects.select_related("config__system", "workload"), viewer=user, prefix="config__system__")


def runs_with_points_for(*, user: Viewer) -> QuerySet[Run]:
    """Runs with their points in load order, for curves and figures at a threshold."""
    return runs_for(user=user).prefetch_related(Prefetch("points", queryset=Point.objects.order_by("seq")))


def points_for(*, user: Viewer) -> QuerySet[Point]:
    return visible(Point.objects.all(), viewer=user, prefix="run__config__system__")


def uploads_for(*, user: Viewer) -> QuerySet[Upload]:
    return (
        Upload.objects.filter(uploads_q(viewer=user))
        .select_related("system", "job", "duplicate_of")
        .prefetch_related(Prefetch("runs", queryset=Run.objects.order_by("id").only("id", "name", "upload_id")))
    )


def with_counts(systems: QuerySet[System]) -> QuerySet[System]:
    return systems.annotate(
        config_count=Count("configs", distinct=True), run_count=Count("configs__runs", distinct=True)
    )


def with_point_counts(runs: QuerySet[Run]) -> QuerySet[Run]:
    return runs.annotate(point_count=Count("points"))
