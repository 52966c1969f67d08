"""Settings for Council, read from the environment at import.

Two configurations share this file (see docs/configuration.md):

* embedded default: SQLite in WAL mode, django-q2's ORM broker, in-memory channel layer;
* scale-out: ``DATABASE_URL`` pointing at PostgreSQL and ``REDIS_URL`` set, which switches
  the task broker, the channel layer and the cache to Redis.

A bad value raises ``ImproperlyConfigured`` at start-up (see ``council_site.env``).
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Literal

from django.core.exceptions import ImproperlyConfigured

from council_site.env import (
    database_config,
    env_bool,
    env_int,
    env_list,
    env_str,
    model_settings,
    redis_channel_layer,
    redis_url,
    secret_key_from_file,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

# pytest (pytest-django) or `manage.py test`: a throwaway key and fast hashing are fine.
TESTING = "pytest" in sys.modules or sys.argv[1:2] == ["test"]

# --- core -------------------------------------------------------------------------

DEBUG = env_bool("DJANGO_DEBUG", False)

# The scale-out configuration (DATABASE_URL set) runs on many machines that must share
# one key, so it has to be given; the embedded one keeps its own in var/.
EMBEDDED = env_str("DATABASE_URL") is None
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if SECRET_KEY is None:
    if DEBUG or TESTING:
        # One fixed key: a test process and the worker processes it starts (debug on)
        # must sign and read django-q2's queued tasks alike.
        SECRET_KEY = "django-insecure-dev-key-only-for-debug-and-tests"
    elif EMBEDDED:
        SECRET_KEY = secret_key_from_file(VAR_DIR / "secret_key")
    else:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. The scale-out configuration (DATABASE_URL set) "
            "needs one long random key shared by every machine, e.g. from: "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )

_LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", _LOCAL_HOSTS if (DEBUG or TESTING) else [])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "debates.runtime.workerhost",  # before django_q: its qcluster command wins
    "django_q",
    "django_htmx",
    "axes",  # login throttling (see "auth" below)
    "ninja",  # its templates and static files: /api/docs serves Swagger UI locally
    "accounts",
    "debates",
    "personas",
    "sources",
    "collab",
    "decisions",
    "evaluations",
    "notifications",
    "integrations",
    "webhooks",
    "audit",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "site_edge.csp.ContentSecurityPolicyMiddleware",
    # Before anything reads the request: NUL in a path or query, an oversized body.
    "site_edge.request_guard.RequestGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The user's language setting, else Accept-Language (docs/web.md, "Languages").
    "accounts.language.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "site_edge.api_middleware.ApiErrorBodyMiddleware",
    # After authentication (it keys answers by caller), inside the error body's shape.
    "site_edge.idempotency.IdempotencyMiddleware",
    # Binds the caller, IP and user agent the audit log records (docs/teams.md).
    "site_edge.audit_context.AuditContextMiddleware",
    # Last, as django-axes requires: it turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# The largest input the docs promise is a persona file of 1,000,000 characters
# (MAX_PERSONA_FILE_CHARS). Its worst encoding takes 12 bytes a character: a JSON
# surrogate pair "\ud83d\ude00", or a 4-byte UTF-8 character URL-encoded in a form
# ("%F0%9F%98%80"). 12 MiB admits that and the rest of the request; a larger body is
# refused with 413 (site_edge/request_guard.py). Django's default, 2.5 MB, refused
# 900,000 CJK characters sent as JSON.
DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024 * 1024

ROOT_URLCONF = "council_site.urls"
WSGI_APPLICATION = "council_site.wsgi.application"
ASGI_APPLICATION = "council_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # Django's default loaders, with each registered protocol's own templates
            # (a plugin's too) between the project's and the apps' (docs/web.md).
            "loaders": [("django.template.loaders.cached.Loader", [
                "django.template.loaders.filesystem.Loader",
                "debates.web.protocol_templates.ProtocolTemplateLoader",
                "django.template.loaders.app_directories.Loader",
            ])],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database ---------------------------------------------------------------------

# Persistent connections leak under ASGI (each request may run in a new thread), so
# the default is 0; a pure worker host may raise it. The web's sync views run on a fixed
# pool of threads, which keep theirs whatever this says (site_edge.dispatch).
# Health checks make a reused connection that the server dropped reconnect instead of
# failing a request.
DATABASES = {
    "default": database_config(
        env_str("DATABASE_URL"),
        default_sqlite_path=VAR_DIR / "council.sqlite3",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0),
        # Council's transactions last milliseconds; one left open this long belongs to
        # a worker that lost its network, and its locks would stall the debate.
        idle_transaction_timeout_s=env_int("DATABASE_IDLE_TRANSACTION_TIMEOUT", 60, minimum=0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not pytest-django's in-memory default: worker subprocesses started by
    # the execution tests must see the same test database.
    # One file per test session, so parallel sessions never share (or delete) it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: task broker, channel layer, cache ------------------------------------

REDIS_URL = redis_url(env_str("REDIS_URL"))

COUNCIL_WORKERS = env_int("COUNCIL_WORKERS", 2, minimum=1)
COUNCIL_Q_SYNC = env_bool("COUNCIL_Q_SYNC", False)

Q_CLUSTER: dict[str, object] = {
    # Clusters sharing one Redis must not share a queue unless they serve one site.
    "name": env_str("COUNCIL_Q_NAME", "council"),
    "workers": COUNCIL_WORKERS,
    # A debate step may wait on slow LLM calls (a local CPU server's turn may take up to
    # 1,500 s: engine/llm/gateway.py LOCAL_TURN_CAP_S); retry must exceed timeout, or a
    # step still running would be handed to a second worker.
    "timeout": 1800,
    "retry": 1860,
    # Steps are idempotent and a sweeper re-enqueues stalled debates, so a task that
    # keeps killing its worker is dropped after a few tries rather than looping.
    "max_attempts": 3,
    "catch_up": False,
    "ack_failures": True,
    "sync": COUNCIL_Q_SYNC,
    "label": "Tasks",
}
if REDIS_URL:
    Q_CLUSTER["redis"] = REDIS_URL
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL)}
    # Shared cache, so django-q2's cluster stats and any cached values are seen by
    # every web and worker process.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "council",
        }
    }
else:
    Q_CLUSTER["orm"] = "default"
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

COUNCIL_BROKER: Literal["orm", "redis"] = "redis" if REDIS_URL else "orm"

# A worker holds a debate this long per step, renewed by a heartbeat every third of it
# (however slow a call) and on every stored turn; a debate whose lease expired belongs
# to a dead worker and is resumed by the sweeper, which qcluster runs this often.
# Together they bound a dead worker's delay: lease + sweep (docs/execution.md).
COUNCIL_LEASE_SECONDS = env_int("COUNCIL_LEASE_SECONDS", 10, minimum=1)
COUNCIL_SWEEP_SECONDS = env_int("COUNCIL_SWEEP_SECONDS", 5, minimum=1)
# A step handed on (queued) but not claimed for this long was lost with its task (a
# worker host cut off after taking it from the queue): the sweeper queues it again.
COUNCIL_QUEUE_GRACE_SECONDS = env_int("COUNCIL_QUEUE_GRACE_SECONDS", 60, minimum=1)
# Debates one worker process drives at once on its event loop (debates/runtime/worker_loop.py):
# a step waits on model calls nearly all the time, so one process serves many.
COUNCIL_DEBATES_PER_WORKER = env_int("COUNCIL_DEBATES_PER_WORKER", 20, minimum=1)

# --- event long-polls and streams ------------------------------------------------

# Long-polls and event streams one user (and one API token) may keep open at once,
# counted across every web process in the cache (Redis when scaled out); one more is
# answered 429 with Retry-After (api_kit/waits.py).
COUNCIL_STREAMS_PER_USER = env_int("COUNCIL_STREAMS_PER_USER", 20, minimum=1)
COUNCIL_STREAMS_PER_TOKEN = env_int("COUNCIL_STREAMS_PER_TOKEN", 10, minimum=1)
# How often an open long-poll or stream checks again that its caller may still see the
# debate (membership, token, session): a removed member stops receiving within this.
COUNCIL_STREAM_RECHECK_SECONDS = env_int("COUNCIL_STREAM_RECHECK_SECONDS", 5, minimum=1)

# --- models -----------------------------------------------------------------------

COUNCIL_MODEL = env_str("COUNCIL_MODEL", "sim/default")
COUNCIL_FALLBACK_MODEL = env_str("COUNCIL_FALLBACK_MODEL")
# Per-model output mode, context limit, api_base, timeout (docs/models.md). The engine
# reads the same variables itself (CLI); parsing them here refuses a typo at start-up.
COUNCIL_MODEL_SETTINGS = model_settings()

# --- auth -------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # Hashing cost dominates user fixtures; tests never need a strong hash.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Invitations are mailed through Django's email backend; the console backend prints
# them in development. Production sets a real backend (e.g. SMTP) here.
EMAIL_BACKEND = env_str("DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DJANGO_DEFAULT_FROM_EMAIL", "council@localhost")
# Notification mails are sent by workers, which have no request: links start here.
COUNCIL_SITE_URL = env_str("COUNCIL_SITE_URL", "http://localhost:8000")

# Password-reset links last this long (Django's default is three days).
PASSWORD_RESET_TIMEOUT = env_int("COUNCIL_PASSWORD_RESET_MINUTES", 60, minimum=1) * 60
# Email-verification links (signed, see accounts.verification) last this long.
COUNCIL_EMAIL_VERIFICATION_DAYS = env_int("COUNCIL_EMAIL_VERIFICATION_DAYS", 3, minimum=1)
# Audit events older than this are deleted by a daily worker task; 0 keeps them all
# (docs/teams.md, "Audit log").
COUNCIL_AUDIT_RETENTION_DAYS = env_int("COUNCIL_AUDIT_RETENTION_DAYS", 365, minimum=0)

# Login throttling by django-axes: after COUNCIL_LOGIN_FAILURE_LIMIT wrong passwords for
# one username from one address, that pair is refused until the cool-off has passed
# since the last failure, or an admin unlocks it (admin "Access attempts", or
# `manage.py axes_reset_username NAME`). Per pair, so a stranger's guesses cannot lock
# a user out from their own address. API tokens do not pass through it.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("COUNCIL_LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("COUNCIL_LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.throttling.lockout_response"
AXES_CLIENT_IP_CALLABLE = "accounts.throttling.client_ip"
# Failures are what throttling needs; a row per successful login would only grow.
AXES_DISABLE_ACCESS_LOG = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# --- i18n ------------------------------------------------------------------------

LANGUAGE_CODE = "en"
# The languages the pages, messages and mails are written in (debates/locale): a user
# picks one on their account page; a signed-out visitor gets Accept-Language's.
# Chinese is "zh-hans" to Django (its own catalogue's name), "zh" to ours (accounts/language.py).
LANGUAGES = [("en", "English"), ("ja", "日本語"), ("zh-hans", "中文"), ("fr", "Français")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- static files -----------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
# The embedded configuration has no reverse proxy, so the ASGI app serves /static/
# itself (asgi.py). Behind a proxy that serves STATIC_ROOT, turn this off.
COUNCIL_SERVE_STATIC = env_bool("COUNCIL_SERVE_STATIC", True)

# --- stored files (sources) -------------------------------------------------------

# Uploaded sources go through Django's storage API: files under MEDIA_ROOT by default;
# the scale-out configuration points STORAGES["default"] at a django-storages backend
# (docs/configuration.md, "Stored files"). Files are never served from MEDIA_URL: a
# source's text reaches pages through access-checked views only.
MEDIA_ROOT = Path(env_str("COUNCIL_MEDIA_ROOT", str(VAR_DIR / "media")))
# The bytes of files a team may keep in its sources (docs/web.md, "Sources").
COUNCIL_SOURCE_QUOTA_BYTES = env_int("COUNCIL_SOURCE_QUOTA_BYTES", 200 * 1024 * 1024, minimum=0)

# --- outgoing webhooks (docs/integrations.md, "Webhooks") --------------------------

# Seconds to wait before each retry of a failed delivery (the first try is at once):
# the Standard Webhooks schedule, 5 s to 10 h, about 27.6 h in all, so a receiver down
# for a day still gets every event.
_DELAYS = env_list("COUNCIL_WEBHOOK_RETRY_DELAYS",
                   ["5", "300", "1800", "7200", "18000", "36000", "36000"])
if not all(d.isdigit() for d in _DELAYS):
    raise ImproperlyConfigured(
        f"COUNCIL_WEBHOOK_RETRY_DELAYS={','.join(_DELAYS)!r}: comma-separated whole seconds.")
COUNCIL_WEBHOOK_RETRY_DELAYS: tuple[int, ...] = tuple(int(d) for d in _DELAYS)
# One attempt's bound, connecting and reading together, and how much of the answer is read.
COUNCIL_WEBHOOK_TIMEOUT_SECONDS = env_int("COUNCIL_WEBHOOK_TIMEOUT_SECONDS", 10, minimum=1)
COUNCIL_WEBHOOK_MAX_RESPONSE_BYTES = env_int("COUNCIL_WEBHOOK_MAX_RESPONSE_BYTES", 64 * 1024,
                                             minimum=1)
# Failed attempts in a row (every event's, retries included) that disable an endpoint.
COUNCIL_WEBHOOK_DISABLE_AFTER = env_int("COUNCIL_WEBHOOK_DISABLE_AFTER", 20, minimum=1)
# Off: URLs on private, loopback, link-local or reserved addresses are refused. Only for
# a receiver on the same machine or network (and the tests' local receiver).
COUNCIL_WEBHOOKS_ALLOW_PRIVATE = env_bool("COUNCIL_WEBHOOKS_ALLOW_PRIVATE", False)

# --- security ---------------------------------------------------------------------

# HTTPS hardening is on by default in production and off under DEBUG/tests, where
# the app is reached over plain http://127.0.0.1.
DJANGO_SECURE = env_bool("DJANGO_SECURE", not (DEBUG or TESTING))
SECURE_SSL_REDIRECT = DJANGO_SECURE
# Load balancers probe over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = DJANGO_SECURE
CSRF_COOKIE_SECURE = DJANGO_SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000, minimum=0) if DJANGO_SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = DJANGO_SECURE
SECURE_HSTS_PRELOAD = DJANGO_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
DJANGO_BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)
if DJANGO_BEHIND_PROXY:
    # Only safe when a proxy that overwrites this header is the sole way in.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Slack (docs/integrations.md, "Slack") ------------------------------------------

# The Slack app's signing secret: /integrations/slack/commands verifies every command
# with it; unset, the endpoint answers 503.
COUNCIL_SLACK_SIGNING_SECRET = env_str("COUNCIL_SLACK_SIGNING_SECRET", "")
# A worker's post of a result to Slack gives up after this long.
COUNCIL_SLACK_POST_TIMEOUT_SECONDS = env_int("COUNCIL_SLACK_POST_TIMEOUT_SECONDS", 10,
                                             minimum=1)

# --- decision receipts (docs/teams.md, "Decision receipts") -------------------------

# The Ed25519 private key (PEM) that signs decision receipts. The embedded configuration
# generates its own into var/ on first use, like its secret key; the scale-out one must
# give a file shared by every machine (without one, receipts answer 503).
_RECEIPT_KEY_FILE = env_str("COUNCIL_RECEIPT_KEY_FILE")
COUNCIL_RECEIPT_KEY_GENERATE = _RECEIPT_KEY_FILE is None and EMBEDDED
COUNCIL_RECEIPT_KEY_FILE = _RECEIPT_KEY_FILE or (
    str(VAR_DIR / "receipt_key.pem") if EMBEDDED else "")

# --- logging ----------------------------------------------------------------------

_LOG_LEVEL = (env_str("DJANGO_LOG_LEVEL", "INFO") or "INFO").upper()
if _LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(
        f"DJANGO_LOG_LEVEL={_LOG_LEVEL!r} is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL."
    )

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "filters": {
        "client_errors_without_traceback": {
            "()": "site_edge.log_filters.ClientErrorsWithoutTraceback"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain",
                    "filters": ["client_errors_without_traceback"]},
    },
    "root": {"handlers": ["console"], "level": _LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": _LOG_LEVEL, "propagate": False},
        # litellm logs every completion at INFO, drowning the CLI's progress display.
        "LiteLLM": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "LiteLLM Router": {"level": "WARNING"},
        "LiteLLM Proxy": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
    },
}
