"""Tables that bots play for ever (issue #25 item 1): what rooms with unlimited deals cost once
every person has left them.

    python bench/idle_tables.py [--tables 4] [--seconds 60] [--settle 0] [--json FILE]

One embedded-mode uvicorn on a temporary SQLite file (bench/ws_load.py's machinery: every
process it starts is killed at the end, whatever happens). `--tables` rooms of four people,
unlimited deals (match_deals 0), a 2 s reveal window and a 1 s stand-in grace period, the first
deal started. Every person opens a socket at their table and closes it again: the rooms are
empty. A bystander keeps one socket open at a room of its own (so the server's bot pool runs,
as on a site where someone is playing). After the grace period, for `--seconds`: the deals
started and the actions logged in the empty rooms, the server's CPU (per cent of one core),
and the matches still running at the end (`--settle`: measured that much later). Before
issue #25 item 1 the stand-ins deal on by themselves for ever; after it they finish the deal
they are in and stop, and the idle sweep ends the matches after TROCCAS_IDLE_MATCH_MINUTES.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.ws_load import (  # noqa: E402 - the path above first
    Procs,
    Sock,
    backend,
    connect_all,
    cpu_seconds,
    install_signal_handlers,
    loadavg,
    make_tables,
    start_server,
)

OPTIONS = {"match_deals": 0, "reveal_seconds": 2, "stand_in_seconds": 1, "turn_seconds": 0}


def _counts(room_ids: list[int]) -> tuple[int, int, int]:
    from games.models import MatchStatus, Round, RoundAction

    return (Round.objects.filter(match__room_id__in=room_ids).count(),
            RoundAction.objects.filter(room_id__in=room_ids).count(),
            Round.objects.filter(match__room_id__in=room_ids,
                                 match__status=MatchStatus.RUNNING)
            .values("match_id").distinct().count())


async def measure(port: int, pid: int, tables: list[Any], bystander: Any, seconds: float,
                  settle: float = 0.0) -> dict[str, Any]:
    watcher = Sock(bystander, 0, port)
    await connect_all([watcher])
    people = [Sock(t, seat, port) for t in tables for seat in range(4)]
    problems = await connect_all(people)
    await asyncio.gather(*(s.close() for s in people))
    await asyncio.sleep(3.0 + settle)  # the grace period (1 s), a sweep (2 s), `--settle`
    room_ids = [t.room_id for t in tables]
    deals0, actions0, _ = await asyncio.to_thread(_counts, room_ids)
    cpu0, w0, la0 = cpu_seconds(pid), time.perf_counter(), loadavg()
    await asyncio.sleep(seconds)
    wall = time.perf_counter() - w0
    cpu = cpu_seconds(pid) - cpu0
    deals1, actions1, running = await asyncio.to_thread(_counts, room_ids)
    await watcher.close()
    return {"tables": len(tables), "settle_seconds": settle, "seconds": round(wall, 1),
            "deals_started": deals1 - deals0, "actions_logged": actions1 - actions0,
            "server_cpu_seconds": round(cpu, 1), "server_cpu_percent": round(100 * cpu / wall, 1),
            "matches_running_at_end": running, "loadavg_before": la0,
            "loadavg_after": loadavg(), "problems": problems[:5]}


def run(args: argparse.Namespace) -> dict[str, Any]:
    procs = Procs()
    try:
        with backend("embedded") as b:
            from games import services
            from games.models import Room

            tables = make_tables(args.tables + 1, "idle", OPTIONS)
            bystander, tables = tables[0], tables[1:]
            from accounts.models import User

            for t in [bystander, *tables]:
                owner = User.objects.get(pk=t.user_ids[0])
                room = Room.objects.get(pk=t.room_id)
                out = services.submit(room.code, owner, services.Command(
                    "start_round", "bench-start", room.version, {}))
                assert out.ok, out.code
            server = start_server(procs, b, 1, [])
            return asyncio.run(measure(server.port, server.pid, tables, bystander,
                                       args.seconds, args.settle))
    finally:
        procs.stop_all()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--settle", type=float, default=0.0,
                   help="seconds to wait after the people left before measuring")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args(argv)
    install_signal_handlers()
    signal.alarm(int(args.seconds + args.settle) + 180)  # bounds the run, whatever hangs
    report = run(args)
    print(json.dumps(report, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
