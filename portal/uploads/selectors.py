"""Reads for the upload pages: the list, one upload's row as the live status endpoint sends it."""

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from portal import formatting
from portal.models import Point, Role, Run, System, Upload
from portal.teams import selectors as teams
from portal.teams.selectors import Viewer

# The status of an upload in words, as the list and the live rows show it.
STATUS_TEXT: dict[str, str] = {
    Upload.Status.QUEUED: "queued",
    Upload.Status.PARSING: "parsing",
    Upload.Status.DONE: "done",
    Upload.Status.FAILED: "failed",
    Upload.Status.DUPLICATE: "duplicate",
}
FINISHED = {Upload.Status.DONE, Upload.Status.FAILED, Upload.Status.DUPLICATE}
# What readers other than the uploader and staff are told of an internal error: its exception type and
# reference are clues to the portal's code, and only those two can act on them.
COULD_NOT_BE_READ = "could not be read"
INTERNAL_ERROR_MARK = "because of an internal error ("
RUN_LINKS_SHOWN = 10
# Profile entries offered to pre-fill the labels, and the label each of their keys fills.
PROFILE_KEYS = (
    "raid_level",
    "drive_count",
    "drive_type",
    "drive_rpm",
    "segment_kb",
    "read_cache",
    "write_cache",
    "write_cache_mirroring",
)


def _with_counts(uploads: QuerySet[Upload]) -> QuerySet[Upload]:
    """Uploads with their numbers of runs and points, as subqueries: PostgreSQL computes them for
    the rows a page shows (after ORDER BY and LIMIT), not for every upload stored."""
    runs = Run.objects.filter(upload=OuterRef("pk")).values("upload").annotate(n=Count("id")).values("n")
    points = Point.objects.filter(run__upload=OuterRef("pk")).values("run__upload").annotate(n=Count("id")).values("n")
    return uploads.annotate(
        run_count=Coalesce(Subquery(runs), 0),
        point_count=Coalesce(Subquery(points), 0),
    )


def upload_list(*, viewer: Viewer) -> QuerySet[Upload]:
    """The uploads ``viewer`` may read, newest first, with what the list shows."""
    uploads = Upload.objects.filter(teams.uploads_q(viewer=viewer)).select_related("system", "job")
    uploads = uploads.annotate(uploader_shown=teams.uploader_name(viewer=viewer))
    return _with_counts(uploads).order_by("-created_at", "-id")


def upload_readable(*, viewer: Viewer, upload_id: int) -> Upload | None:
    """The upload, when ``viewer`` may read it (None otherwise: it does not exist for them)."""
    readable = Upload.objects.filter(teams.uploads_q(viewer=viewer), id=upload_id)
    readable = readable.annotate(uploader_shown=teams.uploader_name(viewer=viewer))
    return readable.select_related("system", "uploader", "duplicate_of", "job", "team").first()


def upload_can_manage(*, user: Viewer, upload: Upload) -> bool:
    """Re-ingesting is for the uploader and the maintainers of the upload's team."""
    if not user.is_authenticated:
        return False
    return upload.uploader_id == user.id or teams.allows(user, upload.team, Role.MAINTAINER)


def upload_shows_internal_errors(*, user: Viewer, upload: Upload) -> bool:
    """The uploader (who quotes the reference) and staff (who look it up in the log) see internal errors."""
    return user.is_authenticated and (user.is_staff or upload.uploader_id == user.id)


def _internal_error(upload: Upload) -> bool:
    # The job's reference marks a bug; the sentence itself is the mark when the job is gone.
    return bool(upload.job and upload.job.error_ref) or INTERNAL_ERROR_MARK in upload.error


def upload_error_text(*, user: Viewer, upload: Upload) -> str:
    """The upload's error as ``user`` may read it: an internal error's details only for the uploader and staff."""
    if not upload.error or not _internal_error(upload) or upload_shows_internal_errors(user=user, upload=upload):
        return upload.error
    if upload.status == Upload.Status.DONE:
        return f"re-ingest failed: {COULD_NOT_BE_READ}; the earlier results are kept"
    return COULD_NOT_BE_READ


def upload_rate_wait_seconds(*, user: User, file_count: int, now: datetime | None = None) -> int:
    """Seconds before ``user`` may upload ``file_count`` more files, 0 when they may now.

    At most UPLOAD_RATE_FILES uploads per UPLOAD_RATE_WINDOW_SECONDS (a sliding window), counted from
    the uploads recorded, so every web process and the API share one count. A request larger than the
    whole allowance waits a full window.
    """
    limit, window = settings.UPLOAD_RATE_FILES, timedelta(seconds=settings.UPLOAD_RATE_WINDOW_SECONDS)
    now = now or timezone.now()
    recent = Upload.objects.filter(uploader=user, created_at__gt=now - window).order_by("created_at")
    excess = recent.count() + file_count - limit
    if excess <= 0:
        return 0
    if file_count > limit:
        return math.ceil(window.total_seconds())
    # The request fits once its excess of the oldest uploads in the window have left it.
    frees_at = recent.values_list("created_at", flat=True)[excess - 1] + window
    return max(1, math.ceil((frees_at - now).total_seconds()))


