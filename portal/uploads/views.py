"""Uploading result files, following them live, downloading originals, re-ingesting."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from ingest.archive import DEFAULT_ZIP_LIMITS
from ingest.registry import known_formats_sentence
from portal.models import System, Upload

from . import selectors, services
from .forms import UploadLabelsForm

STATUS_IDS_MAX = 200


class SizeLimitUploadHandler(FileUploadHandler):
    """Drops a file as soon as it exceeds MAX_UPLOAD_MB, before the rest of it is written to disk."""

    def __init__(self, request=None):
        super().__init__(request)
        self.limit_bytes = settings.MAX_UPLOAD_MB * 1024 * 1024
        self.refused = []

    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.received_bytes = 0

    def receive_data_chunk(self, raw_data, start):
        self.received_bytes += len(raw_data)
        if self.received_bytes > self.limit_bytes:
            self.refused.append(self.file_name)
            raise SkipFile()
        return raw_data

    def file_complete(self, file_size):
        return None


def _too_large_message(name):
    return (
        f"{name}: larger than {settings.MAX_UPLOAD_MB} MB, the largest file accepted here; "
        "split the results, or ask the administrator to raise MAX_UPLOAD_MB"
    )


def _wants_json(request):
    return "application/json" in request.headers.get("Accept", "")


def _upload_for_reading(upload_id):
    return get_object_or_404(Upload.objects.select_related("system", "uploader", "duplicate_of", "job"), id=upload_id)


@require_GET
def upload_list(request):
    page = Paginator(selectors.upload_list(), 50).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "form": UploadLabelsForm(),
        "max_upload_mb": settings.MAX_UPLOAD_MB,
        "zip_limits": DEFAULT_ZIP_LIMITS,
        "known_formats": known_formats_sentence(),
    }
    return render(request, "uploads/list.html", context)


@csrf_exempt  # the size limit must be in place before the body is read; CSRF is checked just below
@require_POST
def upload_files(request):
    if not request.user.is_authenticated:
        if _wants_json(request):
            return JsonResponse({"error": "Sign in to upload files."}, status=403)
        return redirect_to_login(request.get_full_path())
    limit = SizeLimitUploadHandler(request)
    request.upload_handlers.insert(0, limit)
    return _upload_files_checked(request, limit)


@csrf_protect
def _upload_files_checked(request, limit):
    form = UploadLabelsForm(request.POST)
    refused = [{"name": name, "error": _too_large_message(name)} for name in limit.refused]
    if not form.is_valid():
        return _upload_answer(request, [], refused, errors=form.errors.get_json_data(), status=400)
    files = request.FILES.getlist("files")
    if not files and not refused:
        return _upload_answer(request, [], [], errors={"files": [{"message": "Choose at least one file."}]}, status=400)
    uploads = services.uploads_receive(
        files=files,
        uploader=request.user,
        system=form.cleaned_data["system"],
        new_system=form.new_system(),
        labels=form.labels(),
    )
    return _upload_answer(request, uploads, refused, status=201 if uploads else 400)


def _upload_answer(request, uploads, refused, *, errors=None, status):
    if _wants_json(request):
        rows = [selectors.upload_row(upload=upload) for upload in uploads]
        return JsonResponse({"uploads": rows, "refused": refused, "errors": errors or {}}, status=status)
    for item in refused:
        messages.error(request, item["error"])
    for field_errors in (errors or {}).values():
        for error in field_errors:
            messages.error(request, error["message"])
    if uploads:
        messages.success(request, f"{len(uploads)} file(s) received; they are read in the background.")
    return redirect("uploads:list")


@require_GET
def upload_status(request):
    """Live rows for the upload page: ``?ids=3,4,5``."""
    try:
        upload_ids = [int(part) for part in request.GET.get("ids", "").split(",") if part.strip()]
    except ValueError:
        return JsonResponse({"error": "ids must be upload numbers separated by commas"}, status=400)
    return JsonResponse({"uploads": selectors.upload_rows(upload_ids=upload_ids[:STATUS_IDS_MAX])})


@require_GET
def upload_detail(request, upload_id):
    upload = _upload_for_reading(upload_id)
    context = {
        "upload": upload,
        "row": selectors.upload_rows(upload_ids=[upload.id])[0],
        "can_manage": selectors.upload_can_manage(user=request.user, upload=upload),
    }
    return render(request, "uploads/detail.html", context)


@login_required
@require_GET
def upload_original(request, upload_id):
    """The file exactly as uploaded, always as a download: never shown inline, never rendered."""
    upload = _upload_for_reading(upload_id)
    path = (settings.UPLOADS_DIR / upload.stored_path).resolve()
    if not path.is_relative_to(settings.UPLOADS_DIR.resolve()) or not path.is_file():
        raise Http404("The original of this upload is no longer on the server.")
    filename = upload.original_name.replace("\\", "/").rsplit("/", 1)[-1] or f"upload-{upload.id}"
    response = FileResponse(
        path.open("rb"), as_attachment=True, filename=filename, content_type="application/octet-stream"
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox"
    return response


@login_required
@require_POST
def upload_reingest(request, upload_id):
    upload = _upload_for_reading(upload_id)
    if not selectors.upload_can_manage(user=request.user, upload=upload):
        messages.error(request, "Only the uploader (or an administrator) can re-ingest this upload.")
    elif services.upload_reingest(upload=upload, requested_by=request.user):
        messages.success(request, f"Upload #{upload.id} is queued to be read again with the current parser.")
    else:
        messages.error(request, f"Upload #{upload.id} cannot be re-ingested now (it is queued, parsing or a copy).")
    return redirect("uploads:detail", upload_id=upload.id)


@require_GET
def system_profile(request, system_id):
    """The arrays and logical drives of a system's array profile, to pre-fill the labels."""
    system = get_object_or_404(System, id=system_id)
    return JsonResponse(selectors.system_profile_choices(system=system))
