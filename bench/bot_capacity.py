"""How many practice tables (one person, three strong bots) one worker process per core carries.

    python bench/bot_capacity.py [--mode embedded|distributed|both] [--budget pinned|adaptive|both]
                                 [--tables 1,2,4,8,16] [--step-seconds 40] [--think 3]
                                 [--json FILE]

Every run starts its own servers and stops them again, whatever happens (bench/ws_load.py's
machinery: process groups, a `finally`, SIGINT/SIGTERM handlers, atexit, and an alarm that
bounds the run):

* embedded: one uvicorn on a temporary SQLite file; the bots decide on its worker threads;
* distributed: a fresh PostgreSQL database (created, migrated, dropped), Redis database index
  10 (flushed before and after), one uvicorn, Celery beat and ONE Celery worker process per core
  (prefork, `--concurrency` = cores): the only place a bot decides.

Each practice table is made as "Play now" makes it (`services.create_practice_table`, level
strong). Its person is simulated over a real websocket at seat 0: when it is their turn they play
a random legal card `--think` seconds after the table's state reached them (deal, Scart, next
deal after `--quick` seconds). Tables are added in a ramp (`--tables`, cumulative); each step
runs `--warmup` seconds, then is measured for `--step-seconds`.

Per step: **bot reply time**, from the announcement of the move before a bot's (the person's or
the previous bot's) to the announcement of the bot's move, both at the person's socket —
p50/p95/max; the **budget** the bots ran at (from each runner process's figures, written by
games/services/bots/budget.py to TROCCAS_BOT_STATS_DIR: decisions per budget, the mean, the
budget at the step's end); accepted actions per second; errors; fallbacks (decisions that
overran their budget, raised or were illegal, and were replaced by the easy bot's choice: issue
#24 item 13; counted from the logs); how
many decisions ran in an ASGI process (must be 0 in the distributed mode); the 1-minute load
average.

The bots run without their pause (TROCCAS_BOT_PAUSE_SCALE=0, games/services/bots/pace.py): the
bench measures how many decisions the runners carry, and a reply of a paused bot is its pause
by design (the paused runner holds a worker for its lead, budget + slack, per move).

`--budget pinned` runs with the budget pinned at its full value (TROCCAS_BOT_BUDGET_FLOOR_MS =
the budget: no shrinking), `adaptive` with the runners' overload protection (floor 20 ms). The
report names, per run, the largest step whose bot replies had p95 <= 1 s. The machine is shared:
the load average says how much else ran. Localhost only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.ws_load import (  # noqa: E402 - the path above first
    ACK_TIMEOUT,
    BIN,
    STATE_TIMEOUT,
    Backend,
    Procs,
    Server,
    Sock,
    TableSpec,
    _runner,
    backend,
    connect_all,
    install_signal_handlers,
    loadavg,
    percentile,
    start_beat,
    start_server,
)

REDIS_INDEX = 10  # reserved for this harness (ws_load uses 12, the tests 11, 14 and 15)
BOT_SEATS = (1, 2, 3)
WAITING_PHASES = ("DEALING", "SCART", "PLAY")  # phases in which `turn` is the seat to act
GOAL_P95_S = 1.0
# A step this bad ends the ramp: more tables would only take longer to say the same.
GIVE_UP_P95_S = 6.0
FLOOR_ADAPTIVE_MS = 20
SHRINK_LINES = ("bots behind", "bots caught up")
# games/services/bots/turns.py logs this when a decision raised, overran its budget (plus slack) or
# was illegal, and the lowest-value legal action was played instead.
FALLBACK_LINE = "played the easy bot's choice instead"
# static/js/net.js's PING_MS: a live tab's heartbeat.
PING_SECONDS = 25.0


# --- the person at each table ------------------------------------------------------------------

class Person(Sock):
    """Seat 0 of a practice table: remembers, for every state, when it arrived and whose turn
    it was then (nothing else: no frame is kept)."""

    def __init__(self, table: TableSpec, port: int) -> None:
        super().__init__(table, 0, port)
        self.history: list[tuple[int, float, str, int | None]] = []

    def on_frame(self, raw: str, now: float) -> None:
        super().on_frame(raw, now)
        self.scan.clear()  # ws_load keeps frames with cards for its leak check; not needed here
        msg = json.loads(raw)
        if msg.get("type") == "state":
            v = msg["view"]
            self.history.append((msg["version"], now, v.get("phase", ""), v.get("turn")))


@dataclass
class Tally:
    person_actions: int = 0
    errors: list[tuple[float, str]] = field(default_factory=list)


def person_move(v: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The person's move in their own view, or None when another seat (or a timer) is to act."""
    a = v["actions"]
    if a["deal"]:
        return "deal_next_pass", {}
    if a["scart"]:
        return "discard_scart", {"cards": rng.sample(a["scart_allowed"], 2)}
    if a["play"]:
        return "play_card", {"card": rng.choice(a["legal_cards"])}
    if a["regame"]:
        return "regame", {}
    if a.get("new_match"):
        return "new_match", {}
    return None


