"""Settings, all from the environment (see docs/operations.md, Configuration)."""

import ipaddress
import os
import secrets
import sys
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def _data_dir():
    """ARRAYBENCH_DATA_DIR, else the data dir of the running ``make run`` of this folder, else ./var.

    A command run from another shell thereby works on the portal's data, and never starts a second
    set of embedded servers where ``make run`` uses servers named in its own environment.
    """
    from portal.embedded import serving_portal

    if os.environ.get("ARRAYBENCH_DATA_DIR"):
        return Path(os.environ["ARRAYBENCH_DATA_DIR"]).resolve()
    serving = serving_portal(BASE_DIR)
    if serving is None:
        return (BASE_DIR / "var").resolve()
    for variable, key in (("DATABASE_URL", "database_from_environment"), ("REDIS_URL", "redis_from_environment")):
        if serving[key] and not os.environ.get(variable):
            raise RuntimeError(
                f"`make run` (process {serving['pid']}) uses the {variable} of its environment: "
                f"set the same {variable} here, or this command would start servers of its own."
            )
    return Path(serving["data_dir"]).resolve()


DATA_DIR = _data_dir()
DATA_DIR.mkdir(parents=True, exist_ok=True)
UPLOADS_DIR = DATA_DIR / "uploads"


def _flag(name, default):
    return os.environ.get(name, default).strip().lower() in {"1", "true", "yes", "on"}


# Debug pages (URL patterns, settings) are for development only: DEBUG=true opts in.
DEBUG = _flag("DEBUG", "false")
TESTING = _flag("ARRAYBENCH_TESTING", "false")


def _loopback(host):
    return host in {"127.0.0.1", "::1", "localhost"} or host.startswith("127.")


# Whether browsers reach the portal over HTTPS (a proxy terminating TLS in front of it): secure cookies,
# HSTS and the redirect to https then. By default on when DEBUG is off and `make run` listens on a public
# interface (HOST), off on the loopback address, where a browser on the same machine talks plain HTTP.
HTTPS = _flag("HTTPS", "false" if DEBUG or _loopback(os.environ.get("HOST", "127.0.0.1")) else "true")


# Sessions and password-reset links are signed with the key, so production refuses one that can be
# guessed: shorter than Django's deploy check asks, too few distinct characters, or a generated placeholder.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE_CHARS = 5


def _weak_secret_key(key):
    if key.startswith("django-insecure-"):
        return "it is Django's placeholder (django-insecure-...)"
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return f"it has {len(key)} characters; use at least {SECRET_KEY_MIN_LENGTH}"
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARS:
        return f"it uses fewer than {SECRET_KEY_MIN_UNIQUE_CHARS} different characters"
    return None


def _secret_key():
    """SECRET_KEY, else a key generated once into the data dir (readable by its owner only) and kept there:
    every process of the portal (web, workers, commands) reads the same one."""
    key = os.environ.get("SECRET_KEY", "")
    if key and not DEBUG and (weakness := _weak_secret_key(key)):
        raise RuntimeError(
            f"SECRET_KEY is too weak for production: {weakness}. "
            "Generate one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    if key:
        return key
    key_file = DATA_DIR / "secret_key"
    if not key_file.exists():
        # Written aside, then linked into place: a process starting at the same moment never reads half a
        # key, and the first one linked is the one every process keeps.
        draft = DATA_DIR / f".secret_key.{os.getpid()}"
        draft.write_text(secrets.token_urlsafe(50))
        draft.chmod(0o600)
        try:
            os.link(draft, key_file)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()]
MAX_UPLOAD_MB = int(os.environ.get("MAX_UPLOAD_MB", "200"))
VERSION = "0.1.0"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "axes",
    "portal",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "portal.csp.PolicyOnEveryPageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "portal.unavailable.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "portal.accounts.context.accounts",
            ],
        },
    },
]

