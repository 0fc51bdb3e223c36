"""Rate limits: uploads per user, requests per token (or signed-in user), anonymous requests per address.

Rates come from ``settings.API_THROTTLE_RATES`` when a request is checked (not when this module is
imported) and counters live in the ``api`` cache (Redis), shared by every web process.
"""

import logging
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from redis.exceptions import RedisError
from rest_framework import throttling
from rest_framework.request import Request

from portal.models import ApiToken

if TYPE_CHECKING:  # DRF imports the throttles while its views module loads
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)


class _Configured(throttling.SimpleRateThrottle):
    """A rate kept in Redis; while Redis does not answer, requests are let through uncounted (reads keep
    working without it) and marked ``request.redis_unavailable`` (an upload then answers 503)."""

    def __init__(self) -> None:
        self.cache = caches["api"]
        super().__init__()

    def get_rate(self) -> str:
        if not self.scope:
            raise ImproperlyConfigured(f"{type(self).__name__} names no rate scope")
        return settings.API_THROTTLE_RATES[self.scope]

    def allow_request(self, request: Request, view: "APIView") -> bool:
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError):
            logger.warning("API throttling lets %s %s through: Redis does not answer", request.method, request.path)
            # A mark on this request only, read by the upload view.
            request.redis_unavailable = True  # type: ignore[attr-defined]
            return True


class UserRateThrottle(_Configured):
    """Each token has its own budget; a browser session counts as its user."""

    scope = "user"

    def get_cache_key(self, request: Request, view: "APIView") -> str | None:
        if isinstance(request.auth, ApiToken):
            ident = f"token-{request.auth.id}"
        elif request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            return None
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AnonRateThrottle(_Configured, throttling.AnonRateThrottle):
    scope = "anon"


class UploadRateThrottle(_Configured, throttling.UserRateThrottle):
    """Upload requests (any number of files each) per user, whatever token or session sends them."""

    scope = "uploads"
