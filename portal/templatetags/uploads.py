"""``{{ upload|error_for:user }}``: an upload's error as the signed-in reader may see it."""

from django import template

from portal.models import Upload
from portal.teams.selectors import Viewer
from portal.uploads.selectors import upload_error_text

register = template.Library()


@register.filter
def error_for(upload: Upload, user: Viewer) -> str:
    return upload_error_text(user=user, upload=upload)
