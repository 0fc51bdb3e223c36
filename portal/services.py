"""Services: everything that changes state goes through these functions."""

import datetime
import hashlib
import os
import tempfile

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Max, Min, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from psycopg.types.json import Jsonb

import ingest
from ingest import ParseError, Source, detect, group_sources, parse_archive, parse_together
from ingest import result as contract
from ingest.archive import is_zip
from ingest.source import ProgressMeter

from .models import Config, Point, Run, System, Upload


def run_summary_recompute(*, run_id):
    """Recompute a run's derived figures (peak IOPS and MB/s, lowest response time, points)."""
    figures = Point.objects.filter(run_id=run_id).aggregate(
        points=Count("id"),
        peak_iops=Max("iops"),
        peak_mbps=Max("mbps"),
        min_response_ms=Min("avg_response_ms"),
        max_response_ms=Max("avg_response_ms"),
    )
    Run.objects.filter(id=run_id).update(summary=figures)
    return figures


def run_summary_schedule(*, run_ids):
    """Recompute the summaries in the background once the current transaction commits."""
    from .tasks import run_summary_task

    ids = list(run_ids)
    transaction.on_commit(lambda: [run_summary_task.delay(run_id) for run_id in ids])


# --- Uploads: originals kept content-addressed, parsed, stored in one transaction ---------------

CONFIG_LABELS = tuple(name for name in Config.IDENTITY_FIELDS if name != "extra")
BOOLEAN_LABELS = {"read_cache", "write_cache", "write_cache_mirroring", "prefetch"}
INTEGER_LABELS = {"drive_count", "drives_per_array", "drive_rpm"}
FLOAT_LABELS = {"drive_capacity_gb", "segment_kb", "stroke_pct"}
RUN_LABELS = ("workload_name", "measurement", "tags", "notes")


class LabelError(ValueError):
    """A configuration or run label that cannot be used (unknown name, bad value)."""


def label_parse(name, text):
    """A label given as text (``--config write_cache=on``) converted to its field's type."""
    if name not in CONFIG_LABELS and name not in RUN_LABELS:
        raise LabelError(f"unknown label {name!r}; known: {', '.join(CONFIG_LABELS + RUN_LABELS)}")
    text = text.strip()
    try:
        if name in BOOLEAN_LABELS:
            return {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}[text.lower()]
        if name in INTEGER_LABELS:
            return int(text)
        if name in FLOAT_LABELS:
            return float(text.rstrip("%"))
    except (KeyError, ValueError):
        raise LabelError(f"{name}={text!r} is not a valid value") from None
    if name == "tags":
        return [tag.strip() for tag in text.split(",") if tag.strip()]
    if name == "measurement" and text not in Run.Measurement.values:
        raise LabelError(f"measurement must be one of {', '.join(Run.Measurement.values)}")
    return text


def upload_path(sha256):
    """Where the original with this hash is kept (outside the web root)."""
    return settings.UPLOADS_DIR / sha256[:2] / sha256


def upload_create(*, stream, original_name, uploader=None, system=None, labels=None):
    """Keep the original bytes (content-addressed) and record the upload.

    Returns the new :class:`Upload`: ``queued``, or ``duplicate`` (pointing at the earlier upload)
    when the same bytes were stored before. The file is hashed while it is copied, never read twice.
    """
    settings.UPLOADS_DIR.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    size = 0
    with tempfile.NamedTemporaryFile(dir=settings.UPLOADS_DIR, delete=False) as temporary:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
            temporary.write(block)
            size += len(block)
    sha256 = digest.hexdigest()
    final = upload_path(sha256)
    final.parent.mkdir(parents=True, exist_ok=True)
    os.replace(temporary.name, final)
    fields = {
        "original_name": original_name[:500],
        "size_bytes": size,
        "sha256": sha256,
        "stored_path": str(final.relative_to(settings.UPLOADS_DIR)),
        "uploader": uploader,
        "system": system,
        "labels": labels or {},
    }
    try:
        with transaction.atomic():
            return Upload.objects.create(**fields)  # the partial unique index refuses a second live copy
    except IntegrityError:
        earlier = Upload.objects.filter(sha256=sha256, status__in=LIVE_STATUSES).first()
        return Upload.objects.create(**fields, status=Upload.Status.DUPLICATE, duplicate_of=earlier)


