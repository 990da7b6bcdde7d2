"""Real processes for the distributed-mode tests: Celery workers and beat, uvicorn servers.

Each process runs in its own process group (so a SIGKILL takes its children too), writes its
output to a log file the test can read, and is killed by the fixture that started it, whatever
the test's outcome. The processes use the test's own database (pytest-django's "test_…" copy,
rows committed by `django_db(transaction=True)`) and a Redis database index of their own,
flushed before and after, so messages left by another run can never reach them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
REDIS_HOST = "redis://127.0.0.1:6379"

requires_distributed_postgres = pytest.mark.skipif(
    settings.TROCCAS_MODE != "distributed"
    or settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="needs the distributed mode (REDIS_URL) on PostgreSQL (DATABASE_URL)",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def current_database_url() -> str:
    """The URL of the database this test runs on (pytest-django's test copy, not DATABASE_URL's
    own database), for processes that must see the test's committed rows."""
    from django.db import connection

    d = connection.settings_dict
    auth = quote(d["USER"] or "", safe="")
    if d.get("PASSWORD"):
        auth += ":" + quote(d["PASSWORD"], safe="")
    host = d["HOST"] or "127.0.0.1"
    port = f":{d['PORT']}" if d.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{quote(d['NAME'], safe='')}"


def process_env(redis_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="troccas_site.settings",
        DATABASE_URL=current_database_url(),
        REDIS_URL=redis_url,
        # Sessions made by the test process must verify in the servers.
        DJANGO_SECRET_KEY=settings.SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        PYTHONUNBUFFERED="1",
        # The servers run as deployed: psycopg's connection pool (docker-compose).
        DB_POOL="1",
        **extra,
    )
    return env


class Proc:
    """A started process group and its log file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.log = log
        self._out = log.open("wb")
        self.popen = subprocess.Popen(args, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                      stdout=self._out, stderr=subprocess.STDOUT,
                                      start_new_session=True)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def output(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:  # pragma: no cover
            return ""

    def wait_for_output(self, text: str, timeout: float) -> None:
        end = time.monotonic() + timeout
        while text not in self.output():
            if not self.alive():
                pytest.fail(f"{self.name} exited ({self.popen.returncode}):\n{self.output()}")
            if time.monotonic() > end:
                pytest.fail(f"{self.name}: no {text!r} within {timeout} s:\n{self.output()}")
            time.sleep(0.1)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the whole process group and reap the leader (idempotent)."""
        if self.popen.poll() is None:
            try:
                os.killpg(self.pid, sig)
            except ProcessLookupError:  # pragma: no cover - died meanwhile
                pass
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.pid, signal.SIGKILL)
                self.popen.wait(timeout=5)
        else:
            # The leader is gone; make sure no child of it survives either.
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self._out.close()


@contextmanager
def processes() -> Iterator[Callable[..., Proc]]:
    """A factory for processes; every one it started is killed on exit."""
    started: list[Proc] = []

    def start(name: str, args: list[str], env: dict[str, str], log: Path) -> Proc:
        proc = Proc(name, args, env, log)
        started.append(proc)
        return proc

    try:
        yield start
    finally:
        for proc in reversed(started):
            proc.kill()


@contextmanager
def dedicated_redis(index: int) -> Iterator[str]:
    """A Redis database index reserved for one test module, empty before and after."""
    import redis

    url = f"{REDIS_HOST}/{index}"
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
        yield url
    finally:
        client.flushdb()
        client.close()


@contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """Point this process's Celery producer (timers.schedule, .delay()) at `url`."""
    from troccas_site.celery import app

    def reset_pools() -> None:
        # What Celery itself does after a fork: the pools are rebuilt from conf on next use.
        app._pool = None
        app.amqp._producer_pool = None

    old = app.conf.broker_url
    app.conf.broker_url = url
    reset_pools()
    try:
        yield
    finally:
        app.conf.broker_url = old
        reset_pools()
