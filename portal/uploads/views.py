"""Uploading result files, following them live, downloading originals, re-ingesting."""

from collections.abc import Sequence
from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import TooManyFilesSent
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from ingest.archive import DEFAULT_ZIP_LIMITS
from portal.errors import ApplicationError, error_body, error_response, form_error
from portal.formatting import format_names
from portal.models import System, Upload
from portal.teams.selectors import SignedInRequest, visible

from . import selectors, services
from .forms import LabelsForm, UploadLabelsForm
from .limits import SizeLimitUploadHandler, rate_limited_message, too_large_message, too_many_files_message

STATUS_IDS_MAX = 200


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _upload_for_reading(request: HttpRequest, upload_id: int) -> Upload:
    """The upload, or 404 when there is none the user may read (another team's is not revealed)."""
    upload = selectors.upload_readable(viewer=request.user, upload_id=upload_id)
    if upload is None:
        raise Http404("There is no such upload.")
    return upload


@require_GET
def upload_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.upload_list(viewer=request.user), 50).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "form": UploadLabelsForm(user=request.user),
        "max_upload_mb": settings.MAX_UPLOAD_MB,
        "max_upload_files": settings.DATA_UPLOAD_MAX_NUMBER_FILES,
        "zip_limits": DEFAULT_ZIP_LIMITS,
        "known_formats": format_names(),
    }
    return render(request, "uploads/list.html", context)


