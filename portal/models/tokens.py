"""API tokens."""

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """A named token a script sends as ``Authorization: Bearer <token>``; only its SHA-256 is kept.

    The token is shown once when created. Its digest is unique, so a request finds its token with
    one index lookup; a revoked token is deleted.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text='What the token is for, e.g. "lab 3 push script".')
    # The first characters of the token, to recognise it in a list without revealing it.
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at"]
        constraints = [
            # Also the index for "the token this request presents".
            models.UniqueConstraint(fields=["digest"], name="apitoken_digest_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}...)"
