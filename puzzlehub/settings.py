"""Django settings, read from the environment.

With nothing set, the site runs on the embedded defaults: DEBUG on, a SQLite file and a
server-less Celery broker (kombu's filesystem transport), both under var/, so `make run` works on a
bare machine. Production and the tests set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis).

Environment: DEBUG (1/0), SECRET_KEY (required when DEBUG is off), ALLOWED_HOSTS (comma-separated),
DATABASE_URL, CELERY_BROKER_URL, PUZZLEHUB_BROKER_PREFIX (a prefix for every broker key), PUZZLEHUB_VAR (folder for local data, default ./var),
PUZZLEHUB_CACHE (folder for solver caches and artifacts, default var/cache), CACHE_URL (a redis://
URL for Django's cache, shared by web processes; default in-process memory), PUZZLEHUB_WRITE_RATE
(API writes allowed per user or address, default 120/min), PUZZLEHUB_ANALYSIS_BUDGET (seconds a
request may spend analysing a new revision before a worker takes over, default 0.8),
CSRF_TRUSTED_ORIGINS, LOG_LEVEL, PUZZLEHUB_LOG_FORMAT (json/text), PUZZLEHUB_METRICS_TOKEN; with DEBUG off: PUZZLEHUB_HTTPS (default 1: HSTS, SSL redirect, secure
cookies; 0 only for a production stack on loopback) and PUZZLEHUB_HSTS_SECONDS.
"""

import importlib.util
import json
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected 1/0, true/false, yes/no or on/off")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
PLACEHOLDER_KEYS = {"change-me", "changeme", "secret", "django-insecure"}
if not DEBUG:
    # a production key must be long and random: the example file's placeholder or a short word
    # would let anyone forge sessions and password-reset links
    if not SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    if (SECRET_KEY.lower() in PLACEHOLDER_KEYS or SECRET_KEY.startswith("django-insecure")
            or len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5):
        raise ImproperlyConfigured("SECRET_KEY is a placeholder or too short: give at least 50 random characters "
                                   "(python -c 'import secrets; print(secrets.token_urlsafe(50))')")
elif not SECRET_KEY:
    SECRET_KEY = "dev-only-insecure-key-never-used-when-debug-is-off"

if not DEBUG:
    # behind a TLS-terminating proxy that sets X-Forwarded-Proto; PUZZLEHUB_HTTPS=0 only for a
    # production stack on loopback (make prod, the bench), which has no certificate
    HTTPS = env_flag("PUZZLEHUB_HTTPS", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = HTTPS
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
    SECURE_HSTS_SECONDS = int(os.environ.get("PUZZLEHUB_HSTS_SECONDS", 31_536_000)) if HTTPS else 0
    SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

VAR_DIR = Path(os.environ.get("PUZZLEHUB_VAR", BASE_DIR / "var"))
PUZZLEHUB_CACHE = Path(os.environ.get("PUZZLEHUB_CACHE", VAR_DIR / "cache"))
# numba reads this when the solver's kernels are first compiled (workers fork after that).
os.environ.setdefault("NUMBA_CACHE_DIR", str(PUZZLEHUB_CACHE / "numba"))
# the solver keeps its pattern databases under this folder: the worker's local artifact cache
os.environ.setdefault("PUZZLEHUB_CACHE", str(PUZZLEHUB_CACHE))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "puzzlehub.accounts",
    "puzzlehub.repos",
    "puzzlehub.algorithms",
    "puzzlehub.jobs",
    "puzzlehub.web",
    "puzzlehub.ops",
]

