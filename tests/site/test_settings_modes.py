"""Both settings modes, decided by the environment alone. Settings are imported in a fresh
interpreter per case, since a process loads its settings once."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from troccas_site.settings import env_bool, local_secret_key

ROOT = Path(__file__).resolve().parents[2]
SERVICE_VARIABLES = ("DATABASE_URL", "REDIS_URL")

PROBE = """
import json, django
django.setup()
from django.conf import settings
from troccas_site.celery import app
db = settings.DATABASES["default"]
print(json.dumps({
    "mode": settings.TROCCAS_MODE,
    "engine": db["ENGINE"],
    "name": str(db["NAME"]),
    "options": db.get("OPTIONS", {}),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "cache": settings.CACHES["default"]["BACKEND"],
    "broker": app.conf.broker_url,
    "visibility_timeout": app.conf.broker_transport_options.get("visibility_timeout"),
    "longest_countdown": settings.TROCCAS_LONGEST_COUNTDOWN_SECONDS,
    "email": settings.EMAIL_BACKEND,
    "debug": settings.DEBUG,
    "hosts": settings.ALLOWED_HOSTS,
    "csrf": settings.CSRF_TRUSTED_ORIGINS,
}))
"""


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in SERVICE_VARIABLES and not k.startswith("DJANGO_")}
    env["DJANGO_SETTINGS_MODULE"] = "troccas_site.settings"
    env["TROCCAS_SQLITE_PATH"] = str(tmp_path / "probe.sqlite3")
    env["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    env.update(extra)
    return env


def run(code: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def probe(env: dict[str, str]) -> dict:
    result = run(PROBE, env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(90)
def test_embedded_is_the_default(tmp_path):
    found = probe(clean_env(tmp_path))
    assert found["mode"] == "embedded"
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["options"]["transaction_mode"] == "IMMEDIATE"
    assert found["options"]["timeout"] >= 5
    assert "journal_mode=WAL" in found["options"]["init_command"]
    assert found["layer"] == "games.live.memory_layer.LeanInMemoryChannelLayer"
    assert found["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    # No broker to dial: importing Celery and configuring it never touches Redis.
    assert found["broker"] == "memory://"
    assert found["email"] == "django.core.mail.backends.console.EmailBackend"
    assert found["debug"] is False
    assert found["hosts"] == ["127.0.0.1", "localhost", "[::1]"]
    assert "http://127.0.0.1:8000" in found["csrf"]


@pytest.mark.timeout(90)
def test_distributed_with_database_and_redis_urls(tmp_path):
    found = probe(clean_env(
        tmp_path,
        DATABASE_URL="postgres://troccas:secret@db.internal:5432/troccas",
        REDIS_URL="redis://cache.internal:6379/2",
    ))
    assert found["mode"] == "distributed"
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["name"] == "troccas"
    assert found["layer"] == "games.live.channel_layer.BatchingRedisChannelLayer"
    assert found["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert found["broker"] == "redis://cache.internal:6379/2"
    # A countdown task must never be redelivered while it waits: far above the longest timer.
    assert found["visibility_timeout"] >= 10 * found["longest_countdown"]


@pytest.mark.timeout(90)
def test_host_settings_come_from_the_environment(tmp_path):
    found = probe(clean_env(
        tmp_path,
        DJANGO_DEBUG="1",
        DJANGO_ALLOWED_HOSTS="troccas.example, www.troccas.example",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://troccas.example",
    ))
    assert found["debug"] is True
    assert found["hosts"] == ["troccas.example", "www.troccas.example"]
    assert found["csrf"] == ["https://troccas.example"]


@pytest.mark.timeout(90)
def test_database_url_without_redis_is_refused(tmp_path):
    result = run(PROBE, clean_env(tmp_path, DATABASE_URL="postgres://u@localhost/x"))
    assert result.returncode != 0
    assert "REDIS_URL" in result.stderr


@pytest.mark.timeout(90)
def test_database_url_must_be_postgresql(tmp_path):
    result = run(PROBE, clean_env(tmp_path, DATABASE_URL="mysql://u@localhost/x",
                                  REDIS_URL="redis://localhost:6379/0"))
    assert result.returncode != 0
    assert "PostgreSQL" in result.stderr


@pytest.mark.timeout(120)
def test_sqlite_runs_in_wal_with_immediate_transactions(tmp_path):
    """On a real file: WAL is on, the busy timeout is set, and a Django transaction holds
    the write lock from BEGIN (IMMEDIATE), so a second writer waits instead of failing late."""
    path = tmp_path / "probe.sqlite3"
    code = f"""
