"""Server time of one table action: `services.submit(play_card)` on SQLite and on PostgreSQL.

    python bench/action_latency.py [--actions N] [--seed S] [--only sqlite|postgresql]

Each database is throwaway: SQLite a temporary file (TROCCAS_SQLITE_PATH, the embedded mode),
PostgreSQL a fresh database "troccas_bench" created and dropped around the run on the server of
DATABASE_URL (default postgres://postgres@127.0.0.1:5432/; the distributed mode, so the
after-commit broadcast goes through channels-redis on REDIS_URL, default
redis://127.0.0.1:6379/0, to groups nobody listens to). Each backend runs in a child process
(the settings pick the database at import), which migrates, seats four players and plays
seeded random deals: only the play_card submits are timed, from the call to the return of
`submit` — lock, engine, rows, version compare-and-set, commit, broadcast.

Prints one line per backend, e.g. `sqlite: median 2.1 ms  p99 6.3 ms  (...)`, with the share of
the after-commit broadcast. Outside an event loop (this script, a Celery worker) each broadcast
runs async_to_sync on a fresh loop, so channels-redis opens a new connection for it; inside
uvicorn the consumer's loop and its pooled connections are reused.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = "troccas_bench"
CHILD_TIMEOUT = 900


# --- the child: one backend ------------------------------------------------------------------

def run_backend(actions: int, warmup: int, seed: int, profile: str = "") -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troccas_site.settings")
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from games import services
    from games.engine import (
        CARD_IDS,
        DEALING,
        MATCH_OVER,
        PLAY,
        REVEAL,
        ROUND_OVER,
        SCART,
        from_json,
        legal_actions,
    )
    from games.live.protocol import Command
    from games.models import Room, Round

    call_command("migrate", interactive=False, verbosity=0)
    deck_rng = random.Random(seed)

    def seeded_deck() -> list[str]:
        deck = list(CARD_IDS)
        deck_rng.shuffle(deck)
        return deck

    from games.services import writer

    writer.shuffled_deck = seeded_deck  # reproducible deals (the bench only)
    # The after-commit broadcast is part of submit's time; it is also reported on its own.
    from games.live import broadcast

    publish = broadcast.publish
    publishing: list[float] = []

    def timed_publish(snap: Any) -> None:
        t0 = time.perf_counter()
        publish(snap)
        publishing.append(time.perf_counter() - t0)

    broadcast.publish = timed_publish
    rng = random.Random(seed + 1)
    users = [User.objects.create_user(username=f"bench{i}", password=uuid.uuid4().hex)
             for i in range(4)]
    owner = users[0]
    room = services.create_room(owner, {"match_deals": 0, "reveal_seconds": 2})
    code = room.code
    version = Room.objects.get(pk=room.pk).version

    cpu: list[float] = []
    pg_cpu: list[float] = []
    backend_pid = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_backend_pid()")
            backend_pid = cur.fetchone()[0]

    def backend_cpu() -> float:
        # The PostgreSQL backend's own CPU (same machine): utime + stime from /proc.
        if backend_pid is None:
            return 0.0
        try:
            fields = Path(f"/proc/{backend_pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    profiler = cProfile.Profile() if profile else None

    def submit(user: Any, kind: str, **fields: Any) -> float:
        nonlocal version
        cmd = Command(kind, uuid.uuid4().hex, version, fields)
        c0 = time.process_time()
        b0 = backend_cpu()
        t0 = time.perf_counter()
        if profiler is not None and kind == "play_card":
            profiler.enable()
        out = services.submit(code, user, cmd)
        if profiler is not None:
            profiler.disable()
        elapsed = time.perf_counter() - t0
        cpu.append(time.process_time() - c0)
        pg_cpu.append(backend_cpu() - b0)
        assert out.ok and not out.duplicate, (kind, out)
        version = out.version
        return elapsed

    for user, team in zip(users[1:], "BAB", strict=True):
        submit(user, "take_seat", team=team)
    by_seat = dict(enumerate(users))  # A/0, B/1, A/2, B/3 as seated above
    timings: list[float] = []
    broadcasts: list[float] = []
    play_cpu: list[float] = []
    play_pg_cpu: list[float] = []
    deals = 0
    while len(timings) < actions + warmup:
        rnd = Round.objects.filter(match__room__code=code).order_by("-pk").first()
        state = None if rnd is None else from_json(rnd.engine_state)
        phase = None if state is None else state.phase
        if phase is None:
            submit(owner, "start_round")
        elif phase == ROUND_OVER:
            deals += 1
            submit(owner, "regame")
        elif phase == DEALING:
            submit(by_seat[state.deal.dealer], "deal_next_pass")
        elif phase == REVEAL:
            # The bench's clock jump: the reveal window is over, the sweep closes it.
            Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now())
            assert services.sweep_deadlines() == 1
            version = Room.objects.get(code=code).version
        elif phase == SCART:
            dealer = state.deal.dealer
            allowed = legal_actions(state, dealer)["scart_allowed"]
            submit(by_seat[dealer], "discard_scart", cards=rng.sample(allowed, 2))
        elif phase == PLAY:
            turn = state.deal.turn
            card = rng.choice(legal_actions(state, turn)["legal_cards"])
            publishing.clear()
            timings.append(submit(by_seat[turn], "play_card", card=card))
            broadcasts.append(sum(publishing))
            play_cpu.append(cpu[-1])
            play_pg_cpu.append(pg_cpu[-1])
        else:  # pragma: no cover
            raise AssertionError(f"unexpected phase {phase} ({MATCH_OVER} needs match_deals)")
    measured = sorted(timings[warmup:])
    connection.close()
    if profiler is not None:
        profiler.dump_stats(profile)
    return {
        "vendor": connection.vendor,
        "n": len(measured),
        "deals": deals,
        "median_ms": statistics.median(measured) * 1000,
        "p99_ms": measured[math.ceil(0.99 * len(measured)) - 1] * 1000,
        "mean_ms": statistics.fmean(measured) * 1000,
        "broadcast_median_ms": statistics.median(broadcasts[warmup:]) * 1000,
        "cpu_mean_ms": statistics.fmean(play_cpu[warmup:]) * 1000,
        "db_server_cpu_mean_ms": statistics.fmean(play_pg_cpu[warmup:]) * 1000,
    }


# --- the parent: throwaway databases, one child per backend ---------------------------------

def _base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="troccas_site.settings", DJANGO_LOG_LEVEL="WARNING",
               PYTHONPATH=str(ROOT))
    return env


def env_label(env: dict[str, str]) -> str:
    return "postgresql" if "DATABASE_URL" in env else "sqlite"


def _child(env: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", "--actions", str(args.actions),
         "--warmup", str(args.warmup), "--seed", str(args.seed),
         *(["--profile", str(Path(args.profile).resolve()) + "." + env_label(env)]
           if args.profile else [])],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT,
    )
    if done.returncode != 0:
        raise SystemExit(f"benchmark child failed:\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_sqlite(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="troccas-bench-") as tmp:
        env = _base_env()
        env["TROCCAS_SQLITE_PATH"] = str(Path(tmp) / "bench.sqlite3")
        return _child(env, args)


def bench_postgresql(args: argparse.Namespace) -> dict[str, Any]:
    import dj_database_url
    import psycopg
    from psycopg import sql

    server = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    cfg = dj_database_url.parse(server)
    params = {"host": cfg["HOST"] or "127.0.0.1", "port": cfg["PORT"] or 5432,
              "user": cfg["USER"] or "postgres", "password": cfg["PASSWORD"] or None,
              "dbname": "postgres", "autocommit": True, "connect_timeout": 10}
    name = sql.Identifier(BENCH_DB)
    with psycopg.connect(**params) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(name))
    try:
        env = _base_env()
        auth = cfg["USER"] or "postgres"
        if cfg["PASSWORD"]:
            auth += ":" + cfg["PASSWORD"]
        env["DATABASE_URL"] = (f"postgres://{auth}@{params['host']}:{params['port']}/"
                               f"{BENCH_DB}")
        env["REDIS_URL"] = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
        return _child(env, args)
    finally:
        with psycopg.connect(**params) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=500, help="timed play_card submits")
    parser.add_argument("--warmup", type=int, default=40, help="untimed play_card submits first")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    parser.add_argument("--profile", default="",
                        help="cProfile the timed play_card submits into FILE.<backend>")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_backend(args.actions, args.warmup, args.seed, args.profile)))
        return
    runs = {"sqlite": bench_sqlite, "postgresql": bench_postgresql}
    for label, run in runs.items():
        if args.only and args.only != label:
            continue
        r = run(args)
        print(f"{label}: median {r['median_ms']:.1f} ms  p99 {r['p99_ms']:.1f} ms  "
              f"(mean {r['mean_ms']:.1f} ms, CPU of this process {r['cpu_mean_ms']:.2f} ms"
              + (f", of the database server {r['db_server_cpu_mean_ms']:.2f} ms"
                 if label == "postgresql" else "") + "; "
              f"of which broadcast median "
              f"{r['broadcast_median_ms']:.1f} ms; {r['n']} play_card over {r['deals']}+ deals)",
              flush=True)


if __name__ == "__main__":
    main()
