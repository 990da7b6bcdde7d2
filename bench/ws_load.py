"""Websocket load on real servers: N tables x 4 players playing random legal moves.

    python bench/ws_load.py [--mode embedded|distributed] [--tables 200] [--rate 0.5]
                            [--duration 60] [--processes 1] [--idle-sockets N] [--cycles K]
                            [--json FILE]

Everything it needs it starts itself and stops again, whatever happens (process groups, a
`finally`, SIGINT/SIGTERM handlers and atexit):

* embedded: one uvicorn on a temporary SQLite file (in-memory channel layer, in-process timers);
* distributed: a fresh PostgreSQL database created, migrated and dropped around the run, Redis
  database index 12 (flushed before and after), `--processes` uvicorn processes, a Celery worker
  and beat for the timers. The players of one table are spread over the processes, so every
  update crosses channels-redis.

Users, seats and session cookies are written straight into that database by this process (no
log-in, so no log-in rate limit). Every table plays on an OPEN-LOOP schedule: the send times are
fixed in advance (`--rate` actions per second per table, a random phase per table), and the
latency of an action is measured from its *scheduled* time to the arrival of the resulting
`state` frame (version >= the acknowledged version) at each of the four seats, so a slow answer
that delays the next send is counted, not hidden. The dealer deals, the reveal is closed by the
server's timer, the dealer discards from `scart_allowed`, the seat on turn plays one of its
`legal_cards` (now and then a seat calls BUOB with one of its `buob.suits`) and after each deal a
random player asks for a regame (`match_deals` 0: the match never ends).

Phases, each bounded in time: the game load; a bare echo on the same server (/ws/echo/, mounted
by TROCCAS_BENCH_ECHO=1) at the same rate; optionally `--idle-sockets` sockets held on the first
ASGI process (its CPU share from /proc); optionally `--cycles` connect/disconnect cycles (RSS of
the ASGI processes after each). At the end every frame any socket received is checked against
the database: versions per socket contiguous (lost or repeated updates), and no card its seat
may not see (RULES.md section 13: the state at each version is rebuilt by replaying the
table's action log through the engine).

Prints p50/p95/p99/max, errors, lost/duplicated updates, the ratio to the echo, CPU of the
servers and of this load generator, memory per 100 tables, and the load average at start and
end (the machine is shared: figures are noisy). Localhost only.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import gc
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent
PG_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS_SERVER = "redis://127.0.0.1:6379"
REDIS_INDEX = 12  # reserved for this harness (tests use 14 and 15)
ACK_TIMEOUT = 10.0
STATE_TIMEOUT = 10.0
CONNECT_TIMEOUT = 20.0
BUOB_RATE = 0.05
TABLE_OPTIONS = {"match_deals": 0, "reveal_seconds": 2}


# --- the machine --------------------------------------------------------------------------

def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# Other processes whose CPU a run reports per action: the database and Redis serve every action.
SERVICE_COMMANDS = {"postgres": "postgresql", "redis-server": "redis", "celery": "celery"}


def service_cpu_seconds() -> dict[str, float]:
    """CPU seconds so far of every PostgreSQL, Redis and Celery process on the machine."""
    totals = dict.fromkeys(SERVICE_COMMANDS.values(), 0.0)
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # the process ended meanwhile
        comm = text[text.index("(") + 1:text.rindex(")")]
        label = SERVICE_COMMANDS.get(comm)
        if label is None and comm.startswith("celery"):
            label = "celery"
        if label is not None:
            fields = text.rsplit(")", 1)[1].split()
            totals[label] += (int(fields[11]) + int(fields[12])) / tick
    return totals


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile of an unsorted list (0 for an empty one)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- processes ----------------------------------------------------------------------------

class Proc:
    """A child in its own process group, its output in a log file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.args, self.env, self.log = name, args, env, log
        self.popen: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(self.args, cwd=ROOT, env=self.env,
                                          stdin=subprocess.DEVNULL, stdout=out,
                                          stderr=subprocess.STDOUT, start_new_session=True)

    @property
    def pid(self) -> int:
        assert self.popen is not None
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def output(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def wait_for_output(self, text: str, timeout: float, since: int = 0) -> None:
        end = time.monotonic() + timeout
        while text not in self.output()[since:]:
            if not self.alive():
                raise RuntimeError(f"{self.name} exited:\n{self.output()[-3000:]}")
            if time.monotonic() > end:
                raise RuntimeError(f"{self.name}: no {text!r} in {timeout} s")
            time.sleep(0.1)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the whole group and reap the leader (idempotent)."""
        if self.popen is None:
            return
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, sig)
        try:
            self.popen.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(timeout=5)


class Procs:
    """Every process this run started; all killed by `stop_all` (also at exit / on signals)."""

    def __init__(self) -> None:
        self.started: list[Proc] = []
        atexit.register(self.stop_all)

    def start(self, name: str, args: list[str], env: dict[str, str], log: Path) -> Proc:
        proc = Proc(name, args, env, log)
        self.started.append(proc)
        return proc

    def stop_all(self) -> None:
        for proc in reversed(self.started):
            proc.kill()
        self.started.clear()


def install_signal_handlers() -> None:
    """SIGTERM/SIGHUP unwind like Ctrl-C, so every `finally` (processes, databases) runs."""
    def stop(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)


# --- databases and settings ----------------------------------------------------------------

@dataclass
class Backend:
    """The database and Redis of one run, and the environment of every process in it."""

    mode: str
    tmp: Path
    redis_url: str = ""
    database_url: str = ""
    sqlite_path: str = ""
    pg_name: str = ""
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(50))
    extra_env: dict[str, str] = field(default_factory=dict)

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "REDIS_URL", "TROCCAS_SQLITE_PATH")}
        env.update(DJANGO_SETTINGS_MODULE="troccas_site.settings",
                   DJANGO_SECRET_KEY=self.secret_key, DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
                   DJANGO_LOG_LEVEL="WARNING",
                   TROCCAS_BENCH_ECHO="1", PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT))
        if self.mode == "distributed":
            env.update(DATABASE_URL=self.database_url, REDIS_URL=self.redis_url)
        else:
            env["TROCCAS_SQLITE_PATH"] = self.sqlite_path
        env.update(self.extra_env)
        env.update(extra)
        return env


def _pg_admin() -> Any:
    import psycopg

    return psycopg.connect(PG_SERVER, autocommit=True, connect_timeout=10)


@contextmanager
def backend(mode: str, redis_url: str | None = None, redis_index: int = REDIS_INDEX,
            extra_env: dict[str, str] | None = None) -> Iterator[Backend]:
    """A throwaway database (PostgreSQL database or SQLite file) and an empty Redis index;
    this process's Django is set up on it and migrated. Dropped / flushed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="troccas-load-"))
    b = Backend(mode, tmp, extra_env=dict(extra_env or {}))
    flush: Callable[[], None] = lambda: None  # noqa: E731
    try:
        if mode == "distributed":
            from psycopg import sql

            b.pg_name = f"troccas_load_{os.getpid()}_{secrets.token_hex(3)}"
            with _pg_admin() as admin:
                admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(b.pg_name)))
            b.database_url = f"postgres://postgres@127.0.0.1:5432/{b.pg_name}"
            b.redis_url = redis_url or f"{REDIS_SERVER}/{redis_index}"
            import redis

            def flush() -> None:
                client = redis.Redis.from_url(b.redis_url, socket_timeout=5)
                try:
                    client.flushdb()
                finally:
                    client.close()

            flush()
        else:
            b.sqlite_path = str(tmp / "load.sqlite3")
        for key in ("DATABASE_URL", "REDIS_URL", "TROCCAS_SQLITE_PATH"):
            os.environ.pop(key, None)  # e.g. a distributed test run calling the embedded mode
        os.environ.update({k: v for k, v in b.env().items()
                           if k in ("DJANGO_SETTINGS_MODULE", "DJANGO_SECRET_KEY",
                                    "DATABASE_URL", "REDIS_URL", "TROCCAS_SQLITE_PATH",
                                    "DJANGO_LOG_LEVEL", "DJANGO_ALLOWED_HOSTS")})
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", interactive=False, verbosity=0)
        yield b
    finally:
        with suppress(Exception):  # Django may not be set up yet
            from django.db import connections

            connections.close_all()
        if b.pg_name:
            from psycopg import sql

            with _pg_admin() as admin:
                admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
                              .format(sql.Identifier(b.pg_name)))
        try:
            flush()
        except Exception as exc:  # noqa: BLE001 - e.g. a chaos run's Redis already gone
            print(f"(redis flush failed: {exc})", file=sys.stderr)
        for path in sorted(tmp.rglob("*"), reverse=True):
            path.unlink() if path.is_file() else path.rmdir()
        tmp.rmdir()


