"""API tokens: created once and shown once, kept as a SHA-256 digest, sent as ``Authorization: Bearer``."""

import datetime
import hashlib
import secrets
from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.db.models.functions import Now
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from portal.models import ApiToken

if TYPE_CHECKING:  # DRF imports this module while its views and schemas load
    from drf_spectacular.openapi import AutoSchema
    from rest_framework.request import Request

# Tokens start with this, so a leaked one is recognisable in logs and by secret scanners.
TOKEN_PREFIX = "abt_"
# A token's last use is written at most this often: no write on every request of a busy script.
LAST_USED_RESOLUTION = datetime.timedelta(minutes=1)


def token_digest(secret: str) -> str:
    """Tokens are 256 random bits, so a plain SHA-256 is enough to keep them unrecoverable."""
    return hashlib.sha256(secret.encode()).hexdigest()


def token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``; returns the row and the secret, which is not stored and never shown again."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip()[:100] or "token", prefix=secret[:10], digest=token_digest(secret)
    )
    return token, secret


def token_revoke(*, user: User, token_id: int) -> bool:
    """Revoke (delete) one of the user's own tokens; False when the user has no such token."""
    deleted, _ = ApiToken.objects.filter(user=user, id=token_id).delete()
    return bool(deleted)


def token_find(*, secret: str) -> ApiToken | None:
    """The live token with this secret, its last use recorded; None for unknown or revoked tokens."""
    token = ApiToken.objects.select_related("user").filter(digest=token_digest(secret)).first()
    if token is None or not token.user.is_active:
        return None
    stale = Now() - LAST_USED_RESOLUTION
    ApiToken.objects.filter(id=token.id).exclude(last_used_at__gt=stale).update(last_used_at=Now())
    return token


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>``. Requests without it fall through to the session (with CSRF)."""

    def authenticate(self, request: "Request") -> tuple[User, ApiToken] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != b"bearer":
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Authorization: Bearer takes exactly one token.")
        token = token_find(secret=parts[1].decode("latin-1"))
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        return token.user, token

    def authenticate_header(self, request: "Request") -> str:
        # Makes unauthenticated requests answer 401 (with this challenge) rather than 403.
        return 'Bearer realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: "AutoSchema") -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A token from manage.py apitoken or /accounts/tokens/.",
        }