# Unset URLs mean the embedded servers under DATA_DIR (started here if they are not running).
if os.environ.get("DATABASE_URL"):
    DATABASE_URL = os.environ["DATABASE_URL"]
else:
    from portal.embedded import postgres_url

    DATABASE_URL = postgres_url(DATA_DIR)
if os.environ.get("REDIS_URL"):
    REDIS_URL = os.environ["REDIS_URL"]
else:
    from portal.embedded import redis_url

    REDIS_URL = redis_url(DATA_DIR)

# Persistent connections, except under pytest: a live server thread holding one open would
# keep the test database busy when it is dropped.
CONN_MAX_AGE = 0 if "pytest" in sys.modules else 60
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Accounts: sign-up by anyone (SIGNUP_OPEN) or by a team admin's invitation only (the default); both
# confirm the email address. Invitation links are valid INVITATION_DAYS and used once.
SIGNUP_OPEN = _flag("SIGNUP_OPEN", "false")
INVITATION_DAYS = int(os.environ.get("INVITATION_DAYS", "7"))
PASSWORD_RESET_TIMEOUT = 3 * 24 * 60 * 60

# Email (sign-up, password reset, invitations): SMTP when EMAIL_HOST is set, else the console (printed
# by `make run`), or any backend named in EMAIL_BACKEND (the file backend writes to EMAIL_FILE_PATH).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _flag("EMAIL_USE_TLS", "false")
EMAIL_USE_SSL = _flag("EMAIL_USE_SSL", "false")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(DATA_DIR / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "ArrayBench <arraybench@localhost>")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "pages:home"
LOGOUT_REDIRECT_URL = "pages:home"

# Sign-in throttling (django-axes): LOGIN_FAILURE_LIMIT wrong passwords for one user name from one
# address lock that pair out for LOGIN_LOCKOUT_MINUTES (another wrong try starts the wait again).
# The address is REMOTE_ADDR: a client cannot choose it by sending X-Forwarded-For.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False  # its start-up banner would be printed by every manage.py command

# Uploads per user through the upload page (files and archives) in a sliding window, counted from the
# database so every web process sees the same number (uploads through the API count too).
UPLOAD_RATE_FILES = int(os.environ.get("UPLOAD_RATE_FILES", "300"))
UPLOAD_RATE_WINDOW_SECONDS = int(os.environ.get("UPLOAD_RATE_WINDOW_SECONDS", "3600"))

# Content-Security-Policy on every response (django-csp). Scripts are static files only: no inline
# script, no inline event handler, no eval. Styles allow 'unsafe-inline' because plotly.js inserts
# <style> elements and style attributes while it draws; a style cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
# plotly.js is served from static/vendor/plotly (no CDN): the version the pinned plotly package bundles,
# built with only the trace types the charts draw (vendor/plotly/build.mjs).
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
# `manage.py serve` (`make run`) collects them in every mode: each file named by its content hash and
# gzipped, served compressed with a year's max-age (plotly.js: 1.5 MB, 505 KB gzipped).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if TESTING
        else "portal.staticfiles.HashedStaticFilesStorage"
    },
}

DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
# Files in one upload request; more are refused with a sentence (an archive counts as one file).
DATA_UPLOAD_MAX_NUMBER_FILES = int(os.environ.get("MAX_UPLOAD_FILES", "100"))
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
FILE_UPLOAD_TEMP_DIR = None