async def keep_alive(p: Person, stop: asyncio.Event) -> None:
    """Ping every PING_SECONDS as the browser's table does (static/js/net.js): without it the
    person's Connection row goes stale after PRESENCE_TIMEOUT, they count as away, and once the
    room's grace period is over a stand-in bot plays their seat -- their next move is then
    STALE_VERSION, a table the run no longer measures."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), PING_SECONDS)
        if stop.is_set() or p.ws is None or p.reader is None or p.reader.done():
            return
        try:
            await p.ws.send(json.dumps({"type": "ping"}))
        except Exception:  # noqa: BLE001 - a closed socket is reported by play_person
            return


async def play_person(p: Person, think: float, quick: float, stop: asyncio.Event,
                      tally: Tally, rng: random.Random) -> None:
    """Act whenever it is this person's turn, `think` s (a card) or `quick` s (anything else)
    after the state reached them, until `stop`."""
    while not stop.is_set():
        if p.reader is None or p.reader.done():
            tally.errors.append((time.perf_counter(), f"{p.table.code}: socket closed"))
            return
        version, v = p.version, p.view
        move = person_move(v, rng) if v is not None else None
        if move is None:
            p.changed.clear()
            if p.version == version:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(p.changed.wait(), 1.0)
            continue
        kind, fields = move
        due = p.arrivals.get(version, time.perf_counter()) + (think if kind == "play_card"
                                                               else quick)
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if stop.is_set():
            return
        if p.version != version:
            continue  # the table moved on while they thought: look at it again
        try:
            _aid, fut = await p.send(kind, version, **fields)
            reply = await asyncio.wait_for(fut, ACK_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 - counted
            tally.errors.append((time.perf_counter(), f"{p.table.code} {kind}: {exc!r}"))
            return
        if reply["type"] == "error":
            tally.errors.append((time.perf_counter(), f"{p.table.code} {kind}: "
                                 f"{reply.get('code')} at v{version} (now v{p.version}, "
                                 f"{p.gaps} versions never received)"))
            if reply.get("code") == "STALE_VERSION":
                p.resyncs_expected += 1
                await p.wait_version(version + 1, STATE_TIMEOUT)
                continue
            return
        tally.person_actions += 1
        if not await p.wait_version(reply["version"], STATE_TIMEOUT):
            tally.errors.append((time.perf_counter(), f"{p.table.code}: v{reply['version']} "
                                 "never arrived"))
            return


def bot_replies(p: Person, start: float, end: float) -> tuple[list[float], int]:
    """The bot replies announced in [start, end) at this person's socket, in seconds, and how
    many versions (accepted actions of any seat or timer) arrived in that window."""
    replies: list[float] = []
    arrived = 0
    for (v0, t0, phase, turn), (v1, t1, _p, _t) in zip(p.history, p.history[1:], strict=False):
        if not start <= t1 < end:
            continue
        arrived += 1
        if v1 == v0 + 1 and phase in WAITING_PHASES and turn in BOT_SEATS:
            replies.append(t1 - t0)
    return replies, arrived


# --- the tables, the runners' figures --------------------------------------------------------

def make_practice_tables(n: int) -> list[TableSpec]:
    """n people, each with a session cookie (direct rows: no log-in), and n practice tables
    opened as Play now opens them: the person deals the first deal, three strong bots."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from accounts.models import User
    from games import services

    unusable = make_password(None)
    people = User.objects.bulk_create([
        User(username=f"cap{i:05d}", display_name=f"Cap{i}", password=unusable,
             email=f"cap{i:05d}@example.org") for i in range(n)])
    auth_backend = (getattr(settings, "AUTHENTICATION_BACKENDS", None)
                    or ["django.contrib.auth.backends.ModelBackend"])[0]
    store, out = SessionStore(), []
    for u in people:
        key = secrets.token_hex(16)
        Session.objects.create(session_key=key, expire_date=timezone.now()
                               + timezone.timedelta(days=1), session_data=store.encode({
                                   SESSION_KEY: str(u.pk), BACKEND_SESSION_KEY: auth_backend,
                                   HASH_SESSION_KEY: u.get_session_auth_hash()}))
        room = services.create_practice_table(u, "strong")
        out.append(TableSpec(room.code, room.pk, [u.pk], [key]))
    return out