@csrf_exempt  # the size limit must be in place before the body is read; CSRF is checked just below
@require_POST
def upload_files(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        if _wants_json(request):
            return _upload_refused(request, ApplicationError("Sign in to upload files.", status=403))
        return redirect_to_login(request.get_full_path())
    limit = SizeLimitUploadHandler(request)
    request.upload_handlers.insert(0, limit)
    # Read here, not first in the CSRF check, so that a request over the file-count limit gets a
    # sentence rather than Django's SuspiciousOperation page.
    try:
        len(request.FILES)
    except TooManyFilesSent:
        return _upload_refused(request, ApplicationError(too_many_files_message(), field="files"))
    return _upload_files_checked(cast(SignedInRequest, request), limit)


@csrf_protect
def _upload_files_checked(request: SignedInRequest, limit: SizeLimitUploadHandler) -> HttpResponse:
    form = UploadLabelsForm(request.POST, user=request.user)
    refused = [{"name": name, "error": too_large_message(name)} for name in limit.refused]
    if not form.is_valid():
        return _upload_refused(request, form_error(form), refused=refused)
    files = request.FILES.getlist("files")
    if not files:
        return _upload_refused(request, _no_files_error(refused), refused=refused)
    wait_seconds = selectors.upload_rate_wait_seconds(user=request.user, file_count=len(files))
    if wait_seconds:
        error = ApplicationError(rate_limited_message(wait_seconds), status=429)
        return _upload_refused(request, error, retry_after=wait_seconds)
    queue_answers = services.job_queue_answers()
    uploads = services.uploads_receive(
        files=files,
        uploader=request.user,
        team=form.cleaned_data["team"],
        system=form.cleaned_data["system"],
        new_system=form.new_system(),
        labels=form.labels(),
        send=queue_answers,
    )
    if not queue_answers:
        return _upload_kept(request, uploads, refused)
    return _upload_answer(request, uploads, refused)


def _no_files_error(refused: list[dict[str, str]]) -> ApplicationError:
    if not refused:
        return ApplicationError("Choose at least one file.", field="files")
    message = f"No file was received: each is larger than {settings.MAX_UPLOAD_MB} MB, the largest file accepted here."
    return ApplicationError(message, fields={"files": [item["error"] for item in refused]})


def _upload_refused(
    request: HttpRequest,
    error: ApplicationError,
    *,
    refused: Sequence[dict[str, str]] = (),
    retry_after: int | None = None,
) -> HttpResponse:
    """The whole request refused: the one error shape (with the files refused for their size) for the
    page's script, messages on the list otherwise."""
    if _wants_json(request):
        body = error_body(status=error.status, message=error.message, fields=error.fields)
        if refused:
            body["refused"] = list(refused)
        response: HttpResponse = JsonResponse(body, status=error.status)
    else:
        for item in refused:
            messages.error(request, item["error"])
        messages.error(request, error.message)
        response = redirect("uploads:list")
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


def _upload_answer(request: HttpRequest, uploads: list[Upload], refused: list[dict[str, str]]) -> HttpResponse:
    """The files received (and those refused for their size): rows for the page's script, or messages."""
    if _wants_json(request):
        rows = [selectors.upload_row(upload=upload, user=request.user) for upload in uploads]
        return JsonResponse({"uploads": rows, "refused": refused}, status=201)
    for item in refused:
        messages.error(request, item["error"])
    messages.success(request, f"{len(uploads)} file(s) received; they are read in the background.")
    return redirect("uploads:list")


QUEUE_RETRY_AFTER_SECONDS = 30


def _upload_kept(request, uploads, refused):
    """The job queue (Redis) does not answer: the files are kept, and read once it is back (recovery
    sends them). Said as a 503 in the error shape with the rows for the page's script, or as a message."""
    names = ", ".join(f"#{upload.id}" for upload in uploads)
    message = (
        f"The job queue (Redis) does not answer: the files are kept as upload(s) {names} and are read "
        "when it is back, without sending them again."
    )
    if not _wants_json(request):
        for item in refused:
            messages.error(request, item["error"])
        messages.warning(request, message)
        return redirect("uploads:list")
    rows = [selectors.upload_row(upload=upload, user=request.user) for upload in uploads]
    body = {**error_body(status=503, message=message), "uploads": rows, "refused": refused}
    return JsonResponse(body, status=503, headers={"Retry-After": str(QUEUE_RETRY_AFTER_SECONDS)})


@require_GET
def upload_status(request: HttpRequest) -> HttpResponse:
    """Live rows for the upload page: ``?ids=3,4,5``."""
    try:
        upload_ids = [int(part) for part in request.GET.get("ids", "").split(",") if part.strip()]
    except ValueError:
        error = ApplicationError("ids must be upload numbers separated by commas", field="ids")
        return error_response(request, error, kind="json")
    rows = selectors.upload_rows(upload_ids=upload_ids[:STATUS_IDS_MAX], user=request.user)
    return JsonResponse({"uploads": rows})


@require_GET
def upload_detail(request: HttpRequest, upload_id: int) -> HttpResponse:
    upload = _upload_for_reading(request, upload_id)
    context = {
        "upload": upload,
        "row": selectors.upload_rows(upload_ids=[upload.id], user=request.user)[0],
        "can_manage": selectors.upload_can_manage(user=request.user, upload=upload),
        "shows_internal_errors": selectors.upload_shows_internal_errors(user=request.user, upload=upload),
        "labels_form": _labels_form(upload),
    }
    return render(request, "uploads/detail.html", context)


@login_required
@require_GET
def upload_original(request: SignedInRequest, upload_id: int) -> FileResponse:
    """The file exactly as uploaded, always as a download: never shown inline, never rendered."""
    upload = _upload_for_reading(request, upload_id)
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
def upload_reingest(request: SignedInRequest, upload_id: int) -> HttpResponse:
    upload = _upload_for_reading(request, upload_id)
    if not selectors.upload_can_manage(user=request.user, upload=upload):
        messages.error(request, "Only the uploader or a maintainer of the upload's team can re-ingest it.")
    elif services.upload_reingest(upload=upload, requested_by=request.user):
        messages.success(request, f"Upload #{upload.id} is queued to be read again with the current parser.")
    else:
        messages.error(request, f"Upload #{upload.id} cannot be re-ingested now (it is queued, parsing or a copy).")
    return redirect("uploads:detail", upload_id=upload.id)


def _labels_form(upload: Upload) -> LabelsForm:
    form = LabelsForm(prefix="relabel")
    form.initial_from((upload.read_with or upload).labels)
    return form


@login_required
@require_POST
def upload_relabel(request: SignedInRequest, upload_id: int) -> HttpResponse:
    """New labels for an upload (and the files read with it): its runs are stored again with them."""
    upload = _upload_for_reading(request, upload_id)
    form = LabelsForm(request.POST, prefix="relabel")
    if not selectors.upload_can_manage(user=request.user, upload=upload):
        messages.error(request, "Only the uploader or a maintainer of the upload's team can change its labels.")
    elif not form.is_valid():
        for field, errors in form.errors.items():
            said = " ".join(str(message) for message in errors)
            messages.error(request, f"{form.fields[field].label if field in form.fields else ''}: {said}")
    else:
        earlier = (upload.read_with or upload).labels
        kept = {name: value for name, value in earlier.items() if name not in form.fields}
        if services.upload_reingest(upload=upload, requested_by=request.user, labels=kept | form.labels()):
            messages.success(request, f"Upload #{upload.id} is queued to be stored again with the new labels.")
        else:
            messages.error(request, f"Upload #{upload.id} cannot be relabelled now (it is queued, parsing or a copy).")
    return redirect("uploads:detail", upload_id=upload.id)


@login_required
@require_POST
def upload_delete(request: SignedInRequest, upload_id: int) -> HttpResponse:
    """Delete an upload, the files read with it and their runs (confirmed by a tick)."""
    upload = _upload_for_reading(request, upload_id)
    if not selectors.upload_can_manage(user=request.user, upload=upload):
        messages.error(request, "Only the uploader or a maintainer of the upload's team can delete it.")
        return redirect("uploads:detail", upload_id=upload.id)
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Tick the box to confirm that the upload and its runs are to be deleted.")
        return redirect("uploads:detail", upload_id=upload.id)
    deleted = services.upload_delete(upload=upload, requested_by=request.user)
    if deleted is None:
        messages.error(request, f"Upload #{upload.id} is being read; delete it once it is done or failed.")
        return redirect("uploads:detail", upload_id=upload.id)
    messages.success(request, f"Upload #{upload.id} and its {deleted} run(s) are deleted.")
    return redirect("uploads:list")


@require_GET
def system_profile(request: HttpRequest, system_id: int) -> HttpResponse:
    """The arrays and logical drives of a system's array profile, to pre-fill the labels."""
    system = visible(System.objects.filter(id=system_id), viewer=request.user).first()
    if system is None:
        raise Http404("There is no such system.")
    return JsonResponse(selectors.system_profile_choices(system=system))
