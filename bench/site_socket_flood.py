"""A flood on the site socket (/ws/me/, issue #25 item 3): one account's sockets sending as
fast as they can, and what a bystander's ping round trip does meanwhile.

    python bench/site_socket_flood.py [--sockets 4] [--duration 5] [--reconnect]
                                      [--frame-bytes 15] [--json FILE]

It starts one embedded server (uvicorn on a temporary SQLite file, bench/ws_load.py's harness)
and stops it again whatever happens. The flooder's `--sockets` site sockets send `ping` frames
(padded to `--frame-bytes` if larger than a bare ping) back to back for `--duration` seconds;
with `--reconnect` a socket the server closes opens again at once (an attacker's loop). A
second account's site socket pings every 200 ms throughout, first for 2 s alone (the baseline),
then during the flood.

Prints: frames sent, frames accepted (answered with `pong`), the error frames by code, the
close codes, the sockets reconnected, the bystander's ping round trip (p50/p99/max) before
and during the flood, and the server's CPU seconds during the flood. Localhost only; the
machine is shared, so the figures are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import multiprocessing
import sys
import time
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

BASELINE = 2.0
# Within the flood bucket of its own socket (10 frames a second, games/live/flood.py).
BYSTANDER_EVERY = 0.2
PING_TIMEOUT = 5.0


def ping_frame(size: int) -> str:
    bare = json.dumps({"type": "ping"})
    if size <= len(bare):
        return bare
    pad = size - len(json.dumps({"type": "ping", "pad": ""}))
    return json.dumps({"type": "ping", "pad": "x" * pad})


async def open_site(port: int, cookie: str) -> Any:
    import websockets

    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/me/", origin=f"http://127.0.0.1:{port}",
        additional_headers={"Cookie": f"sessionid={cookie}"}, proxy=None, open_timeout=20,
        max_queue=None)


class Flood:
    def __init__(self) -> None:
        self.sent = 0
        self.accepted = 0
        self.errors: Counter[str] = Counter()
        self.closes: Counter[int] = Counter()
        self.reconnects = 0


async def flooder(port: int, cookie: str, frame: str, end: float, reconnect: bool,
                  stats: Flood) -> None:
    import websockets

    first = True
    while time.monotonic() < end and (first or reconnect):
        if not first:
            stats.reconnects += 1
        first = False
        try:
            ws = await open_site(port, cookie)
        except Exception:  # noqa: BLE001 - refused (e.g. too many sockets): try again
            await asyncio.sleep(0.01)
            continue

        async def read(ws: Any = ws) -> None:
            with suppress(websockets.ConnectionClosed):
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("type") == "pong":
                        stats.accepted += 1
                    elif msg.get("type") == "error":
                        stats.errors[msg.get("code", "?")] += 1

        reader = asyncio.create_task(read())
        try:
            while time.monotonic() < end:
                await ws.send(frame)
                stats.sent += 1
                if stats.sent % 64 == 0:
                    await asyncio.sleep(0)  # let the reader and the bystander run
        except websockets.ConnectionClosed:
            pass
        with suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)
        with suppress(Exception):
            await asyncio.wait_for(reader, 2)
        code = ws.close_code
        if code is not None:
            stats.closes[code] += 1


async def bystander(port: int, cookie: str, end: float, samples: list[tuple[float, float]],
                    lost: list[float]) -> None:
    """Pings every BYSTANDER_EVERY s; a ping unanswered within PING_TIMEOUT is `lost`."""
    ws = await open_site(port, cookie)
    try:
        await asyncio.wait_for(ws.recv(), 10)  # the first `notices`
        while time.monotonic() < end:
            start = time.perf_counter()
            await ws.send(json.dumps({"type": "ping"}))
            try:
                while json.loads(await asyncio.wait_for(ws.recv(), PING_TIMEOUT)
                                 ).get("type") != "pong":
                    pass
            except TimeoutError:
                lost.append(time.monotonic())
                continue
            samples.append((time.monotonic(), (time.perf_counter() - start) * 1000))
            await asyncio.sleep(BYSTANDER_EVERY)
    finally:
        await ws.close()


def flood_process(port: int, cookie: str, frame: str, sockets: int, duration: float,
                  reconnect: bool) -> dict[str, Any]:
    async def go() -> Flood:
        stats = Flood()
        end = time.monotonic() + duration
        await asyncio.gather(*(flooder(port, cookie, frame, end, reconnect, stats)
                               for _ in range(sockets)))
        return stats

    return dict(asyncio.run(go()).__dict__)


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50_ms": round(percentile(values, 50), 2),
            "p99_ms": round(percentile(values, 99), 2),
            "max_ms": round(max(values, default=0.0), 2)}


async def run_async(args: argparse.Namespace, port: int, cookies: list[str], pid: int
                    ) -> dict[str, Any]:
    samples: list[tuple[float, float]] = []
    lost: list[float] = []
    start = time.monotonic()
    flood_at = start + BASELINE
    end = flood_at + args.duration
    watcher = asyncio.create_task(bystander(port, cookies[1], end, samples, lost))
    await asyncio.sleep(max(0.0, flood_at - time.monotonic()))
    cpu0 = cpu_seconds(pid)
    frame = ping_frame(args.frame_bytes)
    # The flooder in a process of its own, so that its sending loop never delays the
    # bystander's reads on this side.
    with concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn")) as pool:
        got = await asyncio.get_running_loop().run_in_executor(
            pool, flood_process, port, cookies[0], frame, args.sockets, args.duration,
            args.reconnect)
    cpu = cpu_seconds(pid) - cpu0
    await watcher
    stats = Flood()
    stats.__dict__.update(got)
    return {
        "sockets": args.sockets, "duration_s": args.duration, "frame_bytes": len(frame),
        "reconnect": args.reconnect, "sent": stats.sent, "accepted": stats.accepted,
        "errors": dict(stats.errors), "closes": dict(stats.closes),
        "reconnects": stats.reconnects, "server_cpu_s": round(cpu, 2),
        "bystander_before": summary([ms for t, ms in samples if t < flood_at]),
        "bystander_during": summary([ms for t, ms in samples if t >= flood_at]),
        "bystander_lost": len(lost),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    procs = Procs()
    try:
        with backend("embedded") as b:
            table = make_tables(1, "flood")[0]
            server = start_server(procs, b, 1, [])
            report = asyncio.run(run_async(args, server.port, table.cookies, server.pid))
            report["server_alive"] = server.proc.alive()
            report["loadavg"] = loadavg()
            return report
    finally:
        procs.stop_all()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sockets", type=int, default=4)
    p.add_argument("--duration", type=float, default=5.0)
    p.add_argument("--reconnect", action="store_true")
    p.add_argument("--frame-bytes", type=int, default=15)
    p.add_argument("--json", default="")
    args = p.parse_args(argv)
    r = run(args)
    before, during = r["bystander_before"], r["bystander_during"]
    print(f"site socket flood: {r['sockets']} sockets x {r['duration_s']} s, "
          f"{r['frame_bytes']}-byte frames, reconnect={r['reconnect']}")
    print(f"  frames sent {r['sent']}, accepted (pong) {r['accepted']}, errors {r['errors']}, "
          f"closes {r['closes']}, reconnects {r['reconnects']}")
    print(f"  bystander ping: before p50 {before['p50_ms']} ms p99 {before['p99_ms']} ms "
          f"(n={before['n']}); during p50 {during['p50_ms']} ms p99 {during['p99_ms']} ms "
          f"max {during['max_ms']} ms (n={during['n']}), unanswered within "
          f"{PING_TIMEOUT} s: {r['bystander_lost']}")
    print(f"  server CPU during the flood {r['server_cpu_s']} s; alive {r['server_alive']}; "
          f"load {r['loadavg']}")
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