# Ingest jobs: a running job's worker moves its heartbeat every INGEST_HEARTBEAT_SECONDS; a heartbeat
# older than INGEST_STALE_SECONDS means the worker died, and every worker process looks for such jobs
# (and queued jobs whose message was lost for INGEST_LOST_SECONDS) every INGEST_RECOVER_SECONDS.
INGEST_HEARTBEAT_SECONDS = float(os.environ.get("INGEST_HEARTBEAT_SECONDS", "5"))
INGEST_STALE_SECONDS = float(os.environ.get("INGEST_STALE_SECONDS", "30"))
INGEST_LOST_SECONDS = float(os.environ.get("INGEST_LOST_SECONDS", "120"))
INGEST_RECOVER_SECONDS = float(os.environ.get("INGEST_RECOVER_SECONDS", "10"))
# A file whose reading stopped its worker this many times (killed, out of memory) is failed.
INGEST_MAX_ATTEMPTS = 3

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 15 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 14 * 60
# Celery's Django fixup closes the database connection around every task unless told to reuse it:
# a new connection per job costs 3-12 ms and a cold backend. Reused, like a web process's, and
# replaced when broken or older than CONN_MAX_AGE (portal.tasks connects close_old_connections).
CELERY_DB_REUSE_MAX = 1000
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("ARRAYBENCH_QUEUE", "arraybench")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Alert notifications are POSTed to a team's webhook by tasks on a queue of their own, consumed by a
# worker of their own (``make run`` starts one): a slow or dead endpoint holds none of the workers
# reading uploads. Each attempt is cut at WEBHOOK_ATTEMPT_SECONDS however the endpoint drips its answer;
# failures are retried after WEBHOOK_BACKOFF_SECONDS, doubled each time, until WEBHOOK_DEADLINE_SECONDS
# after the change. Webhooks go to public addresses only, but for the networks (CIDR, comma-separated)
# of WEBHOOK_ALLOWED_NETWORKS, e.g. a lab's own chat server at 10.20.0.15/32.
WEBHOOK_QUEUE = os.environ.get("WEBHOOK_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-webhooks")
WEBHOOK_ATTEMPT_SECONDS = float(os.environ.get("WEBHOOK_ATTEMPT_SECONDS", "10"))
WEBHOOK_BACKOFF_SECONDS = float(os.environ.get("WEBHOOK_BACKOFF_SECONDS", "5"))
WEBHOOK_DEADLINE_SECONDS = float(os.environ.get("WEBHOOK_DEADLINE_SECONDS", "3600"))
WEBHOOK_ALLOWED_NETWORKS = [n.strip() for n in os.environ.get("WEBHOOK_ALLOWED_NETWORKS", "").split(",") if n.strip()]
for _network in WEBHOOK_ALLOWED_NETWORKS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError as _bad:
        raise RuntimeError(f"WEBHOOK_ALLOWED_NETWORKS: {_bad}") from None
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * 60 * 60}
CELERY_RESULT_EXPIRES = 24 * 60 * 60

# The REST API (/api/v1/). Throttle counters live in Redis, so every web process shares them.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "api": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "api"},
}
API_THROTTLE_RATES = {
    "uploads": os.environ.get("API_UPLOAD_RATE", "120/hour"),
    "user": os.environ.get("API_USER_RATE", "1200/minute"),
    "anon": os.environ.get("API_ANON_RATE", "120/minute"),
}
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "portal.api.auth.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": ["portal.api.throttles.UserRateThrottle", "portal.api.throttles.AnonRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser", "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "portal.api.pagination.PageNumberPagination",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "portal.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "ArrayBench API",
    "DESCRIPTION": "Storage benchmark results: upload result files, read systems, runs and points, "
    "compare systems at a response-time threshold, export white-paper tables.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The upload form's cache switches share one set of choices.
    # A compared figure's status: how it was obtained, in the vocabulary of the pages.
    "ENUM_NAME_OVERRIDES": {
        "OnOffEnum": ["true", "false"],
        "FigureStatusEnum": "portal.api.numbers.STATUSES",
        "AlertStatusEnum": "portal.models.alerts.AlertStatus",
        "UploadStatusEnum": "portal.models.uploads.Upload.Status",
    },
}

SECURE_CONTENT_TYPE_NOSNIFF = True
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
if HTTPS:
    SECURE_SSL_REDIRECT = _flag("SECURE_SSL_REDIRECT", "true")
    # A load balancer's health probe may come in plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"pgserver": {"level": "WARNING"}},
}
