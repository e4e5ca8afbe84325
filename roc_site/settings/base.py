"""Settings shared by every environment. Values that differ per machine come from the environment."""
import os

from celery.schedules import crontab
from pathlib import Path

import dj_database_url

from .env import env_bool, env_list

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("ROC_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from our own static files (no CDN, CSP 'self')
    "django_htmx",
    "django_celery_results",
    "cards",
    "decks",
    "simulator",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "roc_site.middleware.SecurityHeadersMiddleware",  # CSP and Permissions-Policy (Django sets the rest)
    "roc_site.inputs.InputGuardMiddleware",  # body size (413), NUL in path, query and form fields (400)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "cards.cache.CardApiCacheMiddleware",  # anonymous card API answers, replayed before sessions/auth/DRF
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "roc_site.urls"
WSGI_APPLICATION = "roc_site.wsgi.application"
ASGI_APPLICATION = "roc_site.asgi.application"

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
                "roc_site.views.games_context",
            ],
        },
    },
]

# DATABASE_URL selects the database; with none, SQLite under var/ (the embedded default).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web server and the Celery worker use the file at once.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update(
        {"init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", "timeout": 20}
    )
    # Connections are kept between requests here too (DB_CONN_MAX_AGE, 60 s): opening a SQLite file and running
    # the PRAGMAs cost ~2 ms of CPU per request (measured in-process: a card search 5.0 -> 2.9 ms, a card page
    # 7.6 -> 5.0 ms). Each gunicorn thread and Celery process holds its own connection; WAL lets them share the file.

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds login-failure counts and API throttle counters, so every web process must share it:
# CACHE_URL=redis://... on several machines; with none, files under var/cache (one machine, many processes).
if os.environ.get("CACHE_URL", "").startswith(("redis://", "rediss://")):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": os.environ["CACHE_URL"]}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                          "LOCATION": str(VAR_DIR / "cache"), "OPTIONS": {"MAX_ENTRIES": 100_000}}}
# Whole answers of anonymous card searches (cards/cache.py), keyed by the catalogue's version stamp, which lives
# in "default" above. Memory of each web process unless CARD_API_CACHE_URL=redis://... (shared); "off" disables.
_card_api_cache = os.environ.get("CARD_API_CACHE_URL", "locmem://")
if _card_api_cache.startswith(("redis://", "rediss://")):
    CACHES["api"] = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _card_api_cache,
                     "KEY_PREFIX": "roc-api", "TIMEOUT": 600}
