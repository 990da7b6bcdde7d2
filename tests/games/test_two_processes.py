"""Two ASGI processes serve one table (ARCHITECTURE.md "Two modes", issue #4): players on
either server see every move, and when one server dies its players reconnect to the other and
play on from the same version.

Distributed mode on PostgreSQL only: two real uvicorn processes on the test's own database and
a Redis database index of their own (the channel layer they share); the players are real
websocket clients with session cookies made for them in the test database.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from django.test import Client
from websockets.asyncio.client import ClientConnection

from games import services
from tests import personas
from tests.games.procs import (
    BIN,
    Proc,
    dedicated_redis,
    free_port,
    process_env,
    processes,
    requires_distributed_postgres,
)

pytestmark = [requires_distributed_postgres, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(120)]

# Reserved for this module: flushed before and after the test.
REDIS_INDEX = 15
WAIT = 10.0


class Server:
    def __init__(self, proc: Proc, port: int) -> None:
        self.proc = proc
        self.port = port
        self.base = f"http://127.0.0.1:{port}"


def wait_until_serving(server: Server, timeout: float = 60) -> None:
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


@pytest.fixture
def servers(transactional_db: Any, tmp_path: Path) -> Iterator[list[Server]]:
    with dedicated_redis(REDIS_INDEX) as url, processes() as start:
        env = process_env(url)
        out = []
        for n in (1, 2):
            port = free_port()
            proc = start(f"server {n}", [
                str(BIN / "uvicorn"), "troccas_site.asgi:application", "--host", "127.0.0.1",
                "--port", str(port), "--log-level", "warning",
            ], env, tmp_path / f"server{n}.log")
            out.append(Server(proc, port))
        for server in out:
            wait_until_serving(server)
        yield out


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Player:
    """One browser tab: a websocket to one server, every frame it receives kept in order."""

    def __init__(self, name: str, user: Any, cookie: str, code: str) -> None:
        self.name = name
        self.user = user
        self.cookie = cookie
        self.code = code
        self.frames: list[dict[str, Any]] = []
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.server: Server | None = None

    async def connect(self, server: Server) -> dict[str, Any]:
        """Open a socket to `server`; returns the full view it sends first."""
        self.server = server
        start = len(self.frames)
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{server.port}/ws/rooms/{self.code}/?protocol=2",
            origin=f"http://127.0.0.1:{server.port}",
            additional_headers={"Cookie": f"sessionid={self.cookie}"},
            proxy=None, open_timeout=WAIT,
        )
        self.reader = asyncio.create_task(self._read(self.ws))
        return await self.wait_for(lambda f: f["type"] == "state", since=start)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                if frame["type"] == "state" and frame["version"] >= self.version:
                    self.version, self.view = frame["version"], frame["view"]
        except websockets.ConnectionClosed:
            pass

    async def wait_closed(self) -> None:
        assert self.reader is not None
        await asyncio.wait_for(asyncio.shield(self.reader), WAIT)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()

    async def wait_for(self, pred: Callable[[dict[str, Any]], bool], since: int = 0,
                       timeout: float = WAIT) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for frame in self.frames[since:]:
                if pred(frame):
                    return frame
            if loop.time() > end:
                raise AssertionError(f"{self.name}: no matching frame in {self.frames[since:]}")
            await asyncio.sleep(0.02)

    async def send(self, kind: str, **fields: Any) -> int:
        """Send a command at the version this tab shows; returns the acknowledged version."""
        assert self.ws is not None
        action_id = uuid.uuid4().hex
        since = len(self.frames)
        await self.ws.send(json.dumps({"type": kind, "action_id": action_id,
                                       "expected_version": self.version, **fields}))
        reply = await self.wait_for(
            lambda f: f.get("action_id") == action_id and f["type"] in ("ack", "error"), since)
        assert reply["type"] == "ack" and not reply["duplicate"], (self.name, kind, reply)
        return reply["version"]

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "error"]


async def everyone_sees(players: list[Player], version: int) -> None:
    """Each tab receives the table at `version` (its own seat's view, from its own server)."""
    await asyncio.gather(*(p.wait_for(lambda f: f["type"] == "state"
                                      and f["version"] == version) for p in players))


async def act(players: list[Player], actor: Player, kind: str, **fields: Any) -> int:
    version = await actor.send(kind, **fields)
    await everyone_sees(players, version)
    return version


async def play(servers: list[Server], players: list[Player]) -> None:
    one, two = servers
    owner, anna, benedetg, curdin = players
    # Owner and anna on server 1, benedetg and curdin on server 2.
    for p, server in zip(players, (one, one, two, two), strict=True):
        await p.connect(server)
    assert len({p.version for p in players}) == 1
    # Moves made on server 2 reach the tabs on server 1, and the other way round.
    await act(players, anna, "take_seat", team="B")
    await act(players, benedetg, "take_seat", team="A")
    await act(players, curdin, "take_seat", team="B")
    assert [p.view["seat"] for p in players] == [0, 1, 2, 3]
    await act(players, owner, "start_round")
    assert owner.view["phase"] == "DEALING" and owner.view["dealer"] == 0
    version = await act(players, owner, "deal_next_pass")
    before = {p.name: p.view for p in (owner, anna)}

    # Server 1 dies mid-deal; its players notice and reconnect to server 2.
    one.proc.kill()
    await asyncio.gather(owner.wait_closed(), anna.wait_closed())
    for p in (owner, anna):
        state = await p.connect(two)
        # The full current view of their own seat, at the very version they last saw.
        assert state["version"] == version, (p.name, state["version"], version)
        for key in ("seat", "phase", "dealer", "hand"):
            assert state["view"][key] == before[p.name][key], (p.name, key)
    # And the table plays on: the next pass reaches all four, now all on server 2.
    after = await act(players, owner, "deal_next_pass")
    assert after == version + 1
    assert all(p.view["phase"] == "DEALING" for p in players)
    assert len(owner.view["hand"]) > len(before["owner"]["hand"])
    assert not [e for p in players for e in p.errors()]


def test_two_servers_share_a_table_and_survive_one_dying(
        servers: list[Server], make_user: Any) -> None:
    names = [p.name for p in personas.SEATED]
    users = [make_user(n) for n in names]
    room = services.create_room(users[0], {"reveal_seconds": 2})
    players = [Player(n, u, session_cookie(u), room.code)
               for n, u in zip(names, users, strict=True)]

    async def scenario() -> None:
        try:
            await play(servers, players)
        finally:
            await asyncio.gather(*(p.close() for p in players), return_exceptions=True)

    asyncio.run(scenario())
