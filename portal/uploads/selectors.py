"""Reads for the upload pages: the list, one upload's row as the live status endpoint sends it."""

from collections import defaultdict

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse

from portal.models import Point, Run, Upload

# The status of an upload in words, as the list and the live rows show it.
STATUS_TEXT = {
    Upload.Status.QUEUED: "queued",
    Upload.Status.PARSING: "parsing",
    Upload.Status.DONE: "done",
    Upload.Status.FAILED: "failed",
    Upload.Status.DUPLICATE: "duplicate",
}
FINISHED = {Upload.Status.DONE, Upload.Status.FAILED, Upload.Status.DUPLICATE}
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


def _with_counts(uploads):
    """Uploads with their numbers of runs and points, as subqueries: PostgreSQL computes them for
    the rows a page shows (after ORDER BY and LIMIT), not for every upload stored."""
    runs = Run.objects.filter(upload=OuterRef("pk")).values("upload").annotate(n=Count("id")).values("n")
    points = Point.objects.filter(run__upload=OuterRef("pk")).values("run__upload").annotate(n=Count("id")).values("n")
    return uploads.annotate(
        run_count=Coalesce(Subquery(runs), 0),
        point_count=Coalesce(Subquery(points), 0),
    )


def upload_list():
    """Every upload, newest first, with what the list shows."""
    return _with_counts(Upload.objects.select_related("uploader", "system")).order_by("-created_at", "-id")


def upload_can_manage(*, user, upload):
    """Re-ingesting is for the uploader and for users allowed to change uploads."""
    if not user.is_authenticated:
        return False
    return upload.uploader_id == user.id or user.has_perm("portal.change_upload")


def upload_row(*, upload, runs=()):
    """One upload as the live status endpoint sends it (plain data; the page renders it as text).

    Counts come from :func:`upload_rows`' annotations (a new upload has none yet); ``runs`` are its
    runs as ``{"id", "name"}``.
    """
    row = {
        "id": upload.id,
        "name": upload.original_name,
        "status": upload.status,
        "status_text": STATUS_TEXT[upload.status],
        "finished": upload.status in FINISHED,
        "progress_pct": upload.progress_pct,
        "format": upload.format,
        "error": upload.error,
        "warnings": len(upload.warnings),
        "url": reverse("uploads:detail", args=[upload.id]),
        "system": None,
        "runs": [],
        "run_count": getattr(upload, "run_count", 0),
        "point_count": getattr(upload, "point_count", 0),
        "duplicate_of": None,
        "read_with": None,
    }
    if upload.system_id:
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


def upload_rows(*, upload_ids):
    """Rows for several uploads in three queries: uploads with counts, then their runs' links."""
    uploads = list(_with_counts(Upload.objects.filter(id__in=upload_ids).select_related("system")).order_by("-id"))
    done = [u.id for u in uploads if u.status == Upload.Status.DONE]
    runs = defaultdict(list)
    for run in Run.objects.filter(upload_id__in=done).order_by("id").values("id", "name", "upload_id"):
        runs[run["upload_id"]].append(run)
    return [upload_row(upload=upload, runs=runs[upload.id]) for upload in uploads]


def system_profile_choices(*, system):
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
    kind = {}
    types = {drive.get("type") for drive in drives}
    if len(types) == 1 and types <= {"HDD", "SSD", "NVMe"}:
        kind["drive_type"] = types.pop()
    speeds = {drive.get("speed_rpm") for drive in drives}
    if len(speeds) == 1 and all(isinstance(speed, int | float) and not isinstance(speed, bool) for speed in speeds):
        kind["drive_rpm"] = round(speeds.pop())
    return kind


def _profile_entry(entry):
    return {
        "name": str(entry.get("name", "")),
        **{key: entry[key] for key in PROFILE_KEYS if entry.get(key) is not None},
    }