# --- servers -------------------------------------------------------------------------------

@dataclass
class Server:
    proc: Proc
    port: int

    @property
    def pid(self) -> int:
        return self.proc.pid


def uvicorn_args(port: int, flags: list[str]) -> list[str]:
    return [str(BIN / "uvicorn"), "troccas_site.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--log-level", "warning", "--no-access-log", *flags]


def wait_serving(server: Server, timeout: float = 60) -> None:
    import httpx

    end = time.monotonic() + timeout
    with httpx.Client(timeout=2, trust_env=False) as http:
        while True:
            try:
                if http.get(f"http://127.0.0.1:{server.port}/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if not server.proc.alive() or time.monotonic() > end:
                raise RuntimeError(f"{server.proc.name} did not come up:\n"
                                   f"{server.proc.output()[-3000:]}")
            time.sleep(0.2)


def start_server(procs: Procs, b: Backend, n: int, flags: list[str],
                 port: int | None = None) -> Server:
    port = port or free_port()
    proc = procs.start(f"asgi{n}", uvicorn_args(port, flags), b.env(), b.tmp / f"asgi{n}.log")
    server = Server(proc, port)
    wait_serving(server)
    return server


def start_worker(procs: Procs, b: Backend, name: str = "worker") -> Proc:
    proc = procs.start(name, [
        str(BIN / "celery"), "-A", "troccas_site", "worker", "--pool=solo", "--concurrency=1",
        "-Q", "celery", "--without-heartbeat", "--without-gossip", "--without-mingle",
        "-l", "warning", "-n", f"{name}-{secrets.token_hex(3)}@127.0.0.1",
    ], b.env(), b.tmp / f"{name}.log")
    return proc


def start_beat(procs: Procs, b: Backend) -> Proc:
    return procs.start("beat", [
        str(BIN / "celery"), "-A", "troccas_site", "beat", "-l", "warning",
        "--schedule", str(b.tmp / "beat-schedule"), "--pidfile", str(b.tmp / "beat.pid"),
    ], b.env(), b.tmp / "beat.log")


# --- tables in the database ----------------------------------------------------------------

@dataclass
class TableSpec:
    code: str
    room_id: int
    user_ids: list[int]  # by seat 0-3 (seat 0 owns the room)
    cookies: list[str]


def make_tables(n: int, prefix: str, options: dict[str, Any] | None = None) -> list[TableSpec]:
    """n rooms with four seated players each, plus a session cookie per player (direct rows:
    no log-in, no password hashing, no rate limit)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from accounts.models import User
    from games import services
    from games.engine import team_of
    from games.models import Seat

    unusable = make_password(None)
    users = User.objects.bulk_create([
        User(username=f"{prefix}{i:05d}", display_name=f"P{i}", password=unusable,
             email=f"{prefix}{i:05d}@example.org")
        for i in range(4 * n)])
    auth_backend = (getattr(settings, "AUTHENTICATION_BACKENDS", None)
                    or ["django.contrib.auth.backends.ModelBackend"])[0]
    expiry = timezone.now() + timezone.timedelta(days=1)
    sessions, keys = [], []
    store = SessionStore()
    for u in users:
        key = secrets.token_urlsafe(24).lower().replace("-", "a").replace("_", "b")[:32]
        data = store.encode({SESSION_KEY: str(u.pk), BACKEND_SESSION_KEY: auth_backend,
                             HASH_SESSION_KEY: u.get_session_auth_hash()})
        sessions.append(Session(session_key=key, session_data=data, expire_date=expiry))
        keys.append(key)
    Session.objects.bulk_create(sessions)
    out = []
    for t in range(n):
        four = users[4 * t:4 * t + 4]
        room = services.create_room(four[0], options or TABLE_OPTIONS)
        Seat.objects.bulk_create([Seat(room=room, user=four[i], team=team_of(i), index=i)
                                  for i in (1, 2, 3)])
        out.append(TableSpec(room.code, room.pk, [u.pk for u in four], keys[4 * t:4 * t + 4]))
    return out


# --- hidden information and replay ----------------------------------------------------------

_CARD_SET: frozenset[str] = frozenset()


def cards_in(obj: Any) -> frozenset[str]:
    """Every card id appearing as a string anywhere in a JSON value (keys included)."""
    global _CARD_SET
    if not _CARD_SET:
        from games.engine import CARD_IDS

        _CARD_SET = frozenset(CARD_IDS)
    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in _CARD_SET:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(k for k in item if k in _CARD_SET)
        elif isinstance(item, list):
            stack.extend(item)
    return frozenset(found)


def paths_of(obj: Any, card: str, path: str = "") -> list[str]:
    """Where `card` appears in a JSON value, e.g. ['view.trick.cards.0.1']."""
    if obj == card:
        return [path]
    out: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += [f"{path}.{k}" + ("(key)" if k == card else "")] if k == card else []
            out += paths_of(v, card, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += paths_of(v, card, f"{path}.{i}")
    return out


def replay_room(room_id: int) -> tuple[dict[int, Any], list[str]]:
    """The engine state after every version of a room, rebuilt from its action log alone
    (RoundAction + each deal's stored deck), and the problems found: a log entry the engine
    refuses, or a deal whose replayed final state differs from the stored one."""
    from games.engine import PublicRefusal, apply, to_json
    from games.engine.options import Options
    from games.models import Match, Room, Round, RoundAction
    from games.services.snapshot import lobby_state

    room = Room.objects.get(pk=room_id)
    problems: list[str] = []
    states: dict[int, Any] = {}
    state: Any = None
    rounds = {r.pk: r for r in Round.objects.filter(match__room=room)}
    matches = {m.pk: m for m in Match.objects.filter(room=room)}
    last_of_round: dict[int, Any] = {}
    for a in RoundAction.objects.filter(room=room).order_by("version"):
        kind = a.kind
        if a.round_id is None:
            if kind == "new_match":
                state = None
            states[a.version] = state
            continue
        rnd = rounds[a.round_id]
        if kind == "start_round":
            match = matches[rnd.match_id]
            state = lobby_state(Options.from_json(match.options), rnd.dealer)
            action: dict[str, Any] = {"type": kind, "deck": rnd.deck}
        elif kind == "regame":
            action = {"type": kind, "seat": a.actor_seat, "deck": rnd.deck}
        elif kind == "buob_refused":
            # A public refusal (RULES §8): the refused action is in the payload; the engine
            # must refuse it with the logged code, and the table goes on from the refusal.
            action = {**a.payload["action"], "seat": a.actor_seat}
        elif a.actor_seat is None:
            action = {"type": kind}
        else:
            action = {"type": kind, "seat": a.actor_seat, **a.payload}
        try:
            state, _ = apply(state, action)
        except PublicRefusal as exc:
            if kind != "buob_refused" or exc.code != a.payload["code"]:
                problems.append(f"room {room.code} v{a.version} {kind}: replay refused ({exc})")
                break
            state = exc.state
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            problems.append(f"room {room.code} v{a.version} {kind}: replay refused ({exc})")
            break
        else:
            if kind == "buob_refused":
                problems.append(f"room {room.code} v{a.version}: a logged refusal was accepted")
                break
        states[a.version] = state
        last_of_round[rnd.pk] = state
    for rid, replayed in last_of_round.items():
        if json.loads(json.dumps(to_json(replayed))) != rounds[rid].engine_state:
            problems.append(f"room {room.code} round {rid}: replayed state differs from stored")
    return states, problems


def forbidden_cards(state: Any, seat: int | None) -> frozenset[str]:
    """Cards `seat` may not receive in this state (RULES.md section 13): other seats' hands,
    the scart unless it is the dealer, the undealt deck; none once the deal is over. The reveal
    cards are public during REVEAL (and later with `reveal_persist`)."""
    from games.engine import CARD_IDS, MATCH_OVER, REVEAL, ROUND_OVER

    if state is None or state.deal is None:
        return frozenset()
    deal = state.deal
    if state.phase in (ROUND_OVER, MATCH_OVER) and deal.points is not None:
        return frozenset()
    hidden = 0
    for s, hand in enumerate(deal.hands):
        if s != seat:
            hidden |= hand
    if deal.scart is not None and seat != deal.dealer:
        for c in deal.scart:
            hidden |= 1 << c
    for trick in deal.tricks:
        # A card sent back by a BUOB exchange was face up in the trick: public (RULES 8).
        if trick.buob is not None and trick.buob.returned_card is not None:
            hidden &= ~(1 << trick.buob.returned_card)
    seen = deal.piles[0] | deal.piles[1]
    for hand in deal.hands:
        seen |= hand
    for c in deal.scart or ():
        seen |= 1 << c
    for trick in (*deal.tricks, *((deal.current,) if deal.current else ())):
        for _s, c in trick.cards:
            seen |= 1 << c
    hidden |= ((1 << len(CARD_IDS)) - 1) & ~seen  # not dealt yet
    if deal.reveal is not None and (state.phase == REVEAL or state.options.reveal_persist):
        for c in deal.reveal:
            hidden &= ~(1 << c)
    return frozenset(CARD_IDS[i] for i in range(len(CARD_IDS)) if hidden >> i & 1)


def engine_view(state: Any, seat: int | None) -> dict[str, Any]:
    from games.engine import view
    from games.engine.options import Options
    from games.services.snapshot import lobby_state

    return json.loads(json.dumps(view(state if state is not None
                                      else lobby_state(Options.from_json({}), 0), seat)))


ROOM_KEYS = ("room", "seats", "match", "deadline", "deadline_kind")


def strip_room(v: dict[str, Any]) -> dict[str, Any]:
    return {k: x for k, x in v.items() if k not in ROOM_KEYS}


# --- websocket clients --------------------------------------------------------------------

class Sock:
    """One tab: a websocket at one seat of one table, reading every frame as it arrives."""

    def __init__(self, table: TableSpec, seat: int, port: int, tab: int = 0) -> None:
        self.table, self.seat, self.port, self.tab = table, seat, port, tab
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.arrivals: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.gaps = 0
        self.repeats = 0
        self.backwards = 0
        self.resyncs_expected = 0
        self.errors: list[str] = []
        self.frames = 0
        self.scan: list[tuple[int, str, frozenset[str], str]] = []

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/rooms/{self.table.code}/?protocol=2"

    async def connect(self) -> None:
        import websockets

        self.ws = await websockets.connect(
            self.url, origin=f"http://127.0.0.1:{self.port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={self.table.cookies[self.seat]}"},
            proxy=None, open_timeout=CONNECT_TIMEOUT, max_queue=None)
        self.reader = asyncio.get_running_loop().create_task(self._read(self.ws))

    async def _read(self, ws: Any) -> None:
        import websockets

        try:
            async for raw in ws:
                self.on_frame(raw, time.perf_counter())
        except websockets.ConnectionClosed:
            pass
        finally:
            self.changed.set()
            for fut in self.replies.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("socket closed"))

    def on_frame(self, raw: str, now: float) -> None:
        msg = json.loads(raw)
        self.frames += 1
        kind = msg.get("type")
        cards = cards_in(msg)
        if cards:
            self.scan.append((msg.get("version", self.version), kind, cards, raw))
        if kind == "state":
            v = msg["version"]
            if self.version >= 0:
                if v == self.version:
                    if self.resyncs_expected:
                        self.resyncs_expected -= 1
                    else:
                        self.repeats += 1
                elif v < self.version:
                    self.backwards += 1
                elif v > self.version + 1:
                    self.gaps += v - self.version - 1
            if v >= self.version:
                self.version, self.view = v, msg["view"]
            self.arrivals.setdefault(v, now)
            self.changed.set()
        elif kind in ("ack", "error"):
            fut = self.replies.pop(msg.get("action_id") or "", None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
            elif kind == "error":
                self.errors.append(f"unsolicited {msg.get('code')}")

    async def send(self, kind: str, version: int, **fields: Any) -> tuple[str, Any]:
        action_id = uuid.uuid4().hex
        fut = asyncio.get_running_loop().create_future()
        self.replies[action_id] = fut
        await self.ws.send(json.dumps({"type": kind, "action_id": action_id,
                                       "expected_version": version, **fields}))
        return action_id, fut

    async def wait_version(self, version: int, timeout: float) -> bool:
        end = time.perf_counter() + timeout
        while self.version < version:
            if self.reader is None or self.reader.done():
                return False
            self.changed.clear()
            left = end - time.perf_counter()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return True

    def arrival_at_least(self, version: int) -> float | None:
        times = [t for v, t in self.arrivals.items() if v >= version]
        return min(times) if times else None

    async def close(self) -> None:
        if self.ws is not None:
            with suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.reader is not None:
            self.reader.cancel()


async def connect_all(socks: list[Sock], concurrency: int = 25) -> list[str]:
    """Open the sockets, a bounded number at a time; wait for each one's first state."""
    sem = asyncio.Semaphore(concurrency)
    problems: list[str] = []

    async def one(s: Sock) -> None:
        async with sem:
            try:
                await s.connect()
                if not await s.wait_version(0, CONNECT_TIMEOUT):
                    problems.append(f"{s.table.code}/{s.seat}: no first state")
            except Exception as exc:  # noqa: BLE001 - reported as a problem of the run
                problems.append(f"{s.table.code}/{s.seat}: connect failed ({exc!r})")

    await asyncio.gather(*(one(s) for s in socks))
    return problems


# --- the game driver ------------------------------------------------------------------------

@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, one per seat per action
    # The same samples split by where the seat's socket is: on the sender's own server process
    # (reached from memory) or on another (through Redis); and the sender's ack.
    same_process: list[float] = field(default_factory=list)
    other_process: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    actions: int = 0
    late_sends: int = 0  # sent after their scheduled time (the previous answer was slow)
    idle_ticks: int = 0  # nothing to do (reveal window open, or waiting for the table)
    rejected_calls: int = 0  # BUOB calls the engine refused (a legal move in this game)
    errors: list[str] = field(default_factory=list)
    deals: int = 0
    reveal_waits: list[float] = field(default_factory=list)


def choose(views: list[dict[str, Any]], rng: random.Random) -> tuple[int, str, dict] | None:
    """(seat, type, fields) of a random legal move from the players' own views, or None."""
    phase = views[0]["phase"]
    if phase == "LOBBY":
        return 0, "start_round", {}
    if phase == "ROUND_OVER":
        return rng.randrange(4), "regame", {}
    if phase == "MATCH_OVER":
        return 0, "new_match", {}
    for seat, v in enumerate(views):
        a = v["actions"]
        if a["deal"]:
            return seat, "deal_next_pass", {}
        if a["scart"]:
            return seat, "discard_scart", {"cards": rng.sample(a["scart_allowed"], 2)}
    if phase == "PLAY":
        callers = [s for s, v in enumerate(views) if (v.get("buob") or {}).get("suits")]
        if callers and rng.random() < BUOB_RATE:
            seat = rng.choice(callers)
            return seat, "call_buob", {"suit": rng.choice(views[seat]["buob"]["suits"])}
        for seat, v in enumerate(views):
            if v["actions"]["play"]:
                return seat, "play_card", {"card": rng.choice(v["legal_cards"])}
    return None


async def open_loop(rate: float, start: float, end: float, rng: random.Random
                    ) -> AsyncIterator[float]:
    """The scheduled send times of one client: every 1/rate s from a random phase, fixed in
    advance (a late answer delays nothing that follows, it is counted against its action)."""
    interval = 1.0 / rate
    tick = start + rng.random() * interval
    while tick < end:
        now = time.perf_counter()
        if tick > now:
            await asyncio.sleep(tick - now)
        yield tick
        tick += interval


async def drive_table(socks: list[Sock], rate: float, start: float, end: float,
                      stats: Stats, rng: random.Random, duplicate_rate: float = 0.0) -> None:
    """Play one table on a fixed schedule until `end` (perf_counter seconds)."""
    reveal_since: float | None = None
    async for scheduled in open_loop(rate, start, end, rng):
        live = [s for s in socks if s.reader is not None and not s.reader.done()]
        if len(live) < 4:
            stats.errors.append(f"{socks[0].table.code}: a socket closed")
            return
        version = max(s.version for s in socks)
        # Each seat's own view at the table's version (they normally arrive together).
        if not all([await s.wait_version(version, STATE_TIMEOUT) for s in socks]):
            stats.errors.append(f"{socks[0].table.code}: seats never reached v{version}")
            return
        views = [s.view for s in socks]
        if views[0]["phase"] == "REVEAL":
            reveal_since = reveal_since or scheduled
            stats.idle_ticks += 1
            continue
        if reveal_since is not None:
            stats.reveal_waits.append(scheduled - reveal_since)
            reveal_since = None
        move = choose(views, rng)  # type: ignore[arg-type]
        if move is None:
            stats.idle_ticks += 1
            continue
        seat, kind, fields = move
        if time.perf_counter() - scheduled > 0.005:
            stats.late_sends += 1
        sender = socks[seat]
        try:
            _aid, fut = await sender.send(kind, version, **fields)
            if duplicate_rate and rng.random() < duplicate_rate:
                await sender.ws.send(json.dumps({"type": kind, "action_id": _aid,
                                                 "expected_version": version, **fields}))
                sender.resyncs_expected += 1  # a duplicate is acked and resyncs that tab
            reply = await asyncio.wait_for(fut, ACK_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 - counted as an error of the run
            stats.errors.append(f"{sender.table.code}/{seat} {kind}: no answer ({exc!r})")
            return
        if reply["type"] == "error":
            code = reply.get("code")
            if kind == "call_buob" and code not in ("SERVER_ERROR", "STALE_VERSION",
                                                    "RATE_LIMITED"):
                stats.rejected_calls += 1
                continue
            stats.errors.append(f"{sender.table.code}/{seat} {kind}: {code}")
            if code == "STALE_VERSION":
                sender.resyncs_expected += 1
                continue
            return
        acked = reply["version"]
        stats.acks.append(max(0.0, time.perf_counter() - scheduled))
        stats.actions += 1
        if kind == "regame":
            stats.deals += 1
        ok = [await s.wait_version(acked, STATE_TIMEOUT) for s in socks]
        if not all(ok):
            stats.errors.append(f"{sender.table.code} {kind}: v{acked} not seen by all")
            return
        for s in socks:
            arrived = s.arrival_at_least(acked)
            if arrived is not None:
                stats.latencies.append(max(0.0, arrived - scheduled))
                (stats.same_process if s.port == sender.port else stats.other_process).append(
                    max(0.0, arrived - scheduled))


# --- echo ------------------------------------------------------------------------------------

async def echo_phase(ports: list[int], sockets: int, rate: float, duration: float
                     ) -> dict[str, Any]:
    """`sockets` sockets on /ws/echo/ each sending a small frame at `rate`/s, open-loop."""
    import websockets

    rtts: list[float] = []
    errors: list[str] = []
    conns: list[Any] = []
    sem = asyncio.Semaphore(25)

    async def open_one(i: int) -> None:
        port = ports[i % len(ports)]
        async with sem:
            try:
                conns.append(await websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/echo/", origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                    proxy=None, open_timeout=CONNECT_TIMEOUT))
            except Exception as exc:  # noqa: BLE001 - counted as an error of the run
                errors.append(f"echo connect: {exc!r}")

    await asyncio.gather(*(open_one(i) for i in range(sockets)))
    rng = random.Random(7)
    start = time.perf_counter() + 0.5
    end = start + duration
    payload = "x" * 200

    async def run(ws: Any) -> None:
        async for scheduled in open_loop(rate, start, end, rng):
            try:
                await ws.send(json.dumps({"t": scheduled, "pad": payload}))
                raw = await asyncio.wait_for(ws.recv(), ACK_TIMEOUT)
                rtts.append(time.perf_counter() - json.loads(raw)["t"])
            except Exception as exc:  # noqa: BLE001 - counted as an error of the run
                errors.append(f"echo: {exc!r}")
                return

    await asyncio.gather(*(run(ws) for ws in conns))
    await asyncio.gather(*(ws.close() for ws in conns), return_exceptions=True)
    return {"n": len(rtts), "p50_ms": percentile(rtts, 50) * 1000,
            "p99_ms": percentile(rtts, 99) * 1000, "max_ms": max(rtts, default=0) * 1000,
            "errors": errors}


# --- the checks after a run -----------------------------------------------------------------

def check_frames(tables: list[TableSpec], socks: list[Sock], compare_final: bool = True
                 ) -> dict[str, Any]:
    """Hidden-information scan of every frame, replay of every table's log, final views."""
    by_table: dict[str, list[Sock]] = {}
    for s in socks:
        by_table.setdefault(s.table.code, []).append(s)
    leaks: list[str] = []
    problems: list[str] = []
    frames = 0
    for t in tables:
        states, replay_problems = replay_room(t.room_id)
        problems.extend(replay_problems)
        versions = sorted(states)
        for s in by_table.get(t.code, []):
            for version, kind, cards, raw in s.scan:
                frames += 1
                state = _at(states, versions, version)
                bad = cards & forbidden_cards(state, s.seat)
                if bad:
                    where = sorted(p for c in bad for p in paths_of(json.loads(raw), c))
                    leaks.append(f"{t.code} seat {s.seat} v{version} {kind} "
                                 f"({state.phase if state else 'LOBBY'}): {sorted(bad)} at "
                                 f"{where[:4]}")
            if compare_final and s.view is not None:
                state = _at(states, versions, s.version)
                if strip_room(s.view) != engine_view(state, s.seat):
                    problems.append(f"{t.code} seat {s.seat}: final view v{s.version} differs "
                                    "from the engine's view of the replayed log")
    return {"frames_scanned": frames, "leaks": leaks, "problems": problems}


def _at(states: dict[int, Any], versions: list[int], version: int) -> Any:
    import bisect

    i = bisect.bisect_right(versions, version)
    return states[versions[i - 1]] if i else None


# --- the run ----------------------------------------------------------------------------------

def server_flags(args: argparse.Namespace) -> list[str]:
    flags = []
    for name in ("ws", "loop", "http"):
        value = getattr(args, name)
        if value:
            flags += [f"--{name}", value]
    return flags + list(args.uvicorn_arg)


async def game_phase(tables: list[TableSpec], servers: list[Server], args: argparse.Namespace,
                     report: dict[str, Any]) -> list[Sock]:
    ports = [s.port for s in servers]
    socks: list[Sock] = []
    for t_i, t in enumerate(tables):
        for seat in range(4):
            socks.append(Sock(t, seat, ports[(t_i * 4 + seat) % len(ports)]))
    rss0 = {s.pid: rss_mb(s.pid) for s in servers}
    t0 = time.perf_counter()
    problems = await connect_all(socks)
    report["connect_seconds"] = round(time.perf_counter() - t0, 1)
    report["connect_problems"] = problems[:20]
    await asyncio.sleep(1.0)
    rss1 = {s.pid: rss_mb(s.pid) for s in servers}
    stats = Stats()
    rng = random.Random(args.seed)
    start = time.perf_counter() + 1.0
    end = start + args.duration
    cpu0 = {s.pid: cpu_seconds(s.pid) for s in servers}
    services0 = service_cpu_seconds()
    me0 = time.process_time()
    report["loadavg_start"] = loadavg()
    by_table = [socks[4 * i:4 * i + 4] for i in range(len(tables))]
    spy = None
    if args.py_spy:
        # Sampling profile of the first ASGI process during the play (collapsed stacks).
        spy = subprocess.Popen(
            [str(BIN / "py-spy"), "record", "--pid", str(servers[0].pid), "--format", "raw",
             "--rate", "100", "--gil", "--duration", str(int(args.duration)),
             "--output", args.py_spy, "--nonblocking"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    await asyncio.wait_for(
        asyncio.gather(*(drive_table(ts, args.rate, start, end, stats,
                                     random.Random(rng.random())) for ts in by_table)),
        args.duration + 60)
    wall = time.perf_counter() - start
    if spy is not None:
        try:
            spy.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(spy.pid, signal.SIGKILL)
            spy.wait(timeout=5)
    report["loadavg_end"] = loadavg()
    report["server_cpu_percent"] = {
        f"asgi{i + 1}": round(100 * (cpu_seconds(s.pid) - cpu0[s.pid]) / wall, 1)
        for i, s in enumerate(servers)}
    report["loadgen_cpu_percent"] = round(100 * (time.process_time() - me0) / wall, 1)
    # Machine-wide (other users' PostgreSQL or Redis work would count too): see loadavg.
    report["service_cpu_ms_per_action"] = {
        k: round(1000 * (v - services0[k]) / max(1, stats.actions), 2)
        for k, v in service_cpu_seconds().items()}
    # Load-independent: CPU the ASGI processes spent per accepted action (all its frames).
    report["server_cpu_ms_per_action"] = round(
        1000 * sum(cpu_seconds(s.pid) - cpu0[s.pid] for s in servers) / max(1, stats.actions), 2)
    rss2 = {s.pid: rss_mb(s.pid) for s in servers}
    lat = stats.latencies
    report.update({
        "actions": stats.actions, "actions_per_second": round(stats.actions / wall, 1),
        "deals_completed": stats.deals, "late_sends": stats.late_sends,
        "idle_ticks": stats.idle_ticks, "rejected_buob_calls": stats.rejected_calls,
        "p50_ms": round(percentile(lat, 50) * 1000, 1),
        "p95_ms": round(percentile(lat, 95) * 1000, 1),
        "p99_ms": round(percentile(lat, 99) * 1000, 1),
        "max_ms": round(max(lat, default=0) * 1000, 1),
        "samples": len(lat),
        "p50_same_process_ms": round(percentile(stats.same_process, 50) * 1000, 1),
        "p50_other_process_ms": round(percentile(stats.other_process, 50) * 1000, 1),
        "p50_ack_ms": round(percentile(stats.acks, 50) * 1000, 1),
        "errors": len(stats.errors) + len(problems) + sum(len(s.errors) for s in socks),
        "error_examples": (stats.errors + problems
                           + [e for s in socks for e in s.errors])[:10],
        "lost_updates": sum(s.gaps for s in socks),
        "duplicated_updates": sum(s.repeats for s in socks),
        "out_of_order_updates": sum(s.backwards for s in socks),
        "reveal_wait_max_s": round(max(stats.reveal_waits, default=0), 1),
        "rss_mb_start": {k: round(v, 1) for k, v in rss0.items()},
        "rss_mb_per_100_tables_connected": round(
            (sum(rss1.values()) - sum(rss0.values())) / max(1, len(tables)) * 100, 2),
        "rss_mb_per_100_tables_after_play": round(
            (sum(rss2.values()) - sum(rss0.values())) / max(1, len(tables)) * 100, 2),
    })
    return socks


async def idle_phase(server: Server, tables: list[TableSpec], seconds: float
                     ) -> dict[str, Any]:
    socks = [Sock(t, seat, server.port) for t in tables for seat in range(4)]
    rss0 = rss_mb(server.pid)
    t0 = time.perf_counter()
    problems = await connect_all(socks, concurrency=25)
    connect_s = time.perf_counter() - t0
    await asyncio.sleep(2.0)
    cpu0, w0, la = cpu_seconds(server.pid), time.perf_counter(), loadavg()
    await asyncio.sleep(seconds)
    cpu = 100 * (cpu_seconds(server.pid) - cpu0) / (time.perf_counter() - w0)
    rss1 = rss_mb(server.pid)
    open_now = sum(1 for s in socks if s.reader is not None and not s.reader.done())
    await asyncio.gather(*(s.close() for s in socks))
    return {"sockets": len(socks), "open_at_end": open_now, "connect_seconds": round(connect_s, 1),
            "cpu_percent_idle": round(cpu, 2), "loadavg": la,
            "rss_mb_growth": round(rss1 - rss0, 1),
            "kb_per_socket": round((rss1 - rss0) * 1024 / max(1, len(socks)), 1),
            "problems": problems[:10], "problem_count": len(problems)}


async def cycles_phase(servers: list[Server], tables: list[TableSpec], cycles: int
                       ) -> dict[str, Any]:
    ports = [s.port for s in servers]
    rss: list[float] = []
    problems: list[str] = []
    for _ in range(cycles):
        socks = [Sock(t, seat, ports[(i * 4 + seat) % len(ports)], tab=1)
                 for i, t in enumerate(tables) for seat in range(4)]
        problems += await connect_all(socks)
        await asyncio.sleep(0.5)
        await asyncio.gather(*(s.close() for s in socks))
        await asyncio.sleep(1.5)
        rss.append(round(sum(rss_mb(s.pid) for s in servers), 1))
    half = max(1, cycles // 2)
    return {"cycles": cycles, "sockets_per_cycle": 4 * len(tables), "rss_mb_after_each": rss,
            "growth_second_half_mb": round(rss[-1] - rss[half - 1], 1) if rss else 0,
            "problems": problems[:10], "problem_count": len(problems)}


async def run_async(args: argparse.Namespace, servers: list[Server], tables: list[TableSpec],
                    idle_tables: list[TableSpec], report: dict[str, Any]) -> list[Sock]:
    socks: list[Sock] = []
    # The generator keeps every frame with cards for the hidden-information check: tens of
    # thousands of containers whose full garbage collections would pause its loop and show up
    # as server latency. Freeze what exists and collect the young generation less often.
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    if tables:
        socks = await game_phase(tables, servers, args, report)
        report["hidden_check_pending"] = True
    if args.echo_duration > 0:
        report["echo"] = await asyncio.wait_for(echo_phase(
            [s.port for s in servers], max(1, len(tables)), args.rate, args.echo_duration),
            args.echo_duration + 120)
        report["echo"]["loadavg"] = loadavg()
    if idle_tables:
        report["idle"] = await asyncio.wait_for(
            idle_phase(servers[0], idle_tables, args.idle_seconds), args.idle_seconds + 600)
    if args.cycles and tables:
        report["cycles"] = await asyncio.wait_for(
            cycles_phase(servers, tables[:args.cycle_tables], args.cycles), 120 * args.cycles)
    await asyncio.gather(*(s.close() for s in socks))
    return socks


def run(args: argparse.Namespace) -> dict[str, Any]:
    """One bounded run; returns the report (also printed)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    report: dict[str, Any] = {
        "mode": args.mode, "tables": args.tables, "sockets": 4 * args.tables,
        "rate_per_table": args.rate, "duration_s": args.duration, "processes": args.processes,
        "server_flags": " ".join(server_flags(args)) or "(uvicorn defaults)",
        "db_conn_max_age": os.environ.get("DB_CONN_MAX_AGE", "(default)"),
        "db_pool": not args.no_db_pool,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "loadavg_before": loadavg(),
    }
    procs = Procs()
    extra = {}
    extra["DB_POOL"] = "0" if args.no_db_pool else "1"  # as docker-compose deploys it
    if args.db_conn_max_age is not None:
        extra["DB_CONN_MAX_AGE"] = str(args.db_conn_max_age)
        report["db_conn_max_age"] = args.db_conn_max_age
    try:
        with backend(args.mode, redis_index=args.redis_index, extra_env=extra) as b:
            idle_n = (args.idle_sockets + 3) // 4
            tables = make_tables(args.tables, "load")
            idle_tables = make_tables(idle_n, "idle") if idle_n else []
            n = args.processes if args.mode == "distributed" else 1
            flags = server_flags(args)
            servers = [start_server(procs, b, i + 1, flags) for i in range(n)]
            if args.mode == "distributed":
                start_worker(procs, b)
                start_beat(procs, b)
            loop_runner = _runner()
            socks = loop_runner(run_async(args, servers, tables, idle_tables, report))
            report.pop("hidden_check_pending", None)
            for s in servers:
                if not s.proc.alive():
                    report.setdefault("crashed", []).append(s.proc.name)
            if tables:
                checked = check_frames(tables, socks)
                report["frames_scanned"] = checked["frames_scanned"]
                report["hidden_card_leaks"] = len(checked["leaks"])
                report["leak_examples"] = checked["leaks"][:5]
                report["replay_problems"] = len(checked["problems"])
                report["replay_examples"] = checked["problems"][:5]
            if args.keep_logs:
                report["logs"] = {p.name: p.output()[-2000:] for p in procs.started}
            procs.stop_all()
    finally:
        procs.stop_all()
    if "echo" in report and report.get("samples"):
        e = report["echo"]
        report["ratio_p50_to_echo"] = round(report["p50_ms"] / max(e["p50_ms"], 0.001), 1)
        report["ratio_p99_to_echo"] = round(report["p99_ms"] / max(e["p99_ms"], 0.001), 1)
    return report


def _runner() -> Callable[[Any], Any]:
    try:
        import uvloop

        return uvloop.run
    except ImportError:  # pragma: no cover
        return asyncio.run


def print_report(r: dict[str, Any]) -> None:
    print(f"== ws_load {r['mode']} {r['date']}: {r['tables']} tables / {r['sockets']} sockets "
          f"at {r['rate_per_table']} actions/s per table for {r['duration_s']} s; "
          f"{r['processes']} ASGI process(es), {r['server_flags']}, "
          + (f"DB_CONN_MAX_AGE={r['db_conn_max_age']}" if r["mode"] == "distributed"
             and not r.get("db_pool") else "")
          + ("psycopg pool" if r["mode"] == "distributed" and r.get("db_pool") else ""))
    print(f"load average: before {r['loadavg_before']}, start {r.get('loadavg_start')}, "
          f"end {r.get('loadavg_end')}")
    if r.get("samples"):
        print(f"latency action -> state at all 4 seats: p50 {r['p50_ms']} ms  p95 {r['p95_ms']} "
              f"ms  p99 {r['p99_ms']} ms  max {r['max_ms']} ms  ({r['samples']} samples, "
              f"{r['actions']} actions, {r['actions_per_second']}/s, {r['deals_completed']} "
              f"deals, {r['late_sends']} late sends)")
        print(f"  p50 by where the seat's socket is: the sender's process "
              f"{r.get('p50_same_process_ms')} ms, another process "
              f"{r.get('p50_other_process_ms')} ms; the sender's ack {r.get('p50_ack_ms')} ms")
        print(f"errors {r['errors']}  lost updates {r['lost_updates']}  duplicated "
              f"{r['duplicated_updates']}  out of order {r['out_of_order_updates']}  "
              f"rejected BUOB calls {r['rejected_buob_calls']}  reveal closed within "
              f"{r['reveal_wait_max_s']} s of the tick")
        if r["error_examples"]:
            print("  e.g. " + "; ".join(r["error_examples"][:5]))
        print(f"CPU: servers {r['server_cpu_percent']} ({r['server_cpu_ms_per_action']} ms per "
              f"action)  load generator "
              f"{r['loadgen_cpu_percent']}%   (connect {r['connect_seconds']} s)")
        print(f"CPU of the services, ms per action: {r.get('service_cpu_ms_per_action')}; "
              f"ASGI + services: {cpu_per_action(r)} ms per action")
        print(f"memory: {r['rss_mb_per_100_tables_connected']} MB per 100 tables connected, "
              f"{r['rss_mb_per_100_tables_after_play']} MB per 100 tables after play "
              f"(RSS at start {r['rss_mb_start']})")
        print(f"hidden information: {r.get('frames_scanned')} frames with cards scanned, "
              f"{r.get('hidden_card_leaks')} leaks; replay problems {r.get('replay_problems')}")
        for line in r.get("leak_examples", []) + r.get("replay_examples", []):
            print("  " + line)
    if "echo" in r:
        e = r["echo"]
        print(f"echo: p50 {e['p50_ms']:.1f} ms  p99 {e['p99_ms']:.1f} ms  max {e['max_ms']:.1f} "
              f"ms ({e['n']} round trips, {len(e['errors'])} errors, load {e['loadavg']})")
        if "ratio_p50_to_echo" in r:
            print(f"ratio to echo: p50 x{r['ratio_p50_to_echo']}  p99 x{r['ratio_p99_to_echo']}")
    if "idle" in r:
        i = r["idle"]
        print(f"idle: {i['open_at_end']}/{i['sockets']} sockets held by one ASGI process: "
              f"CPU {i['cpu_percent_idle']}% (load {i['loadavg']}), RSS +{i['rss_mb_growth']} "
              f"MB ({i['kb_per_socket']} kB/socket), connect {i['connect_seconds']} s, "
              f"{i['problem_count']} problems")
    if "cycles" in r:
        c = r["cycles"]
        print(f"cycles: {c['cycles']} x {c['sockets_per_cycle']} sockets; RSS after each "
              f"{c['rss_mb_after_each']} MB; growth over the second half "
              f"{c['growth_second_half_mb']} MB; {c['problem_count']} problems")
    if r.get("crashed"):
        print(f"CRASHED: {r['crashed']}")


# The figures issue #16 sets targets for, in the order `print_comparison` shows them.
_COMPARED = (("p50_ms", "p50 ms"), ("p99_ms", "p99 ms"), ("actions_per_second", "actions/s"),
             ("late_sends", "late sends"), ("ratio_p50_to_echo", "p50 / echo"),
             ("server_cpu_ms_per_action", "ASGI CPU ms/action"))


def cpu_per_action(r: dict[str, Any]) -> float:
    """ASGI + PostgreSQL + Redis + Celery CPU per served action (issue #16's 6 ms target)."""
    services = r.get("service_cpu_ms_per_action") or {}
    return round(r.get("server_cpu_ms_per_action", 0) + sum(max(0.0, v)
                                                            for v in services.values()), 2)


def print_comparison(before: dict[str, Any], after: dict[str, Any]) -> None:
    """A saved run (`--json`, e.g. of the previous code) beside this one, same layout."""
    print(f"== before / after ({before.get('date')} / {after.get('date')}; "
          f"{before.get('tables')} / {after.get('tables')} tables, "
          f"{before.get('processes')} / {after.get('processes')} processes, {before.get('mode')} "
          f"/ {after.get('mode')})")
    print(f"  {'load average at start':24} {str(before.get('loadavg_start')):>18} "
          f"{str(after.get('loadavg_start')):>18}")
    print(f"  {'load average at end':24} {str(before.get('loadavg_end')):>18} "
          f"{str(after.get('loadavg_end')):>18}")
    for key, label in _COMPARED:
        print(f"  {label:24} {str(before.get(key, '-')):>18} {str(after.get(key, '-')):>18}")
    for name in ("postgresql", "redis", "celery"):
        b = (before.get("service_cpu_ms_per_action") or {}).get(name, "-")
        a = (after.get("service_cpu_ms_per_action") or {}).get(name, "-")
        print(f"  {name + ' CPU ms/action':24} {str(b):>18} {str(a):>18}")
    print(f"  {'all CPU ms/action':24} {cpu_per_action(before):>18} {cpu_per_action(after):>18}")
    print(f"  {'echo p50 ms':24} {str((before.get('echo') or {}).get('p50_ms', '-'))[:6]:>18} "
          f"{str((after.get('echo') or {}).get('p50_ms', '-'))[:6]:>18}")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", choices=("embedded", "distributed"), default="distributed")
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--rate", type=float, default=0.5, help="actions/s per table")
    p.add_argument("--duration", type=float, default=60, help="seconds of play")
    p.add_argument("--processes", type=int, default=1, help="uvicorn processes (distributed)")
    p.add_argument("--idle-sockets", type=int, default=0)
    p.add_argument("--idle-seconds", type=float, default=20)
    p.add_argument("--cycles", type=int, default=0, help="connect/disconnect cycles")
    p.add_argument("--cycle-tables", type=int, default=50)
    p.add_argument("--echo-duration", type=float, default=15)
    p.add_argument("--ws", default="", help="uvicorn --ws (websockets, wsproto, ...)")
    p.add_argument("--loop", default="", help="uvicorn --loop (uvloop, asyncio)")
    p.add_argument("--http", default="", help="uvicorn --http (httptools, h11)")
    p.add_argument("--uvicorn-arg", action="append", default=[],
                   help="extra uvicorn argument, repeatable (e.g. --uvicorn-arg=--ws-per-message-"
                   "deflate=false)")
    p.add_argument("--no-db-pool", action="store_true",
                   help="servers without the psycopg pool (DB_POOL=0; then --db-conn-max-age)")
    p.add_argument("--db-conn-max-age", type=int, default=None,
                   help="DB_CONN_MAX_AGE for the servers with --no-db-pool (default: the "
                   "project's)")
    p.add_argument("--py-spy", default="",
                   help="profile the first ASGI process (GIL holder) during play into FILE")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--redis-index", type=int, default=REDIS_INDEX,
                   help="Redis database index of a distributed run (flushed before and after; "
                   "another index when two runs share the machine's Redis)")
    p.add_argument("--json", default="", help="also write the report to this file")
    p.add_argument("--before", default="",
                   help="a report written earlier with --json (e.g. on the previous code): "
                   "printed beside this run's figures")
    p.add_argument("--keep-logs", action="store_true", help="put server log tails in the report")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    args.duration = min(args.duration, 3600)
    install_signal_handlers()
    report = run(args)
    print_report(report)
    if args.before:
        print_comparison(json.loads(Path(args.before).read_text()), report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str))
    bad = (report.get("errors") or report.get("lost_updates") or report.get("hidden_card_leaks")
           or report.get("replay_problems") or report.get("duplicated_updates"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