MIDDLEWARE = [
    "puzzlehub.ops.requestlog.RequestLog",  # outermost: its duration and status are what the client got
    "puzzlehub.middleware.ServerTimingCpu",
    "django.middleware.security.SecurityMiddleware",
    "puzzlehub.middleware.RefuseNulCharacters",
    "puzzlehub.middleware.ContentSecurityPolicy",
    "puzzlehub.web.anonymous_cache.AnonymousCache",  # before sessions and auth: a hit skips them
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "puzzlehub.middleware.AbuseLimits",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "puzzlehub.urls"
WSGI_APPLICATION = "puzzlehub.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database: DATABASE_URL, else a SQLite file under var/ -------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Connections kept 60 s, checked before a request reuses one: after a PostgreSQL restart a stale connection is replaced rather than answering 503
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "puzzlehub.sqlite3",
            # The web process and the worker's children write to the same file. A transaction takes
            # the write lock when it begins (IMMEDIATE), so it waits for the lock (`timeout`: a
            # discovery's outcome, recorded in one transaction, can hold it for seconds) where a
            # deferred one upgrading from a read would fail at once ("database is locked"); WAL
            # lets pages read while a worker writes.
            "OPTIONS": {"timeout": 60, "transaction_mode": "IMMEDIATE",
                        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Celery: CELERY_BROKER_URL, else kombu's filesystem transport under var/ -------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
if CELERY_BROKER_URL:
    # acks_late: a message stays unacknowledged while its job runs; Redis must not redeliver it
    # to another worker before the longest job could have finished.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 12 * 3600}
    # several deployments (or test runs) can share one Redis database: a prefix keeps their keys apart
    if os.environ.get("PUZZLEHUB_BROKER_PREFIX"):
        CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = os.environ["PUZZLEHUB_BROKER_PREFIX"]
else:
    CELERY_BROKER_URL = "filesystem://"
    _queue_dir, _control_dir = VAR_DIR / "broker" / "queue", VAR_DIR / "broker" / "control"
    _queue_dir.mkdir(parents=True, exist_ok=True)
    _control_dir.mkdir(parents=True, exist_ok=True)
    # in and out are one folder so that every process on this machine shares the queues
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "control_folder": str(_control_dir),
    }
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True  # a job's row in the database is its truth, not a result backend
# one queue per kind of work, so that short solves never wait behind a pattern-database build, and
# one for the catalog's own discoveries and set builds (hours of them after a fresh install), whose
# worker runs below the others' CPU priority
PUZZLEHUB_BACKFILL_QUEUE = "backfill"
PUZZLEHUB_JOB_QUEUES = ("solve", "pdb", "discover", PUZZLEHUB_BACKFILL_QUEUE)
CELERY_TASK_QUEUES = [Queue(name, Exchange(name), routing_key=name) for name in PUZZLEHUB_JOB_QUEUES]
CELERY_TASK_DEFAULT_QUEUE = "solve"
CELERY_TASK_CREATE_MISSING_QUEUES = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# KiB: a child that grew past this (default 2 GiB) is replaced after its job
CELERY_WORKER_MAX_MEMORY_PER_CHILD = int(os.environ.get("PUZZLEHUB_WORKER_MAX_MEMORY_MB") or 2048) * 1024
HEALTH_CHECK_TIMEOUT = 3  # seconds for each part /healthz checks

# --- Jobs (puzzlehub/jobs): leases, janitor, quotas; every figure can be set from the environment ---
def env_number(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name) or default)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={os.environ[name]!r}: expected a number") from None


# A worker holds a job for JOB_LEASE seconds and renews it every JOB_HEARTBEAT seconds (that is also
# how soon a running job notices a cancel); an expired lease goes back to the queue, JOB_ATTEMPTS
# times at most. The janitor (in beat's process, every JANITOR_EVERY seconds) sends again a queued
# job sent over JOB_RESEND_AFTER seconds ago whose message no longer waits in its queue (Redis
# restarted without persistence); where the queue cannot be read, one sent over JOB_REDISPATCH
# seconds ago. A job waiting for another's build is sent JOB_REDISPATCH seconds after it was made.
JOB_LEASE = env_number("PUZZLEHUB_JOB_LEASE", 60)
JOB_HEARTBEAT = env_number("PUZZLEHUB_JOB_HEARTBEAT", 2)
JOB_ATTEMPTS = int(env_number("PUZZLEHUB_JOB_ATTEMPTS", 3))
JOB_RESEND_AFTER = env_number("PUZZLEHUB_JOB_RESEND_AFTER", 5)
JOB_REDISPATCH = env_number("PUZZLEHUB_JOB_REDISPATCH", 300)
JANITOR_EVERY = env_number("PUZZLEHUB_JANITOR_EVERY", 3)
JOB_QUOTA = int(env_number("PUZZLEHUB_JOB_QUOTA", 5))  # queued or running jobs per user
# seconds of work per job: (default, most a user may ask); Celery's soft and hard limits add grace
JOB_TIME_LIMITS = {"solve": (30, 300), "pdb": (600, 3600), "discover": (60, 600)}
# a new public revision whose puzzle has no algorithms gets a discovery run (within the owner's quota)
DISCOVER_NEW_PUZZLES = env_flag("PUZZLEHUB_DISCOVER_NEW_PUZZLES", True)
# seconds of each discovery run publish_catalog queues for a catalog puzzle with no algorithms
CATALOG_DISCOVERY_SECONDS = env_number("PUZZLEHUB_CATALOG_DISCOVERY_SECONDS", 30)
# seconds of each set build (layer cases and their algorithms) publish_catalog queues
CATALOG_SETS_SECONDS = env_number("PUZZLEHUB_CATALOG_SETS_SECONDS", 240)
JOB_TIME_GRACE = env_number("PUZZLEHUB_JOB_TIME_GRACE", 10)
JOB_MEMORY_MB = (512, int(env_number("PUZZLEHUB_JOB_MAX_MEMORY_MB", 2048)))  # table budget per job
# A new revision's analysis gets this many seconds in the request (in a child process); what takes
# longer is done by a worker on this queue (puzzlehub/repos/analysis.py).
PUZZLEHUB_ANALYSIS_BUDGET = env_number("PUZZLEHUB_ANALYSIS_BUDGET", 0.8)
PUZZLEHUB_ANALYSIS_QUEUE = "discover"
# beat sends nothing on a schedule: it hosts the janitor (workers/janitor.py), which must not wait
# behind a backlog of jobs in a queue
CELERY_BEAT_SCHEDULE = {}