import sqlite3, django
django.setup()
from django.db import connection, transaction
with connection.cursor() as c:
    c.execute("PRAGMA journal_mode"); mode = c.fetchone()[0]
    c.execute("PRAGMA busy_timeout"); busy = c.fetchone()[0]
    c.execute("CREATE TABLE t (x int)")
with transaction.atomic():
    with connection.cursor() as c:
        c.execute("SELECT count(*) FROM t")  # a read only: DEFERRED would hold no write lock
    other = sqlite3.connect({str(path)!r}, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        locked = False
        other.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        locked = "locked" in str(exc)
print(mode, busy, locked)
"""  # noqa: S608 - Python source for a subprocess: its SQL is fixed text
    result = run(code, clean_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["wal", "20000", "True"]


@pytest.mark.timeout(120)
def test_check_deploy_is_clean_with_production_settings(tmp_path):
    env = clean_env(
        tmp_path,
        DJANGO_DEBUG="0",
        DJANGO_HTTPS="1",
        DJANGO_ALLOWED_HOSTS="troccas.example",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://troccas.example",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=90,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.timeout(120)
def test_check_deploy_flags_local_defaults(tmp_path):
    """The local defaults are for 127.0.0.1 over plain HTTP; the deploy check says so."""
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=clean_env(tmp_path), capture_output=True, text=True, timeout=90,
    )
    assert result.returncode != 0
    assert "security.W004" in result.stderr + result.stdout


def test_local_secret_key_is_random_persistent_and_private(tmp_path):
    first = local_secret_key(tmp_path / "key")
    assert len(first) >= 50
    assert local_secret_key(tmp_path / "key") == first
    assert local_secret_key(tmp_path / "other") != first
    assert (tmp_path / "key").stat().st_mode & 0o077 == 0


def test_env_bool(monkeypatch):
    monkeypatch.setenv("TROCCAS_FLAG", "yes")
    assert env_bool("TROCCAS_FLAG", False) is True
    monkeypatch.setenv("TROCCAS_FLAG", "off")
    assert env_bool("TROCCAS_FLAG", True) is False
    monkeypatch.delenv("TROCCAS_FLAG")
    assert env_bool("TROCCAS_FLAG", True) is True
    monkeypatch.setenv("TROCCAS_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured):
        env_bool("TROCCAS_FLAG", False)


def test_romansh_is_a_known_language():
    from django.utils.translation import get_language_info

    assert [code for code, _ in settings.LANGUAGES] == ["en", "rm", "de", "fr"]
    info = get_language_info("rm")
    assert info["name_local"] == "Rumantsch" and info["bidi"] is False


def test_this_run_uses_the_mode_its_environment_asks_for():
    """The suite runs twice (make test): check each run really is on its own backends."""
    distributed = bool(os.environ.get("REDIS_URL"))
    expected = "distributed" if distributed else "embedded"
    assert expected == settings.TROCCAS_MODE
    from django.db import connection

    assert connection.vendor == ("postgresql" if os.environ.get("DATABASE_URL") else "sqlite")


def test_sqlite_file_is_not_the_repository_database_in_the_probe(tmp_path):
    # Guard for the probes above: they must never write to the developer's db.sqlite3.
    env = clean_env(tmp_path)
    assert env["TROCCAS_SQLITE_PATH"].startswith(str(tmp_path))
    assert sqlite3.sqlite_version_info >= (3, 7, 0)