LIVE_STATUSES = (Upload.Status.QUEUED, Upload.Status.PARSING, Upload.Status.DONE)


def upload_claim(*, upload_id, stale_after=None):
    """Take an upload for parsing with a conditional update; False when another worker has it.

    A ``parsing`` upload whose start is older than ``stale_after`` (a worker died) is taken again.
    """
    now = timezone.now()
    claimable = Q(status=Upload.Status.QUEUED)
    if stale_after is not None:
        claimable |= Q(status=Upload.Status.PARSING, started_at__lt=now - stale_after)
    return bool(
        Upload.objects.filter(claimable, id=upload_id).update(
            status=Upload.Status.PARSING, started_at=now, progress_pct=0, error=""
        )
    )


def upload_ingest(*, upload_ids):
    """Parse uploads read together (one file, or the files of one ORION test) and store the results.

    Progress while parsing is kept in ``progress_pct``. Everything is stored in one transaction
    or nothing is. Returns the first upload, marked
    ``done`` (with warnings) or ``failed`` (with the parser's message naming file and line).
    """
    upload_ids = _read_together(upload_ids)
    uploads = list(Upload.objects.filter(id__in=upload_ids).select_related("system").order_by("id"))
    first = uploads[0]
    Upload.objects.filter(id__in=upload_ids[1:]).update(read_with=first)
    sources = [Source(settings.UPLOADS_DIR / u.stored_path, name=u.original_name) for u in uploads]
    meter = ProgressMeter(
        sum(u.size_bytes for u in uploads),
        lambda pct: Upload.objects.filter(id__in=upload_ids).update(progress_pct=pct),
    )
    for source in sources:
        source.meter = meter
    try:
        results = _parse_uploaded(sources)
        with transaction.atomic():
            # Re-ingesting replaces the runs read before, in the same transaction as the new ones.
            Run.objects.filter(upload_id__in=upload_ids).delete()
            counts = result_sets_store(results=results, upload=first, system=first.system, labels=first.labels)
            formats = sorted({r["format"] for r in results})
            Upload.objects.filter(id__in=upload_ids).update(
                status=Upload.Status.DONE,
                progress_pct=100,
                finished_at=timezone.now(),
                format=",".join(formats),
                parser_version=f"ingest {ingest.__version__}",
                warnings=[w for r in results for w in r["warnings"]],
                system=counts["system"],
            )
    except (ParseError, LabelError, StoreError, contract.ContractError) as error:
        Upload.objects.filter(id__in=upload_ids).update(
            status=Upload.Status.FAILED, error=str(error), finished_at=timezone.now()
        )
    first.refresh_from_db()
    return first


def _parse_uploaded(sources):
    """Result sets of uploaded files read together: archives one by one, other files as a group."""
    results = []
    for source in sources:
        if is_zip(source):
            results.extend(parse_archive(source))
    plain = [source for source in sources if not is_zip(source)]
    return results + (parse_together(plain) if plain else [])


def _read_together(upload_ids):
    """The given uploads and every upload read together with them, first upload first."""
    given = Upload.objects.filter(id__in=upload_ids).values_list("id", "read_with_id")
    firsts = {read_with or upload_id for upload_id, read_with in given}
    members = Upload.objects.filter(read_with_id__in=firsts).values_list("id", flat=True)
    return sorted({*upload_ids, *firsts, *members})


class StoreError(ValueError):
    """Results that parse but cannot be stored as asked (no system named, ...)."""


def _system_for(result, system):
    described = result.get("system") or {}
    if system is not None:
        return system
    if not described.get("name"):
        raise StoreError(
            f"{result['source']['name']}: the file does not say which system it measured; "
            "choose a system when uploading (or --system on the command line)"
        )
    found = System.objects.filter(name__iexact=described["name"]).first()
    return found or System.objects.create(
        name=described["name"], vendor=described.get("vendor") or "", model=described.get("model") or ""
    )


def _system_profile_update(system, described, upload):
    for name in ("vendor", "model", "firmware"):
        if described.get(name):
            setattr(system, name, described[name])
    for name in ("controllers", "cache_mb_per_controller"):
        if described.get(name) is not None:
            setattr(system, name, described[name])
    system.profile = described
    system.profile_upload = upload
    system.save()


def _config_properties(labels):
    properties = {name: labels[name] for name in CONFIG_LABELS if labels.get(name) not in (None, "")}
    properties["extra"] = labels.get("extra") or {}
    return properties


