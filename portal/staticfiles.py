"""Static files named by their content and compressed, in every mode (``DEBUG`` on or off)."""

from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's compressed, content-hashed storage, whose URLs name the hashed file whenever
    ``collectstatic`` wrote a manifest, with ``DEBUG`` on too (Django's gives the plain name then, which
    a browser may not keep). WhiteNoise serves a hashed name gzipped, cached for a year; before the first
    ``collectstatic`` (``runserver`` on a fresh checkout) the plain names are served from the source
    folders as usual."""

    manifest_strict = False

    def url(self, name: str | None, force: bool = False) -> str:
        if not self.hashed_files:
            return FileSystemStorage.url(self, name)
        return super().url(name, force=True)
