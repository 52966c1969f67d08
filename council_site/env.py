"""Parsing of environment variables for settings.

Every helper raises ``ImproperlyConfigured`` naming the variable and the value it
rejected, so a typo in a deployment stops the process at start-up instead of
silently falling back to a default.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, overload
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from view_kit.key_files import write_once

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})

# The two supported configurations are SQLite (embedded) and PostgreSQL (scale-out);
# other engines are not tested, so they are refused rather than half-supported.
SQLITE_SCHEMES = frozenset({"sqlite"})
POSTGRES_SCHEMES = frozenset({"postgres", "postgresql", "pgsql"})
REDIS_SCHEMES = frozenset({"redis", "rediss"})

# WAL lets readers proceed while one writer commits; IMMEDIATE transactions take the
# write lock up front, so two workers never deadlock upgrading a read lock, and the
# busy timeout makes a waiting writer retry instead of failing with "database is locked".
SQLITE_OPTIONS: dict[str, Any] = {
    "init_command": (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
    ),
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    env = os.environ if environ is None else environ
    value = env.get(name)
    if value is None:
        return None
    value = value.strip()
    return value or None


# With a string default the result is never None; the overloads let settings like
# COUNCIL_MODEL be typed ``str`` for every reader.
@overload
def env_str(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str: ...
@overload
def env_str(
    name: str, default: None = None, *, environ: Mapping[str, str] | None = None
) -> str | None: ...
def env_str(
    name: str, default: str | None = None, *, environ: Mapping[str, str] | None = None
) -> str | None:
    """A string variable; empty counts as unset."""
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """A boolean variable: 1/true/yes/on or 0/false/no/off, case-insensitive."""
    value = _raw(name, environ)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean; use one of 1/true/yes/on or 0/false/no/off."
    )


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """An integer variable, optionally bounded below."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is too small; it must be at least {minimum}.")
    return number


def env_list(
    name: str, default: list[str], *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; blanks around items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def database_config(
    url: str | None,
    *,
    default_sqlite_path: Path,
    conn_max_age: int = 0,
    idle_transaction_timeout_s: int = 0,
) -> dict[str, Any]:
    """The ``DATABASES["default"]`` entry for a ``DATABASE_URL`` (or the SQLite default).

    ``idle_transaction_timeout_s`` (PostgreSQL; 0: off) ends a session that sits in an
    open transaction that long. A worker host cut off from the network mid-transaction
    otherwise keeps its row locks for good (the server sees no reset), and every other
    worker blocks on that debate.
    """
    if url is None:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(default_sqlite_path),
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    scheme = urlsplit(url).scheme.lower()
    if scheme in SQLITE_SCHEMES:
        try:
            config: dict[str, Any] = dict(dj_database_url.parse(url))
        except ValueError as exc:
            raise ImproperlyConfigured(f"DATABASE_URL is not a valid SQLite URL: {exc}") from None
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
        return config
    if scheme in POSTGRES_SCHEMES:
        try:
            config = dict(
                dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
            )
        except ValueError as exc:
            raise ImproperlyConfigured(
                f"DATABASE_URL is not a valid PostgreSQL URL: {exc}"
            ) from None
        if not config.get("NAME"):
            raise ImproperlyConfigured("DATABASE_URL names no database (postgresql://host/NAME).")
        options = dict(config.get("OPTIONS") or {})
        given = str(options.get("options", ""))
        if idle_transaction_timeout_s and "idle_in_transaction_session_timeout" not in given:
            timeout = f"-c idle_in_transaction_session_timeout={idle_transaction_timeout_s * 1000}"
            options["options"] = f"{given} {timeout}".strip()
            config["OPTIONS"] = options
        return config
    supported = ", ".join(f"{s}://" for s in sorted(SQLITE_SCHEMES | POSTGRES_SCHEMES))
    raise ImproperlyConfigured(
        f"DATABASE_URL has unsupported scheme {scheme + '://' if scheme else '(none)'}; "
        f"supported: {supported}."
    )


def redis_url(value: str | None) -> str | None:
    """Validate ``REDIS_URL``; None means the embedded (no Redis) configuration."""
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme.lower() not in REDIS_SCHEMES:
        raise ImproperlyConfigured(
            f"REDIS_URL={value!r} is not a Redis URL; expected redis://host:port/db "
            "(or rediss:// for TLS)."
        )
    if not parts.hostname:
        raise ImproperlyConfigured(f"REDIS_URL={value!r} names no host.")
    try:
        parts.port  # noqa: B018 - raises ValueError on a non-numeric port
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL={value!r} has an invalid port.") from None
    return value


# channels_redis waits for a message with BZPOPMIN for up to 5 s; redis-py's default
# socket timeout is also 5 s, so an idle receive timed out before Redis answered and the
# websocket consumer closed with 1011 whenever a debate was quiet for 5 s.
CHANNEL_LAYER_SOCKET_TIMEOUT_S = 15


def redis_channel_layer(url: str) -> dict[str, object]:
    """The channel layer settings for Redis at ``url``."""
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": url, "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT_S}],
                   "prefix": "council"},
    }


def secret_key_from_file(path: Path) -> str:
    """The signing key kept in ``path``, generated there (mode 0600) on first use.

    The embedded configuration is one machine with nothing to configure, so it keeps
    its own key instead of asking for ``DJANGO_SECRET_KEY``. ``make run`` starts the web
    server and the workers at once: the key is written to a private temporary file and
    hard-linked into place, so two processes racing on first start both end up with the
    one key that won, never with a half-written file.
    """
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    write_once(path, secrets.token_urlsafe(50).encode())
    return _read_key(path)


def _read_key(path: Path) -> str:
    key = path.read_text().strip()
    if len(key) < 50:
        raise ImproperlyConfigured(
            f"{path} holds no usable secret key (under 50 characters); delete it to have "
            "a new one generated, or set DJANGO_SECRET_KEY."
        )
    return key


def model_settings(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Per-model settings from ``COUNCIL_MODELS_FILE`` and ``COUNCIL_MODELS`` (see
    docs/models.md), checked at start-up so a typo stops the process."""
    from debates.engine import load_model_settings

    try:
        return load_model_settings(environ)
    except ValueError as exc:
        raise ImproperlyConfigured(str(exc)) from None
