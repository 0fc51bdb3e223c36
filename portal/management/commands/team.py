"""``manage.py team add TEAM USERNAME --role ROLE`` (the team is created when missing),
``manage.py team remove TEAM USERNAME``, ``manage.py team list [TEAM]``."""

from typing import Any

from django.core.management import BaseCommand, CommandError
from django.core.management.base import CommandParser

from portal.errors import ApplicationError
from portal.models.teams import Membership, Role, Team
from portal.teams import selectors, services


class Command(BaseCommand):
    help = "Manage teams and their members from the command line."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="add a member (or change their role); creates the team when missing")
        add.add_argument("team", help='the team\'s name, e.g. "Acme storage lab"')
        add.add_argument("username")
        add.add_argument("--role", choices=Role.values, default=Role.VIEWER)
        remove = actions.add_parser("remove", help="remove a member")
        remove.add_argument("team")
        remove.add_argument("username")
        listing = actions.add_parser("list", help="the teams, or one team's members")
        listing.add_argument("team", nargs="?")

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        try:
            getattr(self, f"_{action}")(**options)
        except ApplicationError as error:
            raise CommandError(error.message) from None

    def _add(self, *, team, username, role, **options):
        found = services.team_get_or_create(name=team)
        membership = services.member_set(team=found, username=username, role=role)
        self.stdout.write(f"{membership.user.username} is {membership.role} of {found.name} ({found.slug})")

    def _remove(self, *, team, username, **options):
        membership = (
            Membership.objects.select_related("team", "user")
            .filter(team=self._team(team), user__username=username)
            .first()
        )
        if membership is None:
            raise CommandError(f"{username} is not in {team}")
        services.member_remove(membership=membership)
        self.stdout.write(f"{username} removed from {membership.team.name}")

    def _list(self, *, team=None, **options):
        if team is None:
            for found in Team.objects.order_by("name"):
                self.stdout.write(f"{found.name}\t{found.slug}\t{found.memberships.count()} member(s)")
            return
        for membership in selectors.team_members(team=self._team(team)):
            self.stdout.write(f"{membership.user.username}\t{membership.role}")

    @staticmethod
    def _team(name):
        found = selectors.team_named(name=name)
        if found is None:
            raise CommandError(f"there is no team {name!r}")
        return found
