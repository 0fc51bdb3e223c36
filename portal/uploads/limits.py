"""The limits of an upload, the page's and the API's: the size of a file, the number of files, the files per
user and hour, and what each says when it is reached."""

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, SkipFile


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


def too_large_message(name: str) -> str:
    return (
        f"{name}: larger than {settings.MAX_UPLOAD_MB} MB, the largest file accepted here; "
        "split the results, or ask the administrator to raise MAX_UPLOAD_MB"
    )


def too_many_files_message() -> str:
    return (
        f"At most {settings.DATA_UPLOAD_MAX_NUMBER_FILES} files can be sent at once; send the others "
        "in another upload, or put the files in a .zip archive"
    )


def rate_limited_message(wait_seconds: float) -> str:
    minutes = max(1, round(wait_seconds / 60))
    hours = settings.UPLOAD_RATE_WINDOW_SECONDS / 3600
    return (
        f"Upload limit reached: at most {settings.UPLOAD_RATE_FILES} files per user every {hours:g} hour(s). "
        f"Try again in {minutes} minute{'s' if minutes != 1 else ''}, or send fewer files at once"
    )