def config_for(*, system, labels):
    """The stored configuration with these properties (created once, found by identity)."""
    return configs_for([(system, labels)])[0]


def configs_for(wanted):
    """Stored configurations for ``[(system, labels), ...]``, in order: one query finds those
    that exist, one bulk insert adds the rest."""
    built = [Config(system=system, **_config_properties(labels)) for system, labels in wanted]
    for config in built:
        config.identity = Config.identity_of(config.system_id, config.properties())
    existing = Config.objects.in_bulk({c.identity for c in built}, field_name="identity")
    missing = {c.identity: c for c in built if c.identity not in existing}
    existing.update({c.identity: c for c in Config.objects.bulk_create(missing.values())})
    return [existing[c.identity] for c in built]


def _run_from(result, run, *, config, upload, labels):
    workload = run["workload"]
    return Run(
        config=config,
        upload=upload,
        name=run["name"][:300],
        description=run.get("description") or "",
        tool=result["tool"]["name"],
        tool_version=result["tool"].get("version") or "",
        workload_name=(labels.get("workload_name") or run["name"])[:200],
        read_pct=workload.get("read_pct"),
        random_pct=workload.get("random_pct"),
        transfer_sizes=workload.get("transfer_sizes") or [],
        params=run.get("params") or {},
        verdict=run.get("verdict") or "",
        measurement=labels.get("measurement") or Run.Measurement.END_TO_END,
        started_at=_aware(parse_datetime(run["started_at"])) if run.get("started_at") else None,
        tags=labels.get("tags") or [],
        notes=labels.get("notes") or "",
    )


def _aware(moment):
    """Tools print local times without a zone; they are stored as UTC (the tool's clock as is)."""
    if moment is not None and timezone.is_naive(moment):
        return timezone.make_aware(moment, datetime.UTC)
    return moment


def _point_from(run, seq, point):
    load = point.get("load") or {}
    figures = {name: point.get(name) for name in Point.FIGURES}
    return Point(
        run=run,
        seq=seq,
        outstanding_io=load.get("outstanding_io"),
        threads=load.get("threads"),
        load=load,
        metrics=point.get("metrics") or {},
        **figures,
    )


POINT_COPY_COLUMNS = ("run_id", "seq", "outstanding_io", "threads", "load", *Point.FIGURES, "metrics")


def points_copy(points):
    """Insert points with PostgreSQL COPY: points carry kilobytes of JSON metrics each, and COPY
    streams them without building (and quoting) one huge INSERT statement."""
    columns = ", ".join(POINT_COPY_COLUMNS)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {Point._meta.db_table} ({columns}) FROM STDIN") as copy,
    ):
        for point in points:
            copy.write_row(
                [point.run_id, point.seq, point.outstanding_io, point.threads, Jsonb(point.load)]
                + [getattr(point, name) for name in Point.FIGURES]
                + [Jsonb(point.metrics)]
            )


def result_sets_store(*, results, upload, system=None, labels=None):
    """Store contract-checked result sets (bulk inserts); return what was stored.

    Array profiles create or update their system; runs go to the configuration given by the
    labels. Must run inside a transaction: the caller decides what is stored together.
    """
    labels = labels or {}
    counts = {"system": None, "runs": 0, "points": 0}
    for result in results:
        contract.check(result)
        target = _system_for(result, system)
        counts["system"] = target
        if result["format"] == "array_profile":
            _system_profile_update(target, result["system"], upload)
        if not result["runs"]:
            continue
        config = config_for(system=target, labels=labels)
        runs = Run.objects.bulk_create(
            [_run_from(result, run, config=config, upload=upload, labels=labels) for run in result["runs"]]
        )
        points = [
            _point_from(stored, seq, point)
            for stored, run in zip(runs, result["runs"], strict=True)
            for seq, point in enumerate(run["points"])
        ]
        points_copy(points)
        counts["runs"] += len(runs)
        counts["points"] += len(points)
        run_summary_schedule(run_ids=[run.id for run in runs])
    return counts


# --- Uploads from the browser: enqueue on commit, re-ingest, recover stale work ------------------

# A claimed upload is taken again once its claim is older than the task's hard time limit:
# by then the worker that claimed it is gone (killed, or stopped by the limit).
UPLOAD_STALE_AFTER = datetime.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
# A queued upload whose task never reached the broker (broker down at commit) is sent again after this.
UPLOAD_LOST_AFTER = datetime.timedelta(minutes=5)


