"""Rate limits: uploads per user, requests per token (or signed-in user), anonymous requests per address.

Rates come from ``settings.API_THROTTLE_RATES`` when a request is checked (not when this module is
imported) and counters live in the ``api`` cache (Redis), shared by every web process.
"""

import logging

from django.conf import settings
from django.core.cache import caches
from redis.exceptions import RedisError
from rest_framework import throttling

from portal.models import ApiToken

logger = logging.getLogger(__name__)


class _Configured(throttling.SimpleRateThrottle):
    """A rate kept in Redis; while Redis does not answer, requests are let through uncounted (reads keep
    working without it) and marked ``request.redis_unavailable`` (an upload then answers 503)."""

    @property
    def cache(self):
        return caches["api"]

    def get_rate(self):
        return settings.API_THROTTLE_RATES[self.scope]

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError):
            logger.warning("API throttling lets %s %s through: Redis does not answer", request.method, request.path)
            request.redis_unavailable = True
            return True


class UserRateThrottle(_Configured):
    """Each token has its own budget; a browser session counts as its user."""

    scope = "user"

    def get_cache_key(self, request, view):
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