# --- Auth, API ----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": ["puzzlehub.rest.WriteThrottle"],
    "DEFAULT_PAGINATION_CLASS": "puzzlehub.rest.Pagination",
    "EXCEPTION_HANDLER": "puzzlehub.rest.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "puzzlehub.rest.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}
PUZZLEHUB_WRITE_RATE = os.environ.get("PUZZLEHUB_WRITE_RATE", "120/min")  # per user (or address)
# abuse limits whichever door is used (puzzlehub.limits): sign-ups per address, wrong passwords per
# username and per address, comments per user, page-form writes per user (or address)
PUZZLEHUB_LIMITS = {
    "signup": os.environ.get("PUZZLEHUB_SIGNUP_RATE", "5/h"),
    "login": os.environ.get("PUZZLEHUB_LOGIN_FAILURE_RATE", "10/15m"),
    "comment": os.environ.get("PUZZLEHUB_COMMENT_RATE", "10/m"),
    "page_write": PUZZLEHUB_WRITE_RATE,
}

# Throttle counts must be shared by every web process: Redis when CACHE_URL names it (Django's
# backend, keeping its client: puzzlehub/rediscache.py).
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "puzzlehub.rediscache.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
# Pages and API reads answered to anonymous readers from that cache for this many seconds
# (puzzlehub/web/anonymous_cache.py); only when it is shared, else 0: off.
ANONYMOUS_CACHE_SECONDS = env_number("PUZZLEHUB_ANONYMOUS_CACHE_SECONDS", 5 if CACHE_URL else 0)

SPECTACULAR_SETTINGS = {
    "TITLE": "PuzzleHub API",
    "DESCRIPTION": "Permutation puzzles as repositories: definitions, revisions, forks, "
    "stars, algorithms and comments. Authenticate with `Authorization: Token <token>` "
    "(POST /api/token/). Writes are rate-limited (429 with Retry-After).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
}
if importlib.util.find_spec("drf_spectacular_sidecar"):
    # the docs page's Swagger UI served from here rather than a CDN
    INSTALLED_APPS.append("drf_spectacular_sidecar")
    SPECTACULAR_SETTINGS.update(SWAGGER_UI_DIST="SIDECAR", SWAGGER_UI_FAVICON_HREF="SIDECAR")

# --- Internationalisation, static and stored files ----------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
WHITENOISE_USE_FINDERS = True  # serve app static files without a collectstatic step
MEDIA_ROOT = PUZZLEHUB_CACHE / "artifacts"  # pattern databases and other large artifacts
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    # pattern databases, shared by every worker: a folder here, or S3-compatible storage with
    # PUZZLEHUB_ARTIFACT_STORAGE=storages.backends.s3.S3Storage and its OPTIONS as JSON
    "artifacts": {
        "BACKEND": os.environ.get("PUZZLEHUB_ARTIFACT_STORAGE", "django.core.files.storage.FileSystemStorage"),
        "OPTIONS": json.loads(os.environ.get("PUZZLEHUB_ARTIFACT_STORAGE_OPTIONS", "") or "{}")
        or {"location": str(MEDIA_ROOT)},
    },
}

# --- Observability (puzzlehub/ops) --------------------------------------------------------------
# one JSON object per line in production (requests: logger puzzlehub.request; job state changes:
# puzzlehub.jobs.transitions), readable lines in development; PUZZLEHUB_LOG_FORMAT=json|text overrides
LOG_FORMAT = os.environ.get("PUZZLEHUB_LOG_FORMAT") or ("text" if DEBUG else "json")
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"PUZZLEHUB_LOG_FORMAT={LOG_FORMAT!r}: expected json or text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "puzzlehub.ops.logformat.JsonFormatter"},
        "text": {"()": "puzzlehub.ops.logformat.TextFormatter"},
    },
    "filters": {"request_id": {"()": "puzzlehub.ops.requestlog.RequestIdFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["request_id"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
# GET /metrics answers staff, and a scraper sending `Authorization: Bearer <this>` (unset: staff only)
PUZZLEHUB_METRICS_TOKEN = os.environ.get("PUZZLEHUB_METRICS_TOKEN", "")