def runner_figures(folder: Path) -> dict[int, dict[str, Any]]:
    """Each bot runner process's latest figures (games/services/bots/budget.py), by pid."""
    out: dict[int, dict[str, Any]] = {}
    for path in folder.glob("*.json"):
        try:
            figures = json.loads(path.read_text())
        except (OSError, ValueError):
            continue  # replaced meanwhile: the next read has it
        out[int(figures["pid"])] = figures
    return out


def budget_delta(before: dict[int, dict[str, Any]], after: dict[int, dict[str, Any]]
                 ) -> dict[str, int]:
    """Decisions per budget (ms) between two reads of the runners' figures."""
    counts: dict[str, int] = {}
    for pid, figures in after.items():
        old = before.get(pid, {}).get("decisions_by_budget_ms", {})
        for budget, n in figures["decisions_by_budget_ms"].items():
            if n - old.get(budget, 0):
                counts[budget] = counts.get(budget, 0) + n - old.get(budget, 0)
    return dict(sorted(counts.items(), key=lambda kv: -float(kv[0])))


def log_counts(procs: Procs) -> tuple[int, int]:
    """(budget level changes, fallback actions) logged so far by every process of the run."""
    outputs = [p.output() for p in procs.started]
    return (sum(out.count(line) for out in outputs for line in SHRINK_LINES),
            sum(out.count(FALLBACK_LINE) for out in outputs))


def start_workers(procs: Procs, b: Backend, cores: int) -> Any:
    """One Celery worker, `cores` prefork processes: one bot decision per core at a time."""
    return procs.start("worker", [
        str(BIN / "celery"), "-A", "troccas_site", "worker", "--pool=prefork",
        f"--concurrency={cores}", "-Q", "celery", "--without-heartbeat", "--without-gossip",
        "--without-mingle", "-l", "warning", "-n", f"bots-{secrets.token_hex(3)}@127.0.0.1",
    ], b.env(), b.tmp / "worker.log")


# --- one run ---------------------------------------------------------------------------------

async def ramp(args: argparse.Namespace, tables: list[TableSpec], server: Server,
               stats_dir: Path, procs: Procs) -> list[dict[str, Any]]:
    stop = asyncio.Event()
    tally = Tally()
    people: list[Person] = []
    drivers: list[asyncio.Task[None]] = []
    rng = random.Random(args.seed)
    steps: list[dict[str, Any]] = []
    try:
        for n in args.tables:
            new = [Person(t, server.port) for t in tables[len(people):n]]
            problems = await connect_all(new)  # type: ignore[arg-type]
            for msg in problems:
                tally.errors.append((time.perf_counter(), msg))
            for p in new:
                people.append(p)
                drivers.append(asyncio.get_running_loop().create_task(play_person(
                    p, args.think, args.quick, stop, tally, random.Random(rng.random()))))
                drivers.append(asyncio.get_running_loop().create_task(keep_alive(p, stop)))
            await asyncio.sleep(args.warmup)
            figures0, logged0 = runner_figures(stats_dir), log_counts(procs)
            start = time.perf_counter()
            acted0, errors0 = tally.person_actions, len(tally.errors)
            await asyncio.sleep(args.step_seconds)
            end = time.perf_counter()
            figures1, logged1 = runner_figures(stats_dir), log_counts(procs)
            steps.append(step_report(n, people, start, end, figures0, figures1, server,
                                     errors=[e for t, e in tally.errors[errors0:]],
                                     person_actions=tally.person_actions - acted0,
                                     lines=logged1[0] - logged0[0],
                                     fallbacks=logged1[1] - logged0[1]))
            print_step(steps[-1], flush=True)
            if steps[-1]["p95_ms"] > GIVE_UP_P95_S * 1000:
                break
    finally:
        stop.set()
        for task in drivers:
            task.cancel()
        await asyncio.gather(*drivers, return_exceptions=True)
        await asyncio.gather(*(p.close() for p in people))
    return steps