elif _card_api_cache in ("off", "none", ""):
    CACHES["api"] = {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
else:
    CACHES["api"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "roc-card-api",
                     "TIMEOUT": 600, "OPTIONS": {"MAX_ENTRIES": 1000}}
# Login throttling (roc_site/accounts/throttle.py): failures allowed per username+address per window.
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_FAILURE_WINDOW_S = int(os.environ.get("LOGIN_FAILURE_WINDOW_S", str(15 * 60)))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
CARD_IMAGE_CACHE_DIR = Path(os.environ.get("CARD_IMAGE_CACHE_DIR", VAR_DIR / "card-images"))

# Uploads: card illustrations are small; refuse anything bigger before it is read.
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
MAX_ILLUSTRATION_BYTES = 5 * 1024 * 1024
MAX_ILLUSTRATION_PIXELS = 16_000_000

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Token first: an unauthenticated or revoked-token request then gets 401 with WWW-Authenticate: Token
    # (with Session first, DRF answers 403, which tells a script nothing about its token).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON bodies bounded in depth and checked as text once (roc_site/inputs.py), for every API view
    "DEFAULT_PARSER_CLASSES": ["roc_site.parsers.SafeJSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "roc_site.api.exception_handler",
    # Simulations are CPU-heavy: requests to start one are throttled per user / per address (the API and the
    # /simulate/ page share the counters; roc_site/throttling.py).
    "DEFAULT_THROTTLE_RATES": {
        "simulations_user": os.environ.get("SIMULATION_RATE_USER", "30/minute"),
        "simulations_anon": os.environ.get("SIMULATION_RATE_ANON", "10/minute"),
        # Comments on decklists, per signed-in user (decks/throttling.py).
        "comments_user": os.environ.get("COMMENT_RATE_USER", "5/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Reign of Kings DB API",
    "DESCRIPTION": "Cards, decks, decklists and simulations for A Reign of Kings (ruleset r1).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/docs/: Swagger UI from drf-spectacular-sidecar's static files; its start-up script is a separate file
    # (SpectacularSwaggerSplitView), so the page runs under the site's own Content-Security-Policy.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},  # no call to an outside validator
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "roc_site.schema.add_error_responses",  # 400/401/403/404/405/406/429 {"detail"} on every operation
    ],
}

# Celery: CELERY_BROKER_URL selects the broker; with none, kombu's filesystem transport under var/.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    # kombu's filesystem transport with atomic writes and in-flight messages kept until acknowledged, so a
    # killed worker's messages go back to the queue (roc_site/celery.py explains).
    CELERY_BROKER_TRANSPORT = "roc_site.celery:FilesystemTransport"
    _queue_dir = VAR_DIR / "celery" / "queue"
    _inflight_dir = VAR_DIR / "celery" / "inflight"  # one folder per consuming process
    _control_dir = VAR_DIR / "celery" / "control"  # broadcast/pidbox exchanges; kombu's default is ./control
    for _d in (_queue_dir, _inflight_dir, _control_dir):
        _d.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "inflight_folder": str(_inflight_dir),
        "control_folder": str(_control_dir),
        # How often an idle worker looks at the queue folder (kombu's default is every second). With one
        # message per pool slot (prefetch 1) a worker only asks for the next chunk once one is done, so the
        # default cost up to 1 s per chunk: 10,000 goldfish games (50 chunks) took 53 s instead of 12 s.
        # A look is a directory listing: an idle worker (main process and 2 pool processes) used 0.11 s of CPU
        # in 30 s at this interval, under 0.4% of a core.
        "polling_interval": float(os.environ.get("CELERY_POLLING_INTERVAL_S", "0.05")),
    }
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A message taken by a worker that dies (SIGKILL, lost machine) goes back to the queue once it is older than
    # the visibility timeout, found by a sweep every `unacked_restore_interval` seconds (kombu's default sweep
    # scans only every 10th time, every 100 s: an 8,000-game run stood still 92 s after a worker was killed).
    # A live worker re-stamps the messages it holds every CELERY_UNACKED_HEARTBEAT_S seconds (roc_site/celery.py,
    # RedisUnackedHeartbeat), so the timeout need not outlast a chunk's time limit (up to 58 s): a killed
    # worker's chunks are back within about 20 + 2 s, and a chunk still being computed is never handed out twice.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "20")),
        "unacked_restore_interval": float(os.environ.get("CELERY_RESTORE_INTERVAL_S", "2")),
        # every sweep scans (one ZRANGE of the few unacknowledged messages)
        "unacked_restore_throttle": int(os.environ.get("CELERY_RESTORE_THROTTLE", "1")),
    }
# Not a CELERY_ name: Celery has no such setting (the heartbeat is our own worker step), and every CELERY_ name
# here must be one Celery reads. The environment variable keeps the broker settings' CELERY_ prefix.
ROC_UNACKED_HEARTBEAT_S = float(os.environ.get("CELERY_UNACKED_HEARTBEAT_S", "5"))
# The queue a worker reads and tasks are sent to; a separate name keeps a test's workers apart from others'
# on a shared broker.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "django-db")
CELERY_RESULT_EXTENDED = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's prefork pool with locks that survive a killed pool child (roc_site/celery.py explains).
CELERY_WORKER_POOL = "roc_site.celery:TaskPool"
# A pool child that dies mid-task: its task is handed back (reject_on_worker_lost) after this many seconds
# (Celery's default waits 10 s in case the child posted its result just before dying). Every task here is
# idempotent (a chunk stored twice changes nothing), so a short wait is safe.
CELERY_WORKER_LOST_WAIT = float(os.environ.get("CELERY_WORKER_LOST_WAIT", "1"))
# Tasks other than chunks (start a run, merge it, requeue pending runs) take well under a second; each chunk is
# sent with limits of its own, from its size (simulator/tasks.py chunk_time_limits).
CELERY_TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT", "50"))
CELERY_TASK_SOFT_TIME_LIMIT = int(os.environ.get("CELERY_TASK_SOFT_TIME_LIMIT", "45"))
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Runs saved while the broker was down are sent again by beat once it is back (Procfile: beat).
CELERY_BEAT_SCHEDULE = {
    "requeue-pending-runs": {"task": "simulator.requeue_pending",
                             "schedule": float(os.environ.get("CELERY_REQUEUE_INTERVAL_S", "30"))},
    # The meta matrix of the most-liked published decklists, once a night (/tune/meta/).
    "nightly-meta-matrix": {"task": "simulator.nightly_matrix",
                            "schedule": crontab(hour=int(os.environ.get("ROC_META_MATRIX_HOUR", "3")), minute=0)},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
