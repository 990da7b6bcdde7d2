"""A mute storm (issue #25 item 5): one player mutes and unmutes as fast as the server answers,
from its four table sockets in turn (16 in flight; `--rate` paces them), while a player at
another table sends lobby commands.

    python bench/mute_storm.py [--duration 10] [--talk 50] [--rate 0] [--json FILE]

It starts one embedded server (uvicorn on a temporary SQLite file, bench/ws_load.py's harness)
and stops it again whatever happens. Table 1 holds the muter's four sockets and `--talk`
stored messages (so a socket that re-reads its talk history reads something); table 2 the
bystander, its owner, who toggles `allow_spectators` (a lobby command: lock, write, broadcast)
every 100 ms and times each until its `ack`, first for 3 s alone (the baseline), then during
the storm.

Prints: mutes sent, accepted (`talk_ack`) and refused (by code), the `talk_history` frames the
muter's sockets received (each one a re-read of the talk history from the database before
issue #25 item 5), and the bystander's lobby command latency (p50/p99/max) before and during.
Localhost only; the machine is shared, so the figures are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from collections import Counter
from contextlib import suppress
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ws_load import (  # the harness beside this file
    Procs,
    backend,
    cpu_seconds,
    loadavg,
    make_tables,
    percentile,
    start_server,
)

BASELINE = 3.0
BYSTANDER_EVERY = 0.1
ANSWER_TIMEOUT = 10.0
IN_FLIGHT = 16
MUTE_TIMEOUT = 2.0


class Tab:
    """One table socket: every frame counted by type; replies matched by action_id."""

    def __init__(self) -> None:
        self.ws: Any = None
        self.types: Counter[str] = Counter()
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.version = -1
        self.reader: asyncio.Task[None] | None = None

    async def open(self, port: int, code: str, cookie: str) -> None:
        import websockets

        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/ws/rooms/{code}/?protocol=2",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={cookie}"}, proxy=None,
            open_timeout=20, max_queue=None)
        self.reader = asyncio.create_task(self._read())
        while self.version < 0:
            await asyncio.sleep(0.01)

    async def _read(self) -> None:
        import websockets

        with suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                msg = json.loads(raw)
                kind = msg.get("type", "?")
                self.types[kind] += 1
                if kind == "state":
                    self.version = max(self.version, msg["version"])
                fut = self.replies.pop(msg.get("action_id") or "", None)
                if fut is not None and not fut.done():
                    fut.set_result(msg)

    async def ask(self, kind: str, timeout: float = ANSWER_TIMEOUT, **fields: Any
                  ) -> dict[str, Any]:
        action_id = uuid.uuid4().hex
        fut = asyncio.get_running_loop().create_future()
        self.replies[action_id] = fut
        await self.ws.send(json.dumps({"type": kind, "action_id": action_id,
                                       "expected_version": self.version, **fields}))
        return await asyncio.wait_for(fut, timeout)

    async def close(self) -> None:
        with suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 5)


def seed_talk(room_id: int, authors: list[int], n: int) -> None:
    from django.utils import timezone

    from games.models import Room, TalkAudience, TalkMessage

    room = Room.objects.get(pk=room_id)
    TalkMessage.objects.bulk_create([
        TalkMessage(room=room, match=room.current_match, audience=TalkAudience.TABLE,
                    author_id=authors[i % len(authors)], seat=i % len(authors),
                    text=f"message {i}", version=room.version, created=timezone.now())
        for i in range(n)])


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50_ms": round(percentile(values, 50), 2),
            "p99_ms": round(percentile(values, 99), 2),
            "max_ms": round(max(values, default=0.0), 2)}


async def run_async(args: argparse.Namespace, port: int, tables: list[Any], pid: int
                    ) -> dict[str, Any]:
    storm_table, quiet_table = tables
    muter = [Tab() for _ in range(4)]
    for tab in muter:
        await tab.open(port, storm_table.code, storm_table.cookies[1])
    owner = Tab()
    await owner.open(port, quiet_table.code, quiet_table.cookies[0])
    samples: list[tuple[float, float]] = []
    start = time.monotonic()
    storm_at = start + BASELINE
    end = storm_at + args.duration

    async def bystander() -> None:
        allow = False
        while time.monotonic() < end:
            allow = not allow
            t0 = time.perf_counter()
            reply = await owner.ask("set_options", allow_spectators=allow)
            if reply["type"] == "ack":
                samples.append((time.monotonic(), (time.perf_counter() - t0) * 1000))
                owner.version = max(owner.version, reply["version"])
            await asyncio.sleep(BYSTANDER_EVERY)

    watcher = asyncio.create_task(bystander())
    await asyncio.sleep(max(0.0, storm_at - time.monotonic()))
    history_before = sum(t.types["talk_history"] for t in muter)
    cpu0 = cpu_seconds(pid)
    sent, answers = 0, Counter[str]()
    targets = [u for i, u in enumerate(storm_table.user_ids) if i != 1]
    # IN_FLIGHT mutes at a time: a client that does not wait for each answer.
    gate = asyncio.Semaphore(IN_FLIGHT)

    closed: set[int] = set()

    async def one(tab: int, target: int, muted: bool) -> None:
        import websockets

        try:
            reply = await muter[tab].ask("mute", MUTE_TIMEOUT, player=target, muted=muted)
            answers[reply["type"] if reply["type"] == "talk_ack"
                    else reply.get("code", "?")] += 1
        except TimeoutError:
            # The table socket's flood bucket drops a frame beyond 10 a second unanswered.
            answers["(dropped unanswered)"] += 1
        except (websockets.ConnectionClosed, ConnectionError):
            answers["(socket closed)"] += 1
            closed.add(tab)
        finally:
            gate.release()

    pending = []
    while time.monotonic() < end and len(closed) < len(muter):
        await gate.acquire()
        target = targets[sent % len(targets)]
        # From the muter's sockets in turn at --rate mutes a second (0: as fast as answered),
        # skipping those closed for flooding.
        tab = next(i for i in range(len(muter)) if i not in closed) if closed else sent % 4
        if args.rate:
            await asyncio.sleep(1 / args.rate)
        pending.append(asyncio.create_task(one(tab, target, (sent // len(targets)) % 2 == 0)))
        sent += 1
    await asyncio.gather(*pending)
    cpu = cpu_seconds(pid) - cpu0
    await watcher
    await asyncio.sleep(0.5)  # the last refilter frames
    history = sum(t.types["talk_history"] for t in muter) - history_before
    for tab in (*muter, owner):
        await tab.close()
    return {
        "duration_s": args.duration, "talk_rows": args.talk, "mutes_sent": sent,
        "answers": dict(answers), "talk_history_frames": history,
        "muter_sockets_closed": len(closed),
        "server_cpu_s": round(cpu, 2),
        "lobby_before": summary([ms for t, ms in samples if t < storm_at]),
        "lobby_during": summary([ms for t, ms in samples if t >= storm_at]),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    procs = Procs()
    try:
        with backend("embedded") as b:
            tables = make_tables(2, "storm")
            seed_talk(tables[0].room_id, tables[0].user_ids, args.talk)
            server = start_server(procs, b, 1, [])
            report = asyncio.run(run_async(args, server.port, tables, server.pid))
            report["server_alive"] = server.proc.alive()
            report["loadavg"] = loadavg()
            return report
    finally:
        procs.stop_all()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--duration", type=float, default=10.0)
    p.add_argument("--talk", type=int, default=50)
    p.add_argument("--rate", type=float, default=0.0)
    p.add_argument("--json", default="")
    args = p.parse_args(argv)
    r = run(args)
    before, during = r["lobby_before"], r["lobby_during"]
    print(f"mute storm: {r['duration_s']} s, {r['talk_rows']} talk rows at the muter's table")
    print(f"  mutes sent {r['mutes_sent']}, answers {r['answers']}, talk_history frames on the "
          f"muter's 4 sockets {r['talk_history_frames']}, muter's sockets closed "
          f"{r['muter_sockets_closed']}")
    print(f"  bystander's lobby command: before p50 {before['p50_ms']} ms p99 "
          f"{before['p99_ms']} ms (n={before['n']}); during p50 {during['p50_ms']} ms p99 "
          f"{during['p99_ms']} ms max {during['max_ms']} ms (n={during['n']})")
    print(f"  server CPU during the storm {r['server_cpu_s']} s; alive {r['server_alive']}; "
          f"load {r['loadavg']}")
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
