"""``--as USERNAME`` for the commands that read results: they show what that user may read on the
portal (published systems and their teams' private ones); without it, published systems only."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.management import CommandError
from django.core.management.base import CommandParser

from portal.teams.selectors import Viewer


def add_viewer_argument(parser: CommandParser) -> None:
    parser.add_argument(
        "--as",
        dest="as_user",
        metavar="USERNAME",
        help="read as this user: published systems and their teams' private ones (default: published only)",
    )


def viewer_of(options: dict[str, Any]) -> Viewer:
    username = options.get("as_user")
    if not username:
        return AnonymousUser()
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise CommandError(f"--as {username}: there is no active user of that name")
    return user
