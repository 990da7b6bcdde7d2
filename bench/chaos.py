"""A bounded fault run: 50 tables on two ASGI processes while faults are injected.

    python bench/chaos.py [--duration 300] [--tables 50] [--rate 0.5] [--seed S] [--json FILE]

The distributed setup of bench/ws_load.py (throwaway PostgreSQL database, Celery worker + beat,
two uvicorn processes), but on a redis-server of its OWN (a free port, no persistence, its files
in a temporary directory) so that it can be restarted freely; the machine's shared Redis is not
touched. Every 20-40 s one fault, in turn:

    kill -9 of an ASGI process (restarted 2 s later on the same port; its players reconnect to
    the other one meanwhile) - kill -9 of the Celery worker (restarted) - a Redis restart (all
    queued messages, group memberships and timer tasks lost) - 10 % of the sockets dropped -
    a second tab opened on a seat

and all along 5 % of the actions are sent twice (the same action_id). The players behave like
the real client: a socket that closes reconnects (its own server first, then the other), a
version gap or an unanswered action triggers a `sync`, an unanswered action is resent with the
same action_id.

At the end (the load stopped, every tab synced) it checks and prints:
 1. every acknowledged action is in the log exactly once (and at the acknowledged version);
 2. each table's versions are contiguous (1..version, one log entry each);
 3. each tab's final view equals the server's view for its seat;
 4. replaying each deal's log through the engine reproduces the stored state;
 5. every reveal window closed exactly once (one END_REVEAL per deal past its reveal);
 6. no table stalled (each moved in the last 60 s of play; no deadline overdue at the end);
 7. no frame carried a card its receiver may not see (RULES.md section 13).
Exit status 0 only if all hold. Localhost only; everything started is stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ws_load import (
    ACK_TIMEOUT,
    Backend,
    Procs,
    Server,
    Sock,
    TableSpec,
    backend,
    check_frames,
    choose,
    free_port,
    install_signal_handlers,
    loadavg,
    make_tables,
    percentile,
    start_beat,
    start_server,
    start_worker,
    strip_room,
    wait_serving,
)

SYNC_WAIT = 3.0
STALL_WINDOW = 60.0


class Tab(Sock):
    """A socket that reconnects, resyncs on gaps and counts what it lived through."""

    def __init__(self, table: TableSpec, seat: int, ports: list[int], home: int,
                 tab: int = 0) -> None:
        super().__init__(table, seat, ports[home], tab)
        self.ports, self.home = ports, home
        self.reconnects = 0
        self.syncs = 0
        self.stop = False
        self.keeper: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        return self.reader is not None and not self.reader.done()

    def on_frame(self, raw: str, now: float) -> None:
        gaps = self.gaps
        super().on_frame(raw, now)
        if self.gaps != gaps and self.alive:
            # A missed update (lost broadcast): ask for the whole view, like the browser does.
            asyncio.get_running_loop().create_task(self.sync())

    async def sync(self) -> None:
        if self.ws is not None and self.alive:
            self.syncs += 1
            self.resyncs_expected += 1
            with contextlib.suppress(Exception):  # the keeper reconnects
                await self.ws.send(json.dumps({"type": "sync"}))

    async def keep(self) -> None:
        """Reconnect whenever the socket is closed, until told to stop."""
        attempt = 0
        while not self.stop:
            if self.alive:
                await asyncio.sleep(0.2)
                continue
            port = self.ports[(self.home + attempt) % len(self.ports)]
            self.port = port
            try:
                self.reader = None
                # The first state after a (re)connect is a full view: a jump is no loss.
                self.version = -1
                await self.connect()
                self.reconnects += 1
                attempt = 0
            except Exception:  # noqa: BLE001 - a server is down: try the other, then again
                attempt += 1
                await asyncio.sleep(0.3)

    async def drop(self) -> None:
        """Cut the connection abruptly (no close handshake), as a lost network would."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.transport.abort()