def step_report(n: int, people: list[Person], start: float, end: float,
                figures0: dict[int, dict[str, Any]], figures1: dict[int, dict[str, Any]],
                server: Server, *, errors: list[str], person_actions: int, lines: int,
                fallbacks: int) -> dict[str, Any]:
    replies: list[float] = []
    actions = 0
    for p in people:
        r, a = bot_replies(p, start, end)
        replies += r
        actions += a
    by_budget = budget_delta(figures0, figures1)
    decided = sum(by_budget.values())
    in_asgi = sum(f["decisions"] - figures0.get(pid, {}).get("decisions", 0)
                  for pid, f in figures1.items() if pid == server.pid)
    return {
        "tables": n, "seconds": round(end - start, 1), "bot_replies": len(replies),
        "p50_ms": round(percentile(replies, 50) * 1000, 1), "p95_ms": round(
            percentile(replies, 95) * 1000, 1), "max_ms": round(max(replies, default=0) * 1000, 1),
        "actions_per_s": round(actions / (end - start), 1), "person_actions": person_actions,
        "decisions": decided, "decisions_by_budget_ms": by_budget,
        "mean_budget_ms": round(sum(float(b) * k for b, k in by_budget.items())
                                / decided, 1) if decided else None,
        "budget_at_end_ms": sorted({f["budget_ms"] for f in figures1.values()}),
        "lag_at_end_ms": max((f["lag_ms"] for f in figures1.values()), default=0),
        "runner_processes": len(figures1), "decisions_in_asgi": in_asgi,
        "budget_log_lines": lines, "fallbacks": fallbacks, "errors": len(errors),
        "error_examples": errors[:3],
        "loadavg": loadavg(),
    }


def print_step(s: dict[str, Any], flush: bool = False) -> None:
    budgets = " ".join(f"{b}:{k}" for b, k in s["decisions_by_budget_ms"].items()) or "-"
    print(f"  {s['tables']:>3} tables: bot reply p50 {s['p50_ms']} ms  p95 {s['p95_ms']} ms  "
          f"max {s['max_ms']} ms ({s['bot_replies']} replies)  budget mean "
          f"{s['mean_budget_ms']} ms [{budgets}] at end {s['budget_at_end_ms']}  "
          f"{s['actions_per_s']} actions/s  errors {s['errors']}  decisions in ASGI "
          f"{s['decisions_in_asgi']}  budget log lines {s['budget_log_lines']}  fallbacks "
          f"{s['fallbacks']}  "
          f"load {s['loadavg']}", flush=flush)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """One mode, one budget policy, the whole ramp; everything started is stopped after."""
    cores = args.cores
    pinned = args.budget == "pinned"
    report: dict[str, Any] = {
        "mode": args.mode, "budget_policy": args.budget, "full_budget_ms": args.budget_ms,
        "floor_ms": args.budget_ms if pinned else FLOOR_ADAPTIVE_MS, "cores": cores,
        "think_s": args.think, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "loadavg_before": loadavg(), "steps": [],
    }
    stats_dir = Path(tempfile.mkdtemp(prefix="troccas-botstats-"))
    extra = {"TROCCAS_BOT_STATS_DIR": str(stats_dir), "TROCCAS_BOT_BUDGET_MS":
             str(args.budget_ms), "TROCCAS_BOT_BUDGET_FLOOR_MS": str(report["floor_ms"]),
             "TROCCAS_BOT_THREADS": str(cores), "DB_POOL": "1",
             # Capacity, not pace: without the bots' pause (games/services/bots/pace.py) a
             # reply is the decision's own time, as the 1 s criterion has always read it.
             "TROCCAS_BOT_PAUSE_SCALE": "0"}
    procs = Procs()
    try:
        with backend(args.mode, redis_index=REDIS_INDEX, extra_env=extra) as b:
            tables = make_practice_tables(max(args.tables))
            server = start_server(procs, b, 1, [])
            if args.mode == "distributed":
                start_workers(procs, b, cores)
                start_beat(procs, b)
            report["steps"] = _runner()(asyncio.wait_for(
                ramp(args, tables, server, stats_dir, procs), bound_seconds(args)))
            report["crashed"] = [p.name for p in procs.started if not p.alive()]
            report["log_tail"] = {p.name: p.output()[-800:] for p in procs.started
                                  if "Traceback" in p.output()}
            procs.stop_all()
    finally:
        procs.stop_all()
        for path in stats_dir.glob("*"):
            path.unlink()
        stats_dir.rmdir()
    ok = [s["tables"] for s in report["steps"] if s["p95_ms"] <= GOAL_P95_S * 1000
          and not s["errors"]]
    report["largest_tables_p95_within_1s"] = max(ok, default=0)
    return report