def upload_row(*, upload: Upload, user: Viewer, runs: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """One upload as the live status endpoint sends it (plain data; the page renders it as text).

    Counts come from :func:`upload_rows`' annotations (a new upload has none yet); ``runs`` are its
    runs as ``{"id", "name"}``; the error is as ``user`` may read it.
    """
    row: dict[str, Any] = {
        "id": upload.id,
        "name": upload.original_name,
        "status": upload.status,
        "status_text": STATUS_TEXT[upload.status],
        "finished": upload.status in FINISHED,
        "progress_pct": upload.progress_pct,
        "format": upload.format,
        # The tool as the page's rows name it ("COSBench", not the format id "cosbench").
        "tool": formatting.format_name(upload.format),
        "error": upload_error_text(user=user, upload=upload),
        "warnings": len(upload.warnings),
        "url": reverse("uploads:detail", args=[upload.id]),
        "system": None,
        "runs": [],
        "run_count": getattr(upload, "run_count", 0),
        "point_count": getattr(upload, "point_count", 0),
        "duplicate_of": None,
        "read_with": None,
    }
    if upload.system:
        row["system"] = {"id": upload.system_id, "name": upload.system.name, "url": f"/systems/{upload.system_id}/"}
    if upload.duplicate_of_id:
        row["duplicate_of"] = {
            "id": upload.duplicate_of_id,
            "url": reverse("uploads:detail", args=[upload.duplicate_of_id]),
        }
    if upload.read_with_id:
        row["read_with"] = {"id": upload.read_with_id, "url": reverse("uploads:detail", args=[upload.read_with_id])}
    row["runs"] = [{"id": r["id"], "name": r["name"], "url": f"/runs/{r['id']}/"} for r in runs[:RUN_LINKS_SHOWN]]
    return row


def upload_rows(*, upload_ids: Iterable[int], user: Viewer) -> list[dict[str, Any]]:
    """Rows for several uploads in three queries: uploads with counts, then their runs' links."""
    readable = Upload.objects.filter(teams.uploads_q(viewer=user), id__in=upload_ids).select_related("system", "job")
    uploads = list(_with_counts(readable).order_by("-id"))
    done = [u.id for u in uploads if u.status == Upload.Status.DONE]
    runs = defaultdict(list)
    for run in Run.objects.filter(upload_id__in=done).order_by("id").values("id", "name", "upload_id"):
        runs[run["upload_id"]].append(run)
    return [upload_row(upload=upload, user=user, runs=runs[upload.id]) for upload in uploads]


def system_profile_choices(*, system: System) -> dict[str, list[dict[str, Any]]]:
    """The arrays and logical drives (volumes) of the system's last array profile, for pre-filling labels.

    A volume takes what it does not state itself (drive count, RAID level) from the array it lives on;
    an array takes its drive type and rpm from its drives when they all agree.
    """
    profile = system.profile or {}
    arrays = [entry for entry in profile.get("arrays") or [] if isinstance(entry, dict)]
    volumes = [entry for entry in profile.get("volumes") or [] if isinstance(entry, dict)]
    members = defaultdict(list)
    for drive in profile.get("drives") or []:
        # Hot spares (standing by or in use) are not members of the array they serve.
        if isinstance(drive, dict) and (drive.get("mode") or "Assigned") == "Assigned":
            members[str(drive.get("array"))].append(drive)
    arrays = [{**_drive_kind(members[str(array.get("name"))]), **_stated(array)} for array in arrays]
    by_name = {str(array.get("name")): array for array in arrays}
    return {
        "arrays": [_profile_entry(array) for array in arrays],
        "volumes": [
            _profile_entry({**by_name.get(str(volume.get("array")), {}), **_stated(volume)}) for volume in volumes
        ],
    }


def _stated(entry: dict) -> dict:
    return {key: value for key, value in entry.items() if value is not None}


def _drive_kind(drives: list[dict]) -> dict:
    """The drive type and rpm every one of an array's drives shares, as labels."""
    kind: dict[str, Any] = {}
    types = {drive.get("type") for drive in drives}
    if len(types) == 1 and types <= {"HDD", "SSD", "NVMe"}:
        kind["drive_type"] = types.pop()
    speeds = {drive.get("speed_rpm") for drive in drives}
    speed = speeds.pop() if len(speeds) == 1 else None
    if isinstance(speed, int | float) and not isinstance(speed, bool):
        kind["drive_rpm"] = round(speed)
    return kind


def _profile_entry(entry: dict) -> dict[str, Any]:
    return {
        "name": str(entry.get("name", "")),
        **{key: entry[key] for key in PROFILE_KEYS if entry.get(key) is not None},
    }