class Chaos:
    def __init__(self, args: argparse.Namespace, procs: Procs, b: Backend,
                 redis: Any) -> None:
        self.args, self.procs, self.b, self.redis = args, procs, b, redis
        self.rng = random.Random(args.seed)
        self.servers: list[Server] = []
        self.worker: Any = None
        self.tabs: list[Tab] = []
        self.extra_tabs: list[Tab] = []
        self.acked: dict[str, int] = {}  # "room:user:action_id" -> acknowledged version
        self.faults: list[str] = []
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.unanswered = 0
        self.resent = 0
        self.stale = 0
        self.actions = 0

    # --- faults --------------------------------------------------------------------------

    async def restart(self, proc: Any, ready: Any) -> None:
        proc.kill()
        await asyncio.sleep(2.0)
        proc.start()
        await asyncio.to_thread(ready)

    async def fault(self, kind: str) -> None:
        t = time.strftime("%H:%M:%S", time.gmtime())
        if kind == "kill_asgi":
            server = self.rng.choice(self.servers)
            self.faults.append(f"{t} kill -9 {server.proc.name} (restarted)")
            await self.restart(server.proc, lambda: wait_serving(server))
        elif kind == "kill_worker":
            self.faults.append(f"{t} kill -9 celery worker (restarted)")
            await self.restart(self.worker, lambda: None)
        elif kind == "restart_redis":
            self.faults.append(f"{t} redis restart")
            await self.restart(self.redis, self.redis_ready)
        elif kind == "drop_sockets":
            victims = self.rng.sample(self.tabs, max(1, len(self.tabs) // 10))
            self.faults.append(f"{t} dropped {len(victims)} sockets")
            for tab in victims:
                await tab.drop()
        elif kind == "second_tab":
            owner = self.rng.choice(self.tabs)
            tab = Tab(owner.table, owner.seat, [s.port for s in self.servers],
                      1 - owner.home, tab=1)
            tab.keeper = asyncio.get_running_loop().create_task(tab.keep())
            self.extra_tabs.append(tab)
            self.faults.append(f"{t} second tab on {owner.table.code} seat {owner.seat}")

    def redis_ready(self) -> None:
        import redis as redis_lib

        end = time.monotonic() + 20
        while time.monotonic() < end:
            try:
                client = redis_lib.Redis.from_url(self.b.redis_url, socket_timeout=1)
                client.ping()
                client.close()
                return
            except Exception:  # noqa: BLE001 - not up yet: ask again
                time.sleep(0.2)
        raise RuntimeError("redis did not come back")

    async def injector(self, end: float) -> None:
        kinds = ["kill_asgi", "kill_worker", "restart_redis", "drop_sockets", "second_tab"]
        i = 0
        while True:
            await asyncio.sleep(self.rng.uniform(20, 40))
            if time.perf_counter() > end - 10:
                return
            await self.fault(kinds[i % len(kinds)])
            i += 1

    # --- players -------------------------------------------------------------------------

    async def act(self, tab: Tab, kind: str, version: int, fields: dict[str, Any]
                  ) -> dict[str, Any] | None:
        """Send until answered (same action_id each time, at most 4 tries)."""
        action_id = uuid.uuid4().hex
        frame = json.dumps({"type": kind, "action_id": action_id, "expected_version": version,
                            **fields})
        for attempt in range(4):
            # A tab that is reconnecting gets up to 10 s before this try counts.
            for _ in range(50):
                if tab.alive and tab.version >= 0:
                    break
                await asyncio.sleep(0.2)
            else:
                continue
            fut = asyncio.get_running_loop().create_future()
            tab.replies[action_id] = fut
            try:
                await tab.ws.send(frame)
                if attempt == 0 and self.rng.random() < 0.05:
                    await tab.ws.send(frame)  # a double click: acknowledged once, applied once
                    tab.resyncs_expected += 1
                reply = await asyncio.wait_for(fut, ACK_TIMEOUT)
            except Exception:  # noqa: BLE001 - closed or unanswered: resend the same id
                tab.replies.pop(action_id, None)
                self.resent += 1
                continue
            if reply["type"] == "ack":
                key = f"{tab.table.room_id}:{tab.table.user_ids[tab.seat]}:{action_id}"
                self.acked[key] = reply["version"]
                if reply.get("duplicate"):
                    tab.resyncs_expected += 1
            return reply
        self.unanswered += 1
        return None

    async def table(self, tabs: list[Tab], start: float, end: float, rng: random.Random
                    ) -> None:
        interval = 1.0 / self.args.rate
        tick = start + rng.random() * interval
        while tick < end:
            now = time.perf_counter()
            if tick > now:
                await asyncio.sleep(tick - now)
            scheduled, tick = tick, tick + interval
            if not all(t.alive for t in tabs):
                continue
            version = max(t.version for t in tabs)
            if version < 0:
                continue  # all four just reconnected: no view yet
            if not all([await t.wait_version(version, SYNC_WAIT) for t in tabs]):
                for t in tabs:
                    if t.version < version:
                        await t.sync()
                continue
            views = [t.view for t in tabs]
            if views[0]["phase"] == "REVEAL":
                continue
            move = choose(views, rng)  # type: ignore[arg-type]
            if move is None:
                continue
            seat, kind, fields = move
            reply = await self.act(tabs[seat], kind, version, fields)
            if reply is None:
                continue
            if reply["type"] == "error":
                if reply.get("code") == "STALE_VERSION":
                    self.stale += 1
                    tabs[seat].resyncs_expected += 1
                elif kind != "call_buob":
                    self.errors.append(f"{tabs[0].table.code} {kind}: {reply.get('code')}")
                continue
            self.actions += 1
            acked = reply["version"]
            if all([await t.wait_version(acked, SYNC_WAIT) for t in tabs]):
                for t in tabs:
                    arrived = t.arrival_at_least(acked)
                    if arrived is not None:
                        self.latencies.append(max(0.0, arrived - scheduled))
            else:
                # The update never came (a lost broadcast or group): ask for the view.
                for t in tabs:
                    if t.version < acked:
                        await t.sync()

    # --- the run -------------------------------------------------------------------------

    async def run(self, tables: list[TableSpec]) -> dict[str, Any]:
        ports = [s.port for s in self.servers]
        for i, t in enumerate(tables):
            for seat in range(4):
                self.tabs.append(Tab(t, seat, ports, (i * 4 + seat) % len(ports)))
        for tab in self.tabs:
            tab.keeper = asyncio.get_running_loop().create_task(tab.keep())
        deadline = time.monotonic() + 60
        while not all(t.alive and t.version >= 0 for t in self.tabs):
            if time.monotonic() > deadline:
                raise RuntimeError("the tabs did not all connect")
            await asyncio.sleep(0.2)
        start = time.perf_counter() + 1
        end = start + self.args.duration
        injector = asyncio.get_running_loop().create_task(self.injector(end))
        by_table = [self.tabs[4 * i:4 * i + 4] for i in range(len(tables))]
        await asyncio.wait_for(asyncio.gather(*(
            self.table(ts, start, end, random.Random(self.rng.random())) for ts in by_table)),
            self.args.duration + 120)
        injector.cancel()
        ended_at = time.time()
        # Let the last timers fire, then every tab asks for its view and waits for it.
        await asyncio.sleep(4)
        all_tabs = self.tabs + self.extra_tabs
        settle = time.monotonic() + 30
        while not all(t.alive for t in all_tabs) and time.monotonic() < settle:
            await asyncio.sleep(0.2)
        for t in all_tabs:
            await t.sync()
        await asyncio.sleep(3)
        for t in all_tabs:
            t.stop = True
        return {"ended_at": ended_at}


def final_checks(tables: list[TableSpec], chaos: Chaos, ended_at: float) -> dict[str, Any]:
    from datetime import UTC, datetime, timedelta

    from django.db.models import Count, Max, Q

    from games import services
    from games.models import Room, Round, RoundAction

    out: dict[str, list[str]] = {k: [] for k in (
        "acked_once", "contiguous", "final_views", "replay", "reveal_once", "stalled")}
    # 1. Every acknowledged action is in the log exactly once, at the acknowledged version.
    keys = list(chaos.acked)
    found: dict[str, list[int]] = {}
    for i in range(0, len(keys), 500):
        for key, version in RoundAction.objects.filter(action_id__in=keys[i:i + 500]
                                                       ).values_list("action_id", "version"):
            found.setdefault(key, []).append(version)
    for key, version in chaos.acked.items():
        got = found.get(key, [])
        if len(got) != 1:
            out["acked_once"].append(f"{key}: {len(got)} log entries")
        elif got[0] != version:
            out["acked_once"].append(f"{key}: acked v{version}, logged v{got[0]}")
    end = datetime.fromtimestamp(ended_at, tz=UTC)
    for t in tables:
        room = Room.objects.get(pk=t.room_id)
        # 2. Versions contiguous: one log entry per version, 1..room.version.
        versions = list(RoundAction.objects.filter(room=room).order_by("version")
                        .values_list("version", flat=True))
        if versions != list(range(1, room.version + 1)):
            out["contiguous"].append(f"{t.code}: log versions {len(versions)} entries for "
                                     f"v{room.version}")
        # 5. One END_REVEAL per deal that got past its reveal, none for one still in it.
        for rnd in Round.objects.filter(match__room=room).annotate(
                reveals=Count("actions", filter=Q(actions__kind="end_reveal"))):
            expected = 0 if rnd.phase in ("DEALING", "REVEAL") else 1
            if rnd.reveals != expected:
                out["reveal_once"].append(f"{t.code} deal {rnd.number}: {rnd.reveals} "
                                          f"END_REVEAL in phase {rnd.phase}")
        # 6. Not stalled: moved in the last minute of play, no deadline long overdue.
        last = RoundAction.objects.filter(room=room).aggregate(m=Max("created"))["m"]
        if last is None or last < end - timedelta(seconds=STALL_WINDOW):
            out["stalled"].append(f"{t.code}: last action {last}")
        overdue = Round.objects.filter(match__room=room, deadline__lt=datetime.now(tz=UTC)
                                       - timedelta(seconds=10))
        if overdue.exists():
            out["stalled"].append(f"{t.code}: a deadline overdue by more than 10 s")
        # 3. Each tab's final view is the server's view of its seat.
        snap = services.table_snapshot(t.code)
        for tab in [x for x in chaos.tabs + chaos.extra_tabs if x.table.code == t.code]:
            if tab.version != snap.version or tab.view is None:
                out["final_views"].append(f"{t.code} seat {tab.seat} tab {tab.tab}: at "
                                          f"v{tab.version}, server v{snap.version}")
            elif strip_room(tab.view) != strip_room(json.loads(json.dumps(
                    snap.view_for(tab.seat)))):
                out["final_views"].append(f"{t.code} seat {tab.seat}: view differs")
    # 4 and 7: replay every table's log; scan every frame every tab received.
    frames = check_frames(tables, chaos.tabs + chaos.extra_tabs, compare_final=False)
    out["replay"] = frames["problems"]
    out["hidden"] = frames["leaks"]
    return {"frames_scanned": frames["frames_scanned"], **out}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--duration", type=float, default=300)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--rate", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=4711)
    p.add_argument("--json", default="")
    args = p.parse_args(argv)
    args.duration = min(args.duration, 1800)
    install_signal_handlers()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                              "tables": args.tables, "duration_s": args.duration,
                              "loadavg_before": loadavg()}
    redis_procs = Procs()
    procs = Procs()
    import tempfile

    redis_dir = Path(tempfile.mkdtemp(prefix="troccas-chaos-redis-"))
    try:
        port = free_port()
        redis = redis_procs.start("redis", [
            "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--dir", str(redis_dir), "--daemonize", "no"],
            dict(__import__("os").environ), redis_dir / "redis.log")
        redis.wait_for_output("Ready to accept connections", 20)
        with backend("distributed", redis_url=f"redis://127.0.0.1:{port}/0",
                     extra_env={"DB_POOL": "1"}) as b:  # as docker-compose deploys it
            tables = make_tables(args.tables, "chaos")
            chaos = Chaos(args, procs, b, redis)
            ports = [free_port(), free_port()]
            chaos.servers = [start_server(procs, b, i + 1, [], port=ports[i])
                             for i in range(2)]
            chaos.worker = start_worker(procs, b)
            start_beat(procs, b)
            try:
                import uvloop

                runner = uvloop.run
            except ImportError:  # pragma: no cover
                runner = asyncio.run
            result = runner(_run(chaos, tables))
            report["loadavg_end"] = loadavg()
            checks = final_checks(tables, chaos, result["ended_at"])
            procs.stop_all()
            tabs = chaos.tabs + chaos.extra_tabs
            report.update({
                "faults": chaos.faults, "actions": chaos.actions,
                "acked_actions": len(chaos.acked),
                "p50_ms": round(percentile(chaos.latencies, 50) * 1000, 1),
                "p99_ms": round(percentile(chaos.latencies, 99) * 1000, 1),
                "resent": chaos.resent, "unanswered": chaos.unanswered,
                "stale_refusals": chaos.stale, "errors": chaos.errors[:10],
                "error_count": len(chaos.errors),
                "reconnects": sum(t.reconnects for t in tabs) - len(tabs),
                "gap_resyncs": sum(t.syncs for t in tabs),
                "versions_missed_then_resynced": sum(t.gaps for t in tabs),
                "repeated_frames": sum(t.repeats for t in tabs),
                "frames_scanned": checks.pop("frames_scanned"),
                "checks": {k: {"ok": not v, "problems": len(v), "examples": v[:5]}
                           for k, v in checks.items()},
            })
    finally:
        procs.stop_all()
        redis_procs.stop_all()
        for f in sorted(redis_dir.rglob("*"), reverse=True):
            f.unlink() if f.is_file() else f.rmdir()
        redis_dir.rmdir()
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str))
    ok = all(c["ok"] for c in report["checks"].values()) and not report["error_count"]
    return 0 if ok else 1


