"""Teams: who may read a private system's results, upload, manage and publish them, and what they did."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class Role(models.TextChoices):
    """What a member may do; each role may also do everything of the roles before it."""

    VIEWER = "viewer", "viewer (reads the team's private results)"
    UPLOADER = "uploader", "uploader (also uploads and labels)"
    MAINTAINER = "maintainer", "maintainer (also re-ingests, relabels, deletes, publishes)"
    ADMIN = "admin", "admin (also manages members)"


ROLE_RANK = {Role.VIEWER: 1, Role.UPLOADER: 2, Role.MAINTAINER: 3, Role.ADMIN: 4}


class Team(models.Model):
    """A lab or company: its systems are private to its members until a maintainer publishes them."""

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "portal"
        ordering = ["name"]
        constraints = [models.UniqueConstraint(Lower("name"), name="team_name_unique_ci")]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "portal"
        ordering = ["team__name", "user__username"]
        constraints = [models.UniqueConstraint(fields=["team", "user"], name="membership_team_user_unique")]
        # Visibility asks "which teams is this user in" on every request.
        indexes = [models.Index(fields=["user", "team"], name="membership_user_team")]

    def __str__(self) -> str:
        return f"{self.user} in {self.team} ({self.role})"

    def allows(self, role: str) -> bool:
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]


class AuditEvent(models.Model):
    """Something a member did to the team's data or members: who, what, when."""

    class Action(models.TextChoices):
        UPLOAD = "upload"
        REINGEST = "reingest", "re-ingest"
        RELABEL = "relabel"
        DELETE = "delete"
        PUBLISH = "publish"
        UNPUBLISH = "unpublish"
        RENAME = "rename"
        MEMBER_ADD = "member_add", "member added"
        MEMBER_ROLE = "member_role", "member's role changed"
        MEMBER_REMOVE = "member_remove", "member removed"
        INVITE = "invite", "invitation sent"
        INVITE_ACCEPT = "invite_accept", "invitation accepted"
        INVITE_REFUSE = "invite_refuse", "invitation refused to another account"
        EXCLUDE = "exclude", "excluded from comparisons"
        INCLUDE = "include", "compared again"
        ALIAS = "alias", "workload named"
        UNALIAS = "unalias", "workload name removed"
        STATE = "state", "workload stated"
        UNSTATE = "unstate", "statement removed"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # The actor's name as it was, kept when the account is deleted.
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=16, choices=Action.choices)
    # What was acted on, in words ("upload #12 fio.json", "system IBM DS5000", "user alice as uploader").
    subject = models.CharField(max_length=300)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "portal"
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["team", "-at"], name="auditevent_team_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_name} {self.action} {self.subject}"


class Invitation(models.Model):
    """An email address invited into a team with a role, by a link valid for a few days and used once.

    Only the link's SHA-256 is stored: the database cannot send anyone the link again."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.VIEWER)
    digest = models.CharField(max_length=64)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        app_label = "portal"
        ordering = ["-created_at", "-id"]
        constraints = [
            # Also the index for "the invitation this link names".
            models.UniqueConstraint(fields=["digest"], name="invitation_digest_unique"),
        ]
        # The team page lists its pending invitations.
        indexes = [models.Index(fields=["team", "-created_at"], name="invitation_team_created")]

    def __str__(self) -> str:
        return f"{self.email} to {self.team} ({self.role})"
