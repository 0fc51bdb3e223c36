"""Settings for mypy's django-stubs plugin: the real settings, without starting any server.

The plugin imports the settings to learn the installed apps and models and opens no connection, so
placeholder URLs stand in for unset ``DATABASE_URL`` / ``REDIS_URL`` instead of the embedded
PostgreSQL and Redis that ``portal.settings`` would start.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgresql://typecheck@localhost/typecheck")
os.environ.setdefault("REDIS_URL", "redis://localhost:6379/0")

from portal.settings import *  # noqa: E402, F403
