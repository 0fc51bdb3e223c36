"""``manage.py apitoken USERNAME [--name NAME]``: a new API token for a user, printed once."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser

from portal.api.auth import token_create


class Command(BaseCommand):
    help = "Create an API token for a user and print it (only its digest is kept: it cannot be shown again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="", help='What the token is for, e.g. "lab 3 push script".')

    def handle(self, *args: Any, username: str, name: str, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}; create one with manage.py createsuperuser")
        if not user.is_active:
            raise CommandError(f"user {username!r} is not active")
        _, secret = token_create(user=user, name=name or f"token from manage.py apitoken for {username}")
        self.stdout.write(secret)