async def _run(chaos: Chaos, tables: list[TableSpec]) -> dict[str, Any]:
    try:
        return await chaos.run(tables)
    finally:
        for t in chaos.tabs + chaos.extra_tabs:
            t.stop = True
            if t.keeper is not None:
                t.keeper.cancel()
        await asyncio.gather(*(t.close() for t in chaos.tabs + chaos.extra_tabs),
                             return_exceptions=True)


def print_report(r: dict[str, Any]) -> None:
    print(f"== chaos {r['date']}: {r['tables']} tables on 2 ASGI processes for "
          f"{r['duration_s']} s; load average before {r['loadavg_before']}, end "
          f"{r.get('loadavg_end')}")
    if "checks" not in r:
        return
    for f in r["faults"]:
        print(f"  fault {f}")
    print(f"actions {r['actions']} ({r['acked_actions']} acknowledged ids)  p50 {r['p50_ms']} "
          f"ms  p99 {r['p99_ms']} ms  resent {r['resent']}  unanswered {r['unanswered']}  "
          f"stale {r['stale_refusals']}  errors {r['error_count']}  reconnects "
          f"{r['reconnects']}  gap resyncs {r['gap_resyncs']} (versions missed "
          f"{r['versions_missed_then_resynced']})  repeated frames {r['repeated_frames']}")
    names = {"acked_once": "every acknowledged action logged exactly once",
             "contiguous": "versions contiguous", "final_views": "final views = server views",
             "replay": "replayed logs reproduce the stored states",
             "reveal_once": "every reveal window closed exactly once",
             "stalled": "no table stalled",
             "hidden": f"no hidden card in {r['frames_scanned']} frames"}
    for key, c in r["checks"].items():
        print(f"  [{'ok' if c['ok'] else 'FAIL'}] {names.get(key, key)}"
              + ("" if c["ok"] else f": {c['problems']} e.g. {c['examples'][:3]}"))
    for e in r["errors"][:5]:
        print(f"  error: {e}")


if __name__ == "__main__":
    sys.exit(main())