def upload_enqueue(*, upload_id):
    """Send the upload to a worker once the current transaction commits (nothing is sent on rollback)."""
    from .tasks import upload_ingest_task

    transaction.on_commit(lambda: upload_ingest_task.delay(upload_id))


def system_get_or_create(*, name, vendor="", model=""):
    """The system with this name (case-insensitive), created from vendor and model when new."""
    name = " ".join(name.split()) or " ".join(f"{vendor} {model}".split())
    if not name:
        raise LabelError("a new system needs a name, or a vendor and model")
    try:
        with transaction.atomic():
            return System.objects.create(name=name, vendor=vendor.strip(), model=model.strip())
    except IntegrityError:  # the name is taken (case-insensitive), perhaps a moment ago by another request
        return System.objects.get(name__iexact=name)


def upload_receive(*, files, uploader, system, labels):
    """Keep uploaded files and queue them for a worker once all are recorded; return the uploads.

    ``files`` are readable binary streams with a ``name``. Duplicates are recorded, not queued.
    Files given together that are read together (the files of one ORION test, one fio sweep)
    point at the first of them, and only that one is queued: its worker reads the group.
    """
    with transaction.atomic():
        uploads = [
            upload_create(stream=file, original_name=file.name, uploader=uploader, system=system, labels=labels)
            for file in files
        ]
        for first, *others in upload_groups([u for u in uploads if u.status == Upload.Status.QUEUED]):
            Upload.objects.filter(id__in=[u.id for u in others]).update(read_with=first)
            upload_enqueue(upload_id=first.id)
    return uploads


def upload_groups(uploads):
    """Uploads given together, gathered as the registry gathers files read together.

    Archives, and files not recognised here (their worker gives the message), stand alone.
    """
    upload_of, groups = {}, []
    for upload in uploads:
        # The common folder in the name makes files dropped together one fio sweep.
        source = Source(settings.UPLOADS_DIR / upload.stored_path, name=f"given-together/{upload.original_name}")
        if is_zip(source) or not _recognised(source):
            groups.append([upload])
        else:
            upload_of[source] = upload
    for _module, members in group_sources(list(upload_of)):
        groups.append([upload_of[source] for source in members])
    return sorted(groups, key=lambda group: group[0].id)


def _recognised(source):
    try:
        detect(source)
    except ParseError:
        return False
    return True


def upload_reingest(*, upload):
    """Queue a finished upload to be read again with the current parser; its runs are replaced on success.

    Returns False when the upload is not finished, or when a later copy of the same file is the live one.
    """
    finished = Q(status__in=[Upload.Status.DONE, Upload.Status.FAILED])
    upload = upload.read_with or upload
    try:
        with transaction.atomic():
            queued = Upload.objects.filter(finished, id=upload.id).update(
                status=Upload.Status.QUEUED, progress_pct=0, error="", started_at=None, finished_at=None
            )
    except IntegrityError:
        return False
    if queued:
        upload_enqueue(upload_id=upload.id)
    return bool(queued)


def upload_release(*, upload_id):
    """Give a claimed upload back to the queue (a transient failure; the task retries)."""
    Upload.objects.filter(id=upload_id, status=Upload.Status.PARSING).update(status=Upload.Status.QUEUED)


def upload_fail(*, upload_id, message):
    """Mark a claimed upload failed with a message for the user; nothing of it is stored."""
    Upload.objects.filter(id=upload_id, status=Upload.Status.PARSING).update(
        status=Upload.Status.FAILED, error=message, finished_at=timezone.now()
    )


def upload_requeue_stale(*, now=None):
    """Send again the uploads no worker will finish: claims older than UPLOAD_STALE_AFTER, lost queue entries.

    Returns the ids sent. Sending twice is harmless: the task claims with a conditional update.
    """
    from .tasks import upload_ingest_task

    now = now or timezone.now()
    stale = Q(status=Upload.Status.PARSING, started_at__lt=now - UPLOAD_STALE_AFTER)
    lost = Q(status=Upload.Status.QUEUED, created_at__lt=now - UPLOAD_LOST_AFTER)
    upload_ids = list(Upload.objects.filter(stale | lost).values_list("id", flat=True))
    for upload_id in upload_ids:
        upload_ingest_task.delay(upload_id)
    return upload_ids
