"""Settings are env-driven, fail loudly on bad values, and pass `check --deploy` in production."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from council_site import env

BASE_DIR = Path(__file__).resolve().parent.parent

# Variables that select a configuration; each subprocess starts without them so the
# developer's or CI's own environment cannot leak into what a test asserts.
_CONFIG_PREFIXES = ("DJANGO_", "DATABASE_", "REDIS_", "COUNCIL_")


def run_django(extra_env: dict[str, str], code: str = "import django; django.setup()"):
    environ = {k: v for k, v in os.environ.items() if not k.startswith(_CONFIG_PREFIXES)}
    environ["DJANGO_SETTINGS_MODULE"] = "council_site.settings"
    environ.update(extra_env)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=600,
    )


def settings_as_json(extra_env: dict[str, str]) -> dict:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'DEBUG': s.DEBUG, 'DATABASES': s.DATABASES, 'Q_CLUSTER': s.Q_CLUSTER,"
        " 'CHANNEL_LAYERS': s.CHANNEL_LAYERS, 'CACHES': s.CACHES, 'BROKER': s.COUNCIL_BROKER,"
        " 'ALLOWED_HOSTS': s.ALLOWED_HOSTS, 'SECURE_SSL_REDIRECT': s.SECURE_SSL_REDIRECT,"
        " 'MODEL': s.COUNCIL_MODEL, 'FALLBACK': s.COUNCIL_FALLBACK_MODEL}, default=str))"
    )
    result = run_django(extra_env, code)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def production_key() -> str:
    return secrets.token_urlsafe(50)


# --- failing loudly ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra_env", "message"),
    [
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG='maybe' is not a boolean"),
        (
            {"DJANGO_DEBUG": "1", "DATABASE_URL": "mysql://root@127.0.0.1/test"},
            "DATABASE_URL has unsupported scheme mysql://",
        ),
        (
            {"DJANGO_DEBUG": "1", "REDIS_URL": "http://127.0.0.1:6379/0"},
            "REDIS_URL='http://127.0.0.1:6379/0' is not a Redis URL",
        ),
        (
            {"DJANGO_DEBUG": "1", "COUNCIL_WORKERS": "two"},
            "COUNCIL_WORKERS='two' is not an integer",
        ),
        ({"DJANGO_DEBUG": "1", "COUNCIL_WORKERS": "0"}, "COUNCIL_WORKERS=0 is too small"),
        ({"DJANGO_DEBUG": "1", "COUNCIL_Q_SYNC": "sometimes"}, "COUNCIL_Q_SYNC='sometimes'"),
        ({"DJANGO_DEBUG": "1", "DJANGO_LOG_LEVEL": "LOUD"}, "DJANGO_LOG_LEVEL='LOUD'"),
        (
            {"DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/test"},
            "DJANGO_SECRET_KEY is not set",
        ),
    ],
    ids=[
        "bad-debug",
        "bad-db-scheme",
        "bad-redis-url",
        "workers-not-int",
        "workers-zero",
        "bad-q-sync",
        "bad-log-level",
        "scale-out-without-secret-key",
    ],
)
def test_bad_configuration_stops_startup_with_a_clear_message(extra_env, message):
    result = run_django(extra_env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_debug_runs_without_a_secret_key():
    result = run_django({"DJANGO_DEBUG": "1"})
    assert result.returncode == 0, result.stderr


def test_embedded_production_runs_without_a_secret_key_using_its_own():
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.SECRET_KEY)"
    )
    first = run_django({}, code)
    second = run_django({}, code)
    assert first.returncode == 0, first.stderr
    key = first.stdout.strip().splitlines()[-1]
    assert key == second.stdout.strip().splitlines()[-1]
    assert len(key) >= 50 and "insecure" not in key


def test_secret_key_file_is_generated_private_and_kept(tmp_path):
    path = tmp_path / "var" / "secret_key"
    key = env.secret_key_from_file(path)
    assert len(key) >= 50
    assert path.stat().st_mode & 0o777 == 0o600
    assert env.secret_key_from_file(path) == key
    assert env.secret_key_from_file(tmp_path / "var" / "other") != key


def test_secret_key_file_race_yields_one_key(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    path = tmp_path / "secret_key"
    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: env.secret_key_from_file(path), range(16)))
    assert len(keys) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_a_truncated_secret_key_file_is_refused(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("short")
    with pytest.raises(ImproperlyConfigured, match="no usable secret key"):
        env.secret_key_from_file(path)


@pytest.mark.parametrize("value", ["1", "true", "YES", "on", " True "])
def test_env_bool_accepts_true_spellings(value):
    assert env.env_bool("X", False, environ={"X": value}) is True


@pytest.mark.parametrize("value", ["0", "false", "No", "off"])
def test_env_bool_accepts_false_spellings(value):
    assert env.env_bool("X", True, environ={"X": value}) is False


def test_env_bool_empty_means_default():
    assert env.env_bool("X", True, environ={"X": ""}) is True


def test_env_list_splits_on_commas_and_trims():
    assert env.env_list("X", [], environ={"X": " a.example , b.example,, "}) == [
        "a.example",
        "b.example",
    ]


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379/0", "rediss://cache.internal:6380/1", "redis://localhost"]
)
def test_redis_url_accepts_redis_schemes(url):
    assert env.redis_url(url) == url


@pytest.mark.parametrize("url", ["127.0.0.1:6379", "amqp://guest@127.0.0.1//", "redis://"])
def test_redis_url_rejects_other_values(url):
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        env.redis_url(url)


def test_database_url_with_unknown_scheme_is_refused(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="unsupported scheme oracle://"):
        env.database_config("oracle://u@h/db", default_sqlite_path=tmp_path / "x.sqlite3")


def test_postgres_database_url_gets_health_checks_and_conn_max_age(tmp_path):
    config = env.database_config(
        "postgresql://postgres@127.0.0.1:5432/test",
        default_sqlite_path=tmp_path / "x.sqlite3",
        conn_max_age=30,
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "test"
    assert config["CONN_MAX_AGE"] == 30
    assert config["CONN_HEALTH_CHECKS"] is True


def test_postgres_sessions_idle_in_a_transaction_are_ended_so_a_cut_off_worker_frees_its_locks(
        tmp_path):
    url = "postgresql://postgres@127.0.0.1:5432/test"
    config = env.database_config(url, default_sqlite_path=tmp_path / "x.sqlite3",
                                 idle_transaction_timeout_s=60)
    assert config["OPTIONS"]["options"] == "-c idle_in_transaction_session_timeout=60000"
    off = env.database_config(url, default_sqlite_path=tmp_path / "x.sqlite3")
    assert "options" not in off.get("OPTIONS", {})
    given = env.database_config(
        url + "?options=-c%20idle_in_transaction_session_timeout%3D5000",
        default_sqlite_path=tmp_path / "x.sqlite3", idle_transaction_timeout_s=60)
    assert given["OPTIONS"]["options"] == "-c idle_in_transaction_session_timeout=5000"


def test_sqlite_database_url_keeps_wal_options(tmp_path):
    config = env.database_config(
        f"sqlite:///{tmp_path}/other.sqlite3", default_sqlite_path=tmp_path / "x.sqlite3"
    )
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


# --- the two configurations ---------------------------------------------------------


def test_embedded_default_uses_sqlite_orm_broker_and_in_memory_layer():
    conf = settings_as_json({"DJANGO_SECRET_KEY": production_key()})
    assert conf["DEBUG"] is False
    db = conf["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"].endswith("var/council.sqlite3")
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert conf["Q_CLUSTER"]["orm"] == "default"
    assert "redis" not in conf["Q_CLUSTER"]
    assert conf["BROKER"] == "orm"
    assert conf["CHANNEL_LAYERS"]["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert conf["MODEL"] == "sim/default"
    assert conf["FALLBACK"] is None


def test_redis_url_switches_broker_channel_layer_and_cache():
    url = "redis://127.0.0.1:6379/3"
    conf = settings_as_json({"DJANGO_DEBUG": "1", "REDIS_URL": url})
    assert conf["Q_CLUSTER"]["redis"] == url
    assert "orm" not in conf["Q_CLUSTER"]
    assert conf["BROKER"] == "redis"
    layer = conf["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert [host["address"] for host in layer["CONFIG"]["hosts"]] == [url]
    assert conf["CACHES"]["default"]["LOCATION"] == url


def test_model_settings_come_from_env():
    conf = settings_as_json(
        {"DJANGO_DEBUG": "1", "COUNCIL_MODEL": "openai/gpt-4o", "COUNCIL_FALLBACK_MODEL": "sim/x"}
    )
    assert conf["MODEL"] == "openai/gpt-4o"
    assert conf["FALLBACK"] == "sim/x"


def test_production_requires_explicit_allowed_hosts_and_redirects_to_https():
    conf = settings_as_json({"DJANGO_SECRET_KEY": production_key()})
    assert conf["ALLOWED_HOSTS"] == []
    assert conf["SECURE_SSL_REDIRECT"] is True


def test_debug_defaults_to_local_hosts_over_plain_http():
    conf = settings_as_json({"DJANGO_DEBUG": "1"})
    assert "127.0.0.1" in conf["ALLOWED_HOSTS"]
    assert conf["SECURE_SSL_REDIRECT"] is False


def test_q_cluster_retry_exceeds_timeout():
    q = settings.Q_CLUSTER
    assert q["name"] == "council"
    assert q["retry"] > q["timeout"]
    assert q["catch_up"] is False
    assert q["ack_failures"] is True


def test_q_sync_env_makes_tasks_synchronous():
    assert settings_as_json({"DJANGO_DEBUG": "1", "COUNCIL_Q_SYNC": "1"})["Q_CLUSTER"]["sync"]


def test_sqlite_database_runs_in_wal_mode(tmp_path):
    code = (
        "import django; django.setup(); from django.db import connection; "
        "c = connection.cursor(); c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])"
    )
    result = run_django(
        {"DJANGO_DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path}/wal.sqlite3"}, code
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"


def test_check_deploy_is_clean_in_production_configuration():
    environ = {k: v for k, v in os.environ.items() if not k.startswith(_CONFIG_PREFIXES)}
    environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "council_site.settings",
            "DJANGO_SECRET_KEY": production_key(),
            "DJANGO_ALLOWED_HOSTS": "council.example.com",
        }
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output
    assert "WARNINGS" not in output