def bound_seconds(args: argparse.Namespace) -> float:
    """The most a ramp may take: every step, its connects and a margin."""
    return len(args.tables) * (args.warmup + args.step_seconds + 30) + 60


def print_report(r: dict[str, Any]) -> None:
    print(f"== bot_capacity {r['mode']} {r['budget_policy']} budget (full {r['full_budget_ms']} "
          f"ms, floor {r['floor_ms']} ms), {r['cores']} bot process(es)/threads, think "
          f"{r['think_s']} s, {r['date']}; load before {r['loadavg_before']}")
    for s in r["steps"]:
        print_step(s)
    print(f"   largest N with bot replies p95 <= 1 s: {r['largest_tables_p95_within_1s']}"
          + (f"   CRASHED {r['crashed']}" if r.get("crashed") else ""))


# --- several runs: one child process each (the settings pick the mode at import) -------------

def run_children(args: argparse.Namespace) -> list[dict[str, Any]]:
    modes = ("embedded", "distributed") if args.mode == "both" else (args.mode,)
    budgets = ("pinned", "adaptive") if args.budget == "both" else (args.budget,)
    reports = []
    for mode in modes:
        for budget in budgets:
            with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
                path = Path(out.name)
            argv = [sys.executable, str(Path(__file__).resolve()), "--mode", mode,
                    "--budget", budget, "--json", str(path), *child_args(args)]
            child = subprocess.Popen(argv, cwd=ROOT, start_new_session=True)
            try:
                child.wait(timeout=bound_seconds(args) + 300)
            except BaseException:
                os.killpg(child.pid, signal.SIGTERM)  # its handlers clean up what it started
                try:
                    child.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(child.pid, signal.SIGKILL)
                    child.wait(timeout=10)
                raise
            finally:
                text = path.read_text() if path.exists() else ""
                path.unlink(missing_ok=True)
            if text:
                reports.append(json.loads(text))
    return reports


def child_args(args: argparse.Namespace) -> list[str]:
    return ["--tables", ",".join(map(str, args.tables)), "--step-seconds",
            str(args.step_seconds), "--warmup", str(args.warmup), "--think", str(args.think),
            "--quick", str(args.quick), "--budget-ms", str(args.budget_ms), "--cores",
            str(args.cores), "--seed", str(args.seed)]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", choices=("embedded", "distributed", "both"), default="both")
    p.add_argument("--budget", choices=("pinned", "adaptive", "both"), default="both")
    p.add_argument("--tables", type=lambda s: sorted({int(x) for x in s.split(",")}),
                   default=[1, 2, 4, 8, 16], help="the ramp, comma-separated (cumulative)")
    p.add_argument("--step-seconds", type=float, default=40)
    p.add_argument("--warmup", type=float, default=8, help="seconds before a step is measured")
    p.add_argument("--think", type=float, default=3.0, help="a person's time to play a card")
    p.add_argument("--quick", type=float, default=0.5, help="... to deal, Scart, regame")
    p.add_argument("--budget-ms", type=int, default=50,
                   help="the bots' full budget (the site's default)")
    p.add_argument("--cores", type=int, default=os.cpu_count() or 1,
                   help="bot processes (distributed) or threads (embedded)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--json", default="", help="also write the report(s) to this file")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    args.step_seconds = min(args.step_seconds, 600)
    install_signal_handlers()
    if args.mode == "both" or args.budget == "both":
        reports = run_children(args)
        print("\n== summary: largest number of practice tables with bot replies p95 <= 1 s")
        for r in reports:
            print_report(r)
        if args.json:
            Path(args.json).write_text(json.dumps(reports, indent=1))
        return 0 if reports else 1
    def alarm(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt("bot_capacity: over its time bound")

    signal.signal(signal.SIGALRM, alarm)
    signal.alarm(int(bound_seconds(args) + 240))
    try:
        report = run(args)
    finally:
        signal.alarm(0)
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 1 if any(s["errors"] for s in report["steps"]) or report.get("crashed") else 0


if __name__ == "__main__":
    sys.exit(main())
