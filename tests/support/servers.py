"""Real processes for the tests: uvicorn servers, Celery workers and beat — the one place
that starts them.

Each process runs in its own process group (so a SIGKILL takes its children too), writes its
output to a log file the test can read, is waited for with a timeout of its own, and is killed
by the context that started it, whatever the test's outcome.

- `uvicorn_server(env, log)`: one server on a free port for a test that brings its own
  environment (the embedded site of tests/browser and tests/site/test_server.py).
- `server_processes(redis_index, tmp)` (the `server_procs` fixture of tests/support/fixtures.py):
  N servers, Celery workers and beat for the distributed-mode tests. They use the test's own
  database (pytest-django's "test_…" copy, rows committed by `django_db(transaction=True)`) and
  a Redis database index of the test module's own (its REDIS_INDEX), flushed before and after,
  so messages left by another run can never reach them.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# The Redis server of REDIS_URL (its indexes below), else the machine's default one.
REDIS_HOST = (settings.REDIS_URL.rsplit("/", 1)[0] if settings.REDIS_URL
              else "redis://127.0.0.1:6379")
# The Redis database indexes of the distributed run, one owner each so that test files running
# side by side (pytest-xdist) never flush or read another's: 0 and 4-8 the suite's own, one per
# worker (tests/settings.py); 3 tests/live/test_block_closes.py, 9 tests/live/test_channel_layer.py,
# 11 tests/live/test_bot_pool.py,
# 12 tests/talk/test_online.py, 13 tests/live/test_scale_out.py,
# 14 tests/services/test_deadlines_celery.py, 15 tests/live/test_two_processes.py (each its
# module's REDIS_INDEX); 10 and 12 the benches' too (bench/bot_capacity.py, bench/ws_load.py,
# run by hand, not beside the suite).
# How long a process may take to come up (a Django start-up each, several at once on a loaded
# machine) before the test fails with its log.
READY_TIMEOUT = 90.0

requires_distributed_postgres = pytest.mark.skipif(
    settings.TROCCAS_MODE != "distributed"
    or settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="needs the distributed mode (REDIS_URL) on PostgreSQL (DATABASE_URL)",
)


# The product's request deadline and limits (the Makefile's SERVER_LIMITS, issue #25 item 14):
# every server a test starts runs with them, so the suite's sockets and pages pass through.
SERVER_LIMITS = ("--http", "troccas_site.http_protocol:RequestDeadlineProtocol",
                 "--timeout-keep-alive", "5", "--h11-max-incomplete-event-size", "16384",
                 "--limit-concurrency", "2000")


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
    # Bots without their pause, as in the test process (tests/settings.py); `extra` may set it.
    env["TROCCAS_BOT_PAUSE_SCALE"] = "0"
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
    """A started process group and its log file; `ready_text`, if given, is the line its
    output shows once it serves (`wait_ready`)."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path,
                 ready_text: str | None = None) -> None:
        self.name = name
        self.log = log
        self.ready_text = ready_text
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

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        assert self.ready_text is not None, f"{self.name} has no ready line"
        self.wait_for_output(self.ready_text, timeout)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the whole process group and reap the leader (idempotent)."""
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # died meanwhile
                os.killpg(self.pid, sig)
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.pid, signal.SIGKILL)
                self.popen.wait(timeout=5)
        else:
            # The leader is gone; make sure no child of it survives either.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
        self._out.close()


@contextmanager
def processes() -> Iterator[Callable[..., Proc]]:
    """A factory for processes; every one it started is killed on exit."""
    started: list[Proc] = []

    def start(name: str, args: list[str], env: dict[str, str], log: Path,
              ready_text: str | None = None) -> Proc:
        proc = Proc(name, args, env, log, ready_text)
        started.append(proc)
        return proc

    try:
        yield start
    finally:
        for proc in reversed(started):
            proc.kill()


class Server:
    """A started uvicorn process and the port it serves on."""

    def __init__(self, proc: Proc, port: int) -> None:
        self.proc = proc
        self.port = port
        self.base = f"http://127.0.0.1:{port}"


def start_server(start: Callable[..., Proc], name: str, env: dict[str, str], log: Path,
                 args: Sequence[str] = ()) -> Server:
    """Start one uvicorn process on a free port with `start` (processes()'s factory, which
    kills it after the test); wait for it with `wait_until_serving`."""
    port = free_port()
    proc = start(name, [
        str(BIN / "uvicorn"), "troccas_site.asgi:application", "--host", "127.0.0.1",
        "--port", str(port), "--log-level", "warning", *SERVER_LIMITS, *args,
    ], env, log)
    return Server(proc, port)


def wait_until_serving(server: Server, timeout: float = READY_TIMEOUT) -> None:
    end = time.monotonic() + timeout
    with httpx.Client(timeout=2, trust_env=False) as http:
        while True:
            try:
                if http.get(f"{server.base}/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if not server.proc.alive() or time.monotonic() > end:
                pytest.fail(f"{server.proc.name} did not come up:\n{server.proc.output()}")
            time.sleep(0.2)


@contextmanager
def uvicorn_server(env: dict[str, str], log: Path, *, ready_timeout: float = READY_TIMEOUT,
                   args: Sequence[str] = ()) -> Iterator[str]:
    """Serve troccas_site.asgi with `env` on a free loopback port; yield its base URL. The
    server is asked to stop (SIGTERM) and killed if it does not. `args`: more uvicorn flags
    (a later one wins over SERVER_LIMITS')."""
    with processes() as start:
        server = start_server(start, "uvicorn", env, log, args)
        try:
            wait_until_serving(server, ready_timeout)
            yield server.base
        finally:
            server.proc.kill(signal.SIGTERM)


class Processes:
    """What one distributed-mode test starts: uvicorn servers, Celery workers and beat, all on
    the test's database and its module's Redis index (`env`), logs in the test's tmp_path.
    Each start returns at once; `ready()` waits for the started ones together (their Django
    start-ups overlap), or pass `wait=True`."""

    def __init__(self, start: Callable[..., Proc], redis_url: str, tmp: Path) -> None:
        self._start = start
        self.redis_url = redis_url
        self.env = process_env(redis_url)
        self.tmp = tmp
        # Celery node names must differ from any other run's on the same machine.
        self._run = secrets.token_hex(3)

    def server(self, name: str, *, wait: bool = False) -> Server:
        server = start_server(self._start, name, self.env, self.tmp / f"{name}.log")
        if wait:
            self.ready(server)
        return server

    def servers(self, count: int, *, wait: bool = True) -> list[Server]:
        """`count` servers, "server 1" to "server N", started together."""
        out = [start_server(self._start, f"server {n}", self.env, self.tmp / f"server{n}.log")
               for n in range(1, count + 1)]
        if wait:
            self.ready(*out)
        return out

    def worker(self, name: str = "worker", *, wait: bool = True) -> Proc:
        """A Celery worker on the default queue, one task at a time (the deployed setup)."""
        node = f"{name.replace(' ', '')}-{self._run}@127.0.0.1"
        proc = self._start(name, [
            str(BIN / "celery"), "-A", "troccas_site", "worker", "--pool=solo",
            "--concurrency=1", "-Q", "celery", "--without-heartbeat", "--without-gossip",
            "--without-mingle", "-l", "info", "-n", node,
        ], self.env, self.tmp / f"{name.replace(' ', '')}.log", " ready.")
        if wait:
            self.ready(proc)
        return proc

    def beat(self, *, wait: bool = True) -> Proc:
        proc = self._start("beat", [
            str(BIN / "celery"), "-A", "troccas_site", "beat", "-l", "info",
            "--schedule", str(self.tmp / "beat-schedule"),
            "--pidfile", str(self.tmp / "beat.pid"),
        ], self.env, self.tmp / "beat.log", "beat: Starting")
        if wait:
            self.ready(proc)
        return proc

    def ready(self, *started: Server | Proc, timeout: float = READY_TIMEOUT) -> None:
        """Wait for each: a server until /healthz answers, a Celery process for its line."""
        for item in started:
            if isinstance(item, Server):
                wait_until_serving(item, timeout)
            else:
                item.wait_ready(timeout)


@contextmanager
def server_processes(redis_index: int, tmp: Path) -> Iterator[Processes]:
    """Processes on a Redis index of their own (also this process's Celery producer, so the
    test's own `.delay()` reaches the workers); every one killed on exit."""
    with dedicated_redis(redis_index) as url, celery_broker(url), processes() as start:
        yield Processes(start, url, tmp)


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
